/*
 * reader.c: the library's stream reader and session as JavaScript handles.
 * One call crosses into the library per chunk read; each call's batch
 * comes back as a record per line (see addon.h), a copy of the batch's
 * bytes (in the caller's slab when they fit), its strings as one string
 * and, for a session, its lines' action texts and notes as another.
 *
 * A handle owns its reader or session: readerFree (sessionFree) frees it at
 * once (lib/ calls it when a stream's iteration ends, fails or is
 * abandoned, or on close()), and the handle's finalizer frees it only if
 * that never happened.
 */

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "addon.h"

/* How many library readers and sessions are alive, in every environment
 * of the process: a diagnostic for the tests (the liveReaders and
 * liveSessions exports), which check that each is freed when its stream's
 * iteration ends or it is closed. */
static atomic_size_t live_readers;
static atomic_size_t live_sessions;

/* What a handle holds: a reader or a session (never both), NULL once
 * freed. */
typedef struct Box {
    JsonRpcReader *reader;
    JsonRpcSession *session;
} Box;

/* Mark the objects readerNew and sessionNew made, so that no other object
 * is ever taken for one. */
static const napi_type_tag READER_TAG = {0x6a736f6e72706365ULL, 0x7265616465720001ULL};
static const napi_type_tag SESSION_TAG = {0x6a736f6e72706365ULL, 0x73657373696f6e01ULL};

static void box_release(Box *box) {
    if (box->reader != NULL) {
        jsonrpc_reader_free(box->reader);
        box->reader = NULL;
        atomic_fetch_sub(&live_readers, 1);
    }
    if (box->session != NULL) {
        jsonrpc_session_free(box->session);
        box->session = NULL;
        atomic_fetch_sub(&live_sessions, 1);
    }
}

static void box_finalize(napi_env env, void *data, void *hint) {
    (void)env;
    (void)hint;
    Box *box = data;
    box_release(box);
    free(box);
}

/* What a kind of handle is called in errors, and its tag. */
typedef struct HandleKind {
    const napi_type_tag *tag;
    const char *not_one; /* the TypeError for another value */
    const char *freed;   /* the Error for a freed one */
} HandleKind;

static const HandleKind READER = {&READER_TAG, "not a reader handle", "the reader has been freed"};
static const HandleKind SESSION = {&SESSION_TAG, "not a session handle", "the session has been freed"};

/* Whether `handle` is an object of this kind that *New made (freed or not). */
static bool is_handle(napi_env env, napi_value handle, const HandleKind *kind) {
    napi_valuetype type = napi_undefined;
    bool tagged = false;
    return napi_typeof(env, handle, &type) == napi_ok && type == napi_object &&
           napi_check_object_type_tag(env, handle, kind->tag, &tagged) == napi_ok && tagged;
}

/* The live box behind a handle argument, or NULL with an exception: a
 * TypeError for an object that is no such handle, an Error for one whose
 * reader or session has been freed. */
static Box *box_arg(napi_env env, napi_value handle, const HandleKind *kind) {
    void *box = NULL;
    if (!is_handle(env, handle, kind)) {
        throw_type_error(env, kind->not_one);
        return NULL;
    }
    if (napi_unwrap(env, handle, &box) != napi_ok || box == NULL) {
        throw_error(env, kind->freed);
        return NULL;
    }
    return box;
}

JsonRpcSession *session_arg(napi_env env, napi_value handle) {
    Box *box = box_arg(env, handle, &SESSION);
    return box == NULL ? NULL : box->session;
}

/* A new handle of `kind` over the box (which it then owns). */
static napi_value handle_new(napi_env env, Box *box, const HandleKind *kind) {
    napi_value handle;
    if (napi_create_object(env, &handle) != napi_ok || napi_type_tag_object(env, handle, kind->tag) != napi_ok ||
        napi_wrap(env, handle, box, box_finalize, NULL, NULL) != napi_ok) {
        box_release(box);
        free(box);
        return throw_last_error(env);
    }
    return handle;
}

/* readerNew(maxLine?, profile?) */
static napi_value js_reader_new(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    size_t max_line;
    uint32_t profile;
    if (!callback_args(env, info, 2, argv, NULL) || !max_line_arg(env, argv[0], &max_line) ||
        !profile_arg(env, argv[1], &profile)) {
        return NULL;
    }
    Box *box = calloc(1, sizeof *box);
    if (box == NULL) {
        return throw_error(env, "out of memory");
    }
    box->reader = jsonrpc_reader_new(max_line, profile);
    if (box->reader == NULL) {
        free(box);
        /* The profile is one of the library's (profile_arg): memory. */
        return throw_error(env, "jsonrpc_reader_new: out of memory");
    }
    atomic_fetch_add(&live_readers, 1);
    return handle_new(env, box, &READER);
}

/* sessionNew(role, profile?, maxLine?) */
static napi_value js_session_new(napi_env env, napi_callback_info info) {
    napi_value argv[3];
    uint32_t role, profile;
    size_t max_line;
    if (!callback_args(env, info, 3, argv, NULL) || !role_arg(env, argv[0], &role) ||
        !profile_arg(env, argv[1], &profile) || !max_line_arg(env, argv[2], &max_line)) {
        return NULL;
    }
    Box *box = calloc(1, sizeof *box);
    if (box == NULL) {
        return throw_error(env, "out of memory");
    }
    box->session = jsonrpc_session_new(role, profile, max_line);
    if (box->session == NULL) {
        free(box);
        /* The role and profile are the library's (role_arg, profile_arg). */
        return throw_error(env, "jsonrpc_session_new: out of memory");
    }
    atomic_fetch_add(&live_sessions, 1);
    return handle_new(env, box, &SESSION);
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
 * anywhere but the caller's own (the records and slab arguments), or when
 * a session's lines carry action texts or notes (extras_value), the result
 * is [texts, records, bytes, extras] instead (extras undefined when there
 * are none). One result and no array in the usual case (a reader's lines,
 * or a session's lines that are all forwarded): an array costs a few
 * hundred nanoseconds to make, as much as the rest of a one-line batch. */
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

/* A failed feed or end, with what its status means for the caller (the
 * header's promises). */
static napi_value status_error(napi_env env, const char *call, JsonRpcStatus status, const char *out_of_memory,
                               const char *internal) {
    const char *consequence = status == JSONRPC_STATUS_OUT_OF_MEMORY    ? out_of_memory
                              : status == JSONRPC_STATUS_INTERNAL_ERROR ? internal
                                                                        : NULL;
    return throw_status(env, call, status, (JsonRpcStr){NULL, 0}, consequence);
}

/* readerFeed(handle, chunk, records?, slab?, used?) and
 * readerEnd(handle, records?, slab?, used?), and the same of a session
 * (sessionFeed, sessionEnd): the batch the call completed, as batch_value
 * gives it. */
static napi_value stream_call(napi_env env, napi_callback_info info, const HandleKind *kind, bool ending) {
    napi_value argv[5];
    State *state = NULL;
    if (!callback_args(env, info, 5, argv, &state)) {
        return NULL;
    }
    Box *box = box_arg(env, argv[0], kind);
    if (box == NULL) {
        return NULL;
    }
    bool session = kind == &SESSION;
    JsonRpcBatch batch;
    JsonRpcStatus status;
    if (ending) {
        status = session ? jsonrpc_session_end(box->session, &batch) : jsonrpc_reader_end(box->reader, &batch);
    } else {
        Input chunk;
        if (!input_bytes(env, state, argv[1], "chunk", &chunk)) {
            return NULL;
        }
        status = session ? jsonrpc_session_feed(box->session, chunk.data, chunk.len, &batch)
                         : jsonrpc_reader_feed(box->reader, chunk.data, chunk.len, &batch);
        input_release(&chunk);
    }
    if (status != JSONRPC_STATUS_OK) {
        const char *call = session ? (ending ? "jsonrpc_session_end" : "jsonrpc_session_feed")
                                   : (ending ? "jsonrpc_reader_end" : "jsonrpc_reader_feed");
        return status_error(env, call, status, ending ? "the stream has not ended" : "the chunk was not taken",
                            session ? "this session fails from now on" : "this reader fails from now on");
    }
    napi_value *rest = argv + (ending ? 1 : 2);
    return batch_value(env, state, &batch, rest[0], rest[1], rest[2]);
}

static napi_value js_reader_feed(napi_env env, napi_callback_info info) {
    return stream_call(env, info, &READER, false);
}

static napi_value js_reader_end(napi_env env, napi_callback_info info) {
    return stream_call(env, info, &READER, true);
}

static napi_value js_session_feed(napi_env env, napi_callback_info info) {
    return stream_call(env, info, &SESSION, false);
}

static napi_value js_session_end(napi_env env, napi_callback_info info) {
    return stream_call(env, info, &SESSION, true);
}

/* Frees the reader or session at once, and its box with it: the handle is
 * unwrapped, so no finalizer is left waiting for a collection. */
static napi_value handle_free(napi_env env, napi_callback_info info, const HandleKind *kind) {
    napi_value argv[1];
    if (!callback_args(env, info, 1, argv, NULL)) {
        return NULL;
    }
    if (!is_handle(env, argv[0], kind)) {
        return throw_type_error(env, kind->not_one);
    }
    void *box = NULL;
    if (napi_remove_wrap(env, argv[0], &box) == napi_ok && box != NULL) {
        box_release(box);
        free(box);
    }
    return NULL;
}

static napi_value js_reader_free(napi_env env, napi_callback_info info) {
    return handle_free(env, info, &READER);
}

static napi_value js_session_free(napi_env env, napi_callback_info info) {
    return handle_free(env, info, &SESSION);
}

static napi_value live_count(napi_env env, atomic_size_t *count) {
    napi_value value;
    NAPI_OK(napi_create_double(env, (double)atomic_load(count), &value));
    return value;
}

static napi_value js_live_readers(napi_env env, napi_callback_info info) {
    (void)info;
    return live_count(env, &live_readers);
}

static napi_value js_live_sessions(napi_env env, napi_callback_info info) {
    (void)info;
    return live_count(env, &live_sessions);
}

bool reader_define(napi_env env, napi_value exports, State *state) {
    static const struct {
        const char *name;
        napi_callback callback;
    } FUNCTIONS[] = {
        {"readerNew", js_reader_new},       {"readerFeed", js_reader_feed},     {"readerEnd", js_reader_end},
        {"readerFree", js_reader_free},     {"liveReaders", js_live_readers},   {"sessionNew", js_session_new},
        {"sessionFeed", js_session_feed},   {"sessionEnd", js_session_end},     {"sessionFree", js_session_free},
        {"liveSessions", js_live_sessions},
    };
    for (size_t i = 0; i < sizeof FUNCTIONS / sizeof FUNCTIONS[0]; i++) {
        if (!set_function(env, exports, FUNCTIONS[i].name, FUNCTIONS[i].callback, state)) {
            return false;
        }
    }
    return true;
}
