/*
 * errors.c: the addon's failures as JavaScript exceptions: a wrong argument
 * (TypeError, RangeError), a failed library call (named with the library's
 * status name; a RangeError for a status that names a bad argument), a
 * failed Node-API call.
 */

#include <stdio.h>

#include "addon.h"

static bool exception_pending(napi_env env) {
    bool pending = false;
    return napi_is_exception_pending(env, &pending) != napi_ok || pending;
}

napi_value throw_type_error(napi_env env, const char *message) {
    if (!exception_pending(env)) {
        napi_throw_type_error(env, NULL, message);
    }
    return NULL;
}

napi_value throw_range_error(napi_env env, const char *message) {
    if (!exception_pending(env)) {
        napi_throw_range_error(env, NULL, message);
    }
    return NULL;
}

napi_value throw_error(napi_env env, const char *message) {
    if (!exception_pending(env)) {
        napi_throw_error(env, NULL, message);
    }
    return NULL;
}

napi_value throw_status(napi_env env, const char *call, JsonRpcStatus status, JsonRpcStr detail,
                        const char *consequence) {
    char message[384];
    const char *name = jsonrpc_status_name(status);
    char unnamed[32];
    if (name == NULL) {
        snprintf(unnamed, sizeof unnamed, "status %u", (unsigned)status);
        name = unnamed;
    }
    int detail_len = detail.ptr == NULL ? 0 : (int)(detail.len > 200 ? 200 : detail.len);
    snprintf(message, sizeof message, "%s failed: %s%s%.*s%s%s%s", call, name, detail_len > 0 ? ": " : "", detail_len,
             detail_len > 0 ? detail.ptr : "", consequence ? " (" : "", consequence ? consequence : "", consequence ? ")" : "");
    /* A bad argument, as the addon's own check of it would say (arguments.c
     * checks roles, profiles and directions before the library sees them). */
    bool bad_argument = status == JSONRPC_STATUS_UNKNOWN_ROLE || status == JSONRPC_STATUS_UNKNOWN_PROFILE ||
                        status == JSONRPC_STATUS_UNKNOWN_DIRECTION;
    return bad_argument ? throw_range_error(env, message) : throw_error(env, message);
}

napi_value throw_last_error(napi_env env) {
    const napi_extended_error_info *info = NULL;
    const char *message = "a Node-API call failed";
    if (napi_get_last_error_info(env, &info) == napi_ok && info != NULL && info->error_message != NULL) {
        message = info->error_message;
    }
    return throw_error(env, message);
}
