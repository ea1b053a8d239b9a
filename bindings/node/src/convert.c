/*
 * convert.c: a classification's numbers into a record of doubles, and its
 * strings into one JavaScript string; the addon's errors as JavaScript
 * exceptions.
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addon.h"

size_t utf16_units(const uint8_t *text, size_t len, bool *ascii) {
    /* Valid UTF-8 (every string the library hands out is): a sequence of
     * n bytes is one unit, a 4-byte one is a surrogate pair. So every
     * continuation byte takes one off the byte count, and every 4-byte
     * lead adds one back. */
    size_t units = len;
    for (size_t i = 0; i < len; i++) {
        uint8_t byte = text[i];
        if (byte >= 0x80) {
            *ascii = false;
            if ((byte & 0xC0) == 0x80) {
                units--;
            } else if (byte >= 0xF0) {
                units++;
            }
        }
    }
    return units;
}

static void span_write(double *slot, JsonRpcSpan span) {
    slot[0] = (double)span.offset;
    slot[1] = (double)span.len;
}

static void text_write(double *slot, JsonRpcStr text, TextsInfo *texts) {
    if (text.ptr == NULL) {
        *slot = -1;
        return;
    }
    *slot = (double)utf16_units((const uint8_t *)text.ptr, text.len, &texts->ascii);
    texts->bytes += text.len + 1;
}

void record_write(double *record, const JsonRpcClassification *c, TextsInfo *texts) {
    record[SLOT_KIND] = c->kind;
    record[SLOT_ID_KIND] = c->id_kind;
    record[SLOT_JSONRPC_2_0] = c->jsonrpc_2_0;
    record[SLOT_HAS_RESULT] = c->has_result;
    record[SLOT_HAS_ERROR] = c->has_error;
    record[SLOT_NAMES_NO_REQUEST] = c->names_no_request;
    span_write(record + SLOT_SPANS + 0, c->id_span);
    span_write(record + SLOT_SPANS + 2, c->method_span);
    span_write(record + SLOT_SPANS + 4, c->params_span);
    span_write(record + SLOT_SPANS + 6, c->result_span);
    span_write(record + SLOT_SPANS + 8, c->error_span);
    /* The order of the header's layout of strings in a scratch or a
     * batch: id, method, reason, reply_server, reply_client, substitute. */
    text_write(record + SLOT_TEXTS + 0, c->id, texts);
    text_write(record + SLOT_TEXTS + 1, c->method, texts);
    text_write(record + SLOT_TEXTS + 2, c->reason, texts);
    text_write(record + SLOT_TEXTS + 3, c->reply_server, texts);
    text_write(record + SLOT_TEXTS + 4, c->reply_client, texts);
    text_write(record + SLOT_TEXTS + 5, c->substitute, texts);
}

napi_status string_value(napi_env env, const char *text, size_t len, bool ascii, napi_value *result) {
    /* ASCII is copied as Latin-1, which V8 takes without decoding. */
    return ascii ? napi_create_string_latin1(env, text, len, result)
                 : napi_create_string_utf8(env, text, len, result);
}

/* The state's `texts` buffer, at least `bytes` long. */
static bool texts_reserve(napi_env env, State *state, size_t bytes) {
    if (state->texts_cap < bytes) {
        uint8_t *grown = realloc(state->texts, bytes);
        if (grown == NULL) {
            throw_error(env, "out of memory");
            return false;
        }
        state->texts = grown;
        state->texts_cap = bytes;
    }
    return true;
}

static size_t text_append(uint8_t *to, size_t at, JsonRpcStr text) {
    if (text.ptr == NULL) {
        return at;
    }
    memcpy(to + at, text.ptr, text.len);
    to[at + text.len] = 0;
    return at + text.len + 1;
}

bool texts_value(napi_env env, State *state, const JsonRpcClassification *c, const TextsInfo *info,
                 napi_value *result) {
    if (info->bytes == 0) {
        return napi_get_undefined(env, result) == napi_ok || (throw_last_error(env), false);
    }
    const JsonRpcStr first = c->id.ptr ? c->id
                             : c->method.ptr ? c->method
                             : c->reason.ptr ? c->reason
                             : c->reply_server.ptr ? c->reply_server
                             : c->reply_client.ptr ? c->reply_client
                                                   : c->substitute;
    const char *block;
    if (c->storage == NULL && first.ptr == (const char *)state->scratch) {
        /* jsonrpc_classify_into put them in the scratch, in this layout. */
        block = first.ptr;
    } else {
        /* The library allocated them: put them in that layout here. */
        if (!texts_reserve(env, state, info->bytes)) {
            return false;
        }
        size_t at = 0;
        at = text_append(state->texts, at, c->id);
        at = text_append(state->texts, at, c->method);
        at = text_append(state->texts, at, c->reason);
        at = text_append(state->texts, at, c->reply_server);
        at = text_append(state->texts, at, c->reply_client);
        text_append(state->texts, at, c->substitute);
        block = (const char *)state->texts;
    }
    if (string_value(env, block, info->bytes, info->ascii, result) != napi_ok) {
        throw_last_error(env);
        return false;
    }
    return true;
}

bool batch_texts_value(napi_env env, const JsonRpcBatch *batch, const TextsInfo *info, napi_value *result) {
    napi_status status = batch->texts_len == 0 ? napi_get_undefined(env, result)
                                               : string_value(env, batch->texts, batch->texts_len, info->ascii, result);
    if (status != napi_ok) {
        throw_last_error(env);
        return false;
    }
    return true;
}

/* Where an action's text or a note stands in the extras: its UTF-16
 * length in `*slot` (-1 when absent), its bytes and NUL counted. */
static void extra_measure(double *slot, const char *text, size_t len, size_t *bytes, bool *ascii) {
    if (text == NULL) {
        *slot = -1;
        return;
    }
    *slot = (double)utf16_units((const uint8_t *)text, len, ascii);
    *bytes += len + 1;
}

bool extras_value(napi_env env, State *state, const JsonRpcBatch *batch, double *records, napi_value *result) {
    size_t bytes = 0;
    bool ascii = true;
    double *record = records;
    for (size_t i = 0; i < batch->count; i++, record += SLOT_COUNT) {
        const JsonRpcLine *line = &batch->items[i];
        extra_measure(record + SLOT_ACTION_TEXT, line->action_text.ptr, line->action_text.len, &bytes, &ascii);
        extra_measure(record + SLOT_NOTE, line->note, line->note ? strlen(line->note) : 0, &bytes, &ascii);
    }
    *result = NULL;
    if (bytes == 0) {
        return true;
    }
    if (!texts_reserve(env, state, bytes)) {
        return false;
    }
    size_t at = 0;
    for (size_t i = 0; i < batch->count; i++) {
        const JsonRpcLine *line = &batch->items[i];
        at = text_append(state->texts, at, line->action_text);
        if (line->note != NULL) {
            at = text_append(state->texts, at, (JsonRpcStr){line->note, strlen(line->note)});
        }
    }
    if (string_value(env, (const char *)state->texts, bytes, ascii, result) != napi_ok) {
        *result = NULL;
        throw_last_error(env);
        return false;
    }
    return true;
}

napi_value owned_string_value(napi_env env, JsonRpcString *text) {
    napi_value result;
    napi_status made = text->ptr == NULL ? napi_get_null(env, &result)
                                         : napi_create_string_utf8(env, text->ptr, text->len, &result);
    jsonrpc_string_free(text);
    NAPI_OK(made);
    return result;
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
    return throw_error(env, message);
}

napi_value throw_last_error(napi_env env) {
    const napi_extended_error_info *info = NULL;
    const char *message = "a Node-API call failed";
    if (napi_get_last_error_info(env, &info) == napi_ok && info != NULL && info->error_message != NULL) {
        message = info->error_message;
    }
    return throw_error(env, message);
}
