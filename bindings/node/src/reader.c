/*
 * reader.c: reading a stream through a reader, a session or a relay handle:
 * one call into the library per chunk (feed) and one at the stream's end,
 * each giving the batch of lines it completed as batch_value makes it (see
 * convert.c). A relay reads two streams, one per direction, named by the
 * call's second argument.
 */

#include "addon.h"

/* What a handle reads with: its library calls and their names, what a
 * failure means for it, and whether its calls name a direction. */
typedef enum Of { OF_READER, OF_SESSION, OF_RELAY } Of;

typedef struct StreamKind {
    const char *feed_call;
    const char *end_call;
    const char *fails; /* what an internal error means for the caller */
    bool directed;     /* a direction argument after the handle */
} StreamKind;

static const StreamKind KINDS[] = {
    [OF_READER] = {"jsonrpc_reader_feed", "jsonrpc_reader_end", "this reader fails from now on", false},
    [OF_SESSION] = {"jsonrpc_session_feed", "jsonrpc_session_end", "this session fails from now on", false},
    [OF_RELAY] = {"jsonrpc_relay_feed", "jsonrpc_relay_end", "this relay fails from now on", true},
};

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
 * readerEnd(handle, records?, slab?, used?), the same of a session
 * (sessionFeed, sessionEnd), and of a relay with a direction after the
 * handle (relayFeed(handle, direction, chunk, ...), relayEnd(handle,
 * direction, ...)): the batch the call completed, as batch_value gives
 * it. */
static napi_value stream_call(napi_env env, napi_callback_info info, Of of, bool ending) {
    const StreamKind *kind = &KINDS[of];
    napi_value argv[6];
    State *state = NULL;
    if (!callback_args(env, info, 6, argv, &state)) {
        return NULL;
    }
    JsonRpcReader *reader = of == OF_READER ? reader_arg(env, argv[0]) : NULL;
    JsonRpcSession *session = of == OF_SESSION ? session_arg(env, argv[0]) : NULL;
    JsonRpcRelay *relay = of == OF_RELAY ? relay_arg(env, argv[0]) : NULL;
    if (reader == NULL && session == NULL && relay == NULL) {
        return NULL;
    }
    napi_value *rest = argv + 1;
    uint32_t direction = 0;
    if (kind->directed) {
        if (!direction_arg(env, rest[0], &direction)) {
            return NULL;
        }
        rest++;
    }
    JsonRpcBatch batch;
    JsonRpcStatus status;
    if (ending) {
        status = of == OF_RELAY     ? jsonrpc_relay_end(relay, direction, &batch)
                 : of == OF_SESSION ? jsonrpc_session_end(session, &batch)
                                    : jsonrpc_reader_end(reader, &batch);
    } else {
        Input chunk;
        if (!input_bytes(env, state, rest[0], "chunk", &chunk)) {
            return NULL;
        }
        rest++;
        status = of == OF_RELAY     ? jsonrpc_relay_feed(relay, direction, chunk.data, chunk.len, &batch)
                 : of == OF_SESSION ? jsonrpc_session_feed(session, chunk.data, chunk.len, &batch)
                                    : jsonrpc_reader_feed(reader, chunk.data, chunk.len, &batch);
        input_release(&chunk);
    }
    if (status != JSONRPC_STATUS_OK) {
        return status_error(env, ending ? kind->end_call : kind->feed_call, status,
                            ending ? "the stream has not ended" : "the chunk was not taken", kind->fails);
    }
    return batch_value(env, state, &batch, rest[0], rest[1], rest[2]);
}

static napi_value js_reader_feed(napi_env env, napi_callback_info info) {
    return stream_call(env, info, OF_READER, false);
}

static napi_value js_reader_end(napi_env env, napi_callback_info info) {
    return stream_call(env, info, OF_READER, true);
}

static napi_value js_session_feed(napi_env env, napi_callback_info info) {
    return stream_call(env, info, OF_SESSION, false);
}

static napi_value js_session_end(napi_env env, napi_callback_info info) {
    return stream_call(env, info, OF_SESSION, true);
}

static napi_value js_relay_feed(napi_env env, napi_callback_info info) {
    return stream_call(env, info, OF_RELAY, false);
}

static napi_value js_relay_end(napi_env env, napi_callback_info info) {
    return stream_call(env, info, OF_RELAY, true);
}

const ExportedFunction READER_FUNCTIONS[] = {
    {"readerFeed", js_reader_feed},   {"readerEnd", js_reader_end},
    {"sessionFeed", js_session_feed}, {"sessionEnd", js_session_end},
    {"relayFeed", js_relay_feed},     {"relayEnd", js_relay_end},
    {NULL, NULL},
};
