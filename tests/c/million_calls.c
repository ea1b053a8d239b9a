/*
 * A million calls through the C ABI, every entry point, on lines of every
 * kind, in both profiles: run under valgrind (`make test-c`) it shows that
 * no call leaks or touches memory it should not, however many times it
 * runs. A session in each role reads the lines too, told of requests
 * written the other way, with now and then a line the SDK refused.
 *
 *   million_calls [CALLS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonrpc_envelope.h"

static const char *const LINES[] = {
    "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1},\"method\":[]}",
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}",
    "{\"jsonrpc\":\"2.0\",\"id\":\"a\\u0000b\",\"result\":{}}",
    "[1,2,3]",
    "\"hello\"",
    "not json at all \xff",
    "",
    "{\"method\":\"\\ud800\"}",
    "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}",
    "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}",
    "{\"jsonrpc\":\"2.0\",\"id\":\"a\\u0062\",\"method\":\"ping\",\"params\":{\"_meta\":{\"progressToken\":1.5}}}",
};
enum { LINE_COUNT = sizeof LINES / sizeof LINES[0] };

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 1000000L;
    long made = 0, bad = 0;
    JsonRpcReader *readers[2] = {jsonrpc_reader_new(0, JSONRPC_PROFILE_JSONRPC),
                                 jsonrpc_reader_new(0, JSONRPC_PROFILE_MCP)};
    JsonRpcSession *sessions[2] = {jsonrpc_session_new(JSONRPC_ROLE_SERVER, JSONRPC_PROFILE_MCP, 0),
                                   jsonrpc_session_new(JSONRPC_ROLE_CLIENT, JSONRPC_PROFILE_MCP, 0)};
    bad += readers[0] == NULL || readers[1] == NULL || sessions[0] == NULL || sessions[1] == NULL;
    unsigned char scratch[256];
    while (made < calls) {
        for (size_t i = 0; i < LINE_COUNT && made < calls; i++) {
            const uint8_t *line = (const uint8_t *)LINES[i];
            size_t len = strlen(LINES[i]);
            uint32_t profile = (uint32_t)(1 + made % 2);
            JsonRpcReader *reader = readers[made % 2];
            JsonRpcSession *session = sessions[(made / 2) % 2];

            JsonRpcClassification c = jsonrpc_classify(line, len, profile);
            bad += c.kind == JSONRPC_KIND_NONE;
            jsonrpc_classification_free(&c);

            /* Scratch that fits the strings of some lines, not of others. */
            JsonRpcStatus into = jsonrpc_classify_into(line, len, profile, &c, scratch, (size_t)made % sizeof scratch);
            bad += into != JSONRPC_STATUS_OK || c.kind == JSONRPC_KIND_NONE;
            jsonrpc_classification_free(&c);

            JsonRpcReply reply = jsonrpc_invalid_reply(line, len, (uint32_t)(1 + made % 3), profile);
            bad += reply.status != JSONRPC_STATUS_OK && reply.status != JSONRPC_STATUS_UNKNOWN_ROLE;
            jsonrpc_string_free(&reply.text);

            JsonRpcString text = jsonrpc_log_value(line, len);
            bad += text.ptr == NULL;
            jsonrpc_string_free(&text);

            /* Lines end with an LF, or run on into the next, or end with the stream. */
            JsonRpcBatch batch;
            bad += jsonrpc_reader_feed(reader, line, len, &batch) != JSONRPC_STATUS_OK;
            if (made % 3 == 0) {
                bad += jsonrpc_reader_feed(reader, (const uint8_t *)"\n", 1, &batch) != JSONRPC_STATUS_OK;
            } else if (made % 7 == 0) {
                bad += jsonrpc_reader_end(reader, &batch) != JSONRPC_STATUS_OK;
            }
            /* The session: a request written the other way now and then,
             * the line read, and now and then refused. */
            if (made % 5 == 0) {
                bad += jsonrpc_session_sent(session, (const uint8_t *)LINES[0], strlen(LINES[0])) != JSONRPC_STATUS_OK;
            }
            bad += jsonrpc_session_feed(session, line, len, &batch) != JSONRPC_STATUS_OK;
            bad += jsonrpc_session_feed(session, (const uint8_t *)"\n", 1, &batch) != JSONRPC_STATUS_OK;
            for (size_t b = 0; b < batch.count; b++) {
                bad += batch.items[b].action == JSONRPC_ACTION_NONE;
            }
            if (made % 7 == 0) {
                JsonRpcDecision decision;
                bad += jsonrpc_session_refused(session, line, len, &decision) != JSONRPC_STATUS_OK;
                jsonrpc_string_free(&decision.text);
            }
            made += 8;
        }
    }
    for (size_t i = 0; i < 2; i++) {
        jsonrpc_reader_free(readers[i]);
        jsonrpc_session_free(sessions[i]);
    }
    printf("%ld calls, %ld unexpected results\n", made, bad);
    return bad == 0 ? 0 : 1;
}
