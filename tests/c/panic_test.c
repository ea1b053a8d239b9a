/*
 * panic_test.c: the header's promise that a fault inside the library never
 * reaches the host, shown with a real panic. Built against a library made
 * with the `panic-test` feature (never a release build), in which every
 * entry point that reads bytes panics inside on one hidden input: each call
 * must return its documented error result, and the program goes on.
 *
 *   panic_test hook      against the panic-test library: the guard at work
 *   panic_test no-hook   against a normal library: the input is just a line
 *
 * Output: one "FAIL ..." line per failed check, then "N passed, F failed".
 */

#include "jsonrpc_envelope.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The hidden input of src/ffi/guard.rs (PANIC_TEST_INPUT). */
static const char PANIC_INPUT[] = "jsonrpc-envelope panic-test: panic here";

static long passed, failed;

static void check(bool ok, const char *what) {
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s\n", what);
    }
}

static bool is_text(JsonRpcStr text, const char *want) {
    return text.ptr != NULL && text.len == strlen(want) && memcmp(text.ptr, want, text.len) == 0;
}

/* The library still works after a caught panic. */
static void still_works(const char *after) {
    const char *line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}";
    JsonRpcClassification c = jsonrpc_classify((const uint8_t *)line, strlen(line));
    char what[128];
    snprintf(what, sizeof what, "a request is classified after %s", after);
    check(c.kind == JSONRPC_KIND_REQUEST, what);
    jsonrpc_classification_free(&c);
}

static void with_hook(const uint8_t *input, size_t len) {
    JsonRpcClassification c = jsonrpc_classify(input, len);
    check(c.kind == JSONRPC_KIND_NONE && is_text(c.reason, "internal error in jsonrpc_classify") &&
              c.storage == NULL,
          "jsonrpc_classify: JSONRPC_KIND_NONE, reason \"internal error in jsonrpc_classify\"");
    jsonrpc_classification_free(&c);
    still_works("jsonrpc_classify panicked");

    unsigned char scratch[256];
    JsonRpcClassification out;
    JsonRpcStatus status = jsonrpc_classify_into(input, len, &out, scratch, sizeof scratch);
    check(status == JSONRPC_STATUS_INTERNAL_ERROR && out.kind == JSONRPC_KIND_NONE &&
              is_text(out.reason, "internal error in jsonrpc_classify_into"),
          "jsonrpc_classify_into: JSONRPC_STATUS_INTERNAL_ERROR and JSONRPC_KIND_NONE");
    jsonrpc_classification_free(&out);
    still_works("jsonrpc_classify_into panicked");

    JsonRpcReply reply = jsonrpc_invalid_reply(input, len, JSONRPC_ROLE_SERVER);
    check(reply.status == JSONRPC_STATUS_INTERNAL_ERROR && reply.text.ptr == NULL,
          "jsonrpc_invalid_reply: JSONRPC_STATUS_INTERNAL_ERROR, no text");
    jsonrpc_string_free(&reply.text);

    JsonRpcString text = jsonrpc_log_value(input, len);
    check(text.ptr == NULL && text.len == 0, "jsonrpc_log_value: {NULL, 0}");
    jsonrpc_string_free(&text);

    /* A reader whose feed panicked fails every later call, but the free. */
    JsonRpcReader *reader = jsonrpc_reader_new(0);
    JsonRpcBatch batch;
    const char *good = "{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n";
    check(jsonrpc_reader_feed(reader, (const uint8_t *)good, strlen(good), &batch) == JSONRPC_STATUS_OK &&
              batch.count == 1,
          "jsonrpc_reader_feed: a line before the panic");
    status = jsonrpc_reader_feed(reader, input, len, &batch);
    check(status == JSONRPC_STATUS_INTERNAL_ERROR && batch.count == 0,
          "jsonrpc_reader_feed: JSONRPC_STATUS_INTERNAL_ERROR and an empty batch");
    status = jsonrpc_reader_feed(reader, (const uint8_t *)good, strlen(good), &batch);
    check(status == JSONRPC_STATUS_INTERNAL_ERROR, "jsonrpc_reader_feed: a reader that panicked stays failed");
    check(jsonrpc_reader_end(reader, &batch) == JSONRPC_STATUS_INTERNAL_ERROR,
          "jsonrpc_reader_end: a reader that panicked stays failed");
    jsonrpc_reader_free(reader);

    /* A fresh reader is unaffected. */
    reader = jsonrpc_reader_new(0);
    check(jsonrpc_reader_feed(reader, (const uint8_t *)good, strlen(good), &batch) == JSONRPC_STATUS_OK &&
              batch.count == 1 && batch.items[0].classification.kind == JSONRPC_KIND_NOTIFICATION,
          "a new reader reads after another one panicked");
    jsonrpc_reader_free(reader);
    still_works("every entry point panicked");
}

static void without_hook(const uint8_t *input, size_t len) {
    JsonRpcClassification c = jsonrpc_classify(input, len);
    check(c.kind == JSONRPC_KIND_PARSE_ERROR, "a normal library: the hidden input is just a parse error");
    jsonrpc_classification_free(&c);
}

int main(int argc, char **argv) {
    const uint8_t *input = (const uint8_t *)PANIC_INPUT;
    size_t len = strlen(PANIC_INPUT);
    if (argc == 2 && strcmp(argv[1], "hook") == 0) {
        with_hook(input, len);
    } else if (argc == 2 && strcmp(argv[1], "no-hook") == 0) {
        without_hook(input, len);
    } else {
        fprintf(stderr, "usage: panic_test hook|no-hook\n");
        return 2;
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
