/*
 * addon.h: what the parts of the Node-API addon share. The addon converts
 * JavaScript values to the library's (pointer, length) inputs and the
 * library's results to JavaScript values; every decision is the library's.
 *
 * Its parts, each with one job, call one another only in this order (no
 * part calls back into one above it):
 *   addon.c      the entry point: ABI check, state, exports
 *   line.c       classify, invalidReply, logValue
 *   reader.c     a reader's, a session's or a relay's feed and end
 *   session.c    a session's or a relay's sent (wrote), refused,
 *                outstanding; where an action's text goes
 *   handle.c     the reader, session and relay handles: made, checked, freed
 *   arguments.c  JavaScript arguments as the library's inputs
 *   convert.c    the library's results as JavaScript values
 *   errors.c     failures as JavaScript exceptions
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
 * only; its strings travel as one JavaScript string, see convert.c). The
 * JavaScript side reads the slot numbers from the addon's `layout` export,
 * never from a copy of its own.
 *
 * Why a record, and not the library's JsonRpcLine items read in place (or
 * a copy of them read at offsetof offsets): JavaScript cannot follow the
 * header's pointers (a string's `ptr`, a `note`), so the strings must be
 * copied here all the same; it slices a string by UTF-16 units where the
 * header counts bytes, so their lengths must be computed here all the same;
 * a size_t or uint64_t takes two 32-bit reads and arithmetic where a double
 * takes one; and the items are the reader's until its next call, which
 * JavaScript may outlive. Such a copy read at offsetof offsets was tried,
 * measured against this record in turns, and was slower in nearly every
 * row that builds objects.
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

/* napi_* calls that fail leave a pending exception or get one. */
#define NAPI_OK(call)                          \
    do {                                       \
        if ((call) != napi_ok) {               \
            return throw_last_error(env);      \
        }                                      \
    } while (0)

/* A function a part of the addon defines on the module's exports: its
 * name there and its callback (made with the state as its data). Each part
 * lists its own, ended by {NULL, NULL}; addon.c defines them all. */
typedef struct ExportedFunction {
    const char *name;
    napi_callback callback;
} ExportedFunction;

/* line.c: classify, invalidReply, logValue. */
extern const ExportedFunction LINE_FUNCTIONS[];
/* handle.c: readerNew, readerFree, liveReaders, and their session and
 * relay counterparts sessionNew, sessionFree, liveSessions, relayNew,
 * relayFree, liveRelays. */
extern const ExportedFunction HANDLE_FUNCTIONS[];
/* reader.c: readerFeed, readerEnd, sessionFeed, sessionEnd, relayFeed,
 * relayEnd. */
extern const ExportedFunction READER_FUNCTIONS[];
/* session.c: sessionSent, sessionRefused, sessionOutstanding, relayWrote,
 * relayRefused, relayOutstanding, actionGoes, directionReadBy. */
extern const ExportedFunction SESSION_FUNCTIONS[];

/* ---- arguments.c: a callback's arguments as the library's inputs -------- */

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

/* A direction argument (one of the library's direction names,
 * jsonrpc_direction_name) as its JsonRpcDirection value; an action
 * argument (jsonrpc_action_name) as its JsonRpcAction value. Errors as for
 * role_arg. */
bool direction_arg(napi_env env, napi_value value, uint32_t *direction);
bool action_arg(napi_env env, napi_value value, uint32_t *action);

/* A line limit argument (undefined: 0, the library's default), already
 * checked by lib/arguments.cjs; a RangeError for anything else. */
bool max_line_arg(napi_env env, napi_value value, size_t *max_line);

/* ---- handle.c: the reader, session and relay handles --------------------- */

/* The live reader (session, relay) behind a handle argument, or NULL with
 * an exception (a TypeError for no such handle, an Error for a freed one). */
JsonRpcReader *reader_arg(napi_env env, napi_value handle);
JsonRpcSession *session_arg(napi_env env, napi_value handle);
JsonRpcRelay *relay_arg(napi_env env, napi_value handle);

/* ---- convert.c: the library's results as JavaScript values --------------- */

/* A classification into the state's record (the `record` export), and its
 * strings back to back, each followed by a NUL, in the order of SLOT_TEXTS,
 * as the one JavaScript string `*result` (`undefined` when it has none).
 * The state's scratch is the one that was handed to jsonrpc_classify_into.
 * False with an exception on failure. */
bool classification_value(napi_env env, State *state, const JsonRpcClassification *c, napi_value *result);

/* A batch, for the JavaScript that reads it: its numbers in the state's
 * `batch` (its number of lines first: 0 for none), a record per line in
 * `records` (a Float64Array the caller reuses) or a new one when it is too
 * small, its bytes in `slab` (a Uint8Array the caller keeps for many
 * batches) from byte `used` on, or a new Buffer when they do not fit there,
 * and its strings as the result (one string, undefined when none). When
 * the records or the bytes went anywhere but the caller's own, or when a
 * session's lines carry action texts or notes, the result is
 * [texts, records, bytes, extras] instead (extras, the action texts and
 * notes as one string, undefined when there are none). NULL with an
 * exception on failure. */
napi_value batch_value(napi_env env, State *state, const JsonRpcBatch *batch, napi_value records, napi_value slab,
                       napi_value used);

/* A string the library returned, as a JavaScript string (null when it has
 * none), and freed. NULL (with an exception) on a failed napi_* call. */
napi_value owned_string_value(napi_env env, JsonRpcString *text);

/* `*buffer` (of `*cap` bytes) grown to at least `bytes` with realloc;
 * false (with an exception) when memory runs out, the buffer then as it
 * was. */
bool buffer_reserve(napi_env env, uint8_t **buffer, size_t *cap, size_t bytes);

/* ---- errors.c: the addon's failures as JavaScript exceptions ------------- */

/* Throws a JavaScript error of the given kind unless one is pending;
 * returns NULL for the callback to return. */
napi_value throw_type_error(napi_env env, const char *message);
napi_value throw_range_error(napi_env env, const char *message);
napi_value throw_error(napi_env env, const char *message);
/* A failed library call, named with the library's status name, its
 * detail (a result's reason) when there is one, and what it means for
 * the caller (NULL: nothing to add): a RangeError for a status that names
 * a bad argument (an unknown role, profile or direction), else an Error.
 * Returns NULL. */
napi_value throw_status(napi_env env, const char *call, JsonRpcStatus status, JsonRpcStr detail,
                        const char *consequence);
/* After a failed napi_* call: throws its message unless an exception is
 * already pending. */
napi_value throw_last_error(napi_env env);

#endif /* JSONRPC_ENVELOPE_NODE_ADDON_H */
