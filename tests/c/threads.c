/*
 * Eight threads through the C ABI at once agree with one thread: each
 * classifies every vector line (jsonrpc_classify, jsonrpc_classify_into,
 * jsonrpc_invalid_reply, jsonrpc_log_value) from its own starting line, and
 * runs its own reader over the stream of all the lines in chunks of its
 * own size. Every answer is compared with what one thread got before the
 * others started. Built with -fsanitize=thread (make test-c, make
 * test-tsan), so ThreadSanitizer also watches every byte the threads share.
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
    const JsonRpcStr texts[] = {c->id, c->method, c->reason, c->reply_server, c->reply_client};
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

    JsonRpcClassification c = jsonrpc_classify(line, len);
    put_classification(out, &c);
    jsonrpc_classification_free(&c);

    JsonRpcClassification into;
    if (jsonrpc_classify_into(line, len, &into, scratch, SCRATCH) != JSONRPC_STATUS_OK) die("classify_into failed");
    put_classification(out, &into);
    jsonrpc_classification_free(&into);

    for (uint32_t role = JSONRPC_ROLE_SERVER; role <= JSONRPC_ROLE_CLIENT; role++) {
        JsonRpcReply reply = jsonrpc_invalid_reply(line, len, role);
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

static Buf *expected_lines; /* per line, from one thread */
static Buf expected_stream;
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
                fprintf(stderr, "threads: thread %d, round %d: line %zu differs from one thread's\n", w->index, round, i);
                w->mismatches++;
            }
        }
        got.len = 0;
        read_stream(&got, w->reader, 1 + (size_t)w->index * 61 + (size_t)round * 7);
        if (got.len != expected_stream.len || memcmp(got.bytes, expected_stream.bytes, got.len) != 0) {
            fprintf(stderr, "threads: thread %d, round %d: the stream differs from one thread's\n", w->index, round);
            w->mismatches++;
        }
    }
    free(got.bytes);
    return NULL;
}

/* The bytes of the `line=` field of every envelope record of the flat file. */
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
    Buf spans = {0}; /* (offset, len) of each line in `all` */
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
    }
    free(text.bytes);

    line_count = spans.len / (2 * sizeof(uint64_t));
    if (line_count == 0) die("no envelope record in the flat file");
    lines = calloc(line_count, sizeof *lines);
    Buf joined = {0}; /* the stream: every line, each followed by LF */
    if (lines == NULL) die("out of memory");
    const uint64_t *span = (const uint64_t *)spans.bytes;
    for (size_t i = 0; i < line_count; i++) {
        lines[i].bytes = all.bytes + span[2 * i];
        lines[i].len = (size_t)span[2 * i + 1];
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
    JsonRpcReader *reader = jsonrpc_reader_new(0);
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
    JsonRpcReader *reader = jsonrpc_reader_new(0);
    if (reader == NULL) die("jsonrpc_reader_new failed");
    read_stream(&expected_stream, reader, stream_len);
    jsonrpc_reader_free(reader);

    pthread_t threads[THREADS];
    Worker workers[THREADS];
    for (int t = 0; t < THREADS; t++) {
        workers[t] = (Worker){.index = t, .reader = jsonrpc_reader_new(0)};
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
    free(line_bytes);
    free(lines);
    free(stream);
    if (mismatches) {
        fprintf(stderr, "threads: %d answers differ from one thread's\n", mismatches);
        return 1;
    }
    printf("threads: %d threads x %d rounds over %zu lines (every entry point, and a reader each over a "
           "%zu-byte stream) agree with one thread\n",
           THREADS, rounds, line_count, stream_len);
    return 0;
}
