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
     * batch: id, method, reason, reply_server, reply_client. */
    text_write(record + SLOT_TEXTS + 0, c->id, texts);
    text_write(record + SLOT_TEXTS + 1, c->method, texts);
    text_write(record + SLOT_TEXTS + 2, c->reason, texts);
    text_write(record + SLOT_TEXTS + 3, c->reply_server, texts);
    text_write(record + SLOT_TEXTS + 4, c->reply_client, texts);
}

static napi_status string_value(napi_env env, const char *text, size_t len, bool ascii, napi_value *result) {
    /* ASCII is copied as Latin-1, which V8 takes without decoding. */
    return ascii ? napi_create_string_latin1(env, text, len, result)
                 : napi_create_string_utf8(env, text, len, result);
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
                                                   : c->reply_client;
    const char *block;
    if (c->storage == NULL && first.ptr == (const char *)state->scratch) {
        /* jsonrpc_classify_into put them in the scratch, in this layout. */
        block = first.ptr;
    } else {
        /* The library allocated them: put them in that layout here. */
        if (state->texts_cap < info->bytes) {
            uint8_t *grown = realloc(state->texts, info->bytes);
            if (grown == NULL) {
                throw_error(env, "out of memory");
                return false;
            }
            state->texts = grown;
            state->texts_cap = info->bytes;
        }
        size_t at = 0;
        at = text_append(state->texts, at, c->id);
        at = text_append(state->texts, at, c->method);
        at = text_append(state->texts, at, c->reason);
        at = text_append(state->texts, at, c->reply_server);
        text_append(state->texts, at, c->reply_client);
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
