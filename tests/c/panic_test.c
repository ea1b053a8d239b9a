/*
 * panic_test.c: the header's promise that a fault inside the library never
 * reaches the host, shown with a real panic. Built against a library made
 * with the `panic-test` feature (never a release build), in which every
 * entry point that reads bytes panics inside on one hidden input: each call
 * must return its documented error result, and the program goes on. Every
 * call that takes a profile is made in both.
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

/* The hidden input of src/ffi/panic_boundary.rs (PANIC_TEST_INPUT). */
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

static uint32_t profile = JSONRPC_PROFILE_JSONRPC;

/* The library still works after a caught panic. */
static void still_works(const char *after) {
    const char *line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}";
    JsonRpcClassification c = jsonrpc_classify((const uint8_t *)line, strlen(line), profile);
    char what[128];
    snprintf(what, sizeof what, "a request is classified after %s", after);
    check(c.kind == JSONRPC_KIND_REQUEST, what);
    jsonrpc_classification_free(&c);
}

static void with_hook(const uint8_t *input, size_t len) {
    JsonRpcClassification c = jsonrpc_classify(input, len, profile);
    check(c.kind == JSONRPC_KIND_NONE && is_text(c.reason, "internal error in jsonrpc_classify") &&
              c.storage == NULL,
          "jsonrpc_classify: JSONRPC_KIND_NONE, reason \"internal error in jsonrpc_classify\"");
    jsonrpc_classification_free(&c);
    still_works("jsonrpc_classify panicked");

    unsigned char scratch[256];
    JsonRpcClassification out;
    JsonRpcStatus status = jsonrpc_classify_into(input, len, profile, &out, scratch, sizeof scratch);
    check(status == JSONRPC_STATUS_INTERNAL_ERROR && out.kind == JSONRPC_KIND_NONE &&
              is_text(out.reason, "internal error in jsonrpc_classify_into"),
          "jsonrpc_classify_into: JSONRPC_STATUS_INTERNAL_ERROR and JSONRPC_KIND_NONE");
    jsonrpc_classification_free(&out);
    still_works("jsonrpc_classify_into panicked");

    JsonRpcReply reply = jsonrpc_invalid_reply(input, len, JSONRPC_ROLE_SERVER, profile);
    check(reply.status == JSONRPC_STATUS_INTERNAL_ERROR && reply.text.ptr == NULL,
          "jsonrpc_invalid_reply: JSONRPC_STATUS_INTERNAL_ERROR, no text");
    jsonrpc_string_free(&reply.text);

    JsonRpcString text = jsonrpc_log_value(input, len);
    check(text.ptr == NULL && text.len == 0, "jsonrpc_log_value: {NULL, 0}");
    jsonrpc_string_free(&text);

    /* A reader whose feed panicked fails every later call, but the free. */
    JsonRpcReader *reader = jsonrpc_reader_new(0, profile);
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
    reader = jsonrpc_reader_new(0, profile);
    check(jsonrpc_reader_feed(reader, (const uint8_t *)good, strlen(good), &batch) == JSONRPC_STATUS_OK &&
              batch.count == 1 && batch.items[0].classification.kind == JSONRPC_KIND_NOTIFICATION,
          "a new reader reads after another one panicked");
    jsonrpc_reader_free(reader);

    /* A session, as the header says of it: "everything else is as for
     * jsonrpc_reader_feed", so one whose feed panicked fails every later
     * feed and end, and gives an empty batch. */
    for (uint32_t role = JSONRPC_ROLE_SERVER; role <= JSONRPC_ROLE_CLIENT; role++) {
        JsonRpcSession *session = jsonrpc_session_new(role, profile, 0);
        check(session != NULL, "jsonrpc_session_new");
        check(jsonrpc_session_feed(session, (const uint8_t *)good, strlen(good), &batch) == JSONRPC_STATUS_OK &&
                  batch.count == 1 && batch.items[0].action == JSONRPC_ACTION_FORWARD,
              "jsonrpc_session_feed: a line before the panic");

        /* sent and refused: the error status, and no decision. */
        status = jsonrpc_session_sent(session, input, len);
        check(status == JSONRPC_STATUS_INTERNAL_ERROR, "jsonrpc_session_sent: JSONRPC_STATUS_INTERNAL_ERROR");
        JsonRpcDecision decision;
        memset(&decision, 0xa5, sizeof decision);
        status = jsonrpc_session_refused(session, input, len, &decision);
        check(status == JSONRPC_STATUS_INTERNAL_ERROR && decision.action == JSONRPC_ACTION_NONE &&
                  decision.text.ptr == NULL,
              "jsonrpc_session_refused: JSONRPC_STATUS_INTERNAL_ERROR, JSONRPC_ACTION_NONE and no text");
        jsonrpc_string_free(&decision.text);

        JsonRpcBatch stale = {batch.items, 1, (const uint8_t *)"x", 1, "y", 1};
        batch = stale;
        status = jsonrpc_session_feed(session, input, len, &batch);
        check(status == JSONRPC_STATUS_INTERNAL_ERROR, "jsonrpc_session_feed: JSONRPC_STATUS_INTERNAL_ERROR");
        check(batch.count == 0 && batch.bytes_len == 0 && batch.texts_len == 0,
              "jsonrpc_session_feed: an empty batch after a panic");
        status = jsonrpc_session_feed(session, (const uint8_t *)good, strlen(good), &batch);
        check(status == JSONRPC_STATUS_INTERNAL_ERROR, "jsonrpc_session_feed: a session that panicked stays failed");
        check(jsonrpc_session_end(session, &batch) == JSONRPC_STATUS_INTERNAL_ERROR,
              "jsonrpc_session_end: a session that panicked stays failed");
        jsonrpc_session_free(session);
    }
    /* A relay: a fault in any call fails every later call, in both
     * directions, but jsonrpc_relay_outstanding and the free. */
    for (int call = 0; call < 3; call++) {
        JsonRpcRelay *relay = jsonrpc_relay_new(profile, 0);
        check(relay != NULL, "jsonrpc_relay_new");
        check(jsonrpc_relay_feed(relay, JSONRPC_DIRECTION_TO_SERVER, (const uint8_t *)good, strlen(good), &batch) ==
                      JSONRPC_STATUS_OK &&
                  batch.count == 1 && batch.items[0].action == JSONRPC_ACTION_FORWARD,
              "jsonrpc_relay_feed: a line before the panic");
        JsonRpcDecision decision;
        memset(&decision, 0xa5, sizeof decision);
        if (call == 0) {
            JsonRpcBatch stale = {batch.items, 1, (const uint8_t *)"x", 1, "y", 1};
            batch = stale;
            status = jsonrpc_relay_feed(relay, JSONRPC_DIRECTION_TO_SERVER, input, len, &batch);
            check(status == JSONRPC_STATUS_INTERNAL_ERROR && batch.count == 0 && batch.bytes_len == 0,
                  "jsonrpc_relay_feed: JSONRPC_STATUS_INTERNAL_ERROR and an empty batch");
        } else if (call == 1) {
            status = jsonrpc_relay_wrote(relay, JSONRPC_DIRECTION_TO_HOST, input, len);
            check(status == JSONRPC_STATUS_INTERNAL_ERROR, "jsonrpc_relay_wrote: JSONRPC_STATUS_INTERNAL_ERROR");
        } else {
            status = jsonrpc_relay_refused(relay, JSONRPC_DIRECTION_TO_HOST, input, len, &decision);
            check(status == JSONRPC_STATUS_INTERNAL_ERROR && decision.action == JSONRPC_ACTION_NONE &&
                      decision.text.ptr == NULL,
                  "jsonrpc_relay_refused: JSONRPC_STATUS_INTERNAL_ERROR, JSONRPC_ACTION_NONE and no text");
        }
        check(jsonrpc_relay_feed(relay, JSONRPC_DIRECTION_TO_HOST, (const uint8_t *)good, strlen(good), &batch) ==
                      JSONRPC_STATUS_INTERNAL_ERROR &&
                  batch.count == 0,
              "jsonrpc_relay_feed: the other direction of a relay that panicked fails too");
        check(jsonrpc_relay_end(relay, JSONRPC_DIRECTION_TO_SERVER, &batch) == JSONRPC_STATUS_INTERNAL_ERROR,
              "jsonrpc_relay_end: a relay that panicked stays failed");
        check(jsonrpc_relay_wrote(relay, JSONRPC_DIRECTION_TO_HOST, (const uint8_t *)good, strlen(good)) ==
                  JSONRPC_STATUS_INTERNAL_ERROR,
              "jsonrpc_relay_wrote: a relay that panicked stays failed");
        memset(&decision, 0xa5, sizeof decision);
        check(jsonrpc_relay_refused(relay, JSONRPC_DIRECTION_TO_HOST, (const uint8_t *)good, strlen(good),
                                    &decision) == JSONRPC_STATUS_INTERNAL_ERROR &&
                  decision.action == JSONRPC_ACTION_NONE && decision.text.ptr == NULL,
              "jsonrpc_relay_refused: a relay that panicked stays failed");
        (void)jsonrpc_relay_outstanding(relay, JSONRPC_DIRECTION_TO_HOST);
        jsonrpc_relay_free(relay);
    }
    /* A fresh session is unaffected. */
    JsonRpcSession *session = jsonrpc_session_new(JSONRPC_ROLE_SERVER, profile, 0);
    check(jsonrpc_session_feed(session, (const uint8_t *)good, strlen(good), &batch) == JSONRPC_STATUS_OK &&
              batch.count == 1 && batch.items[0].action == JSONRPC_ACTION_FORWARD,
          "a new session reads after another one panicked");
    jsonrpc_session_free(session);
    still_works("every entry point panicked");
}

static void without_hook(const uint8_t *input, size_t len) {
    JsonRpcClassification c = jsonrpc_classify(input, len, profile);
    check(c.kind == JSONRPC_KIND_PARSE_ERROR, "a normal library: the hidden input is just a parse error");
    jsonrpc_classification_free(&c);
    JsonRpcSession *session = jsonrpc_session_new(JSONRPC_ROLE_CLIENT, profile, 0);
    JsonRpcBatch batch;
    check(jsonrpc_session_feed(session, input, len, &batch) == JSONRPC_STATUS_OK && batch.count == 0 &&
              jsonrpc_session_end(session, &batch) == JSONRPC_STATUS_OK && batch.count == 1 &&
              batch.items[0].action == JSONRPC_ACTION_DIVERT,
          "a normal library: the hidden input is diverted in role client");
    jsonrpc_session_free(session);
}

int main(int argc, char **argv) {
    const uint8_t *input = (const uint8_t *)PANIC_INPUT;
    size_t len = strlen(PANIC_INPUT);
    static const uint32_t profiles[] = {JSONRPC_PROFILE_JSONRPC, JSONRPC_PROFILE_MCP};
    if (argc == 2 && strcmp(argv[1], "hook") == 0) {
        for (size_t p = 0; p < sizeof profiles / sizeof profiles[0]; p++) {
            profile = profiles[p];
            with_hook(input, len);
        }
    } else if (argc == 2 && strcmp(argv[1], "no-hook") == 0) {
        for (size_t p = 0; p < sizeof profiles / sizeof profiles[0]; p++) {
            profile = profiles[p];
            without_hook(input, len);
        }
    } else {
        fprintf(stderr, "usage: panic_test hook|no-hook\n");
        return 2;
    }
    printf("%ld passed, %ld failed\n", passed, failed);
    return failed ? 1 : 0;
}
