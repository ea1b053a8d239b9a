/*
 * turns.c: two builds of the shared library, the same calls, in turns: a
 * session (role server, MCP profile) and a two-way relay, each fed a corpus
 * in 64 KiB chunks, nine runs each, alternating; the median ns per line of
 * each and their ratio. For a change that must not make any binding slower:
 * every binding reaches the library through these calls.
 *
 *   make bench-turns BEFORE=path/to/old/libjsonrpc_envelope.so
 *
 * A build without jsonrpc_relay_* (before the relay) is measured on its
 * session alone.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "jsonrpc_envelope.h"

enum { RUNS = 9, CHUNK = 64 << 10, REPEAT = 5 };

typedef struct {
    const char *path;
    JsonRpcSession *(*session_new)(uint32_t, uint32_t, size_t);
    JsonRpcStatus (*session_feed)(JsonRpcSession *, const uint8_t *, size_t, JsonRpcBatch *);
    JsonRpcStatus (*session_end)(JsonRpcSession *, JsonRpcBatch *);
    void (*session_free)(JsonRpcSession *);
    JsonRpcRelay *(*relay_new)(uint32_t, size_t);
    JsonRpcStatus (*relay_feed)(JsonRpcRelay *, uint32_t, const uint8_t *, size_t, JsonRpcBatch *);
    void (*relay_free)(JsonRpcRelay *);
} Library;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static Library load(const char *path) {
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        fprintf(stderr, "turns: %s\n", dlerror());
        exit(2);
    }
    Library lib;
    memset(&lib, 0, sizeof lib);
    lib.path = path;
    *(void **)&lib.session_new = dlsym(h, "jsonrpc_session_new");
    *(void **)&lib.session_feed = dlsym(h, "jsonrpc_session_feed");
    *(void **)&lib.session_end = dlsym(h, "jsonrpc_session_end");
    *(void **)&lib.session_free = dlsym(h, "jsonrpc_session_free");
    *(void **)&lib.relay_new = dlsym(h, "jsonrpc_relay_new");
    *(void **)&lib.relay_feed = dlsym(h, "jsonrpc_relay_feed");
    *(void **)&lib.relay_free = dlsym(h, "jsonrpc_relay_free");
    if (lib.session_new == NULL || lib.session_feed == NULL || lib.session_end == NULL || lib.session_free == NULL) {
        fprintf(stderr, "turns: %s has no session\n", path);
        exit(2);
    }
    return lib;
}

/* ns per line of the session, or of the relay (read toward the server). */
static double run(const Library *lib, bool relay, const uint8_t *data, size_t len) {
    JsonRpcSession *session = relay ? NULL : lib->session_new(JSONRPC_ROLE_SERVER, JSONRPC_PROFILE_MCP, 0);
    JsonRpcRelay *r = relay ? lib->relay_new(JSONRPC_PROFILE_MCP, 0) : NULL;
    JsonRpcBatch batch;
    size_t lines = 0;
    double start = now();
    for (int rep = 0; rep < REPEAT; rep++) {
        for (size_t at = 0; at < len; at += CHUNK) {
            size_t n = len - at < CHUNK ? len - at : CHUNK;
            if (relay) {
                lib->relay_feed(r, JSONRPC_DIRECTION_TO_SERVER, data + at, n, &batch);
            } else {
                lib->session_feed(session, data + at, n, &batch);
            }
            lines += batch.count;
        }
    }
    double ns = (now() - start) / (double)(lines ? lines : 1);
    if (relay) {
        lib->relay_free(r);
    } else {
        lib->session_end(session, &batch);
        lib->session_free(session);
    }
    return ns;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v) {
    qsort(v, RUNS, sizeof *v, by_value);
    return v[RUNS / 2];
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s BEFORE.so AFTER.so CORPUS...\n", argv[0]);
        return 2;
    }
    Library before = load(argv[1]), after = load(argv[2]);
    printf("%-28s %12s %12s %8s %12s\n", "corpus (MCP, role server)", "before", "after", "ratio", "after relay");
    for (int c = 3; c < argc; c++) {
        FILE *f = fopen(argv[c], "rb");
        if (f == NULL) {
            perror(argv[c]);
            return 2;
        }
        fseek(f, 0, SEEK_END);
        size_t len = (size_t)ftell(f);
        rewind(f);
        uint8_t *data = malloc(len);
        if (data == NULL || fread(data, 1, len, f) != len) return 2;
        fclose(f);
        double b[RUNS], a[RUNS], r[RUNS];
        bool relay = after.relay_new != NULL;
        for (int i = 0; i < RUNS; i++) {
            b[i] = run(&before, false, data, len);
            a[i] = run(&after, false, data, len);
            r[i] = relay ? run(&after, true, data, len) : 0;
        }
        double mb = median(b), ma = median(a), mr = median(r);
        const char *name = strrchr(argv[c], '/') ? strrchr(argv[c], '/') + 1 : argv[c];
        printf("%-28s %9.1f ns %9.1f ns %8.3f %9.1f ns\n", name, mb, ma, ma / mb, mr);
        free(data);
    }
    printf("(ns per line, medians of %d runs in turns, each %d passes over the corpus)\n", RUNS, REPEAT);
    return 0;
}
