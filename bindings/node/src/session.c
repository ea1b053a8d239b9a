/*
 * session.c: a session's and a relay's calls besides reading (reader.c
 * reads): what the endpoint wrote (sessionSent; a relay's relayWrote, in a
 * direction), what to do when the SDK's own decoder refused a line handed
 * on (sessionRefused, relayRefused), and how many requests are
 * outstanding; and the library's word on directions: where the text of a
 * line with an action goes (actionGoes), which direction an endpoint reads
 * (directionReadBy). Every decision is the library's.
 */

#include <string.h>

#include "addon.h"

/* The handle and the line of a (handle, line) call. */
static bool session_line_args(napi_env env, napi_callback_info info, JsonRpcSession **session, Input *line) {
    napi_value argv[2];
    State *state = NULL;
    if (!callback_args(env, info, 2, argv, &state)) {
        return false;
    }
    *session = session_arg(env, argv[0]);
    return *session != NULL && input_bytes(env, state, argv[1], "line", line);
}

/* The handle, the direction and the line of a (handle, direction, line)
 * call. */
static bool relay_line_args(napi_env env, napi_callback_info info, JsonRpcRelay **relay, uint32_t *direction,
                            Input *line) {
    napi_value argv[3];
    State *state = NULL;
    if (!callback_args(env, info, 3, argv, &state)) {
        return false;
    }
    *relay = relay_arg(env, argv[0]);
    return *relay != NULL && direction_arg(env, argv[1], direction) &&
           input_bytes(env, state, argv[2], "line", line);
}

/* A failed sent or wrote: the line was not noted when memory ran out. */
static napi_value noted_status(napi_env env, const char *call, JsonRpcStatus status) {
    if (status == JSONRPC_STATUS_OK) {
        return NULL;
    }
    return throw_status(env, call, status, (JsonRpcStr){NULL, 0},
                        status == JSONRPC_STATUS_OUT_OF_MEMORY ? "the line was not noted" : NULL);
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
    return noted_status(env, "jsonrpc_session_sent", status);
}

/* relayWrote(handle, direction, line) -> undefined */
static napi_value js_relay_wrote(napi_env env, napi_callback_info info) {
    JsonRpcRelay *relay;
    uint32_t direction;
    Input line;
    if (!relay_line_args(env, info, &relay, &direction, &line)) {
        return NULL;
    }
    JsonRpcStatus status = jsonrpc_relay_wrote(relay, direction, line.data, line.len);
    input_release(&line);
    return noted_status(env, "jsonrpc_relay_wrote", status);
}

/* A static text of the library (a name, a note) as a JavaScript string, or
 * null. */
static bool static_text(napi_env env, const char *text, napi_value *result) {
    napi_status status =
        text == NULL ? napi_get_null(env, result) : napi_create_string_utf8(env, text, strlen(text), result);
    return status == napi_ok;
}

/* What a refused call gave: { action, text, note } (frozen): the action's
 * name, its text (null when it has none) and the note. The decision's text
 * is freed, whatever happens. */
static napi_value decision_value(napi_env env, const char *call, JsonRpcStatus status, JsonRpcDecision *decision) {
    if (status != JSONRPC_STATUS_OK) {
        jsonrpc_string_free(&decision->text);
        return throw_status(env, call, status, (JsonRpcStr){NULL, 0}, NULL);
    }
    napi_value result, action, note;
    napi_value text = owned_string_value(env, &decision->text); /* frees it, whatever happens next */
    if (text == NULL) {
        return NULL;
    }
    if (!static_text(env, jsonrpc_action_name(decision->action), &action) || !static_text(env, decision->note, &note)) {
        return throw_last_error(env);
    }
    NAPI_OK(napi_create_object(env, &result));
    NAPI_OK(napi_set_named_property(env, result, "action", action));
    NAPI_OK(napi_set_named_property(env, result, "text", text));
    NAPI_OK(napi_set_named_property(env, result, "note", note));
    NAPI_OK(napi_object_freeze(env, result));
    return result;
}

/* sessionRefused(handle, line) -> { action, text, note } */
static napi_value js_session_refused(napi_env env, napi_callback_info info) {
    JsonRpcSession *session;
    Input line;
    if (!session_line_args(env, info, &session, &line)) {
        return NULL;
    }
    JsonRpcDecision decision;
    JsonRpcStatus status = jsonrpc_session_refused(session, line.data, line.len, &decision);
    input_release(&line);
    return decision_value(env, "jsonrpc_session_refused", status, &decision);
}

/* relayRefused(handle, direction, line) -> { action, text, note } */
static napi_value js_relay_refused(napi_env env, napi_callback_info info) {
    JsonRpcRelay *relay;
    uint32_t direction;
    Input line;
    if (!relay_line_args(env, info, &relay, &direction, &line)) {
        return NULL;
    }
    JsonRpcDecision decision;
    JsonRpcStatus status = jsonrpc_relay_refused(relay, direction, line.data, line.len, &decision);
    input_release(&line);
    return decision_value(env, "jsonrpc_relay_refused", status, &decision);
}

static napi_value count_value(napi_env env, size_t count) {
    napi_value value;
    NAPI_OK(napi_create_double(env, (double)count, &value));
    return value;
}

/* sessionOutstanding(handle) -> number */
static napi_value js_session_outstanding(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    if (!callback_args(env, info, 1, argv, NULL)) {
        return NULL;
    }
    JsonRpcSession *session = session_arg(env, argv[0]);
    return session == NULL ? NULL : count_value(env, jsonrpc_session_outstanding(session));
}

/* relayOutstanding(handle, direction) -> number */
static napi_value js_relay_outstanding(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    uint32_t direction;
    if (!callback_args(env, info, 2, argv, NULL)) {
        return NULL;
    }
    JsonRpcRelay *relay = relay_arg(env, argv[0]);
    if (relay == NULL || !direction_arg(env, argv[1], &direction)) {
        return NULL;
    }
    return count_value(env, jsonrpc_relay_outstanding(relay, direction));
}

/* A direction the library returned (0: none) as its name, or null. */
static napi_value direction_value(napi_env env, uint32_t direction) {
    napi_value result;
    if (!static_text(env, direction == 0 ? NULL : jsonrpc_direction_name(direction), &result)) {
        return throw_last_error(env);
    }
    return result;
}

/* actionGoes(action, direction) -> direction | null */
static napi_value js_action_goes(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    uint32_t action, direction;
    if (!callback_args(env, info, 2, argv, NULL) || !action_arg(env, argv[0], &action) ||
        !direction_arg(env, argv[1], &direction)) {
        return NULL;
    }
    return direction_value(env, jsonrpc_action_goes(action, direction));
}

/* directionReadBy(role) -> direction */
static napi_value js_direction_read_by(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    uint32_t role;
    if (!callback_args(env, info, 1, argv, NULL) || !role_arg(env, argv[0], &role)) {
        return NULL;
    }
    return direction_value(env, jsonrpc_direction_read_by(role));
}

const ExportedFunction SESSION_FUNCTIONS[] = {
    {"sessionSent", js_session_sent},
    {"sessionRefused", js_session_refused},
    {"sessionOutstanding", js_session_outstanding},
    {"relayWrote", js_relay_wrote},
    {"relayRefused", js_relay_refused},
    {"relayOutstanding", js_relay_outstanding},
    {"actionGoes", js_action_goes},
    {"directionReadBy", js_direction_read_by},
    {NULL, NULL},
};
