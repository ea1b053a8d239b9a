/*
 * alloc_failures.c: the header's promise that no failure inside a call
 * takes the host down, for failed allocations. This program interposes
 * malloc, calloc, realloc, posix_memalign, aligned_alloc and memalign (the
 * library's allocations reach them, since the program's definitions come
 * first in the dynamic linker's search), counts the allocations each call
 * makes, and then, for every N up to that count, runs the call again with
 * its Nth allocation failing. Each such call must return its documented
 * error result, and once the result (or the reader, or the session) is
 * freed, nothing the call allocated may still be live. A reader must also
 * have taken nothing from a feed that failed: fed again, it gives the lines
 * it would have; a session likewise, and its other calls (sent, refused)
 * change nothing the caller sees when they fail. Every call that takes a
 * profile runs in both.
 *
 * Run under valgrind by `make test-c`, with
 * --soname-synonyms=somalloc=nouserintercepts so that valgrind leaves this
 * program's allocation functions in place: they take their memory from
 * glibc's __libc_* functions, which valgrind tracks, so it also checks every
 * access and every free.
 *
 * Output: one "FAIL ..." line per failed check, then "N passed, F failed".
 */

#define _GNU_SOURCE
#include "jsonrpc_envelope.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* glibc's own allocator, under the names it exports for interposers. */
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *ptr);

/* ------------------------------------------------------------------------
 * The interposer: while `watching`, every allocation is counted, the
 * `fail_at`th one fails, and the blocks handed out are tracked until freed.
 */

static bool watching;
static long allocations;
static long fail_at;

enum { TRACKED = 1 << 16 };
static void *live[TRACKED];
static long live_count;

static size_t slot_of(void *ptr) {
    uintptr_t bits = (uintptr_t)ptr;
    return (size_t)((bits >> 4) * 2654435761u) % TRACKED;
}

static void track(void *ptr) {
    if (ptr == NULL) return;
    size_t at = slot_of(ptr);
    while (live[at] != NULL) at = (at + 1) % TRACKED;
    live[at] = ptr;
    live_count++;
}

/* Forgets `ptr` if it is tracked (blocks from before the watch are not). */
static void untrack(void *ptr) {
    if (ptr == NULL || live_count == 0) return;
    size_t at = slot_of(ptr);
    while (live[at] != NULL) {
        if (live[at] == ptr) {
            /* Re-insert the rest of the cluster, so lookups stay correct. */
            live[at] = NULL;
            live_count--;
            for (size_t next = (at + 1) % TRACKED; live[next] != NULL; next = (next + 1) % TRACKED) {
                void *moved = live[next];
                live[next] = NULL;
                live_count--;
                track(moved);
            }
            return;
        }
        at = (at + 1) % TRACKED;
    }
}

/* Whether this allocation is the one to fail. */
static bool failing(void) {
    if (!watching) return false;
    allocations++;
    return allocations == fail_at;
}

void *malloc(size_t size) {
    if (failing()) return NULL;
    void *ptr = __libc_malloc(size);
    if (watching) track(ptr);
    return ptr;
}

void *calloc(size_t count, size_t size) {
    if (failing()) return NULL;
    void *ptr = __libc_calloc(count, size);
    if (watching) track(ptr);
    return ptr;
}

void *realloc(void *ptr, size_t size) {
    if (failing()) return NULL; /* the old block stays valid */
    void *grown = __libc_realloc(ptr, size);
    if (watching && grown != NULL) {
        untrack(ptr);
        track(grown);
    }
    return grown;
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (failing()) return ENOMEM;
    void *ptr = __libc_memalign(alignment, size);
    if (ptr == NULL) return ENOMEM;
    if (watching) track(ptr);
    *out = ptr;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (failing()) return NULL;
    void *ptr = __libc_memalign(alignment, size);
    if (watching) track(ptr);
    return ptr;
}

void *memalign(size_t alignment, size_t size) {
    if (failing()) return NULL;
    void *ptr = __libc_memalign(alignment, size);
    if (watching) track(ptr);
    return ptr;
}

void free(void *ptr) {
    if (watching) untrack(ptr);
    __libc_free(ptr);
}

/* Starts watching: the next allocations are counted, the `fail`th fails
 * (0: none). Everything tracked before is forgotten. */
static void watch(long fail) {
    memset(live, 0, sizeof live);
    live_count = 0;
    allocations = 0;
    fail_at = fail;
    watching = true;
}

static void pause_watch(void) { watching = false; }
static void resume_watch(void) { watching = true; }

/* ------------------------------------------------------------------------
 * Checks.
 */

static long passed, failed;

static void check(bool ok, const char *what, const char *input, long n, const char *detail, ...) {
    if (ok) {
        passed++;
        return;
    }
    failed++;
    pause_watch();
    printf("FAIL %s on %.60s (allocation %ld failing): ", what, input, n);
    va_list args;
    va_start(args, detail);
    vprintf(detail, args);
    va_end(args);
    putchar('\n');
    resume_watch();
}

static bool is_reason(JsonRpcStr reason, const char *want) {
    return reason.ptr != NULL && reason.len == strlen(want) && memcmp(reason.ptr, want, reason.len) == 0;
}

/* ------------------------------------------------------------------------
 * The inputs: lines of every kind, and the ones that make a call allocate
 * more: escapes, invalid requests (reasons and replies), long ids, deep
 * nesting (past the 1,024 levels kept without allocating), long log text.
 */

typedef struct {
    const char *name;
    unsigned char *bytes;
    size_t len;
} Input;

static Input inputs[32];
static size_t input_count;

static void add_input(const char *name, const char *text) {
    size_t len = strlen(text);
    pause_watch();
    unsigned char *copy = __libc_malloc(len ? len : 1);
    resume_watch();
    memcpy(copy, text, len);
    inputs[input_count++] = (Input){name, copy, len};
}

/* `prefix`, then `open` and `close` each `depth` times, then `suffix`. */
static void add_nested(const char *name, const char *prefix, const char *open, const char *close, size_t depth,
                       const char *suffix) {
    size_t len = strlen(prefix) + depth * (strlen(open) + strlen(close)) + strlen(suffix);
    unsigned char *bytes = __libc_malloc(len);
    size_t at = 0;
    memcpy(bytes + at, prefix, strlen(prefix)), at += strlen(prefix);
    for (size_t i = 0; i < depth; i++) memcpy(bytes + at, open, strlen(open)), at += strlen(open);
    for (size_t i = 0; i < depth; i++) memcpy(bytes + at, close, strlen(close)), at += strlen(close);
    memcpy(bytes + at, suffix, strlen(suffix)), at += strlen(suffix);
    inputs[input_count++] = (Input){name, bytes, len};
}

static void make_inputs(void) {
    add_input("request", "{\"jsonrpc\":\"2.0\",\"id\":\"req-1\",\"method\":\"tools/call\",\"params\":{}}");
    add_input("escaped method", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools\\/c\\u0061ll\\ud800\"}");
    add_input("escaped names", "{\"\\u006asonrpc\":\"2.\\u0030\",\"\\u0069d\":1,\"m\\u0065thod\":\"x\"}");
    add_input("notification", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\"}");
    add_input("response", "{\"jsonrpc\":\"2.0\",\"id\":12345678901234567890,\"result\":{\"a\":[1,2]}}");
    add_input("unattributed error", "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-1,\"message\":\"no\"}}");
    add_input("invalid request", "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":7}");
    add_input("invalid id and method", "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":[]}");
    add_input("parse error", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"");
    add_input("invalid UTF-8", "{\"method\":\"\xff\"}");
    add_input("batch", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}]");
    add_input("invalid response", "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"result\":[]}");
    add_input("invalid error response", "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":1.5,\"message\":\"m\"}}");
    add_input("MCP-invalid request",
              "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\",\"params\":{\"_meta\":{\"progressToken\":2.5}}}");
    add_input("lone surrogate id", "{\"jsonrpc\":\"2.0\",\"id\":\"\\u0072\\ud800\",\"result\":{}}");
    add_input("not an object", "\"a bare string\"");
    add_input("empty", " \t ");
    add_input("log line", "{\"level\":\"info\",\"msg\":\"server started on stdio \\u202e\"}");
    add_input("long text", "server banner: ................................................................"
                           "................................................................................"
                           "................................................................................"
                           "....................................................................... ready");
    /* SPEC 10.6: a byte order mark, a batch of requests, damaged lines, and
     * (over the reader's limit of 1000 below) a request whose first bytes
     * hold its id and method. */
    add_input("byte order mark", "\xEF\xBB\xBF {\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"initialize\",\"params\":{}} ");
    add_input("batch of requests", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"},{\"id\":\"\\u0032\",\"method\":\"b\"},"
                                   "{\"jsonrpc\":\"2.0\",\"method\":\"n\"}]");
    add_input("damaged request", "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"tools/call\",\"params\":{\"t\":\"\xff\"}}");
    add_input("damaged response", "{\"jsonrpc\":\"2.0\",\"id\":12,\"result\":{\"content\":[");
    add_nested("long damaged request", "{\"jsonrpc\":\"2.0\",\"id\":\"long\",\"method\":\"tools/call\",\"params\":",
               "{\"a\":", "}", 300, "");
    add_nested("deep request", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"deep\",\"params\":", "[", "]", 5000, "}");
    add_nested("deep invalid", "{\"id\":1,\"method\":", "{\"a\":", "}", 3000, "}");
    add_nested("deep and broken", "[", "[", "]", 2000, "");
}

/* ------------------------------------------------------------------------
 * One entry point, one input: run it with allocation N failing. A call
 * either says it ran out of memory, with its documented error result, or
 * (having got round the failure, as a scanner may) gives exactly what it
 * gives when nothing fails: it returns a fingerprint of its result, or
 * OUT_OF_MEMORY.
 */

enum { OUT_OF_MEMORY = 0 };

typedef uint64_t (*Call)(const Input *input, long n);

static uint64_t mix(uint64_t print, const void *bytes, size_t len) {
    const unsigned char *at = bytes;
    for (size_t i = 0; i < len; i++) print = (print ^ at[i]) * 1099511628211u;
    return print;
}

/* The profile every call that takes one runs in (main sets it). */
static uint32_t profile = JSONRPC_PROFILE_JSONRPC;

static uint64_t fingerprint(const JsonRpcClassification *c) {
    uint64_t print = 1469598103934665603u;
    uint32_t head[2] = {(uint32_t)c->kind, (uint32_t)c->id_kind};
    print = mix(print, head, sizeof head);
    const JsonRpcStr strings[] = {c->id, c->method, c->reason, c->reply_server, c->reply_client, c->substitute};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
        print = mix(print, &strings[i].len, sizeof strings[i].len);
        if (strings[i].ptr) print = mix(print, strings[i].ptr, strings[i].len + 1);
    }
    const JsonRpcSpan spans[] = {c->id_span, c->method_span, c->params_span, c->result_span, c->error_span};
    return mix(print, spans, sizeof spans) | 1; /* never OUT_OF_MEMORY */
}

static uint64_t call_classify(const Input *in, long n) {
    JsonRpcClassification c = jsonrpc_classify(in->bytes, in->len, profile);
    uint64_t print = OUT_OF_MEMORY;
    if (c.kind == JSONRPC_KIND_NONE) {
        check(is_reason(c.reason, "out of memory") && c.storage == NULL && c.id.ptr == NULL, "jsonrpc_classify",
              in->name, n, "a failed call is JSONRPC_KIND_NONE with the reason \"out of memory\" and nothing else");
    } else {
        print = fingerprint(&c);
    }
    jsonrpc_classification_free(&c);
    return print;
}

static uint64_t classify_into(const Input *in, long n, size_t scratch_len) {
    static unsigned char scratch[4096];
    JsonRpcClassification c;
    JsonRpcStatus status = jsonrpc_classify_into(in->bytes, in->len, profile, &c, scratch, scratch_len);
    uint64_t print = OUT_OF_MEMORY;
    if (status == JSONRPC_STATUS_OUT_OF_MEMORY) {
        check(c.kind == JSONRPC_KIND_NONE && is_reason(c.reason, "out of memory") && c.storage == NULL,
              "jsonrpc_classify_into", in->name, n, "a failed call leaves JSONRPC_KIND_NONE, out of memory");
    } else {
        check(status == JSONRPC_STATUS_OK && c.kind != JSONRPC_KIND_NONE, "jsonrpc_classify_into", in->name, n,
              "status %u, kind %u", (unsigned)status, (unsigned)c.kind);
        print = fingerprint(&c);
    }
    jsonrpc_classification_free(&c);
    return print;
}

static uint64_t call_classify_into_small(const Input *in, long n) { return classify_into(in, n, 8); }
static uint64_t call_classify_into_large(const Input *in, long n) { return classify_into(in, n, 4096); }

static uint64_t invalid_reply(const Input *in, long n, uint32_t role) {
    JsonRpcReply reply = jsonrpc_invalid_reply(in->bytes, in->len, role, profile);
    uint64_t print = OUT_OF_MEMORY;
    if (reply.status == JSONRPC_STATUS_OUT_OF_MEMORY) {
        check(reply.text.ptr == NULL, "jsonrpc_invalid_reply", in->name, n, "no text on failure");
    } else {
        check(reply.status == JSONRPC_STATUS_OK, "jsonrpc_invalid_reply", in->name, n, "status %u",
              (unsigned)reply.status);
        print = mix(2, &reply.text.len, sizeof reply.text.len);
        if (reply.text.ptr) print = mix(print, reply.text.ptr, reply.text.len + 1);
        print |= 1;
    }
    jsonrpc_string_free(&reply.text);
    return print;
}

static uint64_t call_reply_server(const Input *in, long n) { return invalid_reply(in, n, JSONRPC_ROLE_SERVER); }
static uint64_t call_reply_client(const Input *in, long n) { return invalid_reply(in, n, JSONRPC_ROLE_CLIENT); }

static uint64_t call_log_value(const Input *in, long n) {
    (void)n;
    JsonRpcString text = jsonrpc_log_value(in->bytes, in->len);
    uint64_t print = text.ptr ? mix(3, text.ptr, text.len + 1) | 1 : OUT_OF_MEMORY;
    jsonrpc_string_free(&text);
    return print;
}

/* A reader fed every input as one stream (each input a line), in pieces of
 * `piece` bytes, then ended. A feed or end that fails for want of memory
 * must have taken nothing: it is repeated with allocations no longer
 * failing, and the stream's lines must be those of a run that never failed
 * (their kinds, lengths and numbers are summed into a fingerprint). */
typedef struct {
    uint64_t sum;
    long lines;
} Fingerprint;

static void take(const JsonRpcBatch *batch, Fingerprint *print) {
    for (size_t i = 0; i < batch->count; i++) {
        const JsonRpcLine *line = &batch->items[i];
        print->sum = print->sum * 1000003u + line->number * 31u + line->len * 7u + line->classification.kind;
        print->lines++;
    }
}

static unsigned char *stream;
static size_t stream_len;

static void make_stream(void) {
    size_t len = 0;
    for (size_t i = 0; i < input_count; i++) len += inputs[i].len + 2; /* CR LF at most */
    stream = __libc_malloc(len);
    for (size_t i = 0; i < input_count; i++) {
        memcpy(stream + stream_len, inputs[i].bytes, inputs[i].len);
        stream_len += inputs[i].len;
        stream[stream_len++] = i % 3 == 0 ? '\r' : '\n';
        if (stream[stream_len - 1] == '\r') stream[stream_len++] = '\n';
    }
}

static bool read_stream(long n, size_t piece, size_t max_line, Fingerprint *print) {
    bool oom = false;
    JsonRpcReader *reader = jsonrpc_reader_new(max_line, profile);
    if (reader == NULL) return true; /* the documented failure of _new */
    JsonRpcBatch batch;
    for (size_t at = 0; at <= stream_len; at += piece) {
        size_t len = stream_len - at < piece ? stream_len - at : piece;
        bool end = at + piece > stream_len;
        JsonRpcStatus status =
            len ? jsonrpc_reader_feed(reader, stream + at, len, &batch) : jsonrpc_reader_end(reader, &batch);
        if (status == JSONRPC_STATUS_OUT_OF_MEMORY) {
            oom = true;
            check(batch.count == 0 && batch.items == NULL, "jsonrpc_reader_feed/end", "the stream", n,
                  "an empty batch on failure");
            long was = fail_at;
            fail_at = 0; /* the same call again, which may not fail now */
            status = len ? jsonrpc_reader_feed(reader, stream + at, len, &batch) : jsonrpc_reader_end(reader, &batch);
            fail_at = was;
        }
        check(status == JSONRPC_STATUS_OK, "jsonrpc_reader_feed/end", "the stream", n, "status %u",
              (unsigned)status);
        if (status == JSONRPC_STATUS_OK) take(&batch, print);
        if (len && end) {
            status = jsonrpc_reader_end(reader, &batch);
            if (status == JSONRPC_STATUS_OUT_OF_MEMORY) {
                oom = true;
                long was = fail_at;
                fail_at = 0;
                status = jsonrpc_reader_end(reader, &batch);
                fail_at = was;
            }
            check(status == JSONRPC_STATUS_OK, "jsonrpc_reader_end", "the stream", n, "status %u", (unsigned)status);
            if (status == JSONRPC_STATUS_OK) take(&batch, print);
        }
    }
    jsonrpc_reader_free(reader);
    return oom;
}

/* ------------------------------------------------------------------------
 * The loop: count, then fail each allocation in turn.
 */

static long total_failures;

/* Returns how many allocations the call makes when none fails. */
static long each_failure(const char *name, const Input *in, Call call) {
    watch(0);
    uint64_t want = call(in, 0);
    long count = allocations;
    pause_watch();
    check(want != OUT_OF_MEMORY, name, in->name, 0, "failed with every allocation succeeding");
    check(live_count == 0, name, in->name, 0, "%ld blocks live after the free", live_count);
    for (long n = 1; n <= count; n++) {
        watch(n);
        uint64_t got = call(in, n);
        pause_watch();
        check(got == OUT_OF_MEMORY || got == want, name, in->name, n,
              "allocation %ld of %ld failed, and the call gave another result without saying so", n, count);
        check(live_count == 0, name, in->name, n, "%ld blocks live after the free", live_count);
        total_failures++;
    }
    return count;
}

static void reader_failures(size_t piece, size_t max_line) {
    long before = total_failures;
    Fingerprint want = {0, 0};
    watch(0);
    bool oom = read_stream(0, piece, max_line, &want);
    long count = allocations;
    pause_watch();
    check(!oom && live_count == 0 && want.lines > 0, "the reader", "the stream", 0, "a clean run");
    for (long n = 1; n <= count; n++) {
        Fingerprint got = {0, 0};
        watch(n);
        read_stream(n, piece, max_line, &got);
        pause_watch();
        check(live_count == 0, "the reader", "the stream", n, "%ld blocks live after the free", live_count);
        /* When _new itself failed there is no stream to compare. */
        if (got.lines) {
            check(got.sum == want.sum && got.lines == want.lines, "the reader", "the stream", n,
                  "lines differ after a failed call (%ld, want %ld)", got.lines, want.lines);
        }
        total_failures++;
    }
    printf("the reader (%s, %zu-byte pieces, limit %zu): %ld allocations over the stream, each failed in turn\n",
           jsonrpc_profile_name(profile), piece, max_line, total_failures - before);
}

/* ------------------------------------------------------------------------
 * The session: a script of what a transport does (lines written the other
 * way, bytes read in pieces, the end, lines the SDK refused), run with each
 * allocation failing in turn. A call that fails for want of memory is
 * repeated with allocations no longer failing. What the run gives must be
 * what a clean run gives, but for the one change the header allows: a feed
 * or end that failed "may have marked requests answered by responses among
 * them", so on its repetition a line substituted or attributed in the clean
 * run may be dropped instead (nobody waits on its id any more).
 */

typedef enum { DO_SENT, DO_FEED, DO_END, DO_REFUSED } Doing;

typedef struct {
    Doing doing;
    const char *text;
} Act;

/* In role client: requests of ours, then what the server writes. */
static const Act SCRIPT[] = {
    /* A first line that only the end completes: the end allocates. */
    {DO_FEED, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\"}}"},
    {DO_END, NULL},
    {DO_SENT, "{\"jsonrpc\":\"2.0\",\"id\":\"\\u0061\",\"method\":\"initialize\",\"params\":{}}"},
    {DO_FEED, "banner\n{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":7}\n{\"jsonrpc\":\"2.0\",\"id\":[1],\"result\":{}}\n"},
    {DO_SENT, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}"},
    {DO_SENT, "{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"ping\"}"},
    {DO_SENT, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}"},
    {DO_FEED, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"result\":{}}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":\"srv\",\"method\":\"roots/list\"}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}\n"},
    {DO_SENT, "{\"jsonrpc\":\"2.0\",\"id\":\"srv\",\"result\":{\"roots\":[]}}"},
    {DO_SENT, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{}}"},
    {DO_FEED, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\"x\",\"message\":\"m\"}}\n"
              "..........................................................................................."
              "...........................................................................long line\n"},
    {DO_SENT, "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{}}"},
    {DO_REFUSED, "{\"jsonrpc\":\"2.0\",\"id\":10,\"result\":{}}"},
    {DO_REFUSED, "{\"jsonrpc\":\"2.0\",\"id\":\"s\\u0032\",\"method\":\"sampling/createMessage\",\"params\":{}}"},
    {DO_REFUSED, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}"},
    /* SPEC 10.6: a byte order mark, a batch, damaged lines, and lines over
     * the limit of 160 whose first bytes hold a request's id and method or a
     * response's id (11, outstanding). */
    {DO_SENT, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{}}"},
    {DO_SENT, "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"tools/call\",\"params\":{}}"},
    {DO_FEED, "\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":\"m\",\"method\":\"ping\"} \n"
              "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"},{\"jsonrpc\":\"2.0\",\"id\":\"2\",\"method\":\"b\"}]\n"
              "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"x\",\"params\":{\"t\":\"\xff\"}}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":12,\"result\":{\"t\":\"\xff\"}}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":\"big\",\"method\":\"tools/call\",\"params\":{\"text\":\""
              "................................................................................................"
              "................................................................................................\"}}\n"
              "{\"jsonrpc\":\"2.0\",\"id\":11,\"result\":{\"text\":\""
              "................................................................................................"
              "................................................................................................\"}}\n"},
    {DO_FEED, "{\"jsonrpc\":\"2.0\",\"id\":\"c\",\"result\":{}}"},
    {DO_END, NULL},
    {DO_FEED, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":1,\"message\":\"m\"}}\n[]\n"},
};
enum { SCRIPT_LEN = sizeof SCRIPT / sizeof SCRIPT[0] };

/* How often each kind of call failed for want of memory (in the MCP
 * profile every one must have, or the script tests nothing there). */
static long failed_calls[DO_REFUSED + 1];

/* What one call of the script gave: a line, or a refused line's decision. */
typedef struct {
    uint64_t number;
    size_t len;
    uint32_t kind;
    uint32_t action;
    uint64_t text; /* a fingerprint of the action's text; 0 for none */
    bool repeated; /* from a call repeated after it failed for want of memory */
} Outcome;

enum { MAX_OUTCOMES = 64 };

typedef struct {
    Outcome items[MAX_OUTCOMES];
    size_t count;
    size_t outstanding; /* at the end */
    bool made;          /* false when jsonrpc_session_new failed */
} SessionRun;

static uint64_t text_print(const char *ptr, size_t len) {
    return ptr != NULL ? mix(5, ptr, len) | 1 : 0;
}

static void record(SessionRun *run, Outcome outcome) {
    if (run->count < MAX_OUTCOMES) run->items[run->count++] = outcome;
}

static void take_session_batch(SessionRun *run, const JsonRpcBatch *batch, bool repeated) {
    for (size_t i = 0; i < batch->count; i++) {
        const JsonRpcLine *line = &batch->items[i];
        record(run, (Outcome){line->number, line->len, line->classification.kind, line->action,
                              text_print(line->action_text.ptr, line->action_text.len), repeated});
    }
}

/* Runs one failed call again with allocations no longer failing. */
#define AGAIN(call)            \
    do {                       \
        long was = fail_at;    \
        fail_at = 0;           \
        call;                  \
        fail_at = was;         \
    } while (0)

/* The script runs on a session, or on a two-way relay read in the
 * direction of the session's role (whose forwards the relay also notes for
 * the other direction: allocations a session never makes). */
static bool on_relay;
typedef struct {
    JsonRpcSession *session;
    JsonRpcRelay *relay;
    uint32_t read, written;
} Reading;

static Reading reading_new(uint32_t role) {
    Reading r = {0};
    if (!on_relay) {
        r.session = jsonrpc_session_new(role, profile, 160);
        return r;
    }
    r.relay = jsonrpc_relay_new(profile, 160);
    r.read = jsonrpc_direction_read_by(role);
    r.written = jsonrpc_action_goes(JSONRPC_ACTION_ANSWER, r.read);
    return r;
}
static bool reading_made(const Reading *r) { return r->session != NULL || r->relay != NULL; }
static JsonRpcStatus reading_feed(Reading *r, const uint8_t *data, size_t len, JsonRpcBatch *out) {
    return on_relay ? jsonrpc_relay_feed(r->relay, r->read, data, len, out)
                    : jsonrpc_session_feed(r->session, data, len, out);
}
static JsonRpcStatus reading_end(Reading *r, JsonRpcBatch *out) {
    return on_relay ? jsonrpc_relay_end(r->relay, r->read, out) : jsonrpc_session_end(r->session, out);
}
static JsonRpcStatus reading_sent(Reading *r, const uint8_t *line, size_t len) {
    return on_relay ? jsonrpc_relay_wrote(r->relay, r->written, line, len)
                    : jsonrpc_session_sent(r->session, line, len);
}
static JsonRpcStatus reading_refused(Reading *r, const uint8_t *line, size_t len, JsonRpcDecision *out) {
    return on_relay ? jsonrpc_relay_refused(r->relay, r->read, line, len, out)
                    : jsonrpc_session_refused(r->session, line, len, out);
}
static size_t reading_outstanding(const Reading *r) {
    return on_relay ? jsonrpc_relay_outstanding(r->relay, r->read) : jsonrpc_session_outstanding(r->session);
}
static void reading_free(Reading *r) {
    jsonrpc_session_free(r->session);
    jsonrpc_relay_free(r->relay);
}

static void run_script(long n, uint32_t role, size_t piece, SessionRun *run) {
    const char *name = on_relay ? "the relay" : "the session";
    Reading reading = reading_new(role);
    Reading *session = &reading;
    run->made = reading_made(session);
    if (!run->made) return; /* the documented failure of _new */
    for (size_t a = 0; a < SCRIPT_LEN; a++) {
        const Act *act = &SCRIPT[a];
        const uint8_t *text = (const uint8_t *)act->text;
        size_t len = act->text != NULL ? strlen(act->text) : 0;
        if (act->doing == DO_SENT) {
            size_t before = reading_outstanding(session);
            JsonRpcStatus status = reading_sent(session, text, len);
            if (status == JSONRPC_STATUS_OUT_OF_MEMORY) {
                failed_calls[DO_SENT]++;
                check(reading_outstanding(session) == before, "jsonrpc_session_sent", act->text, n,
                      "a failed call changed the outstanding requests");
                AGAIN(status = reading_sent(session, text, len));
            }
            check(status == JSONRPC_STATUS_OK, "jsonrpc_session_sent", act->text, n, "status %u", (unsigned)status);
        } else if (act->doing == DO_REFUSED) {
            JsonRpcDecision decision;
            JsonRpcStatus status = reading_refused(session, text, len, &decision);
            bool repeated = status == JSONRPC_STATUS_OUT_OF_MEMORY;
            if (repeated) {
                failed_calls[DO_REFUSED]++;
                check(decision.action == JSONRPC_ACTION_NONE && decision.text.ptr == NULL && decision.text.len == 0,
                      "jsonrpc_session_refused", act->text, n, "a failed call's decision is not NONE without text");
                AGAIN(status = reading_refused(session, text, len, &decision));
            }
            check(status == JSONRPC_STATUS_OK, "jsonrpc_session_refused", act->text, n, "status %u",
                  (unsigned)status);
            record(run, (Outcome){0, len, 0, decision.action, text_print(decision.text.ptr, decision.text.len),
                                  repeated});
            jsonrpc_string_free(&decision.text);
        } else {
            /* feed in pieces, or end */
            for (size_t at = 0; at < len || (act->doing == DO_END && at == 0); at += piece) {
                size_t size = len - at < piece ? len - at : piece;
                JsonRpcBatch batch;
                JsonRpcStatus status = act->doing == DO_END ? reading_end(session, &batch)
                                                            : reading_feed(session, text + at, size, &batch);
                bool repeated = status == JSONRPC_STATUS_OUT_OF_MEMORY;
                if (repeated) {
                    failed_calls[act->doing]++;
                    check(batch.count == 0 && batch.items == NULL, "jsonrpc_session_feed/end", name, n,
                          "an empty batch on failure");
                    AGAIN(status = act->doing == DO_END ? reading_end(session, &batch)
                                                        : reading_feed(session, text + at, size, &batch));
                }
                check(status == JSONRPC_STATUS_OK, "jsonrpc_session_feed/end", name, n, "status %u",
                      (unsigned)status);
                if (status == JSONRPC_STATUS_OK) take_session_batch(run, &batch, repeated);
                if (act->doing == DO_END) break;
            }
        }
    }
    run->outstanding = reading_outstanding(session);
    reading_free(session);
}

/* Lines dropped on the repetition of a failed feed or end. */
static long dropped_on_repetition;

static bool same_outcome(const Outcome *got, const Outcome *want) {
    bool same = got->number == want->number && got->len == want->len && got->kind == want->kind;
    if (same && got->action == want->action && got->text == want->text) return true;
    /* The one change a repeated feed or end may make, as the header says
     * ("it may have marked requests answered by responses among them"): a
     * response whose request the failed call marked answered is dropped on
     * the repetition, where it was substituted, attributed or (a server
     * reading a response) forwarded. */
    bool response = want->kind == JSONRPC_KIND_RESPONSE || want->kind == JSONRPC_KIND_INVALID_RESPONSE;
    same = same && got->repeated && got->kind != 0 &&
           (want->action == JSONRPC_ACTION_SUBSTITUTE || want->action == JSONRPC_ACTION_ATTRIBUTE ||
            (want->action == JSONRPC_ACTION_FORWARD && response)) &&
           got->action == JSONRPC_ACTION_DROP && got->text == 0;
    dropped_on_repetition += same;
    return same;
}

static void session_failures(uint32_t role, size_t piece) {
    long before = total_failures;
    static SessionRun want, got;
    memset(&want, 0, sizeof want);
    watch(0);
    run_script(0, role, piece, &want);
    long count = allocations;
    pause_watch();
    const char *what = on_relay ? "the relay" : "the session";
    check(want.made && live_count == 0 && want.count > 10 && want.count < MAX_OUTCOMES, what, "the script", 0,
          "a clean run (%zu outcomes)", want.count);
    for (long n = 1; n <= count; n++) {
        memset(&got, 0, sizeof got);
        watch(n);
        run_script(n, role, piece, &got);
        pause_watch();
        check(live_count == 0, what, "the script", n, "%ld blocks live after the free", live_count);
        if (got.made) {
            bool same = got.count == want.count && got.outstanding == want.outstanding;
            for (size_t i = 0; same && i < got.count; i++) same = same_outcome(&got.items[i], &want.items[i]);
            check(same, what, "the script", n, "outcomes differ after a failed call");
        }
        total_failures++;
    }
    printf("%s (%s, %s, %zu-byte pieces): %ld allocations over the script, each failed in turn\n",
           what, jsonrpc_role_name(role), jsonrpc_profile_name(profile), piece,
           total_failures - before);
}

/* jsonrpc_session_new alone: NULL, or a session, and nothing left after
 * its free. */
static uint64_t call_session_new(const Input *in, long n) {
    (void)in;
    (void)n;
    JsonRpcSession *session = jsonrpc_session_new(JSONRPC_ROLE_CLIENT, profile, 0);
    uint64_t print = session != NULL ? 1 : OUT_OF_MEMORY;
    jsonrpc_session_free(session);
    return print;
}

/* jsonrpc_relay_new alone: NULL, or a relay, and nothing left after its
 * free. */
static uint64_t call_relay_new(const Input *in, long n) {
    (void)in;
    (void)n;
    JsonRpcRelay *relay = jsonrpc_relay_new(profile, 0);
    uint64_t print = relay != NULL ? 1 : OUT_OF_MEMORY;
    jsonrpc_relay_free(relay);
    return print;
}

int main(void) {
    make_inputs();
    make_stream();
    static const struct {
        const char *name;
        Call call;
    } calls[] = {
        {"jsonrpc_classify", call_classify},
        {"jsonrpc_classify_into (8-byte scratch)", call_classify_into_small},
        {"jsonrpc_classify_into (4 KiB scratch)", call_classify_into_large},
        {"jsonrpc_invalid_reply (server)", call_reply_server},
        {"jsonrpc_invalid_reply (client)", call_reply_client},
        {"jsonrpc_log_value", call_log_value},
    };
    static const uint32_t profiles[] = {JSONRPC_PROFILE_JSONRPC, JSONRPC_PROFILE_MCP};
    for (size_t p = 0; p < sizeof profiles / sizeof profiles[0]; p++) {
        profile = profiles[p];
        for (size_t c = 0; c < sizeof calls / sizeof calls[0]; c++) {
            long made = 0;
            for (size_t i = 0; i < input_count; i++) {
                long count = each_failure(calls[c].name, &inputs[i], calls[c].call);
                made += count;
                /* Proof that the interposer sees the library's allocations: a
                 * request's strings live in an allocation of their own. */
                if (calls[c].call == call_classify && i == 0) {
                    check(count >= 1, calls[c].name, inputs[i].name, 0, "no allocation seen");
                }
                /* The header: jsonrpc_classify_into allocates nothing when the
                 * strings fit its scratch and the line nests at most 1,024
                 * levels deep (only the inputs named "deep" nest deeper). */
                if (calls[c].call == call_classify_into_large && strncmp(inputs[i].name, "deep", 4) != 0) {
                    check(count == 0, calls[c].name, inputs[i].name, 0, "%ld allocations", count);
                }
            }
            printf("%s (%s): %ld allocations over %zu inputs, each failed in turn\n", calls[c].name,
                   jsonrpc_profile_name(profile), made, input_count);
        }
        /* The reader: pieces smaller and larger than a line, a limit that makes
         * the deep lines too long, and the default. */
        reader_failures(61, 0);
        reader_failures(4096, 0);
        reader_failures(100, 1000);
        /* The session: made alone, then the script in each role, whole and
         * in pieces. */
        long made = each_failure("jsonrpc_session_new", &inputs[0], call_session_new);
        printf("jsonrpc_session_new (%s): %ld allocations, each failed in turn\n", jsonrpc_profile_name(profile),
               made);
        memset(failed_calls, 0, sizeof failed_calls);
        for (uint32_t role = JSONRPC_ROLE_SERVER; role <= JSONRPC_ROLE_CLIENT; role++) {
            session_failures(role, 4096);
            session_failures(role, 29);
        }
        /* The relay: made alone, then the script through a two-way relay. */
        made = each_failure("jsonrpc_relay_new", &inputs[0], call_relay_new);
        printf("jsonrpc_relay_new (%s): %ld allocations, each failed in turn\n", jsonrpc_profile_name(profile), made);
        on_relay = true;
        for (uint32_t role = JSONRPC_ROLE_SERVER; role <= JSONRPC_ROLE_CLIENT; role++) {
            session_failures(role, 4096);
            session_failures(role, 29);
        }
        on_relay = false;
        printf("session and relay calls that failed (%s): sent %ld, feed %ld, end %ld, refused %ld; responses "
               "substituted, attributed or forwarded in a clean run but dropped when a failed call was repeated: "
               "%ld\n",
               jsonrpc_profile_name(profile), failed_calls[DO_SENT], failed_calls[DO_FEED], failed_calls[DO_END],
               failed_calls[DO_REFUSED], dropped_on_repetition);
        dropped_on_repetition = 0;
        if (profile == JSONRPC_PROFILE_MCP) {
            check(failed_calls[DO_SENT] > 0 && failed_calls[DO_FEED] > 0 && failed_calls[DO_END] > 0 &&
                      failed_calls[DO_REFUSED] > 0,
                  "the session", "the script", 0, "a call of the session never failed");
        }
    }
    for (size_t i = 0; i < input_count; i++) __libc_free(inputs[i].bytes);
    __libc_free(stream);
    check(total_failures > 0, "the interposer", "every call", 0, "no allocation was seen to fail");
    printf("%ld allocation failures made; %ld passed, %ld failed\n", total_failures, passed, failed);
    return failed ? 1 : 0;
}
