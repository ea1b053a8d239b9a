/* consumer.c: a C program built against an installed jsonrpc-envelope only
 * (pkg-config, dynamic and static). Exit 0 when the library answers. */
#include <jsonrpc_envelope.h>

#include <stdio.h>
#include <string.h>

int main(void) {
    if (jsonrpc_abi_version() != JSONRPC_ABI_VERSION) {
        fprintf(stderr, "ABI %u, header %u\n", (unsigned)jsonrpc_abi_version(), (unsigned)JSONRPC_ABI_VERSION);
        return 1;
    }
    static const char line[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":1}";
    JsonRpcClassification c = jsonrpc_classify((const uint8_t *)line, strlen(line), JSONRPC_PROFILE_JSONRPC);
    int ok = c.kind == JSONRPC_KIND_INVALID_REQUEST && c.reply_server.ptr != NULL;
    printf("C consumer: jsonrpc-envelope %s, kind %u, reply %s\n", jsonrpc_version(), (unsigned)c.kind,
           c.reply_server.ptr ? c.reply_server.ptr : "(none)");
    jsonrpc_classification_free(&c);

    /* A session in the MCP profile: the same line, answered. */
    JsonRpcSession *session = jsonrpc_session_new(JSONRPC_ROLE_SERVER, JSONRPC_PROFILE_MCP, 0);
    JsonRpcBatch batch;
    ok = ok && session != NULL &&
         jsonrpc_session_feed(session, (const uint8_t *)line, strlen(line), &batch) == JSONRPC_STATUS_OK &&
         jsonrpc_session_end(session, &batch) == JSONRPC_STATUS_OK && batch.count == 1 &&
         batch.items[0].action == JSONRPC_ACTION_ANSWER && batch.items[0].action_text.ptr != NULL;
    if (ok) {
        printf("C consumer: session (%s, %s): %s %s\n", jsonrpc_role_name(JSONRPC_ROLE_SERVER),
               jsonrpc_profile_name(JSONRPC_PROFILE_MCP), jsonrpc_action_name(batch.items[0].action),
               batch.items[0].action_text.ptr);
    }
    jsonrpc_session_free(session);
    return ok ? 0 : 1;
}
