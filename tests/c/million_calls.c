/*
 * A million calls through the C ABI, every entry point, on lines of every
 * kind: run under valgrind (`make test-c`) it shows that no call leaks or
 * touches memory it should not, however many times it runs.
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
};
enum { LINE_COUNT = sizeof LINES / sizeof LINES[0] };

int main(int argc, char **argv) {
    long calls = argc > 1 ? atol(argv[1]) : 1000000L;
    long made = 0, bad = 0;
    JsonRpcReader *reader = jsonrpc_reader_new(0);
    bad += reader == NULL;
    while (made < calls) {
        for (size_t i = 0; i < LINE_COUNT && made < calls; i++) {
            const uint8_t *line = (const uint8_t *)LINES[i];
            size_t len = strlen(LINES[i]);

            JsonRpcClassification c = jsonrpc_classify(line, len);
            bad += c.kind == JSONRPC_KIND_NONE;
            jsonrpc_classification_free(&c);

            JsonRpcReply reply = jsonrpc_invalid_reply(line, len, (uint32_t)(1 + made % 3));
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
            made += 4;
        }
    }
    jsonrpc_reader_free(reader);
    printf("%ld calls, %ld unexpected results\n", made, bad);
    return bad == 0 ? 0 : 1;
}
