/*
 * reader.c: reading a stream through a reader or a session handle: one
 * call into the library per chunk (feed) and one at the stream's end, each
 * giving the batch of lines it completed as batch_value makes it (see
 * convert.c).
 */

#include "addon.h"

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
static napi_value stream_call(napi_env env, napi_callback_info info, bool of_session, bool ending) {
    napi_value argv[5];
    State *state = NULL;
    if (!callback_args(env, info, 5, argv, &state)) {
        return NULL;
    }
    JsonRpcReader *reader = of_session ? NULL : reader_arg(env, argv[0]);
    JsonRpcSession *session = of_session ? session_arg(env, argv[0]) : NULL;
    if (reader == NULL && session == NULL) {
        return NULL;
    }
    JsonRpcBatch batch;
    JsonRpcStatus status;
    if (ending) {
        status = of_session ? jsonrpc_session_end(session, &batch) : jsonrpc_reader_end(reader, &batch);
    } else {
        Input chunk;
        if (!input_bytes(env, state, argv[1], "chunk", &chunk)) {
            return NULL;
        }
        status = of_session ? jsonrpc_session_feed(session, chunk.data, chunk.len, &batch)
                         : jsonrpc_reader_feed(reader, chunk.data, chunk.len, &batch);
        input_release(&chunk);
    }
    if (status != JSONRPC_STATUS_OK) {
        const char *call = of_session ? (ending ? "jsonrpc_session_end" : "jsonrpc_session_feed")
                                   : (ending ? "jsonrpc_reader_end" : "jsonrpc_reader_feed");
        return status_error(env, call, status, ending ? "the stream has not ended" : "the chunk was not taken",
                            of_session ? "this session fails from now on" : "this reader fails from now on");
    }
    napi_value *rest = argv + (ending ? 1 : 2);
    return batch_value(env, state, &batch, rest[0], rest[1], rest[2]);
}

static napi_value js_reader_feed(napi_env env, napi_callback_info info) {
    return stream_call(env, info, false, false);
}

static napi_value js_reader_end(napi_env env, napi_callback_info info) {
    return stream_call(env, info, false, true);
}

static napi_value js_session_feed(napi_env env, napi_callback_info info) {
    return stream_call(env, info, true, false);
}

static napi_value js_session_end(napi_env env, napi_callback_info info) {
    return stream_call(env, info, true, true);
}

const ExportedFunction READER_FUNCTIONS[] = {
    {"readerFeed", js_reader_feed},   {"readerEnd", js_reader_end},
    {"sessionFeed", js_session_feed}, {"sessionEnd", js_session_end},
    {NULL, NULL},
};
