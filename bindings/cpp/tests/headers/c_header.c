/* The C header alone, compiled as C (C99 and C11, -Wpedantic -Werror), and
 * included twice: it must need nothing before it and guard itself. */
#include "jsonrpc_envelope.h"
#include "jsonrpc_envelope.h"

uint32_t header_check_c(void);

uint32_t header_check_c(void) {
    JsonRpcClassification c = jsonrpc_classify(NULL, 0, JSONRPC_PROFILE_MCP);
    uint32_t kind = (uint32_t)c.kind;
    jsonrpc_classification_free(&c);
    JsonRpcSession *session = jsonrpc_session_new(JSONRPC_ROLE_SERVER, JSONRPC_PROFILE_MCP, 0);
    JsonRpcBatch batch;
    uint32_t action = jsonrpc_session_end(session, &batch) == JSONRPC_STATUS_OK && batch.count == 0
                          ? (uint32_t)JSONRPC_ACTION_NONE
                          : (uint32_t)JSONRPC_ACTION_DROP;
    jsonrpc_session_free(session);
    JsonRpcRelay *relay = jsonrpc_relay_new(JSONRPC_PROFILE_MCP, 0);
    uint32_t direction = jsonrpc_direction_read_by(JSONRPC_ROLE_SERVER);
    size_t outstanding = jsonrpc_relay_outstanding(relay, JSONRPC_DIRECTION_TO_HOST);
    jsonrpc_relay_free(relay);
    return kind + action + direction + (uint32_t)outstanding + JSONRPC_ABI_VERSION;
}
