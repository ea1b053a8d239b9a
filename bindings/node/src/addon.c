/*
 * addon.c: the module's entry point (the ABI check, the exports) and the
 * one-line calls: classify, invalidReply, logValue. The JavaScript in
 * lib/ builds the public API on these.
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

/* ---- classify(line) -> texts ---------------------------------------------
 * Writes the line's classification into the state's record (the `record`
 * export) and returns its strings as one string (see texts_value), or
 * undefined when it has none. */

static napi_value js_classify(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    State *state = NULL;
    Input line;
    if (!bytes_args(env, info, 1, argv, "line", &state, &line)) {
        return NULL;
    }
    JsonRpcClassification c;
    JsonRpcStatus status = jsonrpc_classify_into(line.data, line.len, &c, state->scratch, sizeof state->scratch);
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

/* ---- invalidReply(line, role) -> string | null ---------------------------- */

/* The roles, by the header's values; their names are the library's. */
static const uint32_t ROLES[] = {JSONRPC_ROLE_SERVER, JSONRPC_ROLE_CLIENT};
#define ROLE_COUNT (sizeof ROLES / sizeof ROLES[0])

/* A role argument (one of the library's role names) as its value. */
static bool role_arg(napi_env env, napi_value value, uint32_t *role) {
    napi_valuetype type = napi_undefined;
    char name[32];
    size_t len = 0;
    if (napi_typeof(env, value, &type) == napi_ok && type == napi_string &&
        napi_get_value_string_utf8(env, value, name, sizeof name, &len) == napi_ok) {
        for (size_t i = 0; i < ROLE_COUNT; i++) {
            const char *known = jsonrpc_role_name(ROLES[i]);
            if (known != NULL && strlen(known) == len && memcmp(known, name, len) == 0) {
                *role = ROLES[i];
                return true;
            }
        }
    }
    char message[160];
    snprintf(message, sizeof message, "role must be '%s' or '%s'", jsonrpc_role_name(JSONRPC_ROLE_SERVER),
             jsonrpc_role_name(JSONRPC_ROLE_CLIENT));
    if (type == napi_string) {
        throw_range_error(env, message);
    } else {
        throw_type_error(env, message);
    }
    return false;
}

/* A string the library returned, as a JavaScript string (null when it has
 * none), and freed. */
static napi_value owned_string_value(napi_env env, JsonRpcString *text) {
    napi_value result;
    napi_status made = text->ptr == NULL ? napi_get_null(env, &result)
                                         : napi_create_string_utf8(env, text->ptr, text->len, &result);
    jsonrpc_string_free(text);
    NAPI_OK(made);
    return result;
}

static napi_value js_invalid_reply(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    State *state = NULL;
    Input line;
    uint32_t role;
    if (!bytes_args(env, info, 2, argv, "line", &state, &line)) {
        return NULL;
    }
    if (!role_arg(env, argv[1], &role)) {
        input_release(&line);
        return NULL;
    }
    JsonRpcReply reply = jsonrpc_invalid_reply(line.data, line.len, role);
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
    NAMED(JSONRPC_KIND_, TOO_LONG),
};
static const Named ID_KINDS[] = {
    NAMED(JSONRPC_ID_, ABSENT), NAMED(JSONRPC_ID_, NULL),  NAMED(JSONRPC_ID_, STRING),  NAMED(JSONRPC_ID_, NUMBER),
    NAMED(JSONRPC_ID_, OBJECT), NAMED(JSONRPC_ID_, ARRAY), NAMED(JSONRPC_ID_, BOOLEAN),
};
static const Named ROLE_NAMES[] = {
    NAMED(JSONRPC_ROLE_, SERVER),
    NAMED(JSONRPC_ROLE_, CLIENT),
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

/* The names of the kinds that are messages (jsonrpc_kind_is_message), as a
 * frozen array: what a transport hands on. */
static napi_value message_kinds(napi_env env) {
    napi_value names;
    uint32_t count = 0;
    NAPI_OK(napi_create_array(env, &names));
    for (size_t i = 0; i < sizeof KINDS / sizeof KINDS[0]; i++) {
        if (!jsonrpc_kind_is_message(KINDS[i].value)) {
            continue;
        }
        napi_value text;
        NAPI_OK(napi_create_string_utf8(env, jsonrpc_kind_name(KINDS[i].value), NAPI_AUTO_LENGTH, &text));
        NAPI_OK(napi_set_element(env, names, count++, text));
    }
    NAPI_OK(napi_object_freeze(env, names));
    return names;
}

static napi_value layout_value(napi_env env) {
    static const Named SLOTS[] = {
        {"kind", SLOT_KIND},           {"idKind", SLOT_ID_KIND},       {"jsonrpc20", SLOT_JSONRPC_2_0},
        {"hasResult", SLOT_HAS_RESULT}, {"hasError", SLOT_HAS_ERROR},  {"namesNoRequest", SLOT_NAMES_NO_REQUEST},
        {"spans", SLOT_SPANS},         {"texts", SLOT_TEXTS},          {"number", SLOT_NUMBER},
        {"offset", SLOT_OFFSET},       {"length", SLOT_LENGTH},        {"width", SLOT_COUNT},
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
    napi_value kind_names, id_kind_names, role_names, value;
    napi_value kinds = enum_values(env, KINDS, sizeof KINDS / sizeof KINDS[0], jsonrpc_kind_name, "kind", &kind_names);
    napi_value id_kinds =
        enum_values(env, ID_KINDS, sizeof ID_KINDS / sizeof ID_KINDS[0], jsonrpc_id_kind_name, "id kind", &id_kind_names);
    napi_value roles =
        enum_values(env, ROLE_NAMES, sizeof ROLE_NAMES / sizeof ROLE_NAMES[0], jsonrpc_role_name, "role", &role_names);
    if (kinds == NULL || id_kinds == NULL || roles == NULL) {
        return NULL;
    }
    bool ok = set(env, exports, "kinds", kinds) && set(env, exports, "kindNames", kind_names) &&
              set(env, exports, "idKinds", id_kinds) && set(env, exports, "idKindNames", id_kind_names) &&
              set(env, exports, "roles", roles) && set(env, exports, "messageKinds", message_kinds(env)) &&
              set(env, exports, "layout", layout_value(env)) &&
              set(env, exports, "record", state_numbers(env, state->record, SLOT_COUNT)) &&
              set(env, exports, "batch", state_numbers(env, state->batch, BATCH_COUNT)) &&
              napi_create_string_utf8(env, jsonrpc_version(), NAPI_AUTO_LENGTH, &value) == napi_ok &&
              set(env, exports, "version", value) &&
              napi_create_uint32(env, jsonrpc_abi_version(), &value) == napi_ok && set(env, exports, "abiVersion", value) &&
              napi_create_double(env, (double)jsonrpc_default_max_line(), &value) == napi_ok &&
              set(env, exports, "defaultMaxLine", value) && set_function(env, exports, "classify", js_classify, state) &&
              set_function(env, exports, "invalidReply", js_invalid_reply, state) &&
              set_function(env, exports, "logValue", js_log_value, state) && reader_define(env, exports, state);
    if (!ok) {
        return throw_last_error(env);
    }
    return exports;
}
