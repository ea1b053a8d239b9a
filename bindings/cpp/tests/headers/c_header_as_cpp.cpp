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
  return kind + static_cast<uint32_t>(status) + static_cast<uint32_t>(decision.action) + JSONRPC_ABI_VERSION;
}
