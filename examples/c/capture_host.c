/*
 * capture_host: a small C host over the library. It reads a capture the way
 * a host reads a pipe, a chunk at a time, hands each chunk to a
 * JsonRpcReader, and prints what each line the reader completes is and the
 * reply it is owed in the given role.
 *
 *   capture_host server|client FILE
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "jsonrpc_envelope.h"

/* Prints peer text safely for a log line: jsonrpc_log_value escapes control
 * and bidi characters and cuts long values, so no peer can forge a line. */
static void print_str(const char *label, JsonRpcStr s) {
    if (s.ptr == NULL) {
        return;
    }
    JsonRpcString safe = jsonrpc_log_value((const uint8_t *)s.ptr, s.len);
    if (safe.ptr != NULL) {
        printf(" %s=%.*s", label, (int)safe.len, safe.ptr);
    }
    jsonrpc_string_free(&safe);
}

static void print_line(const JsonRpcLine *item, int server) {
    const JsonRpcClassification *c = &item->classification;
    const char *kind = jsonrpc_kind_name(c->kind);
    if (c->kind == JSONRPC_KIND_TOO_LONG) {
        printf("%4" PRIu64 "  %s (%zu bytes, skipped)\n", item->number, kind, item->len);
        return;
    }
    printf("%4" PRIu64 "  %-15s", item->number, kind != NULL ? kind : "?");
    print_str("id", c->id);
    print_str("method", c->method);
    if (c->names_no_request) {
        printf(" (an error that names no request)");
    }
    print_str("reason", c->reason);
    printf("\n");
    JsonRpcStr reply = server ? c->reply_server : c->reply_client;
    if (reply.ptr != NULL) {
        printf("      -> %.*s\n", (int)reply.len, reply.ptr);
    }
}

int main(int argc, char **argv) {
    if (argc != 3 || (strcmp(argv[1], "server") != 0 && strcmp(argv[1], "client") != 0)) {
        fprintf(stderr, "usage: %s server|client FILE\n", argv[0]);
        return 2;
    }
    int server = strcmp(argv[1], "server") == 0;
    FILE *in = fopen(argv[2], "rb");
    if (in == NULL) {
        perror(argv[2]);
        return 2;
    }
    JsonRpcReader *reader = jsonrpc_reader_new(0); /* the default line limit */
    if (reader == NULL) {
        fprintf(stderr, "jsonrpc_reader_new: out of memory\n");
        fclose(in);
        return 1;
    }
    printf("%s v%s reading %s as %s\n", "jsonrpc-envelope", jsonrpc_version(), argv[2], argv[1]);

    /* Small chunks on purpose: lines cross chunk boundaries, as on a pipe. */
    enum { CHUNK = 256 };
    unsigned char chunk[CHUNK];
    int status = 0;
    for (size_t got = 1; got > 0;) {
        got = fread(chunk, 1, CHUNK, in);
        JsonRpcBatch batch;
        JsonRpcStatus fed =
            got > 0 ? jsonrpc_reader_feed(reader, chunk, got, &batch) : jsonrpc_reader_end(reader, &batch);
        if (fed != JSONRPC_STATUS_OK) {
            fprintf(stderr, "the reader failed: status %u\n", (unsigned)fed);
            status = 1;
            break;
        }
        for (size_t i = 0; i < batch.count; i++) {
            print_line(&batch.items[i], server);
        }
    }
    if (ferror(in)) {
        perror(argv[2]);
        status = 1;
    }
    jsonrpc_reader_free(reader);
    fclose(in);
    return status;
}
