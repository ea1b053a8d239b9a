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
/* The number of strings a classification carries. */
#define TEXT_COUNT 6

enum {
    SLOT_KIND = 0,
    SLOT_ID_KIND,
    SLOT_JSONRPC_2_0,      /* 0 or 1 */
    SLOT_HAS_RESULT,       /* 0 or 1 */
    SLOT_HAS_ERROR,        /* 0 or 1 */
    SLOT_NAMES_NO_REQUEST, /* 0 or 1 */
    SLOT_SPANS,            /* 5 (offset, length) pairs: id, method, params, result, error */
    SLOT_TEXTS = SLOT_SPANS + 10, /* 6 UTF-16 lengths, -1 when absent: id, method, reason,
                                     reply_server, reply_client, substitute */
    SLOT_NUMBER = SLOT_TEXTS + TEXT_COUNT, /* a reader's line: its number in the stream, */
    SLOT_OFFSET,                           /* where it stands in the batch's bytes, */
    SLOT_LENGTH,                           /* its length in bytes (LF excluded), */
    SLOT_ACTION,      /* its action (a JsonRpcAction value; NONE for a plain reader's line), */
    SLOT_ACTION_TEXT, /* and the UTF-16 lengths of its action's text and note in the */
    SLOT_NOTE,        /* batch's extras, -1 when absent */
    SLOT_COUNT
};

/* The slots of the state's `batch` numbers. */
enum { BATCH_LINES = 0, BATCH_BASE, BATCH_END, BATCH_COUNT };

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
     * allocated them (they outgrew the scratch), and where a session's
     * batch puts its lines' action texts and notes. */
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

/* A batch's action texts and notes (a session's lines), back to back, each
 * followed by a NUL, in the state's `texts` buffer, their UTF-16 lengths
 * in each record's SLOT_ACTION_TEXT and SLOT_NOTE; `*result` is the string
 * of them, or NULL when no line has either (nothing is made). */
bool extras_value(napi_env env, State *state, const JsonRpcBatch *batch, double *records, napi_value *result);

/* UTF-16 code units of valid UTF-8 text; *ascii is cleared when a byte is
 * not ASCII. */
size_t utf16_units(const uint8_t *text, size_t len, bool *ascii);

/* A JavaScript string of valid UTF-8 text (copied as Latin-1 when it is
 * ASCII, which V8 takes without decoding). */
napi_status string_value(napi_env env, const char *text, size_t len, bool ascii, napi_value *result);

/* A string the library returned, as a JavaScript string (null when it has
 * none), and freed. NULL (with an exception) on a failed napi_* call. */
napi_value owned_string_value(napi_env env, JsonRpcString *text);

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

/* A role argument (one of the library's role names, jsonrpc_role_name) as
 * its JsonRpcRole value; a TypeError (not a string) or a RangeError (no
 * role's name) otherwise. */
bool role_arg(napi_env env, napi_value value, uint32_t *role);

/* A profile argument (one of the library's profile names,
 * jsonrpc_profile_name) as its JsonRpcProfile value; undefined is the
 * library's default profile, JSONRPC_PROFILE_JSONRPC. Errors as for
 * role_arg. */
bool profile_arg(napi_env env, napi_value value, uint32_t *profile);

/* A line limit argument (undefined: 0, the library's default), already
 * checked by lib/arguments.cjs; a RangeError for anything else. */
bool max_line_arg(napi_env env, napi_value value, size_t *max_line);

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

/* The stream handles' part of the module (reader.c): defines readerNew,
 * readerFeed, readerEnd, readerFree, liveReaders and their session
 * counterparts (sessionNew, sessionFeed, sessionEnd, sessionFree,
 * liveSessions) on `exports`. */
bool reader_define(napi_env env, napi_value exports, State *state);

/* The live session behind a handle argument, or NULL with an exception
 * (a TypeError for no session handle, an Error for a freed one). */
JsonRpcSession *session_arg(napi_env env, napi_value handle);

/* The session's own calls (session.c): sessionSent, sessionRefused and
 * sessionOutstanding, defined on `exports`. */
bool session_define(napi_env env, napi_value exports, State *state);

#endif /* JSONRPC_ENVELOPE_NODE_ADDON_H */
