/*
 * session.c: a session's calls besides reading (reader.c reads): what the
 * endpoint wrote (sessionSent), what to do when the SDK's own decoder
 * refused a line the session handed on (sessionRefused), and how many
 * requests are outstanding. Every decision is the library's.
 */

#include <string.h>

#include "addon.h"

/* The session and the line of a (handle, line) call. */
static bool session_line_args(napi_env env, napi_callback_info info, JsonRpcSession **session, Input *line) {
    napi_value argv[2];
    State *state = NULL;
    if (!callback_args(env, info, 2, argv, &state)) {
        return false;
    }
    *session = session_arg(env, argv[0]);
    return *session != NULL && input_bytes(env, state, argv[1], "line", line);
}

/* sessionSent(handle, line) -> undefined */
static napi_value js_session_sent(napi_env env, napi_callback_info info) {
    JsonRpcSession *session;
    Input line;
    if (!session_line_args(env, info, &session, &line)) {
        return NULL;
    }
    JsonRpcStatus status = jsonrpc_session_sent(session, line.data, line.len);
    input_release(&line);
    if (status != JSONRPC_STATUS_OK) {
        return throw_status(env, "jsonrpc_session_sent", status, (JsonRpcStr){NULL, 0},
                            status == JSONRPC_STATUS_OUT_OF_MEMORY ? "the line was not noted" : NULL);
    }
    return NULL;
}

/* A static text of the library (a name, a note) as a JavaScript string, or
 * null. */
static bool static_text(napi_env env, const char *text, napi_value *result) {
    napi_status status =
        text == NULL ? napi_get_null(env, result) : napi_create_string_utf8(env, text, strlen(text), result);
    return status == napi_ok;
}

/* sessionRefused(handle, line) -> { action, text, note } (frozen): the
 * action's name, its text (null when it has none) and the note. */
static napi_value js_session_refused(napi_env env, napi_callback_info info) {
    JsonRpcSession *session;
    Input line;
    if (!session_line_args(env, info, &session, &line)) {
        return NULL;
    }
    JsonRpcDecision decision;
    JsonRpcStatus status = jsonrpc_session_refused(session, line.data, line.len, &decision);
    input_release(&line);
    if (status != JSONRPC_STATUS_OK) {
        jsonrpc_string_free(&decision.text);
        return throw_status(env, "jsonrpc_session_refused", status, (JsonRpcStr){NULL, 0}, NULL);
    }
    napi_value result, action, note;
    napi_value text = owned_string_value(env, &decision.text); /* frees it, whatever happens next */
    if (text == NULL) {
        return NULL;
    }
    if (!static_text(env, jsonrpc_action_name(decision.action), &action) || !static_text(env, decision.note, &note)) {
        return throw_last_error(env);
    }
    NAPI_OK(napi_create_object(env, &result));
    NAPI_OK(napi_set_named_property(env, result, "action", action));
    NAPI_OK(napi_set_named_property(env, result, "text", text));
    NAPI_OK(napi_set_named_property(env, result, "note", note));
    NAPI_OK(napi_object_freeze(env, result));
    return result;
}

/* sessionOutstanding(handle) -> number */
static napi_value js_session_outstanding(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    if (!callback_args(env, info, 1, argv, NULL)) {
        return NULL;
    }
    JsonRpcSession *session = session_arg(env, argv[0]);
    if (session == NULL) {
        return NULL;
    }
    napi_value count;
    NAPI_OK(napi_create_double(env, (double)jsonrpc_session_outstanding(session), &count));
    return count;
}

const ExportedFunction SESSION_FUNCTIONS[] = {
    {"sessionSent", js_session_sent},
    {"sessionRefused", js_session_refused},
    {"sessionOutstanding", js_session_outstanding},
    {NULL, NULL},
};
