// The C header alone, compiled as C++ (C++11 and C++17), and included twice.
#include "jsonrpc_envelope.h"
#include "jsonrpc_envelope.h"

uint32_t header_check_c_as_cpp();

uint32_t header_check_c_as_cpp() {
  JsonRpcClassification c = jsonrpc_classify(nullptr, 0);
  uint32_t kind = c.kind;
  jsonrpc_classification_free(&c);
  return kind + JSONRPC_ABI_VERSION;
}
