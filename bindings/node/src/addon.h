/*
 * addon.h: what the parts of the Node-API addon share. The addon converts
 * JavaScript values to the library's (pointer, length) inputs and the
 * library's results to JavaScript values; every decision is the library's.
 */

#ifndef JSONRPC_ENVELOPE_NODE_ADDON_H
#define JSONRPC_ENVELOPE_NODE_ADDON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <node_api.h>

#include "jsonrpc_envelope.h"

/*
 * A classification travels to JavaScript as a record of doubles (numbers
 * only; its strings travel as one JavaScript string, see texts_value). The
 * JavaScript side reads the slot numbers from the addon's `layout` export,
 * never from a copy of its own.
 */
enum {
    SLOT_KIND = 0,
    SLOT_ID_KIND,
    SLOT_JSONRPC_2_0,      /* 0 or 1 */
    SLOT_HAS_RESULT,       /* 0 or 1 */
    SLOT_HAS_ERROR,        /* 0 or 1 */
    SLOT_NAMES_NO_REQUEST, /* 0 or 1 */
    SLOT_SPANS,            /* 5 (offset, length) pairs: id, method, params, result, error */
    SLOT_TEXTS = SLOT_SPANS + 10, /* 5 UTF-16 lengths, -1 when absent: id, method,
                                     reason, reply_server, reply_client */
    SLOT_NUMBER = SLOT_TEXTS + 5, /* a reader's line: its number in the stream, */
    SLOT_OFFSET,                  /* where it stands in the batch's bytes, */
    SLOT_LENGTH,                  /* and its length in bytes (LF excluded) */
    SLOT_COUNT
};

/* The slots of the state's `batch` numbers. */
enum { BATCH_LINES = 0, BATCH_BASE, BATCH_END, BATCH_COUNT };

/* The number of strings a classification carries. */
#define TEXT_COUNT 5

/* Per-instance state (one per Node environment: the main thread and each
 * worker), owned by napi_set_instance_data. */
typedef struct State {
    /* classify's record, which JavaScript reads through a Float64Array
     * over this memory (the addon's `record` export). The state owns it, so
     * the addon's writes stay in bounds whatever JavaScript does with its
     * view (even detaching it). */
    double record[SLOT_COUNT];
    /* What a reader's last call gave (the `batch` export): its number of
     * lines, and where its bytes start and end in the Uint8Array that
     * holds them. */
    double batch[BATCH_COUNT];
    /* jsonrpc_classify_into's scratch: the header says 1 KiB holds the
     * strings of almost every line. */
    uint8_t scratch[1024];
    /* A string argument's UTF-8 bytes, reused while it is small. */
    uint8_t *input;
    size_t input_cap;
    /* Where a result's strings are put back to back when the library
     * allocated them (they outgrew the scratch). */
    uint8_t *texts;
    size_t texts_cap;
} State;

/* A line or chunk argument as bytes: a view of a Uint8Array's memory, or a
 * string's UTF-8 encoding in the state's buffer or an allocation. */
typedef struct Input {
    const uint8_t *data;
    size_t len;
    uint8_t *allocated; /* freed by input_release */
} Input;

/* Reads `value` (a string, a Buffer or a Uint8Array) as bytes. On a wrong
 * type it throws a TypeError naming `what` and returns false. */
bool input_bytes(napi_env env, State *state, napi_value value, const char *what, Input *out);
void input_release(Input *input);

/* What record_write found of a classification's strings: their bytes
 * back to back with a NUL after each (0 when none is present), and whether
 * they are all ASCII. */
typedef struct TextsInfo {
    size_t bytes;
    bool ascii;
} TextsInfo;

/* Writes a classification's numbers into `record` (SLOT_COUNT doubles),
 * its strings' UTF-16 lengths included, and adds its strings to `texts`. */
void record_write(double *record, const JsonRpcClassification *c, TextsInfo *texts);

/* A classification's strings (those `info` describes), back to back, each
 * followed by a NUL, in the order of SLOT_TEXTS, as one JavaScript string;
 * `undefined` when there is none. The state's scratch is the one that was
 * handed to jsonrpc_classify_into. */
bool texts_value(napi_env env, State *state, const JsonRpcClassification *c, const TextsInfo *info,
                 napi_value *result);

/* A batch's `texts` (the strings of all its items, laid out so by the
 * library) as one JavaScript string, or `undefined` when empty. */
bool batch_texts_value(napi_env env, const JsonRpcBatch *batch, const TextsInfo *info, napi_value *result);

/* UTF-16 code units of valid UTF-8 text; *ascii is cleared when a byte is
 * not ASCII. */
size_t utf16_units(const uint8_t *text, size_t len, bool *ascii);

/* Throws a JavaScript error of the given kind unless one is pending;
 * returns NULL for the callback to return. */
napi_value throw_type_error(napi_env env, const char *message);
napi_value throw_range_error(napi_env env, const char *message);
napi_value throw_error(napi_env env, const char *message);
/* A failed library call, named with the library's status name, its
 * detail (a result's reason) when there is one, and what it means for
 * the caller (NULL: nothing to add). Returns NULL. */
napi_value throw_status(napi_env env, const char *call, JsonRpcStatus status, JsonRpcStr detail,
                        const char *consequence);
/* After a failed napi_* call: throws its message unless an exception is
 * already pending. */
napi_value throw_last_error(napi_env env);

/* A callback's first `count` arguments into argv (undefined where fewer
 * were passed, so a missing argument gets the same TypeError as a wrong
 * one) and, when `state` is not NULL, the state it was made with. */
bool callback_args(napi_env env, napi_callback_info info, size_t count, napi_value *argv, State **state);

/* napi_* calls that fail leave a pending exception or get one. */
#define NAPI_OK(call)                          \
    do {                                       \
        if ((call) != napi_ok) {               \
            return throw_last_error(env);      \
        }                                      \
    } while (0)

/* Sets `object[key]` to a function of `callback` made with `state` (its
 * callbacks' data); false on a failed napi_* call. */
bool set_function(napi_env env, napi_value object, const char *key, napi_callback callback, State *state);

/* The reader's part of the module: defines readerNew, readerFeed,
 * readerEnd and readerFree on `exports`. */
bool reader_define(napi_env env, napi_value exports, State *state);

#endif /* JSONRPC_ENVELOPE_NODE_ADDON_H */
