/*
 * capture_host: a small C host over the library. It reads a capture the way
 * a host reads a pipe, a chunk at a time through jsonrpc_classify_lines, and
 * prints what each line is and the reply it is owed in the given role.
 *
 *   capture_host server|client FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonrpc_envelope.h"

static const char *kind_name(JsonRpcKind kind) {
    switch (kind) {
    case JSONRPC_KIND_EMPTY: return "empty";
    case JSONRPC_KIND_PARSE_ERROR: return "parse_error";
    case JSONRPC_KIND_BATCH: return "batch";
    case JSONRPC_KIND_NOT_OBJECT: return "not_object";
    case JSONRPC_KIND_INVALID_REQUEST: return "invalid_request";
    case JSONRPC_KIND_REQUEST: return "request";
    case JSONRPC_KIND_NOTIFICATION: return "notification";
    case JSONRPC_KIND_RESPONSE: return "response";
    case JSONRPC_KIND_NOT_JSONRPC: return "not_jsonrpc";
    default: return "none";
    }
}

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

static void print_line(unsigned long number, const JsonRpcLine *item, int server) {
    if (item->too_long) {
        printf("%4lu  too_long (%zu bytes, skipped)\n", number, item->len);
        return;
    }
    const JsonRpcClassification *c = &item->classification;
    printf("%4lu  %-15s", number, kind_name(c->kind));
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
    printf("%s v%s reading %s as %s\n", "jsonrpc-envelope", jsonrpc_version(), argv[2], argv[1]);

    /* Small chunks on purpose: lines cross chunk boundaries, as on a pipe. */
    enum { CHUNK = 256, MAX_LINE = 1 << 20 };
    static unsigned char buf[MAX_LINE + CHUNK];
    size_t held = 0;
    unsigned long number = 0;
    JsonRpcLineState state = {0};
    state.max_line = MAX_LINE;
    int end = 0;
    while (!end) {
        size_t got = fread(buf + held, 1, CHUNK, in);
        end = got < CHUNK;
        held += got;
        JsonRpcLines lines = jsonrpc_classify_lines(buf, held, end, &state);
        if (lines.status != JSONRPC_STATUS_OK) {
            fprintf(stderr, "jsonrpc_classify_lines failed: status %u\n", (unsigned)lines.status);
            fclose(in);
            return 1;
        }
        for (size_t i = 0; i < lines.count; i++) {
            print_line(++number, &lines.items[i], server);
        }
        memmove(buf, buf + lines.consumed, held - lines.consumed);
        held -= lines.consumed;
        jsonrpc_lines_free(&lines);
    }
    fclose(in);
    return 0;
}
