/*
 * handle.c: the library's readers, sessions and relays as JavaScript
 * handles.
 *
 * A handle owns its reader, session or relay: readerFree (sessionFree,
 * relayFree) frees it at once (lib/ calls it when a stream's iteration
 * ends, fails or is abandoned, or on close()), and the handle's finalizer
 * frees it only if that never happened.
 */

#include <stdatomic.h>
#include <stdlib.h>

#include "addon.h"

/* How many library readers, sessions and relays are alive, in every
 * environment of the process: a diagnostic for the tests (the liveReaders,
 * liveSessions and liveRelays exports), which check that each is freed
 * when its stream's iteration ends or it is closed. */
static atomic_size_t live_readers;
static atomic_size_t live_sessions;
static atomic_size_t live_relays;

/* What a handle holds: a reader, a session or a relay (only one), NULL
 * once freed. */
typedef struct Box {
    JsonRpcReader *reader;
    JsonRpcSession *session;
    JsonRpcRelay *relay;
} Box;

/* Mark the objects readerNew, sessionNew and relayNew made, so that no
 * other object is ever taken for one. */
static const napi_type_tag READER_TAG = {0x6a736f6e72706365ULL, 0x7265616465720001ULL};
static const napi_type_tag SESSION_TAG = {0x6a736f6e72706365ULL, 0x73657373696f6e01ULL};
static const napi_type_tag RELAY_TAG = {0x6a736f6e72706365ULL, 0x72656c6179000001ULL};

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
    if (box->relay != NULL) {
        jsonrpc_relay_free(box->relay);
        box->relay = NULL;
        atomic_fetch_sub(&live_relays, 1);
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
static const HandleKind RELAY = {&RELAY_TAG, "not a relay handle", "the relay has been freed"};

/* Whether `handle` is an object of this kind that *New made (freed or not). */
static bool is_handle(napi_env env, napi_value handle, const HandleKind *kind) {
    napi_valuetype type = napi_undefined;
    bool tagged = false;
    return napi_typeof(env, handle, &type) == napi_ok && type == napi_object &&
           napi_check_object_type_tag(env, handle, kind->tag, &tagged) == napi_ok && tagged;
}

/* The live box behind a handle argument, or NULL with an exception: a
 * TypeError for an object that is no such handle, an Error for one whose
 * reader, session or relay has been freed. */
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

JsonRpcReader *reader_arg(napi_env env, napi_value handle) {
    Box *box = box_arg(env, handle, &READER);
    return box == NULL ? NULL : box->reader;
}

JsonRpcSession *session_arg(napi_env env, napi_value handle) {
    Box *box = box_arg(env, handle, &SESSION);
    return box == NULL ? NULL : box->session;
}

JsonRpcRelay *relay_arg(napi_env env, napi_value handle) {
    Box *box = box_arg(env, handle, &RELAY);
    return box == NULL ? NULL : box->relay;
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

/* relayNew(profile?, maxLine?) */
static napi_value js_relay_new(napi_env env, napi_callback_info info) {
    napi_value argv[2];
    uint32_t profile;
    size_t max_line;
    if (!callback_args(env, info, 2, argv, NULL) || !profile_arg(env, argv[0], &profile) ||
        !max_line_arg(env, argv[1], &max_line)) {
        return NULL;
    }
    Box *box = calloc(1, sizeof *box);
    if (box == NULL) {
        return throw_error(env, "out of memory");
    }
    box->relay = jsonrpc_relay_new(profile, max_line);
    if (box->relay == NULL) {
        free(box);
        /* The profile is one of the library's (profile_arg): memory. */
        return throw_error(env, "jsonrpc_relay_new: out of memory");
    }
    atomic_fetch_add(&live_relays, 1);
    return handle_new(env, box, &RELAY);
}

/* Frees the reader, session or relay at once, and its box with it: the handle is
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

static napi_value js_relay_free(napi_env env, napi_callback_info info) {
    return handle_free(env, info, &RELAY);
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

static napi_value js_live_relays(napi_env env, napi_callback_info info) {
    (void)info;
    return live_count(env, &live_relays);
}

const ExportedFunction HANDLE_FUNCTIONS[] = {
    {"readerNew", js_reader_new},       {"readerFree", js_reader_free},   {"liveReaders", js_live_readers},
    {"sessionNew", js_session_new},     {"sessionFree", js_session_free}, {"liveSessions", js_live_sessions},
    {"relayNew", js_relay_new},         {"relayFree", js_relay_free},     {"liveRelays", js_live_relays},
    {NULL, NULL},
};
