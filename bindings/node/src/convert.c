/*
 * convert.c: the library's results as JavaScript values. A classification
 * (classify's, or each line's of a batch) goes as a record of doubles (see
 * addon.h), its strings as one JavaScript string; a batch also as a copy
 * of its bytes and, for a session, its lines' action texts and notes as
 * another string; a string the library returned as a JavaScript string.
 */

#include <stdlib.h>
#include <string.h>

#include "addon.h"

/* What record_write found of a classification's strings: their bytes
 * back to back with a NUL after each (0 when none is present), and whether
 * they are all ASCII. */
typedef struct TextsInfo {
    size_t bytes;
    bool ascii;
} TextsInfo;

/* UTF-16 code units of valid UTF-8 text; *ascii is cleared when a byte is
 * not ASCII. */
static size_t utf16_units(const uint8_t *text, size_t len, bool *ascii) {
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

/* Writes a classification's numbers into `record` (SLOT_COUNT doubles),
 * its strings' UTF-16 lengths included, and adds its strings to `texts`. */
static void record_write(double *record, const JsonRpcClassification *c, TextsInfo *texts) {
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

/* A JavaScript string of valid UTF-8 text. */
static napi_status string_value(napi_env env, const char *text, size_t len, bool ascii, napi_value *result) {
    /* ASCII is copied as Latin-1, which V8 takes without decoding. */
    return ascii ? napi_create_string_latin1(env, text, len, result)
                 : napi_create_string_utf8(env, text, len, result);
}

bool buffer_reserve(napi_env env, uint8_t **buffer, size_t *cap, size_t bytes) {
    if (*cap < bytes) {
        uint8_t *grown = realloc(*buffer, bytes);
        if (grown == NULL) {
            throw_error(env, "out of memory");
            return false;
        }
        *buffer = grown;
        *cap = bytes;
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

/* A classification's strings (those `info` describes), back to back, each
 * followed by a NUL, in the order of SLOT_TEXTS, as one JavaScript string;
 * `undefined` when there is none. The state's scratch is the one that was
 * handed to jsonrpc_classify_into. */
static bool texts_value(napi_env env, State *state, const JsonRpcClassification *c, const TextsInfo *info,
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
        if (!buffer_reserve(env, &state->texts, &state->texts_cap, info->bytes)) {
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

bool classification_value(napi_env env, State *state, const JsonRpcClassification *c, napi_value *result) {
    TextsInfo texts = {0, true};
    record_write(state->record, c, &texts);
    return texts_value(env, state, c, &texts, result);
}

/* A batch's `texts` (the strings of all its items, laid out so by the
 * library) as one JavaScript string, or `undefined` when empty. */
static bool batch_texts_value(napi_env env, const JsonRpcBatch *batch, const TextsInfo *info, napi_value *result) {
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

/* A batch's action texts and notes (a session's lines), back to back, each
 * followed by a NUL, in the state's `texts` buffer, their UTF-16 lengths
 * in each record's SLOT_ACTION_TEXT and SLOT_NOTE; `*result` is the string
 * of them, or NULL when no line has either (nothing is made). */
static bool extras_value(napi_env env, State *state, const JsonRpcBatch *batch, double *records, napi_value *result) {
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
    if (!buffer_reserve(env, &state->texts, &state->texts_cap, bytes)) {
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

/* The records argument, when it is a Float64Array of `slots` numbers or
 * more, is where the batch's records go; otherwise a new one is made, and
 * *made says so. */
static bool records_for(napi_env env, napi_value given, size_t slots, napi_value *records, double **data,
                        bool *made) {
    bool is_typedarray = false;
    if (given != NULL && napi_is_typedarray(env, given, &is_typedarray) == napi_ok && is_typedarray) {
        napi_typedarray_type type;
        size_t length = 0;
        void *memory = NULL;
        if (napi_get_typedarray_info(env, given, &type, &length, &memory, NULL, NULL) == napi_ok &&
            type == napi_float64_array && length >= slots && memory != NULL) {
            *records = given;
            *data = memory;
            *made = false;
            return true;
        }
    }
    *made = true;
    napi_value buffer;
    void *memory = NULL;
    if (napi_create_arraybuffer(env, slots * sizeof(double), &memory, &buffer) != napi_ok ||
        napi_create_typedarray(env, napi_float64_array, slots, buffer, 0, records) != napi_ok) {
        throw_last_error(env);
        return false;
    }
    *data = memory;
    return true;
}

/* Where a batch's bytes go: into `slab` (a Uint8Array the caller keeps
 * for many batches) from byte `used` on, when they fit there, so that a
 * batch of a few lines costs no allocation; otherwise into a new Buffer
 * (and *made says so). Sets *bytes to the one used and *base to where the
 * batch starts in it. */
static bool bytes_for(napi_env env, const JsonRpcBatch *batch, napi_value slab, napi_value used, napi_value *bytes,
                      size_t *base, bool *made) {
    napi_typedarray_type type;
    size_t length = 0;
    void *memory = NULL;
    double at = 0;
    if (napi_get_typedarray_info(env, slab, &type, &length, &memory, NULL, NULL) == napi_ok &&
        type == napi_uint8_array && memory != NULL && napi_get_value_double(env, used, &at) == napi_ok && at >= 0 &&
        at <= (double)length && (double)(size_t)at == at && batch->bytes_len <= length - (size_t)at) {
        if (batch->bytes_len > 0) {
            memcpy((uint8_t *)memory + (size_t)at, batch->bytes, batch->bytes_len);
        }
        *bytes = slab;
        *base = (size_t)at;
        *made = false;
        return true;
    }
    *made = true;
    napi_status status = batch->bytes_len == 0 ? napi_create_buffer(env, 0, NULL, bytes)
                                               : napi_create_buffer_copy(env, batch->bytes_len, batch->bytes, NULL, bytes);
    if (status != napi_ok) {
        throw_last_error(env);
        return false;
    }
    *base = 0;
    return true;
}

/* One result and no array in the usual case (a reader's lines, or a
 * session's lines that are all forwarded): making an array is a large part
 * of what a one-line batch costs. */
napi_value batch_value(napi_env env, State *state, const JsonRpcBatch *batch, napi_value records_given,
                       napi_value slab, napi_value used) {
    napi_value result;
    if (batch->count == 0) {
        state->batch[BATCH_LINES] = 0;
        NAPI_OK(napi_get_undefined(env, &result));
        return result;
    }
    if (batch->count > SIZE_MAX / sizeof(double) / SLOT_COUNT) {
        return throw_range_error(env, "too many lines in one batch");
    }
    napi_value records;
    double *first;
    napi_value bytes;
    size_t base;
    bool new_records, new_bytes;
    if (!records_for(env, records_given, batch->count * SLOT_COUNT, &records, &first, &new_records) ||
        !bytes_for(env, batch, slab, used, &bytes, &base, &new_bytes)) {
        return NULL;
    }
    TextsInfo texts = {0, true};
    double *record = first;
    for (size_t i = 0; i < batch->count; i++, record += SLOT_COUNT) {
        const JsonRpcLine *line = &batch->items[i];
        record_write(record, &line->classification, &texts);
        record[SLOT_NUMBER] = (double)line->number;
        record[SLOT_OFFSET] = (double)(base + line->offset);
        record[SLOT_LENGTH] = (double)line->len;
        record[SLOT_ACTION] = (double)line->action;
    }
    if (texts.bytes != batch->texts_len) {
        return throw_error(env, "jsonrpc_reader: a batch's texts are not laid out as the header says");
    }
    napi_value extras;
    if (!batch_texts_value(env, batch, &texts, &result) ||
        !extras_value(env, state, batch, first, &extras)) {
        return NULL;
    }
    state->batch[BATCH_LINES] = (double)batch->count;
    state->batch[BATCH_BASE] = (double)base;
    state->batch[BATCH_END] = (double)(base + batch->bytes_len);
    if (!new_records && !new_bytes && extras == NULL) {
        return result;
    }
    if (extras == NULL) {
        NAPI_OK(napi_get_undefined(env, &extras));
    }
    napi_value values[4] = {result, records, bytes, extras};
    NAPI_OK(napi_create_array_with_length(env, 4, &result));
    for (uint32_t i = 0; i < 4; i++) {
        NAPI_OK(napi_set_element(env, result, i, values[i]));
    }
    return result;
}

napi_value owned_string_value(napi_env env, JsonRpcString *text) {
    napi_value result;
    napi_status made = text->ptr == NULL ? napi_get_null(env, &result)
                                         : napi_create_string_utf8(env, text->ptr, text->len, &result);
    jsonrpc_string_free(text);
    NAPI_OK(made);
    return result;
}
