/*
 * addon.c: the module's entry point (the ABI check, the exports) and the
 * one-line calls: classify, invalidReply, logValue. The JavaScript in
 * lib/ builds the public API on these. Roles and profiles arrive as the
 * library's names for them (convert.c reads them).
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addon.h"

/* A callback's `count` arguments, of which the first is bytes (named
 * `what` in errors), read into `input`; its state too. */
static bool bytes_args(napi_env env, napi_callback_info info, size_t count, napi_value *argv, const char *what,
                       State **state, Input *input) {
    return callback_args(env, info, count, argv, state) && input_bytes(env, *state, argv[0], what, input);
}

/* ---- classify(line, profile?) -> texts -----------------------------------
 * Writes the line's classification into the state's record (the `record`
 * export) and returns its strings as one string (see texts_value), or
 * undefined when it has none. */

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
    TextsInfo texts = {0, true};
    record_write(state->record, &c, &texts);
    napi_value result;
    bool ok = texts_value(env, state, &c, &texts, &result);
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

/* ---- the module's exports ------------------------------------------------- */

typedef struct Named {
    const char *key; /* the header's enumerator, without its prefix */
    uint32_t value;
} Named;

#define NAMED(prefix, name) {#name, prefix##name}

/* Every value of the header's enums; their names are the library's. */
static const Named KINDS[] = {
    NAMED(JSONRPC_KIND_, EMPTY),        NAMED(JSONRPC_KIND_, PARSE_ERROR),     NAMED(JSONRPC_KIND_, BATCH),
    NAMED(JSONRPC_KIND_, NOT_OBJECT),   NAMED(JSONRPC_KIND_, INVALID_REQUEST), NAMED(JSONRPC_KIND_, REQUEST),
    NAMED(JSONRPC_KIND_, NOTIFICATION), NAMED(JSONRPC_KIND_, RESPONSE),        NAMED(JSONRPC_KIND_, NOT_JSONRPC),
    NAMED(JSONRPC_KIND_, TOO_LONG),     NAMED(JSONRPC_KIND_, INVALID_RESPONSE),
};
static const Named ID_KINDS[] = {
    NAMED(JSONRPC_ID_, ABSENT), NAMED(JSONRPC_ID_, NULL),  NAMED(JSONRPC_ID_, STRING),  NAMED(JSONRPC_ID_, NUMBER),
    NAMED(JSONRPC_ID_, OBJECT), NAMED(JSONRPC_ID_, ARRAY), NAMED(JSONRPC_ID_, BOOLEAN),
};
static const Named ROLE_NAMES[] = {
    NAMED(JSONRPC_ROLE_, SERVER),
    NAMED(JSONRPC_ROLE_, CLIENT),
};
static const Named PROFILE_NAMES[] = {
    NAMED(JSONRPC_PROFILE_, JSONRPC),
    NAMED(JSONRPC_PROFILE_, MCP),
};
static const Named ACTION_NAMES[] = {
    NAMED(JSONRPC_ACTION_, FORWARD),   NAMED(JSONRPC_ACTION_, ANSWER), NAMED(JSONRPC_ACTION_, SUBSTITUTE),
    NAMED(JSONRPC_ACTION_, ATTRIBUTE), NAMED(JSONRPC_ACTION_, DROP),   NAMED(JSONRPC_ACTION_, DIVERT),
};

typedef const char *(*NameOf)(uint32_t);

/* Two frozen views of an enum: `byKey` ({REQUEST: "request", ...}) and
 * `byValue` (an array, the name at each value), with the library's names. */
static napi_value enum_values(napi_env env, const Named *named, size_t count, NameOf name_of, const char *what,
                              napi_value *by_value) {
    napi_value by_key;
    uint32_t top = 0;
    for (size_t i = 0; i < count; i++) {
        top = named[i].value > top ? named[i].value : top;
    }
    NAPI_OK(napi_create_object(env, &by_key));
    NAPI_OK(napi_create_array_with_length(env, top + 1, by_value));
    for (size_t i = 0; i < count; i++) {
        const char *name = name_of(named[i].value);
        if (name == NULL) {
            char message[160];
            snprintf(message, sizeof message, "jsonrpc-envelope: the library has no name for %s %s", what, named[i].key);
            return throw_error(env, message);
        }
        napi_value text;
        NAPI_OK(napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &text));
        NAPI_OK(napi_set_named_property(env, by_key, named[i].key, text));
        NAPI_OK(napi_set_element(env, *by_value, named[i].value, text));
    }
    NAPI_OK(napi_object_freeze(env, by_key));
    NAPI_OK(napi_object_freeze(env, *by_value));
    return by_key;
}

static napi_value layout_value(napi_env env) {
    static const Named SLOTS[] = {
        {"kind", SLOT_KIND},           {"idKind", SLOT_ID_KIND},       {"jsonrpc20", SLOT_JSONRPC_2_0},
        {"hasResult", SLOT_HAS_RESULT}, {"hasError", SLOT_HAS_ERROR},  {"namesNoRequest", SLOT_NAMES_NO_REQUEST},
        {"spans", SLOT_SPANS},         {"texts", SLOT_TEXTS},          {"number", SLOT_NUMBER},
        {"offset", SLOT_OFFSET},       {"length", SLOT_LENGTH},        {"action", SLOT_ACTION},
        {"actionText", SLOT_ACTION_TEXT}, {"note", SLOT_NOTE},         {"width", SLOT_COUNT},
        {"batchLines", BATCH_LINES},   {"batchBase", BATCH_BASE},      {"batchEnd", BATCH_END},
    };
    napi_value layout;
    NAPI_OK(napi_create_object(env, &layout));
    for (size_t i = 0; i < sizeof SLOTS / sizeof SLOTS[0]; i++) {
        napi_value slot;
        NAPI_OK(napi_create_uint32(env, SLOTS[i].value, &slot));
        NAPI_OK(napi_set_named_property(env, layout, SLOTS[i].key, slot));
    }
    NAPI_OK(napi_object_freeze(env, layout));
    return layout;
}

/* A Float64Array over `count` doubles of the state (no finalizer: the
 * memory is the state's, freed with it). */
static napi_value state_numbers(napi_env env, double *numbers, size_t count) {
    napi_value buffer, array;
    NAPI_OK(napi_create_external_arraybuffer(env, numbers, count * sizeof(double), NULL, NULL, &buffer));
    NAPI_OK(napi_create_typedarray(env, napi_float64_array, count, buffer, 0, &array));
    return array;
}

static void state_free(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    State *state = data;
    free(state->input);
    free(state->texts);
    free(state);
}

static bool set(napi_env env, napi_value object, const char *key, napi_value value) {
    return value != NULL && napi_set_named_property(env, object, key, value) == napi_ok;
}

bool set_function(napi_env env, napi_value object, const char *key, napi_callback callback, State *state) {
    napi_value fn;
    return napi_create_function(env, key, NAPI_AUTO_LENGTH, callback, state, &fn) == napi_ok &&
           set(env, object, key, fn);
}

NAPI_MODULE_INIT() {
    if (jsonrpc_abi_version() != JSONRPC_ABI_VERSION) {
        char message[200];
        snprintf(message, sizeof message,
                 "jsonrpc-envelope: the library linked into this addon has ABI version %u, but the addon was built for "
                 "version %u: rebuild the addon against the library it links",
                 (unsigned)jsonrpc_abi_version(), (unsigned)JSONRPC_ABI_VERSION);
        return throw_error(env, message);
    }
    State *state = calloc(1, sizeof *state);
    if (state == NULL) {
        return throw_error(env, "jsonrpc-envelope: out of memory");
    }
    if (napi_set_instance_data(env, state, state_free, NULL) != napi_ok) {
        free(state);
        return throw_last_error(env);
    }
    napi_value kind_names, id_kind_names, role_names, profile_names, action_names, value;
    napi_value kinds = enum_values(env, KINDS, sizeof KINDS / sizeof KINDS[0], jsonrpc_kind_name, "kind", &kind_names);
    napi_value id_kinds =
        enum_values(env, ID_KINDS, sizeof ID_KINDS / sizeof ID_KINDS[0], jsonrpc_id_kind_name, "id kind", &id_kind_names);
    napi_value roles =
        enum_values(env, ROLE_NAMES, sizeof ROLE_NAMES / sizeof ROLE_NAMES[0], jsonrpc_role_name, "role", &role_names);
    napi_value profiles = enum_values(env, PROFILE_NAMES, sizeof PROFILE_NAMES / sizeof PROFILE_NAMES[0],
                                      jsonrpc_profile_name, "profile", &profile_names);
    napi_value actions = enum_values(env, ACTION_NAMES, sizeof ACTION_NAMES / sizeof ACTION_NAMES[0],
                                     jsonrpc_action_name, "action", &action_names);
    if (kinds == NULL || id_kinds == NULL || roles == NULL || profiles == NULL || actions == NULL) {
        return NULL;
    }
    bool ok = set(env, exports, "kinds", kinds) && set(env, exports, "kindNames", kind_names) &&
              set(env, exports, "idKinds", id_kinds) && set(env, exports, "idKindNames", id_kind_names) &&
              set(env, exports, "roles", roles) && set(env, exports, "profiles", profiles) &&
              set(env, exports, "actions", actions) && set(env, exports, "actionNames", action_names) &&
              set(env, exports, "layout", layout_value(env)) &&
              set(env, exports, "record", state_numbers(env, state->record, SLOT_COUNT)) &&
              set(env, exports, "batch", state_numbers(env, state->batch, BATCH_COUNT)) &&
              napi_create_string_utf8(env, jsonrpc_version(), NAPI_AUTO_LENGTH, &value) == napi_ok &&
              set(env, exports, "version", value) &&
              napi_create_uint32(env, jsonrpc_abi_version(), &value) == napi_ok && set(env, exports, "abiVersion", value) &&
              napi_create_double(env, (double)jsonrpc_default_max_line(), &value) == napi_ok &&
              set(env, exports, "defaultMaxLine", value) && set_function(env, exports, "classify", js_classify, state) &&
              set_function(env, exports, "invalidReply", js_invalid_reply, state) &&
              set_function(env, exports, "logValue", js_log_value, state) && reader_define(env, exports, state) &&
              session_define(env, exports, state);
    if (!ok) {
        return throw_last_error(env);
    }
    return exports;
}
