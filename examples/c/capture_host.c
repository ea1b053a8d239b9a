/*
 * capture_host: a small C host over the library. It reads a capture the way
 * a host reads a pipe, a chunk at a time, hands each chunk to a
 * JsonRpcSession in the given role, and prints what each line the session
 * completes is, what the session decided to do with it, and the text that
 * goes with the decision (the reply owed, or what goes on in its place).
 *
 *   capture_host [--profile jsonrpc|mcp] server|client FILE
 *
 * The profile is JSON-RPC 2.0 alone unless `--profile mcp` asks for MCP's
 * narrower rules (SPEC section 10). A capture has only one direction, so no
 * request is ever outstanding: an MCP response that answers nothing of
 * ours is dropped, as a transport would drop it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "jsonrpc_envelope.h"

/* The value the library names `name`, found by asking it for the name of
 * each value (the names are the library's, not this program's); 0 for
 * none. */
static uint32_t value_named(const char *(*name_of)(uint32_t), const char *name) {
    for (uint32_t value = 1; value < 256; value++) {
        const char *named = name_of(value);
        if (named != NULL && strcmp(named, name) == 0) {
            return value;
        }
    }
    return 0;
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

static void print_line(const JsonRpcLine *item) {
    const JsonRpcClassification *c = &item->classification;
    const char *kind = jsonrpc_kind_name(c->kind);
    const char *action = jsonrpc_action_name(item->action);
    if (c->kind == JSONRPC_KIND_TOO_LONG) {
        printf("%4" PRIu64 "  %s (%zu bytes) %s: %s\n", item->number, kind, item->len, action ? action : "?",
               item->note ? item->note : "");
        return;
    }
    printf("%4" PRIu64 "  %-16s %-11s", item->number, kind != NULL ? kind : "?", action != NULL ? action : "?");
    print_str("id", c->id);
    print_str("method", c->method);
    if (c->names_no_request) {
        printf(" (an error that names no request)");
    }
    print_str("reason", c->reason);
    if (item->note != NULL) {
        printf(" (%s)", item->note);
    }
    printf("\n");
    if (item->action_text.ptr != NULL) {
        const char *arrow = item->action == JSONRPC_ACTION_ANSWER ? "back to the sender" : "on, in its place";
        printf("      -> %s: %.*s\n", arrow, (int)item->action_text.len, item->action_text.ptr);
    }
}

static int usage(const char *program) {
    fprintf(stderr, "usage: %s [--profile jsonrpc|mcp] server|client FILE\n", program);
    return 2;
}

int main(int argc, char **argv) {
    int arg = 1;
    uint32_t profile = JSONRPC_PROFILE_JSONRPC;
    if (argc > 2 && strcmp(argv[1], "--profile") == 0) {
        profile = value_named(jsonrpc_profile_name, argv[2]);
        if (profile == 0) {
            return usage(argv[0]);
        }
        arg = 3;
    }
    if (argc != arg + 2) {
        return usage(argv[0]);
    }
    uint32_t role = value_named(jsonrpc_role_name, argv[arg]);
    if (role == 0) {
        return usage(argv[0]);
    }
    if (jsonrpc_abi_version() != JSONRPC_ABI_VERSION) {
        fprintf(stderr, "libjsonrpc_envelope has ABI %u, this program was built for %u\n",
                (unsigned)jsonrpc_abi_version(), (unsigned)JSONRPC_ABI_VERSION);
        return 2;
    }
    const char *path = argv[arg + 1];
    FILE *in = fopen(path, "rb");
    if (in == NULL) {
        perror(path);
        return 2;
    }
    JsonRpcSession *session = jsonrpc_session_new(role, profile, 0); /* the default line limit */
    if (session == NULL) {
        fprintf(stderr, "jsonrpc_session_new: out of memory\n");
        fclose(in);
        return 1;
    }
    printf("%s v%s reading %s as %s, profile %s\n", "jsonrpc-envelope", jsonrpc_version(), path,
           jsonrpc_role_name(role), jsonrpc_profile_name(profile));

    /* Small chunks on purpose: lines cross chunk boundaries, as on a pipe. */
    enum { CHUNK = 256 };
    unsigned char chunk[CHUNK];
    int status = 0;
    for (size_t got = 1; got > 0;) {
        got = fread(chunk, 1, CHUNK, in);
        JsonRpcBatch batch;
        JsonRpcStatus fed =
            got > 0 ? jsonrpc_session_feed(session, chunk, got, &batch) : jsonrpc_session_end(session, &batch);
        if (fed != JSONRPC_STATUS_OK) {
            fprintf(stderr, "the session failed: %s\n", jsonrpc_status_name(fed));
            status = 1;
            break;
        }
        for (size_t i = 0; i < batch.count; i++) {
            print_line(&batch.items[i]);
        }
    }
    if (ferror(in)) {
        perror(path);
        status = 1;
    }
    jsonrpc_session_free(session);
    fclose(in);
    return status;
}
