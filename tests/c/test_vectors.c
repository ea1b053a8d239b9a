/*
 * test_vectors.c: the shared vectors of tests/vectors, and the edges of the
 * C ABI, through jsonrpc_envelope.h.
 *
 * Input: the flat file that tests/c/flatten_vectors.py writes (its format is
 * described there). Output: one "FAIL <where>: <what>" line (and details)
 * per failed check, then exactly one summary line "N passed, F failed".
 * Exit status: 0 when every check passed, 1 when one failed, 2 when the
 * input could not be read.
 *
 *   python3 tests/c/flatten_vectors.py tests/vectors/envelope.jsonl \
 *       tests/vectors/log_value.jsonl target/c/vectors.flat
 *   cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude \
 *       tests/c/test_vectors.c -Ltarget/debug -ljsonrpc_envelope -o target/c/test_vectors
 *   LD_LIBRARY_PATH=target/debug target/c/test_vectors target/c/vectors.flat
 */

#include "jsonrpc_envelope.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define PRINTF_LIKE(fmt, args)
#endif

#define COUNT_OF(array) (sizeof(array) / sizeof((array)[0]))

/* The reply a server owes for a line that is not JSON (SPEC §4). */
static const char PARSE_ERROR_REPLY[] =
    "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";

/* The largest chunk of the many-lines passes; every size from 1 is tried. */
enum { MAX_CHUNK = 64 };

/* ------------------------------------------------------------------------
 * Memory the test itself needs: failing to get it ends the run.
 */

static void *xrealloc(void *ptr, size_t size) {
    void *grown = realloc(ptr, size ? size : 1);
    if (grown == NULL) {
        fprintf(stderr, "test_vectors: out of memory\n");
        exit(2);
    }
    return grown;
}

/* A heap copy of exactly `len` bytes, so that a read past the end of the
 * input is a read past the end of an allocation (valgrind sees it). */
static unsigned char *exact_copy(const void *bytes, size_t len) {
    unsigned char *copy = xrealloc(NULL, len);
    if (len > 0) {
        memcpy(copy, bytes, len);
    }
    return copy;
}

/* A growable byte buffer. */
typedef struct {
    unsigned char *data;
    size_t len;
    size_t cap;
} ByteBuf;

static void buf_append(ByteBuf *buf, const void *bytes, size_t len) {
    if (buf->len + len > buf->cap) {
        buf->cap = (buf->len + len) * 2;
        buf->data = xrealloc(buf->data, buf->cap);
    }
    if (len > 0) {
        memcpy(buf->data + buf->len, bytes, len);
    }
    buf->len += len;
}

static void buf_drop_front(ByteBuf *buf, size_t len) {
    if (len > 0) {
        memmove(buf->data, buf->data + len, buf->len - len);
        buf->len -= len;
    }
}

static void buf_free(ByteBuf *buf) {
    free(buf->data);
    *buf = (ByteBuf){0};
}

/* ------------------------------------------------------------------------
 * Checks: each one counts; a failure is printed after the current context.
 */

static struct {
    unsigned long passed;
    unsigned long failed;
    char context[512];
} tally;

PRINTF_LIKE(1, 2)
static void set_context(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    vsnprintf(tally.context, sizeof tally.context, fmt, args);
    va_end(args);
}

PRINTF_LIKE(2, 3)
static bool check(bool ok, const char *fmt, ...) {
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
static void print_bytes(const char *bytes, size_t len) {
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

/* ------------------------------------------------------------------------
 * Expected values, as the flat file gives them.
 */

typedef enum {
    TEXT_ABSENT, /* NULL ptr */
    TEXT_EXACT,  /* these bytes exactly */
    TEXT_ANY,    /* any non-empty string */
} TextMode;

/* Expected bytes. Those of the flat file are also NUL-terminated. */
typedef struct {
    TextMode mode;
    const char *ptr;
    size_t len;
} Text;

static void print_text(const char *label, Text text) {
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

static Text text_of_str(JsonRpcStr str) {
    return (Text){str.ptr ? TEXT_EXACT : TEXT_ABSENT, str.ptr, str.len};
}

static JsonRpcStr str_of_string(JsonRpcString string) {
    return (JsonRpcStr){string.ptr, string.len};
}

static bool text_matches(JsonRpcStr got, Text want) {
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
static void check_bytes(const char *what, JsonRpcStr got, Text want) {
    if (!check(text_matches(got, want), "%s differs", what)) {
        print_text("expected", want);
        print_text("got     ", text_of_str(got));
    }
}

/* A string of the library against its expected value; a present string
 * must also be followed by a NUL byte. */
static void check_text(const char *what, JsonRpcStr got, Text want) {
    check_bytes(what, got, want);
    if (got.ptr != NULL) {
        check(got.ptr[got.len] == '\0', "%s is not followed by a NUL byte", what);
    }
}

static const char *const KIND_NAMES[] = {
    [JSONRPC_KIND_NONE] = "none",
    [JSONRPC_KIND_EMPTY] = "empty",
    [JSONRPC_KIND_PARSE_ERROR] = "parse_error",
    [JSONRPC_KIND_BATCH] = "batch",
    [JSONRPC_KIND_NOT_OBJECT] = "not_object",
    [JSONRPC_KIND_INVALID_REQUEST] = "invalid_request",
    [JSONRPC_KIND_REQUEST] = "request",
    [JSONRPC_KIND_NOTIFICATION] = "notification",
    [JSONRPC_KIND_RESPONSE] = "response",
    [JSONRPC_KIND_NOT_JSONRPC] = "not_jsonrpc",
};

static const char *const ID_KIND_NAMES[] = {
    [JSONRPC_ID_ABSENT] = "absent",
    [JSONRPC_ID_NULL] = "null",
    [JSONRPC_ID_STRING] = "string",
    [JSONRPC_ID_NUMBER] = "number",
    [JSONRPC_ID_OBJECT] = "object",
    [JSONRPC_ID_ARRAY] = "array",
    [JSONRPC_ID_BOOLEAN] = "boolean",
};

/* A table of names, indexed by an enum's value. */
typedef struct {
    const char *const *names;
    size_t count;
} NameTable;

static const NameTable KINDS = {KIND_NAMES, COUNT_OF(KIND_NAMES)};
static const NameTable ID_KINDS = {ID_KIND_NAMES, COUNT_OF(ID_KIND_NAMES)};

static const char *name_of(NameTable table, uint32_t value) {
    return value < table.count ? table.names[value] : "(unknown value)";
}

static void check_enum(const char *what, NameTable table, uint32_t got, uint32_t want) {
    check(got == want, "%s: expected %s, got %s (%u)", what, name_of(table, want), name_of(table, got),
          (unsigned)got);
}

static void check_size(const char *what, size_t got, size_t want) {
    check(got == want, "%s: expected %zu, got %zu", what, want, got);
}

enum { FLAG_JSONRPC_2_0, FLAG_HAS_RESULT, FLAG_HAS_ERROR, FLAG_NAMES_NO_REQUEST, FLAG_COUNT };
static const char *const FLAG_NAMES[FLAG_COUNT] = {"jsonrpc_2_0", "has_result", "has_error", "names_no_request"};

enum { SPAN_ID, SPAN_METHOD, SPAN_PARAMS, SPAN_RESULT, SPAN_ERROR, SPAN_COUNT };
static const char *const SPAN_NAMES[SPAN_COUNT] = {"id_span", "method_span", "params_span", "result_span",
                                                   "error_span"};

static void flags_of(const JsonRpcClassification *c, bool flags[FLAG_COUNT]) {
    flags[FLAG_JSONRPC_2_0] = c->jsonrpc_2_0;
    flags[FLAG_HAS_RESULT] = c->has_result;
    flags[FLAG_HAS_ERROR] = c->has_error;
    flags[FLAG_NAMES_NO_REQUEST] = c->names_no_request;
}

static void spans_of(const JsonRpcClassification *c, JsonRpcSpan spans[SPAN_COUNT]) {
    spans[SPAN_ID] = c->id_span;
    spans[SPAN_METHOD] = c->method_span;
    spans[SPAN_PARAMS] = c->params_span;
    spans[SPAN_RESULT] = c->result_span;
    spans[SPAN_ERROR] = c->error_span;
}

/* One record of envelope.jsonl. An absent span has len 0. */
typedef struct {
    unsigned at; /* line number in envelope.jsonl */
    Text name;
    Text line;
    uint32_t kind;
    uint32_t id_kind;
    Text id;
    Text method;
    bool flags[FLAG_COUNT];
    JsonRpcSpan spans[SPAN_COUNT];
    Text reason;
    Text reply_server;
    Text reply_client;
} EnvelopeVector;

/* One record of log_value.jsonl. */
typedef struct {
    unsigned at; /* line number in log_value.jsonl */
    Text name;
    Text input;
    Text output;
} LogVector;

typedef struct {
    char *file; /* the flat file; every Text points into it */
    EnvelopeVector *envelopes;
    size_t envelope_count;
    LogVector *logs;
    size_t log_count;
} Vectors;

/* ------------------------------------------------------------------------
 * Reading the flat file: records of tab-separated key=value fields, decoded
 * in place.
 */

enum { MAX_FIELDS = 32 };

typedef struct {
    char *key;
    char *value;
} Field;

typedef struct {
    size_t source_line; /* line number in the flat file */
    const char *type;
    Field fields[MAX_FIELDS];
    size_t count;
    bool ok; /* false once something in it was wrong (and reported) */
} Record;

/* Reports the first thing wrong with a record (the rest would follow from it). */
PRINTF_LIKE(2, 3)
static void record_error(Record *record, const char *fmt, ...) {
    if (!record->ok) {
        return;
    }
    fprintf(stderr, "test_vectors: flat file line %zu: ", record->source_line);
    va_list args;
    va_start(args, fmt);
    vfprintf(stderr, fmt, args);
    va_end(args);
    fputc('\n', stderr);
    record->ok = false;
}

/* Ends `text` at its first `separator` and gives what follows it, or NULL
 * when there is none. */
static char *cut(char *text, char separator) {
    char *found = strchr(text, separator);
    if (found == NULL) {
        return NULL;
    }
    *found = '\0';
    return found + 1;
}

/* Splits one line of the flat file, in place, into its type and fields. */
static Record split_record(char *line, size_t source_line) {
    Record record = {.source_line = source_line, .type = line, .ok = true};
    char *rest = cut(line, '\t');
    while (rest != NULL && record.ok) {
        char *key = rest;
        rest = cut(key, '\t');
        char *value = cut(key, '=');
        if (value == NULL || record.count == MAX_FIELDS) {
            record_error(&record, "bad field \"%s\"", key);
        } else {
            record.fields[record.count++] = (Field){key, value};
        }
    }
    return record;
}

static char *field(Record *record, const char *key) {
    for (size_t i = 0; i < record->count; i++) {
        if (strcmp(record->fields[i].key, key) == 0) {
            return record->fields[i].value;
        }
    }
    record_error(record, "no field \"%s\"", key);
    return NULL;
}

static int hex_digit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

/* Decodes lowercase hex in place, NUL-terminates the bytes, and gives
 * their length, or SIZE_MAX when it is not hex. */
static size_t decode_hex(char *hex) {
    size_t digits = strlen(hex);
    if (digits % 2 != 0) {
        return SIZE_MAX;
    }
    for (size_t i = 0; i < digits / 2; i++) {
        int high = hex_digit(hex[2 * i]);
        int low = hex_digit(hex[2 * i + 1]);
        if (high < 0 || low < 0) {
            return SIZE_MAX;
        }
        hex[i] = (char)(high * 16 + low);
    }
    hex[digits / 2] = '\0';
    return digits / 2;
}

/* Bytes: hex, or "-" for absent, or (where `any_allowed`) "+" for any. */
static Text text_field(Record *record, const char *key, bool any_allowed) {
    char *value = field(record, key);
    if (value == NULL) {
        return (Text){TEXT_ABSENT, NULL, 0};
    }
    if (strcmp(value, "-") == 0) {
        return (Text){TEXT_ABSENT, NULL, 0};
    }
    if (any_allowed && strcmp(value, "+") == 0) {
        return (Text){TEXT_ANY, NULL, 0};
    }
    size_t len = decode_hex(value);
    if (len == SIZE_MAX) {
        record_error(record, "field \"%s\" is not hex", key);
        return (Text){TEXT_ABSENT, NULL, 0};
    }
    return (Text){TEXT_EXACT, value, len};
}

/* Bytes that must be present. */
static Text bytes_field(Record *record, const char *key) {
    Text text = text_field(record, key, false);
    if (record->ok && text.mode != TEXT_EXACT) {
        record_error(record, "field \"%s\" must be present", key);
    }
    return text;
}

static bool parse_size(const char *text, char **end, size_t *out) {
    if (*text < '0' || *text > '9') {
        return false;
    }
    unsigned long long value = strtoull(text, end, 10);
    *out = (size_t)value;
    return value <= SIZE_MAX;
}

static size_t number_field(Record *record, const char *key) {
    char *value = field(record, key);
    char *end = NULL;
    size_t number = 0;
    if (value != NULL && !(parse_size(value, &end, &number) && *end == '\0')) {
        record_error(record, "field \"%s\" is not a number", key);
    }
    return number;
}

static bool bool_field(Record *record, const char *key) {
    char *value = field(record, key);
    if (value != NULL && strcmp(value, "0") != 0 && strcmp(value, "1") != 0) {
        record_error(record, "field \"%s\" is not 0 or 1", key);
    }
    return value != NULL && strcmp(value, "1") == 0;
}

/* "offset,len", or "-" for absent ({0, 0}). */
static JsonRpcSpan span_field(Record *record, const char *key) {
    JsonRpcSpan span = {0, 0};
    char *value = field(record, key);
    if (value == NULL || strcmp(value, "-") == 0) {
        return span;
    }
    char *comma = NULL;
    char *end = NULL;
    if (!(parse_size(value, &comma, &span.offset) && *comma == ',' && parse_size(comma + 1, &end, &span.len) &&
          *end == '\0' && span.len > 0)) {
        record_error(record, "field \"%s\" is not a span", key);
    }
    return span;
}

static uint32_t enum_field(Record *record, const char *key, NameTable table) {
    char *value = field(record, key);
    for (uint32_t i = 0; value != NULL && i < table.count; i++) {
        if (table.names[i] != NULL && strcmp(table.names[i], value) == 0) {
            return i;
        }
    }
    if (value != NULL) {
        record_error(record, "field \"%s\" has an unknown value \"%s\"", key, value);
    }
    return 0;
}

static EnvelopeVector envelope_vector(Record *record) {
    EnvelopeVector vector = {
        .at = (unsigned)number_field(record, "at"),
        .name = bytes_field(record, "name"),
        .line = bytes_field(record, "line"),
        .kind = enum_field(record, "kind", KINDS),
        .id_kind = enum_field(record, "id_kind", ID_KINDS),
        .id = text_field(record, "id", false),
        .method = text_field(record, "method", false),
        .reason = text_field(record, "reason", true),
        .reply_server = text_field(record, "reply_server", false),
        .reply_client = text_field(record, "reply_client", false),
    };
    for (size_t i = 0; i < FLAG_COUNT; i++) {
        vector.flags[i] = bool_field(record, FLAG_NAMES[i]);
    }
    for (size_t i = 0; i < SPAN_COUNT; i++) {
        vector.spans[i] = span_field(record, SPAN_NAMES[i]);
    }
    return vector;
}

static LogVector log_vector(Record *record) {
    return (LogVector){
        .at = (unsigned)number_field(record, "at"),
        .name = bytes_field(record, "name"),
        .input = bytes_field(record, "input"),
        .output = bytes_field(record, "output"),
    };
}

/* The whole file, NUL-terminated, or NULL. */
static char *read_file(const char *path) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) {
        perror(path);
        return NULL;
    }
    ByteBuf buf = {0};
    char chunk[65536];
    size_t got;
    while ((got = fread(chunk, 1, sizeof chunk, file)) > 0) {
        buf_append(&buf, chunk, got);
    }
    bool failed = ferror(file) != 0;
    fclose(file);
    if (failed) {
        perror(path);
        buf_free(&buf);
        return NULL;
    }
    buf_append(&buf, "", 1);
    return (char *)buf.data;
}

static size_t count_lines(const char *text) {
    size_t lines = 1;
    for (const char *p = strchr(text, '\n'); p != NULL; p = strchr(p + 1, '\n')) {
        lines++;
    }
    return lines;
}

static void free_vectors(Vectors *vectors) {
    free(vectors->file);
    free(vectors->envelopes);
    free(vectors->logs);
    *vectors = (Vectors){0};
}

/* Adds one line of the flat file to `vectors`; false if it is bad. */
static bool add_record(Vectors *vectors, char *line, size_t source_line) {
    if (line[0] == '\0' || line[0] == '#') {
        return true;
    }
    Record record = split_record(line, source_line);
    if (!record.ok) {
        return false;
    }
    if (strcmp(record.type, "envelope") == 0) {
        vectors->envelopes[vectors->envelope_count++] = envelope_vector(&record);
    } else if (strcmp(record.type, "log_value") == 0) {
        vectors->logs[vectors->log_count++] = log_vector(&record);
    } else {
        record_error(&record, "unknown record type \"%s\"", record.type);
    }
    return record.ok;
}

static bool load_vectors(const char *path, Vectors *vectors) {
    *vectors = (Vectors){.file = read_file(path)};
    if (vectors->file == NULL) {
        return false;
    }
    size_t lines = count_lines(vectors->file);
    vectors->envelopes = xrealloc(NULL, lines * sizeof *vectors->envelopes);
    vectors->logs = xrealloc(NULL, lines * sizeof *vectors->logs);
    bool ok = true;
    char *line = vectors->file;
    for (size_t number = 1; line != NULL && ok; number++) {
        char *next = cut(line, '\n');
        ok = add_record(vectors, line, number);
        line = next;
    }
    if (ok && vectors->envelope_count == 0) {
        fprintf(stderr, "test_vectors: %s holds no envelope vectors\n", path);
        ok = false;
    }
    return ok;
}

/* ------------------------------------------------------------------------
 * Freeing, twice: the second call must do nothing.
 */

static void check_freed_classification(const JsonRpcClassification *c, const char *when) {
    check(c->kind == JSONRPC_KIND_NONE && c->storage == NULL && c->id.ptr == NULL && c->method.ptr == NULL &&
              c->reason.ptr == NULL && c->reply_server.ptr == NULL && c->reply_client.ptr == NULL,
          "classification not zeroed %s (kind %u)", when, (unsigned)c->kind);
}

static void free_classification_twice(JsonRpcClassification *c) {
    jsonrpc_classification_free(c);
    check_freed_classification(c, "by the first free");
    jsonrpc_classification_free(c);
    check_freed_classification(c, "after the second free");
}

static void free_string_twice(JsonRpcString *string, const char *what) {
    jsonrpc_string_free(string);
    check(string->ptr == NULL && string->len == 0, "%s not zeroed by the first free", what);
    jsonrpc_string_free(string);
    check(string->ptr == NULL && string->len == 0, "%s not zeroed after the second free", what);
}

/* ------------------------------------------------------------------------
 * Envelope vectors, one line at a time.
 */

static void set_envelope_context(const EnvelopeVector *vector, const char *what) {
    set_context("envelope.jsonl line %u \"%s\"%s", vector->at, vector->name.ptr, what);
}

static void check_classification(const JsonRpcClassification *c, const EnvelopeVector *vector) {
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
}

/* jsonrpc_invalid_reply for one role, then its text freed twice. */
static void check_invalid_reply(const unsigned char *line, size_t len, uint32_t role, const char *what,
                                Text want) {
    JsonRpcReply reply = jsonrpc_invalid_reply(line, len, role);
    check(reply.status == JSONRPC_STATUS_OK, "%s: status %u, expected OK", what, (unsigned)reply.status);
    check_text(what, str_of_string(reply.text), want);
    free_string_twice(&reply.text, what);
}

static void check_envelope_vector(const EnvelopeVector *vector) {
    set_envelope_context(vector, "");
    size_t len = vector->line.len;
    unsigned char *line = exact_copy(vector->line.ptr, len);
    JsonRpcClassification c = jsonrpc_classify(line, len);
    check_classification(&c, vector);
    check_invalid_reply(line, len, JSONRPC_ROLE_SERVER, "jsonrpc_invalid_reply(server)", vector->reply_server);
    check_invalid_reply(line, len, JSONRPC_ROLE_CLIENT, "jsonrpc_invalid_reply(client)", vector->reply_client);
    free_classification_twice(&c);
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
static void check_prefixes(const EnvelopeVector *vector) {
    set_envelope_context(vector, " (prefixes)");
    for (size_t len = 0; len <= vector->line.len; len = next_prefix(len, vector->line.len)) {
        unsigned char *prefix = exact_copy(vector->line.ptr, len);
        JsonRpcClassification c = jsonrpc_classify(prefix, len);
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

static void check_log_vector(const LogVector *vector) {
    set_context("log_value.jsonl line %u \"%s\"", vector->at, vector->name.ptr);
    unsigned char *input = exact_copy(vector->input.ptr, vector->input.len);
    JsonRpcString out = jsonrpc_log_value(input, vector->input.len);
    check_text("jsonrpc_log_value", str_of_string(out), vector->output);
    free_string_twice(&out, "jsonrpc_log_value");
    free(input);
}

/* ------------------------------------------------------------------------
 * Streams through jsonrpc_classify_lines, fed as a host would: it appends
 * each chunk it reads to the bytes it still holds, and drops what the call
 * consumed.
 */

typedef void ItemCheck(void *context, size_t index, const JsonRpcLine *item, const unsigned char *buf);

typedef struct {
    const char *label; /* names the stream in failures */
    const unsigned char *bytes;
    size_t len;
    size_t chunk;    /* bytes read at a time */
    size_t max_line; /* 0 for the library's default */
    ItemCheck *check_item;
    void *context;
} Feed;

typedef struct {
    size_t items;    /* items seen, over every call */
    size_t max_held; /* the most bytes passed to one call */
} FeedStats;

static size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

/* An item must lie in the buffer: all of a complete line, or the start of
 * the last part of an over-long one. */
static bool check_item_bounds(const JsonRpcLine *item, size_t buf_len) {
    size_t end = item->too_long ? item->offset : item->offset + item->len;
    return check(item->offset <= buf_len && end <= buf_len, "item at %zu (len %zu) is outside the %zu-byte buffer",
                 item->offset, item->len, buf_len);
}

/* Feeds the stream and checks each item; failures name the stream, and the
 * item by its index, which the item check can refine. */
static FeedStats feed_stream(const Feed *feed) {
    set_context("%s", feed->label);
    JsonRpcLineState state = {0};
    state.max_line = feed->max_line;
    ByteBuf held = {0};
    FeedStats stats = {0, 0};
    size_t read = 0;
    bool end_of_stream = false;
    while (!end_of_stream) {
        size_t chunk = min_size(feed->chunk, feed->len - read);
        buf_append(&held, feed->bytes + read, chunk);
        read += chunk;
        end_of_stream = read == feed->len;
        stats.max_held = held.len > stats.max_held ? held.len : stats.max_held;
        JsonRpcLines lines = jsonrpc_classify_lines(held.data, held.len, end_of_stream, &state);
        bool ok = check(lines.status == JSONRPC_STATUS_OK, "jsonrpc_classify_lines: status %u after %zu bytes",
                        (unsigned)lines.status, read) &&
                  check(lines.consumed <= held.len, "consumed %zu of %zu bytes", lines.consumed, held.len);
        for (size_t i = 0; ok && i < lines.count; i++) {
            set_context("%s, item %zu", feed->label, stats.items);
            if (check_item_bounds(&lines.items[i], held.len)) {
                feed->check_item(feed->context, stats.items, &lines.items[i], held.data);
            }
            stats.items++;
        }
        set_context("%s", feed->label);
        buf_drop_front(&held, ok ? lines.consumed : 0);
        jsonrpc_lines_free(&lines);
        if (!ok) {
            break;
        }
    }
    check(held.len == 0, "%zu bytes left unconsumed at the end of the stream", held.len);
    buf_free(&held);
    return stats;
}

/* The many-lines passes: every vector line without LF, in order. */
typedef struct {
    const EnvelopeVector **vectors;
    size_t count;
    bool crlf; /* lines end with CR LF rather than LF */
    char label[64];
} StreamPass;

static void check_stream_item(void *context, size_t index, const JsonRpcLine *item, const unsigned char *buf) {
    const StreamPass *pass = context;
    if (!check(index < pass->count, "more items than lines")) {
        return;
    }
    const EnvelopeVector *vector = pass->vectors[index];
    set_context("%s, item %zu: envelope.jsonl line %u \"%s\"", pass->label, index, vector->at, vector->name.ptr);
    /* Lines are joined, so the last one has no line ending, hence no CR. */
    bool has_cr = pass->crlf && index + 1 < pass->count;
    Text want_line = vector->line;
    size_t want_len = want_line.len + (has_cr ? 1 : 0);
    check(!item->too_long, "too_long");
    check_size("len", item->len, want_len);
    if (item->len == want_len) {
        JsonRpcStr got_line = {(const char *)buf + item->offset, want_line.len};
        check_bytes("line bytes at offset", got_line, want_line);
        check(!has_cr || buf[item->offset + want_line.len] == '\r', "the line does not end with its CR");
    }
    const JsonRpcClassification *c = &item->classification;
    check_enum("kind", KINDS, c->kind, vector->kind);
    check_text("id", c->id, vector->id);
    if (!pass->crlf) {
        check_text("method", c->method, vector->method);
        check_text("reply_server", c->reply_server, vector->reply_server);
    }
}

static void run_stream_pass(StreamPass *pass, const ByteBuf *stream, size_t chunk) {
    Feed feed = {pass->label, stream->data, stream->len, chunk, 0, check_stream_item, pass};
    FeedStats stats = feed_stream(&feed);
    check_size("items", stats.items, pass->count);
}

static void check_stream(const EnvelopeVector **vectors, size_t count, bool crlf) {
    const char *separator = crlf ? "\r\n" : "\n";
    ByteBuf stream = {0};
    for (size_t i = 0; i < count; i++) {
        if (i > 0) {
            buf_append(&stream, separator, strlen(separator));
        }
        buf_append(&stream, vectors[i]->line.ptr, vectors[i]->line.len);
    }
    StreamPass pass = {vectors, count, crlf, ""};
    const char *ending = crlf ? "CRLF" : "LF";
    for (size_t chunk = 1; chunk <= MAX_CHUNK; chunk++) {
        snprintf(pass.label, sizeof pass.label, "stream (%s, chunks of %zu)", ending, chunk);
        run_stream_pass(&pass, &stream, chunk);
    }
    snprintf(pass.label, sizeof pass.label, "stream (%s, whole)", ending);
    run_stream_pass(&pass, &stream, SIZE_MAX);
    buf_free(&stream);
}

static void check_many_lines(const Vectors *vectors) {
    const EnvelopeVector **lines = xrealloc(NULL, vectors->envelope_count * sizeof *lines);
    size_t count = 0;
    for (size_t i = 0; i < vectors->envelope_count; i++) {
        const EnvelopeVector *vector = &vectors->envelopes[i];
        if (memchr(vector->line.ptr, '\n', vector->line.len) == NULL) {
            lines[count++] = vector;
        }
    }
    check_stream(lines, count, false);
    check_stream(lines, count, true);
    free(lines);
}

/* A line over the limit is reported once, whole length, and skipped. */
typedef struct {
    bool too_long;
    size_t len;
    uint32_t kind;
    const char *text; /* NULL for a too_long item */
} ExpectedItem;

static const ExpectedItem TOO_LONG_ITEMS[] = {
    {false, 8, JSONRPC_KIND_RESPONSE, "{\"id\":1}"},
    {true, 25, JSONRPC_KIND_NONE, NULL},
    {false, 2, JSONRPC_KIND_NOT_JSONRPC, "{}"},
};

static void check_too_long_item(void *context, size_t index, const JsonRpcLine *item, const unsigned char *buf) {
    (void)context;
    if (!check(index < COUNT_OF(TOO_LONG_ITEMS), "more items than expected")) {
        return;
    }
    const ExpectedItem *want = &TOO_LONG_ITEMS[index];
    const JsonRpcClassification *c = &item->classification;
    check(item->too_long == want->too_long, "too_long: expected %d, got %d", want->too_long, item->too_long);
    check_size("len", item->len, want->len);
    check_enum("kind", KINDS, c->kind, want->kind);
    if (want->text != NULL && item->len == want->len) {
        JsonRpcStr got = {(const char *)buf + item->offset, item->len};
        check_bytes("line bytes at offset", got, (Text){TEXT_EXACT, want->text, want->len});
    }
    if (want->too_long) {
        check(c->storage == NULL && c->reply_server.ptr == NULL && c->reply_client.ptr == NULL,
              "a too_long item owns strings or owes a reply");
    }
}

static void check_too_long(void) {
    enum { MAX_LINE = 10, CHUNK = 3, LONG_LINE = 25 };
    ByteBuf stream = {0};
    buf_append(&stream, "{\"id\":1}\n", 9);
    for (size_t i = 0; i < LONG_LINE; i++) {
        buf_append(&stream, "x", 1);
    }
    buf_append(&stream, "\n{}\n", 4);
    Feed feed = {"too-long stream", stream.data, stream.len, CHUNK, MAX_LINE, check_too_long_item, NULL};
    FeedStats stats = feed_stream(&feed);
    check_size("items", stats.items, COUNT_OF(TOO_LONG_ITEMS));
    check(stats.max_held <= MAX_LINE + CHUNK, "held %zu bytes at once, more than max_line + chunk (%d)",
          stats.max_held, MAX_LINE + CHUNK);
    buf_free(&stream);
}

/* ------------------------------------------------------------------------
 * The edges of the ABI.
 */

static bool contains(JsonRpcStr haystack, const char *needle) {
    size_t len = strlen(needle);
    for (size_t i = 0; haystack.ptr != NULL && i + len <= haystack.len; i++) {
        if (memcmp(haystack.ptr + i, needle, len) == 0) {
            return true;
        }
    }
    return false;
}

static void check_classify_null(void) {
    set_context("jsonrpc_classify(NULL, 0)");
    JsonRpcClassification c = jsonrpc_classify(NULL, 0);
    check_enum("kind", KINDS, c.kind, JSONRPC_KIND_EMPTY);
    free_classification_twice(&c);

    set_context("jsonrpc_classify(NULL, 5)");
    c = jsonrpc_classify(NULL, 5);
    check_enum("kind", KINDS, c.kind, JSONRPC_KIND_PARSE_ERROR);
    if (!check(contains(c.reason, "NULL"), "the reason does not say NULL")) {
        print_text("reason", text_of_str(c.reason));
    }
    free_classification_twice(&c);
}

static void check_invalid_reply_edges(void) {
    set_context("jsonrpc_invalid_reply(NULL, 5, JSONRPC_ROLE_SERVER)");
    Text parse_error = {TEXT_EXACT, PARSE_ERROR_REPLY, strlen(PARSE_ERROR_REPLY)};
    check_invalid_reply(NULL, 5, JSONRPC_ROLE_SERVER, "reply", parse_error);

    /* A line that a server must answer, so that no reply is the role's doing. */
    static const unsigned char line[] = "{";
    const uint32_t roles[] = {0, 3, 0xFFFFFFFFu};
    for (size_t i = 0; i < COUNT_OF(roles); i++) {
        set_context("jsonrpc_invalid_reply(\"{\", 1, %#x)", (unsigned)roles[i]);
        JsonRpcReply reply = jsonrpc_invalid_reply(line, 1, roles[i]);
        check(reply.status == JSONRPC_STATUS_UNKNOWN_ROLE, "status %u, expected UNKNOWN_ROLE",
              (unsigned)reply.status);
        check(reply.text.ptr == NULL && reply.text.len == 0, "text given for an unknown role");
        jsonrpc_string_free(&reply.text);
    }
}

static void check_log_value_edges(void) {
    set_context("jsonrpc_log_value(NULL, 0)");
    JsonRpcString out = jsonrpc_log_value(NULL, 0);
    check_text("output", str_of_string(out), (Text){TEXT_EXACT, "", 0});
    free_string_twice(&out, "output");

    set_context("jsonrpc_log_value(NULL, 3)");
    out = jsonrpc_log_value(NULL, 3);
    check(out.ptr == NULL, "a string was given");
    jsonrpc_string_free(&out);
}

static void check_free_null(void) {
    set_context("the free functions with NULL");
    jsonrpc_classification_free(NULL);
    jsonrpc_string_free(NULL);
    jsonrpc_lines_free(NULL);
    check(true, "the free functions accept NULL"); /* reached: none crashed */
}

static void check_versions(void) {
    set_context("versions");
    check(jsonrpc_abi_version() == JSONRPC_ABI_VERSION, "jsonrpc_abi_version() is %u, the header's is %d",
          (unsigned)jsonrpc_abi_version(), JSONRPC_ABI_VERSION);
    const char *version = jsonrpc_version();
    check(version != NULL && version[0] != '\0', "jsonrpc_version() is NULL or empty");
}

static void check_lines_null_argument(const char *what, const uint8_t *buf, size_t len, JsonRpcLineState *state) {
    set_context("%s", what);
    JsonRpcLines lines = jsonrpc_classify_lines(buf, len, false, state);
    check(lines.status == JSONRPC_STATUS_NULL_ARGUMENT, "status %u, expected NULL_ARGUMENT",
          (unsigned)lines.status);
    check(lines.items == NULL && lines.count == 0 && lines.consumed == 0, "items or consumed bytes on failure");
    jsonrpc_lines_free(&lines);
}

static void check_edges(void) {
    check_classify_null();
    check_invalid_reply_edges();
    check_log_value_edges();
    check_free_null();
    check_versions();
    static const uint8_t buf[] = "{}\n";
    JsonRpcLineState state = {0};
    check_lines_null_argument("jsonrpc_classify_lines(buf, 3, false, NULL)", buf, 3, NULL);
    check_lines_null_argument("jsonrpc_classify_lines(NULL, 4, false, &state)", NULL, 4, &state);
}

/* ------------------------------------------------------------------------ */

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s FLATFILE (written by tests/c/flatten_vectors.py)\n", argv[0]);
        return 2;
    }
    Vectors vectors;
    if (!load_vectors(argv[1], &vectors)) {
        free_vectors(&vectors);
        return 2;
    }
    for (size_t i = 0; i < vectors.envelope_count; i++) {
        check_envelope_vector(&vectors.envelopes[i]);
        check_prefixes(&vectors.envelopes[i]);
    }
    for (size_t i = 0; i < vectors.log_count; i++) {
        check_log_vector(&vectors.logs[i]);
    }
    check_edges();
    check_many_lines(&vectors);
    check_too_long();
    free_vectors(&vectors);
    printf("%lu passed, %lu failed\n", tally.passed, tally.failed);
    return tally.failed == 0 ? 0 : 1;
}
