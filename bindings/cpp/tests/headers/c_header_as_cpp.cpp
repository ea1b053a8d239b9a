// The C header alone, compiled as C++ (C++11 and C++17), and included twice.
#include "jsonrpc_envelope.h"
#include "jsonrpc_envelope.h"

uint32_t header_check_c_as_cpp();

uint32_t header_check_c_as_cpp() {
  JsonRpcClassification c = jsonrpc_classify(nullptr, 0, JSONRPC_PROFILE_MCP);
  uint32_t kind = c.kind;
  jsonrpc_classification_free(&c);
  JsonRpcSession* session = jsonrpc_session_new(JSONRPC_ROLE_CLIENT, JSONRPC_PROFILE_JSONRPC, 0);
  JsonRpcDecision decision;
  JsonRpcStatus status = jsonrpc_session_refused(session, nullptr, 0, &decision);
  jsonrpc_string_free(&decision.text);
  jsonrpc_session_free(session);
  JsonRpcRelay* relay = jsonrpc_relay_new(JSONRPC_PROFILE_MCP, 0);
  JsonRpcBatch batch;
  JsonRpcStatus fed = jsonrpc_relay_feed(relay, JSONRPC_DIRECTION_TO_SERVER, nullptr, 0, &batch);
  uint32_t goes = jsonrpc_action_goes(JSONRPC_ACTION_ANSWER, JSONRPC_DIRECTION_TO_SERVER);
  jsonrpc_relay_free(relay);
  return kind + static_cast<uint32_t>(status) + static_cast<uint32_t>(decision.action) + static_cast<uint32_t>(fed) +
         goes + JSONRPC_ABI_VERSION;
}
