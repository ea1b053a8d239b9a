/*
 * check_lines.c: the vectors one line at a time (classify, classify_into, invalid_reply, log_value), and frees that must do nothing the second time (part of the C vector test; see test_vectors.c).
 */

#include "vector_test.h"

/* ------------------------------------------------------------------------
 * Freeing, twice: the second call must do nothing.
 */

static void check_freed_classification(const JsonRpcClassification *c, const char *when) {
    check(c->kind == JSONRPC_KIND_NONE && c->storage == NULL && c->id.ptr == NULL && c->method.ptr == NULL &&
              c->reason.ptr == NULL && c->reply_server.ptr == NULL && c->reply_client.ptr == NULL &&
              c->substitute.ptr == NULL,
          "classification not zeroed %s (kind %u)", when, (unsigned)c->kind);
}

void free_classification_twice(JsonRpcClassification *c) {
    jsonrpc_classification_free(c);
    check_freed_classification(c, "by the first free");
    jsonrpc_classification_free(c);
    check_freed_classification(c, "after the second free");
}

void free_string_twice(JsonRpcString *string, const char *what) {
    jsonrpc_string_free(string);
    check(string->ptr == NULL && string->len == 0, "%s not zeroed by the first free", what);
    jsonrpc_string_free(string);
    check(string->ptr == NULL && string->len == 0, "%s not zeroed after the second free", what);
}

/* ------------------------------------------------------------------------
 * Envelope vectors (both files, each in its profile), one line at a time.
 */

static void set_envelope_context(const EnvelopeVector *vector, const char *what) {
    set_context("%s line %u \"%s\"%s", source_of(vector), vector->at, vector->name.ptr, what);
}

void check_classification(const JsonRpcClassification *c, const EnvelopeVector *vector) {
    check_enum("kind", KINDS, c->kind, vector->kind);
    check_enum("id_kind", ID_KINDS, c->id_kind, vector->id_kind);
    check_text("id", c->id, vector->id);
    check_text("method", c->method, vector->method);
    bool flags[FLAG_COUNT];
    flags_of(c, flags);
    for (size_t i = 0; i < FLAG_COUNT; i++) {
        check(flags[i] == vector->flags[i], "%s: expected %d, got %d", FLAG_NAMES[i], vector->flags[i], flags[i]);
    }
    JsonRpcSpan spans[SPAN_COUNT];
    spans_of(c, spans);
    for (size_t i = 0; i < SPAN_COUNT; i++) {
        JsonRpcSpan got = spans[i];
        JsonRpcSpan want = vector->spans[i];
        bool same = got.len == want.len && (got.len == 0 || got.offset == want.offset);
        check(same, "%s: expected %zu,%zu, got %zu,%zu", SPAN_NAMES[i], want.offset, want.len, got.offset, got.len);
    }
    check_text("reason", c->reason, vector->reason);
    check_text("reply_server", c->reply_server, vector->reply_server);
    check_text("reply_client", c->reply_client, vector->reply_client);
    check_text("substitute", c->substitute, vector->substitute);
}

/* jsonrpc_invalid_reply for one role, then its text freed twice. */
void check_invalid_reply(const unsigned char *line, size_t len, uint32_t role, uint32_t profile,
                                const char *what, Text want) {
    JsonRpcReply reply = jsonrpc_invalid_reply(line, len, role, profile);
    check(reply.status == JSONRPC_STATUS_OK, "%s: status %u, expected OK", what, (unsigned)reply.status);
    check_text(what, str_of_string(reply.text), want);
    free_string_twice(&reply.text, what);
}

/* A classification's strings in the order the header gives for `texts`
 * and for scratch. */
void strings_of(const JsonRpcClassification *c, const JsonRpcStr *out[STRING_COUNT]) {
    out[0] = &c->id;
    out[1] = &c->method;
    out[2] = &c->reason;
    out[3] = &c->reply_server;
    out[4] = &c->reply_client;
    out[5] = &c->substitute;
}

/* The room a classification's strings take back to back, each with its NUL. */
static size_t strings_size(const JsonRpcClassification *c) {
    const JsonRpcStr *strings[STRING_COUNT];
    strings_of(c, strings);
    size_t size = 0;
    for (size_t s = 0; s < STRING_COUNT; s++) {
        size += strings[s]->ptr != NULL ? strings[s]->len + 1 : 0;
    }
    return size;
}

/* Whether every present string stands in `scratch`, back to back from its
 * first byte in the header's order, each followed by its NUL. */
static bool strings_in_scratch(const JsonRpcClassification *c, const unsigned char *scratch) {
    const JsonRpcStr *strings[STRING_COUNT];
    strings_of(c, strings);
    size_t at = 0;
    for (size_t s = 0; s < STRING_COUNT; s++) {
        if (strings[s]->ptr == NULL) {
            continue;
        }
        if (strings[s]->ptr != (const char *)scratch + at || strings[s]->ptr[strings[s]->len] != '\0') {
            return false;
        }
        at += strings[s]->len + 1;
    }
    return true;
}

/* jsonrpc_classify_into with `scratch_len` bytes of scratch (a heap block
 * of exactly that size; NULL scratch when `null_scratch`): status OK, every
 * field of the vector, strings in the scratch exactly when `fits`, and the
 * result freed twice. */
static void check_into(const unsigned char *line, size_t len, const EnvelopeVector *vector, size_t scratch_len,
                       bool null_scratch, bool fits) {
    char what[96];
    snprintf(what, sizeof what, " (jsonrpc_classify_into, %s%zu bytes of scratch)", null_scratch ? "NULL with " : "",
             scratch_len);
    set_envelope_context(vector, what);
    unsigned char *scratch = null_scratch ? NULL : xrealloc(NULL, scratch_len);
    JsonRpcClassification c;
    memset(&c, 0xa5, sizeof c); /* overwritten, not freed */
    JsonRpcStatus status = jsonrpc_classify_into(line, len, vector->profile, &c, scratch, scratch_len);
    check(status == JSONRPC_STATUS_OK, "status %u, expected OK", (unsigned)status);
    check_classification(&c, vector);
    if (fits) {
        check(c.storage == NULL, "the strings fit the scratch, but the result owns memory");
        check(strings_in_scratch(&c, scratch), "the strings are not back to back from the scratch's first byte");
    } else {
        check(c.storage != NULL, "the strings do not fit the scratch, but the result owns no memory");
    }
    free_classification_twice(&c);
    free(scratch);
}

void check_envelope_vector(const EnvelopeVector *vector) {
    set_envelope_context(vector, "");
    size_t len = vector->line.len;
    unsigned char *line = exact_copy(vector->line.ptr, len);
    JsonRpcClassification c = jsonrpc_classify(line, len, vector->profile);
    check_classification(&c, vector);
    check_invalid_reply(line, len, JSONRPC_ROLE_SERVER, vector->profile, "jsonrpc_invalid_reply(server)",
                        vector->reply_server);
    check_invalid_reply(line, len, JSONRPC_ROLE_CLIENT, vector->profile, "jsonrpc_invalid_reply(client)",
                        vector->reply_client);
    /* The room the strings need, from the result just checked: scratch of
     * exactly that size holds them all, a byte less holds not all of them. */
    size_t need = strings_size(&c);
    free_classification_twice(&c);
    check_into(line, len, vector, need, false, true);
    check_into(line, len, vector, need + 100, false, true);
    if (need > 0) {
        check_into(line, len, vector, need - 1, false, false);
        check_into(line, len, vector, 100, true, false);
    }
    free(line);
}

/* The next prefix length to try after `len`: every one near both ends of
 * the line, and every 61st in between. A prefix costs its whole length (most
 * are invalid, so both scanners read them), so every prefix of the 40 KB
 * vector alone would cost 800 MB of scanning, which under valgrind is most
 * of `make test`; tests/stress.rs still takes every prefix of every vector,
 * natively, through Rust and the C ABI. */
static size_t next_prefix(size_t len, size_t line_len) {
    enum { ENDS = 1024, STRIDE = 61 };
    if (len < ENDS || len + ENDS >= line_len) {
        return len + 1;
    }
    size_t next = len + STRIDE;
    return next + ENDS > line_len ? line_len - ENDS : next;
}

/* Prefixes of the line, lengths 0 to all of it: each is some kind. */
void check_prefixes(const EnvelopeVector *vector) {
    set_envelope_context(vector, " (prefixes)");
    for (size_t len = 0; len <= vector->line.len; len = next_prefix(len, vector->line.len)) {
        unsigned char *prefix = exact_copy(vector->line.ptr, len);
        JsonRpcClassification c = jsonrpc_classify(prefix, len, vector->profile);
        if (!check(c.kind != JSONRPC_KIND_NONE, "prefix of %zu bytes: kind none", len)) {
            print_text("reason", text_of_str(c.reason));
        }
        jsonrpc_classification_free(&c);
        free(prefix);
    }
}

/* ------------------------------------------------------------------------
 * log_value vectors.
 */

void check_log_vector(const LogVector *vector) {
    set_context("log_value.jsonl line %u \"%s\"", vector->at, vector->name.ptr);
    unsigned char *input = exact_copy(vector->input.ptr, vector->input.len);
    JsonRpcString out = jsonrpc_log_value(input, vector->input.len);
    check_text("jsonrpc_log_value", str_of_string(out), vector->output);
    free_string_twice(&out, "jsonrpc_log_value");
    free(input);
}
