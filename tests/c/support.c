/*
 * support.c: what every part of the C vector test uses: memory it must get, the
 * checks and their tally, expected values and how they are printed.
 */

#include "vector_test.h"

Tally tally;

size_t chunk_step(void) {
    static size_t step = 0;
    if (step == 0) {
        const char *text = getenv("JSONRPC_TEST_CHUNK_STEP");
        long value = text != NULL ? strtol(text, NULL, 10) : 1;
        step = value >= 1 && value <= MAX_CHUNK ? (size_t)value : 1;
    }
    return step;
}

void *xrealloc(void *ptr, size_t size) {
    void *grown = realloc(ptr, size ? size : 1);
    if (grown == NULL) {
        fprintf(stderr, "test_vectors: out of memory\n");
        exit(2);
    }
    return grown;
}

/* A heap copy of exactly `len` bytes, so that a read past the end of the
 * input is a read past the end of an allocation (valgrind sees it). */
unsigned char *exact_copy(const void *bytes, size_t len) {
    unsigned char *copy = xrealloc(NULL, len);
    if (len > 0) {
        memcpy(copy, bytes, len);
    }
    return copy;
}

void buf_reserve(ByteBuf *buf, size_t len) {
    if (buf->len + len > buf->cap) {
        buf->cap = (buf->len + len) * 2;
        buf->data = xrealloc(buf->data, buf->cap);
    }
}

void buf_append(ByteBuf *buf, const void *bytes, size_t len) {
    buf_reserve(buf, len);
    if (len > 0) {
        memcpy(buf->data + buf->len, bytes, len);
    }
    buf->len += len;
}

void append_repeated(ByteBuf *buf, char byte, size_t count) {
    buf_reserve(buf, count);
    memset(buf->data + buf->len, byte, count);
    buf->len += count;
}

void buf_free(ByteBuf *buf) {
    free(buf->data);
    *buf = (ByteBuf){0};
}

PRINTF_LIKE(1, 2)
void set_context(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(tally.context, sizeof tally.context, fmt, args);
    va_end(args);
}

PRINTF_LIKE(2, 3)
bool check(bool ok, const char *fmt, ...) {
    if (ok) {
        tally.passed++;
        return true;
    }
    tally.failed++;
    printf("FAIL %s: ", tally.context);
    va_list args;
    va_start(args, fmt);
    vprintf(fmt, args);
    va_end(args);
    putchar('\n');
    return false;
}

/* Prints bytes readably: printable ASCII as is, the rest as \xNN. */
void print_bytes(const char *bytes, size_t len) {
    enum { SHOWN = 200 };
    putchar('"');
    for (size_t i = 0; i < len && i < SHOWN; i++) {
        unsigned char byte = (unsigned char)bytes[i];
        if (byte == '"' || byte == '\\') {
            printf("\\%c", byte);
        } else if (byte >= 0x20 && byte < 0x7f) {
            putchar(byte);
        } else {
            printf("\\x%02x", byte);
        }
    }
    putchar('"');
    if (len > SHOWN) {
        printf("... (%zu bytes)", len);
    }
}

void print_text(const char *label, Text text) {
    printf("  %s ", label);
    if (text.mode == TEXT_ABSENT) {
        printf("absent (NULL)");
    } else if (text.mode == TEXT_ANY) {
        printf("any non-empty text");
    } else {
        print_bytes(text.ptr, text.len);
    }
    putchar('\n');
}

Text text_of_str(JsonRpcStr str) {
    return (Text){str.ptr ? TEXT_EXACT : TEXT_ABSENT, str.ptr, str.len};
}

JsonRpcStr str_of_string(JsonRpcString string) {
    return (JsonRpcStr){string.ptr, string.len};
}

bool text_matches(JsonRpcStr got, Text want) {
    switch (want.mode) {
    case TEXT_ABSENT:
        return got.ptr == NULL;
    case TEXT_ANY:
        return got.ptr != NULL && got.len > 0;
    case TEXT_EXACT:
        return got.ptr != NULL && got.len == want.len && memcmp(got.ptr, want.ptr, want.len) == 0;
    }
    return false;
}

/* Bytes against their expected value. */
void check_bytes(const char *what, JsonRpcStr got, Text want) {
    if (!check(text_matches(got, want), "%s differs", what)) {
        print_text("expected", want);
        print_text("got     ", text_of_str(got));
    }
}

/* A string of the library against its expected value; a present string
 * must also be followed by a NUL byte. */
void check_text(const char *what, JsonRpcStr got, Text want) {
    check_bytes(what, got, want);
    if (got.ptr != NULL) {
        check(got.ptr[got.len] == '\0', "%s is not followed by a NUL byte", what);
    }
}

const char *name_of(NameTable table, uint32_t value) {
    return value < table.count && table.names[value] != NULL ? table.names[value] : "(unknown value)";
}

void check_enum(const char *what, NameTable table, uint32_t got, uint32_t want) {
    check(got == want, "%s: expected %s, got %s (%u)", what, name_of(table, want), name_of(table, got),
          (unsigned)got);
}

void check_size(const char *what, size_t got, size_t want) {
    check(got == want, "%s: expected %zu, got %zu", what, want, got);
}

void flags_of(const JsonRpcClassification *c, bool flags[FLAG_COUNT]) {
    flags[FLAG_JSONRPC_2_0] = c->jsonrpc_2_0;
    flags[FLAG_HAS_RESULT] = c->has_result;
    flags[FLAG_HAS_ERROR] = c->has_error;
    flags[FLAG_NAMES_NO_REQUEST] = c->names_no_request;
}

void spans_of(const JsonRpcClassification *c, JsonRpcSpan spans[SPAN_COUNT]) {
    spans[SPAN_ID] = c->id_span;
    spans[SPAN_METHOD] = c->method_span;
    spans[SPAN_PARAMS] = c->params_span;
    spans[SPAN_RESULT] = c->result_span;
    spans[SPAN_ERROR] = c->error_span;
}

/* The file a vector comes from. */
const char *source_of(const EnvelopeVector *vector) {
    return vector->profile == JSONRPC_PROFILE_MCP ? "mcp.jsonl" : "envelope.jsonl";
}
