/*
 * line.c: the calls on one line: classify, invalidReply, logValue. Roles
 * and profiles arrive as the library's names for them (arguments.c reads
 * them); the results go back as convert.c makes them.
 */

#include "addon.h"

/* A callback's `count` arguments, of which the first is bytes (named
 * `what` in errors), read into `input`; its state too. */
static bool bytes_args(napi_env env, napi_callback_info info, size_t count, napi_value *argv, const char *what,
                       State **state, Input *input) {
    return callback_args(env, info, count, argv, state) && input_bytes(env, *state, argv[0], what, input);
}

/* ---- classify(line, profile?) -> texts -----------------------------------
 * Writes the line's classification into the state's record (the `record`
 * export) and returns its strings as one string, or undefined when it has
 * none (see classification_value). */

static napi_value js_classify(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    State *state = NULL;
    Input line;
    uint32_t profile;
    if (!bytes_args(env, info, 2, argv, "line", &state, &line)) {
        return NULL;
    }
    if (!profile_arg(env, argv[1], &profile)) {
        input_release(&line);
        return NULL;
    }
    JsonRpcClassification c;
    JsonRpcStatus status =
        jsonrpc_classify_into(line.data, line.len, profile, &c, state->scratch, sizeof state->scratch);
    input_release(&line);
    if (status != JSONRPC_STATUS_OK || c.kind == JSONRPC_KIND_NONE) {
        /* The header: kind NONE only when the call failed inside. */
        throw_status(env, "jsonrpc_classify_into", status != JSONRPC_STATUS_OK ? status : JSONRPC_STATUS_INTERNAL_ERROR,
                     c.reason, NULL);
        jsonrpc_classification_free(&c);
        return NULL;
    }
    napi_value result;
    bool ok = classification_value(env, state, &c, &result);
    jsonrpc_classification_free(&c);
    return ok ? result : NULL;
}

/* ---- invalidReply(line, role, profile?) -> string | null ------------------ */

static napi_value js_invalid_reply(napi_env env, napi_callback_info info) {
    napi_value argv[3];
    State *state = NULL;
    Input line;
    uint32_t role, profile;
    if (!bytes_args(env, info, 3, argv, "line", &state, &line)) {
        return NULL;
    }
    if (!role_arg(env, argv[1], &role) || !profile_arg(env, argv[2], &profile)) {
        input_release(&line);
        return NULL;
    }
    JsonRpcReply reply = jsonrpc_invalid_reply(line.data, line.len, role, profile);
    input_release(&line);
    if (reply.status != JSONRPC_STATUS_OK) {
        jsonrpc_string_free(&reply.text);
        return throw_status(env, "jsonrpc_invalid_reply", reply.status, (JsonRpcStr){NULL, 0}, NULL);
    }
    return owned_string_value(env, &reply.text);
}

/* ---- logValue(bytes) -> string -------------------------------------------- */

static napi_value js_log_value(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    State *state = NULL;
    Input bytes;
    if (!bytes_args(env, info, 1, argv, "bytes", &state, &bytes)) {
        return NULL;
    }
    JsonRpcString text = jsonrpc_log_value(bytes.data, bytes.len);
    input_release(&bytes);
    if (text.ptr == NULL) {
        /* The header: no string only when memory ran out or the library
         * caught a fault. */
        return throw_error(env, "jsonrpc_log_value failed: out of memory or a fault inside the library");
    }
    return owned_string_value(env, &text);
}

const ExportedFunction LINE_FUNCTIONS[] = {
    {"classify", js_classify},
    {"invalidReply", js_invalid_reply},
    {"logValue", js_log_value},
    {NULL, NULL},
};
