/*
 * Eight threads through the C ABI at once agree with one thread: each
 * classifies every vector line (jsonrpc_classify, jsonrpc_classify_into,
 * jsonrpc_invalid_reply, jsonrpc_log_value, in the vector's profile) from
 * its own starting line, runs its own reader over the stream of all the
 * lines in chunks of its own size, and its own session (MCP profile, in
 * turn each role) over the same stream, told of requests written the other
 * way and of lines refused. Every answer is compared with what one thread
 * got before the others started. Built with -fsanitize=thread (make test-c,
 * make test-tsan), so ThreadSanitizer also watches every byte the threads
 * share.
 *
 *   threads FLATFILE [ROUNDS]   (FLATFILE: tests/c/flatten_vectors.py's)
 *   threads --share-a-reader FLATFILE
 *
 * The second breaks the header's rule on purpose: two threads feed one
 * reader at once. Against a library built with -Zsanitizer=thread
 * (make test-tsan) ThreadSanitizer must report a race inside the library,
 * which shows that it sees the library's own memory accesses.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonrpc_envelope.h"

enum { THREADS = 8, SCRATCH = 1024 };

/* A growable byte buffer: what a call gave, written out to compare. */
typedef struct {
    uint8_t *bytes;
    size_t len, cap;
} Buf;

static void die(const char *what) {
    fprintf(stderr, "threads: %s\n", what);
    exit(1);
}

static void put(Buf *buf, const void *bytes, size_t len) {
    if (buf->len + len > buf->cap) {
        size_t cap = buf->cap ? buf->cap : 256;
        while (cap < buf->len + len) cap *= 2;
        uint8_t *grown = realloc(buf->bytes, cap);
        if (grown == NULL) die("out of memory");
        buf->bytes = grown;
        buf->cap = cap;
    }
    if (len) memcpy(buf->bytes + buf->len, bytes, len);
    buf->len += len;
}

static void put_size(Buf *buf, uint64_t value) { put(buf, &value, sizeof value); }

/* A string with its length, or a marker for an absent one. */
static void put_text(Buf *buf, const char *ptr, size_t len) {
    put_size(buf, ptr == NULL ? UINT64_MAX : (uint64_t)len);
    if (ptr != NULL) put(buf, ptr, len);
}

static void put_classification(Buf *buf, const JsonRpcClassification *c) {
    const JsonRpcSpan spans[] = {c->id_span, c->method_span, c->params_span, c->result_span, c->error_span};
    const JsonRpcStr texts[] = {c->id, c->method, c->reason, c->reply_server, c->reply_client, c->substitute};
    put_size(buf, c->kind);
    put_size(buf, c->id_kind);
    put_size(buf, (uint64_t)c->jsonrpc_2_0 | (uint64_t)c->has_result << 1 | (uint64_t)c->has_error << 2 |
                      (uint64_t)c->names_no_request << 3);
    for (size_t i = 0; i < sizeof spans / sizeof spans[0]; i++) {
        put_size(buf, spans[i].offset);
        put_size(buf, spans[i].len);
    }
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) put_text(buf, texts[i].ptr, texts[i].len);
}

typedef struct {
    const uint8_t *bytes;
    size_t len;
    uint32_t profile;
} Line;

static Line *lines;
static size_t line_count;
static uint8_t *line_bytes; /* every line's bytes, back to back */
static uint8_t *stream;
static size_t stream_len;

/* Every entry point that takes one line, on line i. */
static void one_line(Buf *out, size_t i, uint8_t *scratch) {
    const uint8_t *line = lines[i].bytes;
    size_t len = lines[i].len;
    uint32_t profile = lines[i].profile;

    JsonRpcClassification c = jsonrpc_classify(line, len, profile);
    put_classification(out, &c);
    jsonrpc_classification_free(&c);

    JsonRpcClassification into;
    if (jsonrpc_classify_into(line, len, profile, &into, scratch, SCRATCH) != JSONRPC_STATUS_OK) {
        die("classify_into failed");
    }
    put_classification(out, &into);
    jsonrpc_classification_free(&into);

    for (uint32_t role = JSONRPC_ROLE_SERVER; role <= JSONRPC_ROLE_CLIENT; role++) {
        JsonRpcReply reply = jsonrpc_invalid_reply(line, len, role, profile);
        put_size(out, reply.status);
        put_text(out, reply.text.ptr, reply.text.len);
        jsonrpc_string_free(&reply.text);
    }

    JsonRpcString text = jsonrpc_log_value(line, len);
    put_text(out, text.ptr, text.len);
    jsonrpc_string_free(&text);
}

static void put_batch(Buf *out, JsonRpcStatus status, const JsonRpcBatch *batch) {
    if (status != JSONRPC_STATUS_OK) die("the reader failed");
    for (size_t i = 0; i < batch->count; i++) {
        const JsonRpcLine *item = &batch->items[i];
        put_size(out, item->number);
        put_size(out, item->len);
        if (item->classification.kind != JSONRPC_KIND_TOO_LONG) put(out, batch->bytes + item->offset, item->len);
        put_classification(out, &item->classification);
        put_size(out, item->action);
        put_text(out, item->action_text.ptr, item->action_text.len);
        put_text(out, item->note, item->note != NULL ? strlen(item->note) : 0);
    }
}

/* The whole stream through `reader` in chunks of `chunk` bytes. */
static void read_stream(Buf *out, JsonRpcReader *reader, size_t chunk) {
    JsonRpcBatch batch;
    for (size_t at = 0; at < stream_len; at += chunk) {
        size_t len = stream_len - at < chunk ? stream_len - at : chunk;
        put_batch(out, jsonrpc_reader_feed(reader, stream + at, len, &batch), &batch);
    }
    put_batch(out, jsonrpc_reader_end(reader, &batch), &batch);
}

/* The stream through a session in `role` (MCP profile), fed in chunks of
 * `chunk` bytes: before each chunk the session is told of a request
 * written the other way (ids 1, 2, ... by chunk), and every 5th chunk's
 * first bytes are refused, so substitutes and attributions happen. */
static void session_stream(Buf *out, uint32_t role, size_t chunk) {
    JsonRpcSession *session = jsonrpc_session_new(role, JSONRPC_PROFILE_MCP, 0);
    if (session == NULL) die("jsonrpc_session_new failed");
    JsonRpcBatch batch;
    char request[64];
    size_t n = 0;
    for (size_t at = 0; at < stream_len; at += chunk, n++) {
        size_t len = stream_len - at < chunk ? stream_len - at : chunk;
        int written = snprintf(request, sizeof request, "{\"jsonrpc\":\"2.0\",\"id\":%zu,\"method\":\"m\"}", n % 50);
        if (jsonrpc_session_sent(session, (const uint8_t *)request, (size_t)written) != JSONRPC_STATUS_OK) {
            die("jsonrpc_session_sent failed");
        }
        if (n % 5 == 0) {
            JsonRpcDecision decision;
            if (jsonrpc_session_refused(session, stream + at, len, &decision) != JSONRPC_STATUS_OK) {
                die("jsonrpc_session_refused failed");
            }
            put_size(out, decision.action);
            put_text(out, decision.text.ptr, decision.text.len);
            jsonrpc_string_free(&decision.text);
        }
        put_batch(out, jsonrpc_session_feed(session, stream + at, len, &batch), &batch);
    }
    put_batch(out, jsonrpc_session_end(session, &batch), &batch);
    put_size(out, jsonrpc_session_outstanding(session));
    jsonrpc_session_free(session);
}

/* The session chunk sizes: each thread takes one of them per round. */
static const size_t SESSION_CHUNKS[] = {97, 4096, 1000003};
enum { SESSION_CHUNK_COUNT = sizeof SESSION_CHUNKS / sizeof SESSION_CHUNKS[0] };

static Buf *expected_lines; /* per line, from one thread */
static Buf expected_stream;
static Buf expected_sessions[2][SESSION_CHUNK_COUNT]; /* per role and chunk size */
static int rounds;

typedef struct {
    int index;
    JsonRpcReader *reader; /* made by the main thread, moved to this one */
    int mismatches;
} Worker;

static void *work(void *arg) {
    Worker *w = arg;
    uint8_t scratch[SCRATCH];
    Buf got = {0};
    for (int round = 0; round < rounds; round++) {
        for (size_t n = 0; n < line_count; n++) {
            size_t i = ((size_t)w->index * 13 + (size_t)round + n) % line_count;
            got.len = 0;
            one_line(&got, i, scratch);
            if (got.len != expected_lines[i].len || memcmp(got.bytes, expected_lines[i].bytes, got.len) != 0) {
                fprintf(stderr, "threads: thread %d, round %d: line %zu differs from one thread's\n", w->index, round,
                        i);
                w->mismatches++;
            }
        }
        got.len = 0;
        read_stream(&got, w->reader, 1 + (size_t)w->index * 61 + (size_t)round * 7);
        if (got.len != expected_stream.len || memcmp(got.bytes, expected_stream.bytes, got.len) != 0) {
            fprintf(stderr, "threads: thread %d, round %d: the stream differs from one thread's\n", w->index, round);
            w->mismatches++;
        }
        uint32_t role = (uint32_t)(JSONRPC_ROLE_SERVER + (w->index + round) % 2);
        size_t c = (size_t)(w->index + round) % SESSION_CHUNK_COUNT;
        const Buf *want = &expected_sessions[role - JSONRPC_ROLE_SERVER][c];
        got.len = 0;
        session_stream(&got, role, SESSION_CHUNKS[c]);
        if (got.len != want->len || memcmp(got.bytes, want->bytes, got.len) != 0) {
            fprintf(stderr, "threads: thread %d, round %d: the session (%s, chunks of %zu) differs from one thread's\n",
                    w->index, round, jsonrpc_role_name(role), SESSION_CHUNKS[c]);
            w->mismatches++;
        }
    }
    free(got.bytes);
    return NULL;
}

/* The bytes of the `line=` field of every envelope record of the flat
 * file, and its `profile=`. */
static void read_lines(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) die("cannot open the flat file");
    Buf text = {0};
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0) put(&text, chunk, got);
    fclose(file);
    put(&text, "", 1);

    Buf all = {0};  /* every line's bytes, decoded from hex */
    Buf spans = {0}; /* (offset, len, profile) of each line in `all` */
    for (char *record = (char *)text.bytes; *record; record = strchr(record, '\n') + 1) {
        if (strchr(record, '\n') == NULL) die("the flat file does not end with a newline");
        if (strncmp(record, "envelope\t", 9) != 0) continue;
        char *hex = strstr(record, "\tline=");
        if (hex == NULL || hex > strchr(record, '\n')) die("an envelope record has no line field");
        size_t start = all.len;
        for (hex += 6; *hex != '\t' && *hex != '\n'; hex += 2) {
            unsigned byte;
            if (sscanf(hex, "%2x", &byte) != 1) die("bad hex in a line field");
            uint8_t b = (uint8_t)byte;
            put(&all, &b, 1);
        }
        put_size(&spans, start);
        put_size(&spans, all.len - start);
        char *profile = strstr(record, "\tprofile=");
        if (profile == NULL || profile > strchr(record, '\n')) die("an envelope record has no profile field");
        profile += strlen("\tprofile=");
        uint32_t value = strncmp(profile, "mcp\t", 4) == 0       ? JSONRPC_PROFILE_MCP
                         : strncmp(profile, "jsonrpc\t", 8) == 0 ? JSONRPC_PROFILE_JSONRPC
                                                                 : 0;
        if (value == 0) die("an unknown profile in the flat file");
        put_size(&spans, value);
    }
    free(text.bytes);

    line_count = spans.len / (3 * sizeof(uint64_t));
    if (line_count == 0) die("no envelope record in the flat file");
    lines = calloc(line_count, sizeof *lines);
    Buf joined = {0}; /* the stream: every line, each followed by LF */
    if (lines == NULL) die("out of memory");
    const uint64_t *span = (const uint64_t *)spans.bytes;
    for (size_t i = 0; i < line_count; i++) {
        lines[i].bytes = all.bytes + span[3 * i];
        lines[i].len = (size_t)span[3 * i + 1];
        lines[i].profile = (uint32_t)span[3 * i + 2];
        put(&joined, lines[i].bytes, lines[i].len);
        put(&joined, "\n", 1);
    }
    free(spans.bytes);
    line_bytes = all.bytes;
    stream = joined.bytes;
    stream_len = joined.len;
}

static void *misuse(void *reader) {
    Buf ignored = {0};
    for (int round = 0; round < 50; round++) {
        ignored.len = 0;
        read_stream(&ignored, reader, 97);
    }
    free(ignored.bytes);
    return NULL;
}

static int share_a_reader(void) {
    JsonRpcReader *reader = jsonrpc_reader_new(0, JSONRPC_PROFILE_JSONRPC);
    if (reader == NULL) die("jsonrpc_reader_new failed");
    pthread_t threads[2];
    for (int t = 0; t < 2; t++)
        if (pthread_create(&threads[t], NULL, misuse, reader) != 0) die("pthread_create failed");
    for (int t = 0; t < 2; t++)
        if (pthread_join(threads[t], NULL) != 0) die("pthread_join failed");
    jsonrpc_reader_free(reader);
    printf("threads: two threads fed one reader and nothing reported it\n");
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--share-a-reader") == 0) {
        read_lines(argv[2]);
        return share_a_reader();
    }
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: %s FLATFILE [ROUNDS] | --share-a-reader FLATFILE\n", argv[0]);
        return 2;
    }
    rounds = argc > 2 ? atoi(argv[2]) : 20;
    if (rounds < 1) die("ROUNDS must be at least 1");
    read_lines(argv[1]);

    /* One thread first: the answers the others must give. */
    uint8_t scratch[SCRATCH];
    expected_lines = calloc(line_count, sizeof *expected_lines);
    if (expected_lines == NULL) die("out of memory");
    for (size_t i = 0; i < line_count; i++) one_line(&expected_lines[i], i, scratch);
    JsonRpcReader *reader = jsonrpc_reader_new(0, JSONRPC_PROFILE_MCP);
    if (reader == NULL) die("jsonrpc_reader_new failed");
    read_stream(&expected_stream, reader, stream_len);
    jsonrpc_reader_free(reader);
    for (uint32_t role = JSONRPC_ROLE_SERVER; role <= JSONRPC_ROLE_CLIENT; role++) {
        for (size_t c = 0; c < SESSION_CHUNK_COUNT; c++) {
            session_stream(&expected_sessions[role - JSONRPC_ROLE_SERVER][c], role, SESSION_CHUNKS[c]);
        }
    }

    pthread_t threads[THREADS];
    Worker workers[THREADS];
    for (int t = 0; t < THREADS; t++) {
        workers[t] = (Worker){.index = t, .reader = jsonrpc_reader_new(0, JSONRPC_PROFILE_MCP)};
        if (workers[t].reader == NULL) die("jsonrpc_reader_new failed");
        if (pthread_create(&threads[t], NULL, work, &workers[t]) != 0) die("pthread_create failed");
    }
    int mismatches = 0;
    for (int t = 0; t < THREADS; t++) {
        if (pthread_join(threads[t], NULL) != 0) die("pthread_join failed");
        mismatches += workers[t].mismatches;
        jsonrpc_reader_free(workers[t].reader);
    }

    for (size_t i = 0; i < line_count; i++) free(expected_lines[i].bytes);
    free(expected_lines);
    free(expected_stream.bytes);
    for (size_t r = 0; r < 2; r++) {
        for (size_t c = 0; c < SESSION_CHUNK_COUNT; c++) free(expected_sessions[r][c].bytes);
    }
    free(line_bytes);
    free(lines);
    free(stream);
    if (mismatches) {
        fprintf(stderr, "threads: %d answers differ from one thread's\n", mismatches);
        return 1;
    }
    printf("threads: %d threads x %d rounds over %zu lines (every entry point, and a reader and a session each "
           "over a %zu-byte stream) agree with one thread\n",
           THREADS, rounds, line_count, stream_len);
    return 0;
}
