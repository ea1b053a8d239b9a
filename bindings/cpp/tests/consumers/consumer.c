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
    JsonRpcClassification c = jsonrpc_classify((const uint8_t *)line, strlen(line));
    int ok = c.kind == JSONRPC_KIND_INVALID_REQUEST && c.reply_server.ptr != NULL;
    printf("C consumer: jsonrpc-envelope %s, kind %u, reply %s\n", jsonrpc_version(), (unsigned)c.kind,
           c.reply_server.ptr ? c.reply_server.ptr : "(none)");
    jsonrpc_classification_free(&c);
    return ok ? 0 : 1;
}
