/* The C header alone, compiled as C (C99 and C11, -Wpedantic -Werror), and
 * included twice: it must need nothing before it and guard itself. */
#include "jsonrpc_envelope.h"
#include "jsonrpc_envelope.h"

uint32_t header_check_c(void);

uint32_t header_check_c(void) {
    JsonRpcClassification c = jsonrpc_classify(NULL, 0);
    uint32_t kind = (uint32_t)c.kind;
    jsonrpc_classification_free(&c);
    return kind + JSONRPC_ABI_VERSION;
}
