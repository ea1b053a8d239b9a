/*
 * reader.c: the library's stream reader as a JavaScript handle. One call
 * crosses into the library per chunk read; each call's batch comes back as
 * a record per line (see addon.h), a copy of the batch's bytes (in the
 * caller's slab when they fit) and its strings as one string.
 *
 * The handle owns the reader: readerFree frees it at once (lib/ calls it
 * when a stream's iteration ends, fails or is abandoned), and the handle's
 * finalizer frees it only if that never happened.
 */

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "addon.h"

/* How many library readers are alive, in every environment of the process:
 * a diagnostic for the tests (the liveReaders export), which check that
 * each reader is freed when its stream's iteration ends. */
static atomic_size_t live_readers;

typedef struct ReaderBox {
    JsonRpcReader *reader; /* NULL once freed */
} ReaderBox;

/* Marks the objects readerNew made, so that no other object is ever taken
 * for a reader. */
static const napi_type_tag READER_TAG = {0x6a736f6e72706365ULL, 0x7265616465720001ULL};

static void reader_free(ReaderBox *box) {
    if (box->reader != NULL) {
        jsonrpc_reader_free(box->reader);
        box->reader = NULL;
        atomic_fetch_sub(&live_readers, 1);
    }
}

static void box_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    ReaderBox *box = data;
    reader_free(box);
    free(box);
}

/* Whether `handle` is an object readerNew made (freed or not). */
static bool is_handle(napi_env env, napi_value handle) {
    napi_valuetype type = napi_undefined;
    bool tagged = false;
    return napi_typeof(env, handle, &type) == napi_ok && type == napi_object &&
           napi_check_object_type_tag(env, handle, &READER_TAG, &tagged) == napi_ok && tagged;
}

/* The live reader behind a handle argument, or NULL with an exception: a
 * TypeError for an object that is no reader handle, an Error for one whose
 * reader has been freed. */
static ReaderBox *box_arg(napi_env env, napi_value handle) {
    void *box = NULL;
    if (!is_handle(env, handle)) {
        throw_type_error(env, "not a reader handle");
        return NULL;
    }
    if (napi_unwrap(env, handle, &box) != napi_ok || box == NULL) {
        throw_error(env, "the reader has been freed");
        return NULL;
    }
    return box;
}

static napi_value js_reader_new(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    if (!callback_args(env, info, 1, argv, NULL)) {
        return NULL;
    }
    double max_line = 0;
    napi_valuetype type = napi_undefined;
    NAPI_OK(napi_typeof(env, argv[0], &type));
    if (type != napi_undefined) {
        /* lib/ has checked it; this keeps the conversion below defined. */
        if (type != napi_number || napi_get_value_double(env, argv[0], &max_line) != napi_ok || !(max_line >= 0) ||
            max_line > 9007199254740991.0 || (double)(size_t)max_line != max_line) {
            return throw_range_error(env, "maxLine must be a whole number of bytes, 0 or more");
        }
    }
    ReaderBox *box = malloc(sizeof *box);
    if (box == NULL) {
        return throw_error(env, "out of memory");
    }
    box->reader = jsonrpc_reader_new((size_t)max_line);
    if (box->reader == NULL) {
        free(box);
        return throw_error(env, "jsonrpc_reader_new: out of memory");
    }
    atomic_fetch_add(&live_readers, 1);
    napi_value handle;
    if (napi_create_object(env, &handle) != napi_ok || napi_type_tag_object(env, handle, &READER_TAG) != napi_ok ||
        napi_wrap(env, handle, box, box_finalize, NULL, NULL) != napi_ok) {
        reader_free(box);
        free(box);
        return throw_last_error(env);
    }
    return handle;
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

/* A batch, for the JavaScript that reads it: its numbers in the state's
 * `batch` (its number of lines first: 0 for none), its strings as the
 * result (see batch_texts_value). When the records or the bytes went
 * anywhere but the caller's own (the records and slab arguments), the
 * result is [texts, records, bytes] instead. One result and no array in
 * the usual case: an array costs a few hundred nanoseconds to make, as
 * much as the rest of a one-line batch. */
static napi_value batch_value(napi_env env, State *state, const JsonRpcBatch *batch, napi_value records_given,
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
    double *record;
    napi_value bytes;
    size_t base;
    bool new_records, new_bytes;
    if (!records_for(env, records_given, batch->count * SLOT_COUNT, &records, &record, &new_records) ||
        !bytes_for(env, batch, slab, used, &bytes, &base, &new_bytes)) {
        return NULL;
    }
    TextsInfo texts = {0, true};
    for (size_t i = 0; i < batch->count; i++, record += SLOT_COUNT) {
        const JsonRpcLine *line = &batch->items[i];
        record_write(record, &line->classification, &texts);
        record[SLOT_NUMBER] = (double)line->number;
        record[SLOT_OFFSET] = (double)(base + line->offset);
        record[SLOT_LENGTH] = (double)line->len;
    }
    if (texts.bytes != batch->texts_len) {
        return throw_error(env, "jsonrpc_reader: a batch's texts are not laid out as the header says");
    }
    if (!batch_texts_value(env, batch, &texts, &result)) {
        return NULL;
    }
    state->batch[BATCH_LINES] = (double)batch->count;
    state->batch[BATCH_BASE] = (double)base;
    state->batch[BATCH_END] = (double)(base + batch->bytes_len);
    if (!new_records && !new_bytes) {
        return result;
    }
    napi_value values[3] = {result, records, bytes};
    NAPI_OK(napi_create_array_with_length(env, 3, &result));
    for (uint32_t i = 0; i < 3; i++) {
        NAPI_OK(napi_set_element(env, result, i, values[i]));
    }
    return result;
}

/* A failed feed or end, with what its status means for the caller (the
 * header's promises). */
static napi_value status_error(napi_env env, const char *call, JsonRpcStatus status, const char *out_of_memory) {
    const char *consequence = status == JSONRPC_STATUS_OUT_OF_MEMORY    ? out_of_memory
                              : status == JSONRPC_STATUS_INTERNAL_ERROR ? "this reader fails from now on"
                                                                        : NULL;
    return throw_status(env, call, status, (JsonRpcStr){NULL, 0}, consequence);
}

/* readerFeed(handle, chunk, records?, slab?, used?) and
 * readerEnd(handle, records?, slab?, used?): the batch the call completed,
 * as batch_value gives it. */
static napi_value reader_call(napi_env env, napi_callback_info info, bool ending) {
    napi_value argv[5];
    State *state = NULL;
    if (!callback_args(env, info, 5, argv, &state)) {
        return NULL;
    }
    ReaderBox *box = box_arg(env, argv[0]);
    if (box == NULL) {
        return NULL;
    }
    JsonRpcBatch batch;
    JsonRpcStatus status;
    if (ending) {
        status = jsonrpc_reader_end(box->reader, &batch);
    } else {
        Input chunk;
        if (!input_bytes(env, state, argv[1], "chunk", &chunk)) {
            return NULL;
        }
        status = jsonrpc_reader_feed(box->reader, chunk.data, chunk.len, &batch);
        input_release(&chunk);
    }
    if (status != JSONRPC_STATUS_OK) {
        return ending ? status_error(env, "jsonrpc_reader_end", status, "the stream has not ended")
                      : status_error(env, "jsonrpc_reader_feed", status, "the chunk was not taken");
    }
    napi_value *rest = argv + (ending ? 1 : 2);
    return batch_value(env, state, &batch, rest[0], rest[1], rest[2]);
}

static napi_value js_reader_feed(napi_env env, napi_callback_info info) {
    return reader_call(env, info, false);
}

static napi_value js_reader_end(napi_env env, napi_callback_info info) {
    return reader_call(env, info, true);
}

/* Frees the reader at once, and its box with it: the handle is unwrapped,
 * so no finalizer is left waiting for a collection. */
static napi_value js_reader_free(napi_env env, napi_callback_info info) {
    napi_value argv[1];
    if (!callback_args(env, info, 1, argv, NULL)) {
        return NULL;
    }
    if (!is_handle(env, argv[0])) {
        return throw_type_error(env, "not a reader handle");
    }
    void *box = NULL;
    if (napi_remove_wrap(env, argv[0], &box) == napi_ok && box != NULL) {
        reader_free(box);
        free(box);
    }
    return NULL;
}

static napi_value js_live_readers(napi_env env, napi_callback_info info) {
    (void)info;
    napi_value count;
    NAPI_OK(napi_create_double(env, (double)atomic_load(&live_readers), &count));
    return count;
}

bool reader_define(napi_env env, napi_value exports, State *state) {
    static const struct {
        const char *name;
        napi_callback callback;
    } FUNCTIONS[] = {
        {"readerNew", js_reader_new},
        {"readerFeed", js_reader_feed},
        {"readerEnd", js_reader_end},
        {"readerFree", js_reader_free},
        {"liveReaders", js_live_readers},
    };
    for (size_t i = 0; i < sizeof FUNCTIONS / sizeof FUNCTIONS[0]; i++) {
        if (!set_function(env, exports, FUNCTIONS[i].name, FUNCTIONS[i].callback, state)) {
            return false;
        }
    }
    return true;
}
