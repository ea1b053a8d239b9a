/*
 * addon.c: the module's entry point: the ABI check, the per-environment
 * state, and the exports: the library's names and constants, the record's
 * layout and the state's numbers (see addon.h), and the functions of the
 * addon's parts (line.c, handle.c, reader.c, session.c). The JavaScript in
 * lib/ builds the public API on these.
 */

#include <stdio.h>
#include <stdlib.h>

#include "addon.h"

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
static const Named DIRECTION_NAMES[] = {
    NAMED(JSONRPC_DIRECTION_, TO_SERVER),
    NAMED(JSONRPC_DIRECTION_, TO_HOST),
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

/* Sets each function of `functions` (ended by a NULL name) on `exports`,
 * made with `state` (their callbacks' data). */
static bool set_functions(napi_env env, napi_value exports, const ExportedFunction *functions, State *state) {
    for (const ExportedFunction *f = functions; f->name != NULL; f++) {
        napi_value fn;
        if (napi_create_function(env, f->name, NAPI_AUTO_LENGTH, f->callback, state, &fn) != napi_ok ||
            !set(env, exports, f->name, fn)) {
            return false;
        }
    }
    return true;
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
    napi_value kind_names, id_kind_names, role_names, profile_names, action_names, direction_names, value;
    napi_value kinds = enum_values(env, KINDS, sizeof KINDS / sizeof KINDS[0], jsonrpc_kind_name, "kind", &kind_names);
    napi_value id_kinds =
        enum_values(env, ID_KINDS, sizeof ID_KINDS / sizeof ID_KINDS[0], jsonrpc_id_kind_name, "id kind", &id_kind_names);
    napi_value roles =
        enum_values(env, ROLE_NAMES, sizeof ROLE_NAMES / sizeof ROLE_NAMES[0], jsonrpc_role_name, "role", &role_names);
    napi_value profiles = enum_values(env, PROFILE_NAMES, sizeof PROFILE_NAMES / sizeof PROFILE_NAMES[0],
                                      jsonrpc_profile_name, "profile", &profile_names);
    napi_value actions = enum_values(env, ACTION_NAMES, sizeof ACTION_NAMES / sizeof ACTION_NAMES[0],
                                     jsonrpc_action_name, "action", &action_names);
    napi_value directions = enum_values(env, DIRECTION_NAMES, sizeof DIRECTION_NAMES / sizeof DIRECTION_NAMES[0],
                                        jsonrpc_direction_name, "direction", &direction_names);
    if (kinds == NULL || id_kinds == NULL || roles == NULL || profiles == NULL || actions == NULL || directions == NULL) {
        return NULL;
    }
    bool ok = set(env, exports, "kinds", kinds) && set(env, exports, "kindNames", kind_names) &&
              set(env, exports, "idKinds", id_kinds) && set(env, exports, "idKindNames", id_kind_names) &&
              set(env, exports, "roles", roles) && set(env, exports, "profiles", profiles) &&
              set(env, exports, "actions", actions) && set(env, exports, "actionNames", action_names) &&
              set(env, exports, "directions", directions) &&
              set(env, exports, "layout", layout_value(env)) &&
              set(env, exports, "record", state_numbers(env, state->record, SLOT_COUNT)) &&
              set(env, exports, "batch", state_numbers(env, state->batch, BATCH_COUNT)) &&
              napi_create_string_utf8(env, jsonrpc_version(), NAPI_AUTO_LENGTH, &value) == napi_ok &&
              set(env, exports, "version", value) &&
              napi_create_uint32(env, jsonrpc_abi_version(), &value) == napi_ok && set(env, exports, "abiVersion", value) &&
              napi_create_double(env, (double)jsonrpc_default_max_line(), &value) == napi_ok &&
              set(env, exports, "defaultMaxLine", value) && set_functions(env, exports, LINE_FUNCTIONS, state) &&
              set_functions(env, exports, HANDLE_FUNCTIONS, state) && set_functions(env, exports, READER_FUNCTIONS, state) &&
              set_functions(env, exports, SESSION_FUNCTIONS, state);
    if (!ok) {
        return throw_last_error(env);
    }
    return exports;
}
