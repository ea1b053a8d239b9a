/*
 * arguments.c: a callback's JavaScript arguments as the library's inputs.
 * Bytes (a line, a chunk) as a (pointer, length): a Buffer or Uint8Array is
 * read in place, a string is encoded as UTF-8 (as Buffer.from(string) does:
 * a lone surrogate becomes U+FFFD). A role, a profile, a direction or an
 * action by the library's name for it; a line limit.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addon.h"

/* A string argument this long or shorter is encoded into the state's
 * reused buffer; a longer one gets an allocation of its own, freed after
 * the call, so one huge line does not keep its memory. */
#define REUSED_INPUT_MAX (64 * 1024)

static const char *type_name(napi_valuetype type) {
    switch (type) {
    case napi_undefined: return "undefined";
    case napi_null: return "null";
    case napi_boolean: return "a boolean";
    case napi_number: return "a number";
    case napi_string: return "a string";
    case napi_symbol: return "a symbol";
    case napi_object: return "an object";
    case napi_function: return "a function";
    case napi_external: return "an external";
    case napi_bigint: return "a bigint";
    }
    return "an unknown value";
}

static bool wrong_type(napi_env env, const char *what, const char *got) {
    char message[160];
    snprintf(message, sizeof message, "%s must be a string, a Buffer or a Uint8Array, not %s", what, got);
    throw_type_error(env, message);
    return false;
}

static bool string_bytes(napi_env env, State *state, napi_value value, Input *out) {
    /* A UTF-16 unit never takes more than 3 bytes of UTF-8 (a surrogate
     * pair's two units take 4), so 3 bytes a unit, and the NUL that
     * napi_get_value_string_utf8 writes, always hold the whole string. */
    size_t units = 0;
    if (napi_get_value_string_utf16(env, value, NULL, 0, &units) != napi_ok) {
        throw_last_error(env);
        return false;
    }
    if (units > (SIZE_MAX - 1) / 3) {
        throw_range_error(env, "the string is too long to encode as UTF-8 here");
        return false;
    }
    size_t need = units * 3 + 1;
    uint8_t *buffer;
    if (need > REUSED_INPUT_MAX) {
        /* A long string: its exact length, rather than three times it. */
        size_t exact = 0;
        if (napi_get_value_string_utf8(env, value, NULL, 0, &exact) != napi_ok) {
            throw_last_error(env);
            return false;
        }
        need = exact + 1;
    }
    if (need <= REUSED_INPUT_MAX) {
        if (state->input_cap < need && !buffer_reserve(env, &state->input, &state->input_cap, REUSED_INPUT_MAX)) {
            return false;
        }
        buffer = state->input;
    } else {
        buffer = malloc(need);
        if (buffer == NULL) {
            throw_error(env, "out of memory");
            return false;
        }
        out->allocated = buffer;
    }
    size_t written = 0;
    if (napi_get_value_string_utf8(env, value, (char *)buffer, need, &written) != napi_ok) {
        input_release(out);
        throw_last_error(env);
        return false;
    }
    out->data = buffer;
    out->len = written;
    return true;
}

bool input_bytes(napi_env env, State *state, napi_value value, const char *what, Input *out) {
    out->data = NULL;
    out->len = 0;
    out->allocated = NULL;
    /* A typed array first, in one call (a stream's chunks are Buffers);
     * the call fails, changing nothing, on any other value. */
    napi_typedarray_type array_type;
    size_t length = 0;
    void *data = NULL;
    if (napi_get_typedarray_info(env, value, &array_type, &length, &data, NULL, NULL) == napi_ok) {
        if (array_type != napi_uint8_array) {
            return wrong_type(env, what, "a typed array of another kind");
        }
        /* A detached or empty array may have no data pointer: (NULL, 0)
         * is the library's empty input. */
        out->data = length == 0 ? NULL : data;
        out->len = length;
        return true;
    }
    napi_valuetype type;
    if (napi_typeof(env, value, &type) != napi_ok) {
        throw_last_error(env);
        return false;
    }
    if (type == napi_string) {
        return string_bytes(env, state, value, out);
    }
    return wrong_type(env, what, type == napi_object ? "an object of another kind" : type_name(type));
}

void input_release(Input *input) {
    free(input->allocated);
    input->allocated = NULL;
}

typedef const char *(*NameOf)(uint32_t);

/* An argument that names one of `count` enum values by the library's name
 * for it (`name_of`), as that value; a TypeError when it is no string, a
 * RangeError when it names none: "<what> must be 'a' or 'b'". */
static bool named_arg(napi_env env, napi_value value, const char *what, const uint32_t *values, size_t count,
                      NameOf name_of, uint32_t *out) {
    napi_valuetype type = napi_undefined;
    char name[32];
    size_t len = 0;
    if (napi_typeof(env, value, &type) == napi_ok && type == napi_string &&
        napi_get_value_string_utf8(env, value, name, sizeof name, &len) == napi_ok) {
        for (size_t i = 0; i < count; i++) {
            const char *known = name_of(values[i]);
            if (known != NULL && strlen(known) == len && memcmp(known, name, len) == 0) {
                *out = values[i];
                return true;
            }
        }
    }
    char message[160];
    int at = snprintf(message, sizeof message, "%s must be", what);
    for (size_t i = 0; i < count && at > 0 && (size_t)at < sizeof message; i++) {
        const char *known = name_of(values[i]);
        at += snprintf(message + at, sizeof message - (size_t)at, "%s'%s'", i == 0 ? " " : i + 1 == count ? " or " : ", ",
                       known ? known : "?");
    }
    if (type == napi_string) {
        throw_range_error(env, message);
    } else {
        throw_type_error(env, message);
    }
    return false;
}

bool role_arg(napi_env env, napi_value value, uint32_t *role) {
    static const uint32_t ROLES[] = {JSONRPC_ROLE_SERVER, JSONRPC_ROLE_CLIENT};
    return named_arg(env, value, "role", ROLES, sizeof ROLES / sizeof ROLES[0], jsonrpc_role_name, role);
}

bool profile_arg(napi_env env, napi_value value, uint32_t *profile) {
    static const uint32_t PROFILES[] = {JSONRPC_PROFILE_JSONRPC, JSONRPC_PROFILE_MCP};
    napi_valuetype type = napi_undefined;
    if (napi_typeof(env, value, &type) == napi_ok && type == napi_undefined) {
        *profile = JSONRPC_PROFILE_JSONRPC;
        return true;
    }
    return named_arg(env, value, "profile", PROFILES, sizeof PROFILES / sizeof PROFILES[0], jsonrpc_profile_name,
                     profile);
}

bool direction_arg(napi_env env, napi_value value, uint32_t *direction) {
    static const uint32_t DIRECTIONS[] = {JSONRPC_DIRECTION_TO_SERVER, JSONRPC_DIRECTION_TO_HOST};
    return named_arg(env, value, "direction", DIRECTIONS, sizeof DIRECTIONS / sizeof DIRECTIONS[0],
                     jsonrpc_direction_name, direction);
}

bool action_arg(napi_env env, napi_value value, uint32_t *action) {
    static const uint32_t ACTIONS[] = {JSONRPC_ACTION_FORWARD,   JSONRPC_ACTION_ANSWER, JSONRPC_ACTION_SUBSTITUTE,
                                       JSONRPC_ACTION_ATTRIBUTE, JSONRPC_ACTION_DROP,   JSONRPC_ACTION_DIVERT};
    return named_arg(env, value, "action", ACTIONS, sizeof ACTIONS / sizeof ACTIONS[0], jsonrpc_action_name, action);
}

bool max_line_arg(napi_env env, napi_value value, size_t *max_line) {
    double given = 0;
    napi_valuetype type = napi_undefined;
    if (napi_typeof(env, value, &type) != napi_ok) {
        throw_last_error(env);
        return false;
    }
    if (type != napi_undefined) {
        /* lib/ has checked it; this keeps the conversion below defined. */
        if (type != napi_number || napi_get_value_double(env, value, &given) != napi_ok || !(given >= 0) ||
            given > 9007199254740991.0 || (double)(size_t)given != given) {
            throw_range_error(env, "maxLine must be a whole number of bytes, 0 or more");
            return false;
        }
    }
    *max_line = (size_t)given;
    return true;
}

bool callback_args(napi_env env, napi_callback_info info, size_t count, napi_value *argv, State **state) {
    size_t given = count;
    if (napi_get_cb_info(env, info, &given, argv, NULL, (void **)state) != napi_ok) {
        throw_last_error(env);
        return false;
    }
    return true;
}
