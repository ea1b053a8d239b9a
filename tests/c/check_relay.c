/*
 * check_relay.c: the relay's promises in the header, one by one (part of the
 * C vector test; see test_vectors.c). Every expected text is written here
 * from the SPEC.
 */

#include "vector_test.h"

#define REQ_7 "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}"
#define PING_5 "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}"
#define BAD_RESULT_7 "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}"
#define SERVER_REQUEST_S1 "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}"
#define ERROR_NULL_ID "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}"
#define ATTRIBUTED_S1 "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"error\":{\"code\":-32600,\"message\":\"x\"}}"
#define RESULT_7 "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}"
#define RESULT_9 "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}"
#define REQUEST_1 "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"
/* SPEC §10.3: the substitute for an id. */
#define SUBSTITUTE_FOR(ID)                                                                                           \
    "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32603,\"message\":\"Internal error: the peer's response " \
    "to this request is not valid MCP\"}}"
/* SPEC §10.4: the -32600 reply for a request the receiving SDK refused. */
#define REFUSED_REPLY_FOR(ID)                                                                                    \
    "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: the receiving " \
    "MCP SDK cannot read this request\"}}"
/* SPEC §10.6 (b): a batch is answered with one reply per request. */
#define BATCH_REPLY_FOR(ID)                                                                                    \
    "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: MCP has no " \
    "batches; send each request on its own line\"}}"

static const Text NO_TEXT = {TEXT_ABSENT, NULL, 0};

static Text exact(const char *text) {
    return (Text){TEXT_EXACT, text, strlen(text)};
}

/* Feeds `text` in `dir` (NULL: ends the direction's stream) and checks the
 * batch is one line of this kind, action and text. */
static JsonRpcBatch one_line(JsonRpcRelay *relay, uint32_t dir, const char *text, uint32_t kind, uint32_t action,
                             Text want) {
    JsonRpcBatch batch = {0};
    JsonRpcStatus status = text == NULL ? jsonrpc_relay_end(relay, dir, &batch)
                                        : jsonrpc_relay_feed(relay, dir, (const uint8_t *)text, strlen(text), &batch);
    if (!check(status == JSONRPC_STATUS_OK, "status %u", (unsigned)status) ||
        !check(batch.count == 1, "%zu lines, expected 1", batch.count)) {
        return (JsonRpcBatch){0};
    }
    check_enum("kind", KINDS, batch.items[0].classification.kind, kind);
    check_enum("action", ACTIONS, batch.items[0].action, action);
    check_text("action_text", batch.items[0].action_text, want);
    check(action == JSONRPC_ACTION_FORWARD || batch.items[0].note != NULL, "no note for an action but forward");
    return batch;
}

/* SPEC 10.4: the notes of a refusal. */
#define REFUSED_NOTE "the receiving SDK's decoder refused it"
#define REFUSED_AGAIN_NOTE "the receiving SDK's decoder refused the substitute too"

static void check_decision(JsonRpcDecision *d, uint32_t action, Text want, const char *note) {
    check_enum("refused action", ACTIONS, d->action, action);
    check_text("refused text", (JsonRpcStr){d->text.ptr, d->text.len}, want);
    check(d->note != NULL && strcmp(d->note, note) == 0, "the note is \"%s\", expected \"%s\"",
          d->note == NULL ? "(NULL)" : d->note, note);
    jsonrpc_string_free(&d->text);
}

static void check_lookups(void) {
    set_context("relay: jsonrpc_direction_name");
    check(jsonrpc_direction_name(JSONRPC_DIRECTION_TO_SERVER) != NULL &&
              strcmp(jsonrpc_direction_name(JSONRPC_DIRECTION_TO_SERVER), "to_server") == 0,
          "TO_SERVER is not \"to_server\"");
    check(jsonrpc_direction_name(JSONRPC_DIRECTION_TO_HOST) != NULL &&
              strcmp(jsonrpc_direction_name(JSONRPC_DIRECTION_TO_HOST), "to_host") == 0,
          "TO_HOST is not \"to_host\"");
    check(jsonrpc_direction_name(0) == NULL && jsonrpc_direction_name(3) == NULL, "a name for no direction");
    set_context("relay: jsonrpc_direction_read_by");
    check(jsonrpc_direction_read_by(JSONRPC_ROLE_SERVER) == JSONRPC_DIRECTION_TO_SERVER, "a server reads to_server");
    check(jsonrpc_direction_read_by(JSONRPC_ROLE_CLIENT) == JSONRPC_DIRECTION_TO_HOST, "a client reads to_host");
    check(jsonrpc_direction_read_by(99) == 0, "a direction for no role");
    set_context("relay: jsonrpc_action_goes");
    const uint32_t S = JSONRPC_DIRECTION_TO_SERVER, H = JSONRPC_DIRECTION_TO_HOST;
    check(jsonrpc_action_goes(JSONRPC_ACTION_FORWARD, S) == S, "a forward goes on");
    check(jsonrpc_action_goes(JSONRPC_ACTION_SUBSTITUTE, H) == H, "a substitute goes on");
    check(jsonrpc_action_goes(JSONRPC_ACTION_ATTRIBUTE, H) == H, "an attribution goes on");
    check(jsonrpc_action_goes(JSONRPC_ACTION_ANSWER, S) == H, "an answer to the host's line goes to the host");
    check(jsonrpc_action_goes(JSONRPC_ACTION_ANSWER, H) == S, "an answer to the server's line goes to the server");
    check(jsonrpc_action_goes(JSONRPC_ACTION_DROP, S) == 0 && jsonrpc_action_goes(JSONRPC_ACTION_DIVERT, H) == 0 &&
              jsonrpc_action_goes(JSONRPC_ACTION_NONE, S) == 0,
          "a drop, a diversion or no action goes somewhere");
    check(jsonrpc_action_goes(99, S) == 0 && jsonrpc_action_goes(JSONRPC_ACTION_FORWARD, 0) == 0 &&
              jsonrpc_action_goes(JSONRPC_ACTION_ANSWER, 3) == 0,
          "an unknown action or direction goes somewhere");
    set_context("relay: jsonrpc_status_name");
    check(jsonrpc_status_name(JSONRPC_STATUS_UNKNOWN_DIRECTION) != NULL &&
              strcmp(jsonrpc_status_name(JSONRPC_STATUS_UNKNOWN_DIRECTION), "unknown_direction") == 0,
          "UNKNOWN_DIRECTION is not \"unknown_direction\"");
}

static void check_bad_arguments(void) {
    set_context("relay: jsonrpc_relay_new");
    check(jsonrpc_relay_new(99, 0) == NULL, "a relay of no profile");
    jsonrpc_relay_free(NULL);
    check(jsonrpc_relay_outstanding(NULL, JSONRPC_DIRECTION_TO_HOST) == 0, "outstanding of NULL");
    JsonRpcRelay *relay = jsonrpc_relay_new(JSONRPC_PROFILE_MCP, 0);
    if (!check(relay != NULL, "no relay")) {
        return;
    }
    const uint8_t *line = (const uint8_t *)PING_5 "\n";
    size_t len = strlen(PING_5 "\n");
    JsonRpcBatch batch = stale_batch();
    set_context("relay: a direction that is none");
    check(jsonrpc_relay_feed(relay, 0, line, len, &batch) == JSONRPC_STATUS_UNKNOWN_DIRECTION, "feed: status");
    check(batch.count == 0 && batch.bytes_len == 0, "feed: *out is not empty");
    batch = stale_batch();
    check(jsonrpc_relay_end(relay, 3, &batch) == JSONRPC_STATUS_UNKNOWN_DIRECTION, "end: status");
    check(batch.count == 0 && batch.bytes_len == 0, "end: *out is not empty");
    check(jsonrpc_relay_wrote(relay, 7, line, len) == JSONRPC_STATUS_UNKNOWN_DIRECTION, "wrote: status");
    JsonRpcDecision d = {JSONRPC_ACTION_DROP, {NULL, 0}, NULL};
    check(jsonrpc_relay_refused(relay, 0, line, len, &d) == JSONRPC_STATUS_UNKNOWN_DIRECTION, "refused: status");
    check(d.action == JSONRPC_ACTION_NONE && d.text.ptr == NULL, "refused: *out is not NONE");
    check(jsonrpc_relay_outstanding(relay, 0) == 0, "outstanding of no direction");
    set_context("relay: NULL arguments");
    const uint32_t S = JSONRPC_DIRECTION_TO_SERVER;
    check_refused("jsonrpc_relay_feed(NULL relay)", jsonrpc_relay_feed(NULL, S, line, len, &batch), &batch);
    check_refused("jsonrpc_relay_feed(NULL out)", jsonrpc_relay_feed(relay, S, line, len, NULL), NULL);
    batch = stale_batch();
    check_refused("jsonrpc_relay_feed(NULL data, 1)", jsonrpc_relay_feed(relay, S, NULL, 1, &batch), &batch);
    check_refused("jsonrpc_relay_end(NULL relay)", jsonrpc_relay_end(NULL, S, &batch), &batch);
    check_refused("jsonrpc_relay_end(NULL out)", jsonrpc_relay_end(relay, S, NULL), NULL);
    set_context("relay: NULL arguments");
    check(jsonrpc_relay_wrote(NULL, S, line, len) == JSONRPC_STATUS_NULL_ARGUMENT, "wrote(NULL relay)");
    check(jsonrpc_relay_wrote(relay, S, NULL, 1) == JSONRPC_STATUS_NULL_ARGUMENT, "wrote(NULL line, 1)");
    check(jsonrpc_relay_wrote(relay, S, NULL, 0) == JSONRPC_STATUS_OK, "wrote(NULL, 0) is an empty line");
    check(jsonrpc_relay_refused(NULL, S, line, len, &d) == JSONRPC_STATUS_NULL_ARGUMENT, "refused(NULL relay)");
    check(jsonrpc_relay_refused(relay, S, line, len, NULL) == JSONRPC_STATUS_NULL_ARGUMENT, "refused(NULL out)");
    check(jsonrpc_relay_refused(relay, S, NULL, 1, &d) == JSONRPC_STATUS_NULL_ARGUMENT, "refused(NULL line, 1)");
    /* (NULL, 0) is feeding no bytes. */
    batch = stale_batch();
    check(jsonrpc_relay_feed(relay, S, NULL, 0, &batch) == JSONRPC_STATUS_OK && batch.count == 0,
          "feed(NULL, 0) is not an empty batch");
    check(jsonrpc_relay_outstanding(relay, JSONRPC_DIRECTION_TO_HOST) == 0, "bad calls changed the relay");
    jsonrpc_relay_free(relay);
}

/* Both directions, with the bookkeeping between them. */
static void check_both_directions(void) {
    const uint32_t S = JSONRPC_DIRECTION_TO_SERVER, H = JSONRPC_DIRECTION_TO_HOST;
    JsonRpcRelay *relay = jsonrpc_relay_new(JSONRPC_PROFILE_MCP, 0);
    if (!check(relay != NULL, "no relay")) {
        return;
    }
    set_context("relay: a request forwarded to the server");
    JsonRpcBatch to_server = one_line(relay, S, REQ_7 "\n", JSONRPC_KIND_REQUEST, JSONRPC_ACTION_FORWARD, NO_TEXT);
    check(jsonrpc_relay_outstanding(relay, H) == 1, "the server's reply is not awaited");
    check(jsonrpc_relay_outstanding(relay, S) == 0, "the host awaits a reply");
    set_context("relay: the server's invalid response to it");
    one_line(relay, H, BAD_RESULT_7 "\n", JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_SUBSTITUTE,
             exact(SUBSTITUTE_FOR("7")));
    check(jsonrpc_relay_outstanding(relay, H) == 0, "the request is still awaited");
    /* A batch of one direction lives until that direction's next call. */
    set_context("relay: a batch outlives the other direction's calls");
    if (check(to_server.count == 1, "no batch kept")) {
        JsonRpcStr bytes = {(const char *)to_server.bytes + to_server.items[0].offset, to_server.items[0].len};
        check_bytes("the first batch's line", bytes, exact(REQ_7));
    }
    set_context("relay: a request the server wrote not through the relay");
    check(jsonrpc_relay_wrote(relay, H, (const uint8_t *)SERVER_REQUEST_S1, strlen(SERVER_REQUEST_S1)) ==
              JSONRPC_STATUS_OK,
          "wrote: status");
    check(jsonrpc_relay_outstanding(relay, S) == 1, "the host's reply is not awaited");
    set_context("relay: the host's error with a null id, given to it");
    JsonRpcBatch attributed =
        one_line(relay, S, ERROR_NULL_ID "\n", JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE, exact(ATTRIBUTED_S1));
    check(jsonrpc_relay_outstanding(relay, S) == 0, "still awaited");
    set_context("relay: a batch's own texts outlive the other direction's calls");
    one_line(relay, H, BAD_RESULT_7 "\n", JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_DROP, NO_TEXT);
    if (check(attributed.count == 1, "no batch kept")) {
        check_text("the first batch's attributed text", attributed.items[0].action_text, exact(ATTRIBUTED_S1));
    }
    set_context("relay: a batch from the host is answered, and changes no side");
    one_line(relay, S, "[" REQ_7 "]\n", JSONRPC_KIND_BATCH, JSONRPC_ACTION_ANSWER, exact(BATCH_REPLY_FOR("7")));
    check(jsonrpc_relay_outstanding(relay, S) == 0 && jsonrpc_relay_outstanding(relay, H) == 0, "a side changed");
    set_context("relay: the end of the host's stream");
    JsonRpcBatch batch = {0};
    check(jsonrpc_relay_feed(relay, S, (const uint8_t *)PING_5, strlen(PING_5), &batch) == JSONRPC_STATUS_OK &&
              batch.count == 0,
          "a line without its LF came before the end");
    one_line(relay, S, NULL, JSONRPC_KIND_REQUEST, JSONRPC_ACTION_FORWARD, NO_TEXT);
    check(jsonrpc_relay_outstanding(relay, H) == 1, "the last line's request is not awaited");
    jsonrpc_relay_free(relay);
}

/* SPEC §10.4: what to do when the receiver refused a line, settled by the
 * second refusal. */
static void check_refusals(void) {
    const uint32_t S = JSONRPC_DIRECTION_TO_SERVER, H = JSONRPC_DIRECTION_TO_HOST;
    JsonRpcRelay *relay = jsonrpc_relay_new(JSONRPC_PROFILE_MCP, 0);
    if (!check(relay != NULL, "no relay")) {
        return;
    }
    JsonRpcDecision d;
    set_context("relay: the server's SDK refused a request");
    one_line(relay, S, REQUEST_1 "\n", JSONRPC_KIND_REQUEST, JSONRPC_ACTION_FORWARD, NO_TEXT);
    check(jsonrpc_relay_outstanding(relay, H) == 1, "the request handed on is not awaited");
    if (check(jsonrpc_relay_refused(relay, S, (const uint8_t *)REQUEST_1, strlen(REQUEST_1), &d) ==
                  JSONRPC_STATUS_OK,
              "status")) {
        check_decision(&d, JSONRPC_ACTION_ANSWER, exact(REFUSED_REPLY_FOR("1")), REFUSED_NOTE);
    }
    check(jsonrpc_relay_outstanding(relay, H) == 0, "a request the relay answered is still awaited");
    set_context("relay: a response written answers the request handed on");
    one_line(relay, S, REQ_7 "\n", JSONRPC_KIND_REQUEST, JSONRPC_ACTION_FORWARD, NO_TEXT);
    check(jsonrpc_relay_wrote(relay, H, (const uint8_t *)RESULT_7, strlen(RESULT_7)) == JSONRPC_STATUS_OK &&
              jsonrpc_relay_outstanding(relay, H) == 0,
          "the server's response, written not through the relay, left its request awaited");
    set_context("relay: the host's SDK refused a response");
    if (check(jsonrpc_relay_refused(relay, H, (const uint8_t *)RESULT_9, strlen(RESULT_9), &d) == JSONRPC_STATUS_OK,
              "status")) {
        check_decision(&d, JSONRPC_ACTION_SUBSTITUTE, exact(SUBSTITUTE_FOR("9")), REFUSED_NOTE);
    }
    set_context("relay: the host's SDK refused the substitute too");
    const char *substitute = SUBSTITUTE_FOR("9");
    if (check(jsonrpc_relay_refused(relay, H, (const uint8_t *)substitute, strlen(substitute), &d) ==
                  JSONRPC_STATUS_OK,
              "status")) {
        check_decision(&d, JSONRPC_ACTION_DROP, NO_TEXT, REFUSED_AGAIN_NOTE);
    }
    jsonrpc_relay_free(relay);
}

void check_relay_promises(void) {
    check_lookups();
    check_bad_arguments();
    check_both_directions();
    check_refusals();
}
