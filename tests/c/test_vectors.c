/*
 * test_vectors.c: the shared vectors of tests/vectors, one line at a time
 * and as streams through a JsonRpcReader and a JsonRpcSession, the
 * reader's and the session's promises, and the edges of the C ABI, through
 * jsonrpc_envelope.h. envelope.jsonl runs in the JSON-RPC profile and
 * mcp.jsonl in the MCP profile (SPEC section 10).
 *
 * Input: the flat file that tests/c/flatten_vectors.py writes (its format is
 * described there). Output: one "FAIL <where>: <what>" line (and details)
 * per failed check, then exactly one summary line "N passed, F failed".
 * Exit status: 0 when every check passed, 1 when one failed, 2 when the
 * input could not be read.
 *
 *   python3 tests/c/flatten_vectors.py tests/vectors/envelope.jsonl \
 *       tests/vectors/log_value.jsonl tests/vectors/mcp.jsonl target/c/vectors.flat
 *   cc -std=c11 -Wall -Wextra -Wpedantic -Werror -Iinclude \
 *       tests/c/test_vectors.c -Ltarget/debug -ljsonrpc_envelope -o target/c/test_vectors
 *   LD_LIBRARY_PATH=target/debug target/c/test_vectors target/c/vectors.flat
 */

#include "jsonrpc_envelope.h"

#include <inttypes.h>
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

/* The profile values (the header's), in the order the tests take them. */
static const uint32_t PROFILES_TESTED[] = {JSONRPC_PROFILE_JSONRPC, JSONRPC_PROFILE_MCP};

/* Values that are no profile (0 is deliberately none). */
static const uint32_t NOT_PROFILES[] = {0, 3, UINT32_MAX};

/* The largest chunk of the stream passes; every size from 1 is tried. */
enum { MAX_CHUNK = 70 };

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

static void buf_reserve(ByteBuf *buf, size_t len) {
    if (buf->len + len > buf->cap) {
        buf->cap = (buf->len + len) * 2;
        buf->data = xrealloc(buf->data, buf->cap);
    }
}

static void buf_append(ByteBuf *buf, const void *bytes, size_t len) {
    buf_reserve(buf, len);
    if (len > 0) {
        memcpy(buf->data + buf->len, bytes, len);
    }
    buf->len += len;
}

static void append_repeated(ByteBuf *buf, char byte, size_t count) {
    buf_reserve(buf, count);
    memset(buf->data + buf->len, byte, count);
    buf->len += count;
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
    [JSONRPC_KIND_TOO_LONG] = "too_long",
    [JSONRPC_KIND_INVALID_RESPONSE] = "invalid_response",
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

/* The profiles as the flat file spells them (SPEC section 10). */
static const char *const PROFILE_NAMES[] = {
    [JSONRPC_PROFILE_JSONRPC] = "jsonrpc",
    [JSONRPC_PROFILE_MCP] = "mcp",
};

/* The actions as the header spells their records' words. */
static const char *const ACTION_NAMES[] = {
    [JSONRPC_ACTION_NONE] = "none",
    [JSONRPC_ACTION_FORWARD] = "forwarded",
    [JSONRPC_ACTION_ANSWER] = "answered",
    [JSONRPC_ACTION_SUBSTITUTE] = "substituted",
    [JSONRPC_ACTION_ATTRIBUTE] = "attributed",
    [JSONRPC_ACTION_DROP] = "dropped",
    [JSONRPC_ACTION_DIVERT] = "diverted",
};

/* A table of names, indexed by an enum's value. */
typedef struct {
    const char *const *names;
    size_t count;
} NameTable;

static const NameTable KINDS = {KIND_NAMES, COUNT_OF(KIND_NAMES)};
static const NameTable ID_KINDS = {ID_KIND_NAMES, COUNT_OF(ID_KIND_NAMES)};
static const NameTable PROFILES = {PROFILE_NAMES, COUNT_OF(PROFILE_NAMES)};
static const NameTable ACTIONS = {ACTION_NAMES, COUNT_OF(ACTION_NAMES)};

static const char *name_of(NameTable table, uint32_t value) {
    return value < table.count && table.names[value] != NULL ? table.names[value] : "(unknown value)";
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

/* One record of envelope.jsonl (profile jsonrpc) or mcp.jsonl (profile
 * mcp). An absent span has len 0. */
typedef struct {
    unsigned at;      /* line number in its file */
    uint32_t profile; /* a JsonRpcProfile */
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
    Text substitute;
} EnvelopeVector;

/* The file a vector comes from. */
static const char *source_of(const EnvelopeVector *vector) {
    return vector->profile == JSONRPC_PROFILE_MCP ? "mcp.jsonl" : "envelope.jsonl";
}

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
        .profile = enum_field(record, "profile", PROFILES),
        .name = bytes_field(record, "name"),
        .line = bytes_field(record, "line"),
        .kind = enum_field(record, "kind", KINDS),
        .id_kind = enum_field(record, "id_kind", ID_KINDS),
        .id = text_field(record, "id", false),
        .method = text_field(record, "method", false),
        .reason = text_field(record, "reason", true),
        .reply_server = text_field(record, "reply_server", false),
        .reply_client = text_field(record, "reply_client", false),
        .substitute = text_field(record, "substitute", false),
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
              c->reason.ptr == NULL && c->reply_server.ptr == NULL && c->reply_client.ptr == NULL &&
              c->substitute.ptr == NULL,
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
 * Envelope vectors (both files, each in its profile), one line at a time.
 */

static void set_envelope_context(const EnvelopeVector *vector, const char *what) {
    set_context("%s line %u \"%s\"%s", source_of(vector), vector->at, vector->name.ptr, what);
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
    check_text("substitute", c->substitute, vector->substitute);
}

/* jsonrpc_invalid_reply for one role, then its text freed twice. */
static void check_invalid_reply(const unsigned char *line, size_t len, uint32_t role, uint32_t profile,
                                const char *what, Text want) {
    JsonRpcReply reply = jsonrpc_invalid_reply(line, len, role, profile);
    check(reply.status == JSONRPC_STATUS_OK, "%s: status %u, expected OK", what, (unsigned)reply.status);
    check_text(what, str_of_string(reply.text), want);
    free_string_twice(&reply.text, what);
}

enum { STRING_COUNT = 6 };

/* A classification's strings in the order the header gives for `texts`
 * and for scratch. */
static void strings_of(const JsonRpcClassification *c, const JsonRpcStr *out[STRING_COUNT]) {
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

static void check_envelope_vector(const EnvelopeVector *vector) {
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
static void check_prefixes(const EnvelopeVector *vector) {
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

static void check_log_vector(const LogVector *vector) {
    set_context("log_value.jsonl line %u \"%s\"", vector->at, vector->name.ptr);
    unsigned char *input = exact_copy(vector->input.ptr, vector->input.len);
    JsonRpcString out = jsonrpc_log_value(input, vector->input.len);
    check_text("jsonrpc_log_value", str_of_string(out), vector->output);
    free_string_twice(&out, "jsonrpc_log_value");
    free(input);
}

/* ------------------------------------------------------------------------
 * Streams through a JsonRpcReader or a JsonRpcSession, fed as a host would:
 * each chunk as it is read, then the end of the stream. Each chunk is a
 * heap copy freed right after the call, so a reader that kept a pointer
 * into it would be caught.
 */

typedef void ItemCheck(void *context, size_t index, const JsonRpcLine *item, const JsonRpcBatch *batch);

typedef struct {
    const char *label; /* names the stream in failures */
    const unsigned char *bytes;
    size_t len;
    size_t chunk;      /* bytes read at a time */
    size_t max_line;   /* 0 for the library's default */
    uint32_t profile;  /* a JsonRpcProfile */
    uint32_t role;     /* 0: a plain JsonRpcReader; else a JsonRpcSession in this role */
    ItemCheck *check_item;
    void *context;
} Feed;

static size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

static bool span_is_zero(JsonRpcSpan span) {
    return span.offset == 0 && span.len == 0;
}

/* A TOO_LONG item carries its number, its length, an offset of 0, and
 * nothing else (but, from a session, its action). */
static void check_too_long_fields(const JsonRpcLine *item) {
    const JsonRpcClassification *c = &item->classification;
    JsonRpcSpan spans[SPAN_COUNT];
    spans_of(c, spans);
    bool spans_zero = true;
    for (size_t i = 0; i < SPAN_COUNT; i++) {
        spans_zero = spans_zero && span_is_zero(spans[i]);
    }
    check(item->offset == 0, "a too_long item at offset %zu", item->offset);
    check(c->id_kind == JSONRPC_ID_ABSENT && !c->jsonrpc_2_0 && !c->has_result && !c->has_error &&
              !c->names_no_request && spans_zero && c->storage == NULL,
          "a too_long item carries fields");
    check(c->id.ptr == NULL && c->method.ptr == NULL && c->reason.ptr == NULL && c->reply_server.ptr == NULL &&
              c->reply_client.ptr == NULL && c->substitute.ptr == NULL,
          "a too_long item has strings or owes a reply");
}

static bool action_has_text(uint32_t action) {
    return action == JSONRPC_ACTION_ANSWER || action == JSONRPC_ACTION_SUBSTITUTE ||
           action == JSONRPC_ACTION_ATTRIBUTE;
}

static bool inside(const char *ptr, const char *base, size_t len) {
    return base != NULL && ptr >= base && ptr < base + len;
}

/* What the header promises of an item's action: a plain reader's is NONE,
 * with no text and no note; a session's is one of its six actions, with a
 * text exactly for ANSWER, SUBSTITUTE and ATTRIBUTE (the reply the line
 * owes in the session's role; the line's own substitute, where it has one;
 * else a string of the session's own, outside `texts`) and a note for
 * every action but FORWARD. */
static bool check_action_fields(const JsonRpcLine *item, size_t i, uint32_t role, const JsonRpcBatch *batch) {
    const JsonRpcClassification *c = &item->classification;
    if (role == 0) {
        return check(item->action == JSONRPC_ACTION_NONE && item->action_text.ptr == NULL &&
                         item->action_text.len == 0 && item->note == NULL,
                     "item %zu of a plain reader has an action (%u), a text or a note", i, (unsigned)item->action);
    }
    uint32_t action = item->action;
    bool ok = check(action >= JSONRPC_ACTION_FORWARD && action <= JSONRPC_ACTION_DIVERT,
                    "item %zu: action %u is none of the session's", i, (unsigned)action);
    ok = ok && check((item->note != NULL) == (action != JSONRPC_ACTION_FORWARD) &&
                         (item->note == NULL || item->note[0] != '\0'),
                     "item %zu (%s): a note %s", i, name_of(ACTIONS, action),
                     item->note != NULL ? "where none is due, or an empty one" : "is missing");
    /* A FORWARD may carry the line's normal form (MCP profile, SPEC 10.5). */
    bool normal = action == JSONRPC_ACTION_FORWARD && item->action_text.ptr != NULL;
    ok = ok && check(normal || (item->action_text.ptr != NULL) == action_has_text(action),
                     "item %zu (%s): action_text %s", i, name_of(ACTIONS, action),
                     item->action_text.ptr != NULL ? "where none is due" : "is missing");
    if (ok && normal) {
        /* The normal form: an object with no whitespace outside strings,
         * of the session's own, never longer than the line. */
        JsonRpcStr text = item->action_text;
        bool in_string = false, clean = true;
        for (size_t k = 0; k < text.len; k++) {
            char b = text.ptr[k];
            if (in_string && b == '\\') {
                k++;
            } else if (b == '"') {
                in_string = !in_string;
            } else if (!in_string && (b == ' ' || b == '\t' || b == '\r' || b == '\n')) {
                clean = false;
            }
        }
        return check(clean && text.len >= 2 && text.ptr[0] == '{' && text.ptr[text.len - 1] == '}' &&
                         text.len <= item->len && !inside(text.ptr, batch->texts, batch->texts_len),
                     "item %zu: a forwarded line's normal form is not one", i);
    }
    if (!ok || item->action_text.ptr == NULL) {
        return ok;
    }
    JsonRpcStr text = item->action_text;
    ok = check(text.len > 0 && text.ptr[text.len] == '\0', "item %zu: action_text is empty or has no NUL after it",
               i);
    JsonRpcStr reply = role == JSONRPC_ROLE_SERVER ? c->reply_server : c->reply_client;
    if (action == JSONRPC_ACTION_ANSWER) {
        ok = ok && check(text.ptr == reply.ptr && text.len == reply.len,
                         "item %zu: an answer that is not the line's reply for the role", i);
    } else if (action == JSONRPC_ACTION_SUBSTITUTE && c->substitute.ptr != NULL) {
        ok = ok && check(text.ptr == c->substitute.ptr && text.len == c->substitute.len,
                         "item %zu: a substitute that is not the line's own", i);
    } else {
        ok = ok && check(!inside(text.ptr, batch->texts, batch->texts_len),
                         "item %zu: the session's own text stands in texts", i);
    }
    return ok;
}

/* What the header promises of every batch, whatever its lines: items
 * numbered on from `*number`; a complete line inside `bytes`, followed there
 * by its LF (but the last line of a stream, from the end, may have none),
 * after the one before it, and `bytes` ending with the last one; TOO_LONG
 * items empty; every string in `texts`, back to back in field order, each
 * followed by its NUL, and nothing else there; each item's action as
 * check_action_fields says (`role` 0 for a plain reader's batch). False
 * when the items cannot be looked at further. */
static bool check_batch(const JsonRpcBatch *batch, uint64_t *number, bool at_end, uint32_t role) {
    if (!check((batch->count == 0 || batch->items != NULL) && (batch->bytes_len == 0 || batch->bytes != NULL) &&
                   (batch->texts_len == 0 || batch->texts != NULL),
               "a part of the batch is at NULL with a length")) {
        return false;
    }
    size_t bytes_end = 0; /* where the last complete line's bytes end */
    size_t text_at = 0;
    bool ok = true;
    for (size_t i = 0; i < batch->count && ok; i++) {
        const JsonRpcLine *item = &batch->items[i];
        const JsonRpcClassification *c = &item->classification;
        uint64_t want = ++*number;
        ok = check(item->number == want, "item %zu is line %" PRIu64 ", expected %" PRIu64, i, item->number, want);
        ok = check_action_fields(item, i, role, batch) && ok;
        if (c->kind == JSONRPC_KIND_TOO_LONG) {
            check_too_long_fields(item);
            check(role == 0 || (item->action == JSONRPC_ACTION_DROP && item->action_text.ptr == NULL),
                  "a session's too_long item %zu is not dropped (%s)", i, name_of(ACTIONS, item->action));
            continue;
        }
        ok = ok && check(c->kind != JSONRPC_KIND_NONE, "item %zu has kind none", i) &&
             check(c->storage == NULL, "item %zu owns memory", i) &&
             check(item->offset >= bytes_end && item->offset <= batch->bytes_len &&
                       item->len <= batch->bytes_len - item->offset,
                   "item %zu at %zu (len %zu) is not after the last or not inside the %zu bytes", i, item->offset,
                   item->len, batch->bytes_len);
        if (!ok) {
            break;
        }
        bytes_end = item->offset + item->len;
        if (bytes_end < batch->bytes_len) {
            ok = check(batch->bytes[bytes_end] == '\n', "item %zu is not followed by its LF", i);
            bytes_end++;
        } else {
            ok = check(at_end && i + 1 == batch->count, "item %zu has no LF", i);
        }
        const JsonRpcStr *strings[STRING_COUNT];
        strings_of(c, strings);
        for (size_t s = 0; s < STRING_COUNT && ok; s++) {
            const JsonRpcStr *str = strings[s];
            if (str->ptr == NULL) {
                continue;
            }
            ok = check(batch->texts != NULL && str->ptr == batch->texts + text_at &&
                           str->len < batch->texts_len - text_at &&
                           str->ptr[str->len] == '\0',
                       "item %zu: string %zu is not at byte %zu of texts, or has no NUL after it", i, s, text_at);
            text_at += str->len + 1;
        }
    }
    return ok && check(bytes_end == batch->bytes_len, "bytes_len %zu, but the last line ends at %zu",
                       batch->bytes_len, bytes_end) &&
           check(text_at == batch->texts_len, "texts_len %zu, but the strings end at %zu", batch->texts_len, text_at);
}

/* A reader or a session, whichever a Feed asks for. */
typedef struct {
    JsonRpcReader *reader;
    JsonRpcSession *session;
} Stream;

static Stream stream_new(size_t max_line, uint32_t profile, uint32_t role) {
    Stream s = {NULL, NULL};
    if (role == 0) {
        s.reader = jsonrpc_reader_new(max_line, profile);
    } else {
        s.session = jsonrpc_session_new(role, profile, max_line);
    }
    return s;
}

static JsonRpcStatus stream_feed(Stream s, const unsigned char *data, size_t len, JsonRpcBatch *out) {
    return s.session != NULL ? jsonrpc_session_feed(s.session, data, len, out)
                             : jsonrpc_reader_feed(s.reader, data, len, out);
}

static JsonRpcStatus stream_end(Stream s, JsonRpcBatch *out) {
    return s.session != NULL ? jsonrpc_session_end(s.session, out) : jsonrpc_reader_end(s.reader, out);
}

static void stream_free(Stream s) {
    jsonrpc_reader_free(s.reader);
    jsonrpc_session_free(s.session);
}

/* Feeds the stream and checks each batch and each item; failures name the
 * stream, and the item by its index, which the item check can refine.
 * Returns how many items there were. */
static size_t feed_stream(const Feed *feed) {
    set_context("%s", feed->label);
    Stream stream = stream_new(feed->max_line, feed->profile, feed->role);
    if (!check(stream.reader != NULL || stream.session != NULL, "jsonrpc_%s_new gave NULL",
               feed->role == 0 ? "reader" : "session")) {
        return 0;
    }
    uint64_t number = 0;
    size_t items = 0;
    size_t read = 0;
    bool at_end = false;
    while (!at_end) {
        JsonRpcBatch batch;
        JsonRpcStatus status;
        if (read < feed->len) {
            size_t chunk = min_size(feed->chunk, feed->len - read);
            unsigned char *piece = exact_copy(feed->bytes + read, chunk);
            status = stream_feed(stream, piece, chunk, &batch);
            free(piece);
            read += chunk;
        } else {
            status = stream_end(stream, &batch);
            at_end = true;
        }
        set_context("%s, after %zu bytes%s", feed->label, read, at_end ? " and the end" : "");
        if (!check(status == JSONRPC_STATUS_OK, "status %u", (unsigned)status) ||
            !check_batch(&batch, &number, at_end, feed->role)) {
            break;
        }
        for (size_t i = 0; i < batch.count; i++, items++) {
            set_context("%s, item %zu", feed->label, items);
            feed->check_item(feed->context, items, &batch.items[i], &batch);
        }
    }
    stream_free(stream);
    set_context("%s", feed->label);
    return items;
}

/* What a session does with a line of the vectors when no request is
 * outstanding (SPEC §8's tables; in the MCP profile §9's handshake rule
 * and §10.4: an error that names no request, and an invalid_response, with
 * nothing to give them to, are dropped). */
static uint32_t expected_action(const EnvelopeVector *vector, uint32_t role) {
    bool server = role == JSONRPC_ROLE_SERVER;
    switch (vector->kind) {
    case JSONRPC_KIND_REQUEST:
    case JSONRPC_KIND_NOTIFICATION:
        return JSONRPC_ACTION_FORWARD;
    case JSONRPC_KIND_RESPONSE:
        if (vector->profile == JSONRPC_PROFILE_MCP && vector->flags[FLAG_NAMES_NO_REQUEST]) {
            return JSONRPC_ACTION_DROP;
        }
        return JSONRPC_ACTION_FORWARD;
    case JSONRPC_KIND_INVALID_RESPONSE:
        return JSONRPC_ACTION_DROP;
    case JSONRPC_KIND_INVALID_REQUEST:
        return JSONRPC_ACTION_ANSWER;
    case JSONRPC_KIND_PARSE_ERROR:
    case JSONRPC_KIND_BATCH:
    case JSONRPC_KIND_NOT_OBJECT:
        return server ? JSONRPC_ACTION_ANSWER : JSONRPC_ACTION_DIVERT;
    case JSONRPC_KIND_EMPTY:
    case JSONRPC_KIND_NOT_JSONRPC:
        return server ? JSONRPC_ACTION_DROP : JSONRPC_ACTION_DIVERT;
    }
    return JSONRPC_ACTION_NONE;
}

/* The many-lines passes: every vector line of one profile without LF, in
 * order, through a reader (`role` 0) or a session in `role`. */
typedef struct {
    const EnvelopeVector **vectors;
    size_t count;
    bool crlf; /* lines end with CR LF rather than LF */
    uint32_t role;
    char label[96];
} StreamPass;

static void check_stream_item(void *context, size_t index, const JsonRpcLine *item, const JsonRpcBatch *batch) {
    const StreamPass *pass = context;
    if (!check(index < pass->count, "more items than lines")) {
        return;
    }
    const EnvelopeVector *vector = pass->vectors[index];
    set_context("%s, item %zu: %s line %u \"%s\"", pass->label, index, source_of(vector), vector->at,
                vector->name.ptr);
    /* Lines are joined, so the last one has no line ending, hence no CR; a
     * CR stays in its line, as whitespace, and changes nothing else. */
    bool has_cr = pass->crlf && index + 1 < pass->count;
    Text want_line = vector->line;
    size_t want_len = want_line.len + (has_cr ? 1 : 0);
    check_size("len", item->len, want_len);
    if (item->len == want_len) {
        JsonRpcStr got_line = {(const char *)batch->bytes + item->offset, want_line.len};
        check_bytes("line bytes at offset", got_line, want_line);
        check(!has_cr || batch->bytes[item->offset + want_line.len] == '\r', "the line does not end with its CR");
    }
    check_classification(&item->classification, vector);
    if (pass->role != 0) {
        check_enum("action", ACTIONS, item->action, expected_action(vector, pass->role));
        Text want = item->action != JSONRPC_ACTION_ANSWER         ? (Text){TEXT_ABSENT, NULL, 0}
                    : pass->role == JSONRPC_ROLE_SERVER ? vector->reply_server
                                                        : vector->reply_client;
        /* A forwarded line may go in its normal form (MCP, SPEC 10.5);
         * check_action_fields holds that text to what a normal form is. */
        if (!(item->action == JSONRPC_ACTION_FORWARD && vector->profile == JSONRPC_PROFILE_MCP)) {
            check_text("action_text", item->action_text, want);
        }
    }
}

static void run_stream_pass(StreamPass *pass, const ByteBuf *stream, size_t chunk) {
    uint32_t profile = pass->count > 0 ? pass->vectors[0]->profile : JSONRPC_PROFILE_JSONRPC;
    Feed feed = {.label = pass->label,
                 .bytes = stream->data,
                 .len = stream->len,
                 .chunk = chunk,
                 .profile = profile,
                 .role = pass->role,
                 .check_item = check_stream_item,
                 .context = pass};
    check_size("items", feed_stream(&feed), pass->count);
}

/* Every chunk size from 1 to MAX_CHUNK and the whole stream through a
 * reader; a few of them through a session in each role. */
static void check_stream(const EnvelopeVector **vectors, size_t count, bool crlf) {
    const char *separator = crlf ? "\r\n" : "\n";
    ByteBuf stream = {0};
    for (size_t i = 0; i < count; i++) {
        if (i > 0) {
            buf_append(&stream, separator, strlen(separator));
        }
        buf_append(&stream, vectors[i]->line.ptr, vectors[i]->line.len);
    }
    const char *file = count > 0 ? source_of(vectors[0]) : "";
    StreamPass pass = {vectors, count, crlf, 0, ""};
    const char *ending = crlf ? "CRLF" : "LF";
    for (size_t chunk = 1; chunk <= MAX_CHUNK; chunk++) {
        snprintf(pass.label, sizeof pass.label, "%s stream (%s, chunks of %zu)", file, ending, chunk);
        run_stream_pass(&pass, &stream, chunk);
    }
    snprintf(pass.label, sizeof pass.label, "%s stream (%s, whole)", file, ending);
    run_stream_pass(&pass, &stream, SIZE_MAX);
    static const size_t SESSION_CHUNKS[] = {1, 5, 61, SIZE_MAX};
    for (uint32_t role = JSONRPC_ROLE_SERVER; role <= JSONRPC_ROLE_CLIENT; role++) {
        pass.role = role;
        for (size_t i = 0; i < COUNT_OF(SESSION_CHUNKS); i++) {
            snprintf(pass.label, sizeof pass.label, "%s stream through a %s session (%s, chunks of %zu)", file,
                     jsonrpc_role_name(role), ending, SESSION_CHUNKS[i]);
            run_stream_pass(&pass, &stream, SESSION_CHUNKS[i]);
        }
    }
    buf_free(&stream);
}

/* Each profile's vectors (envelope.jsonl's, mcp.jsonl's) as one stream. */
static void check_many_lines(const Vectors *vectors) {
    const EnvelopeVector **lines = xrealloc(NULL, vectors->envelope_count * sizeof *lines);
    for (size_t p = 0; p < COUNT_OF(PROFILES_TESTED); p++) {
        size_t count = 0;
        for (size_t i = 0; i < vectors->envelope_count; i++) {
            const EnvelopeVector *vector = &vectors->envelopes[i];
            if (vector->profile == PROFILES_TESTED[p] && memchr(vector->line.ptr, '\n', vector->line.len) == NULL) {
                lines[count++] = vector;
            }
        }
        set_context("the %s vectors as a stream", PROFILE_NAMES[PROFILES_TESTED[p]]);
        if (check(count > 10, "only %zu lines", count)) {
            check_stream(lines, count, false);
            check_stream(lines, count, true);
        }
    }
    free(lines);
}

/* Lines over the limit: one split across many reads at small chunk sizes,
 * one a byte over, one at the limit exactly (kept), and one still open
 * when the stream ends without LF. Each is reported once, with its whole
 * length, and skipped. */
typedef struct {
    uint32_t kind;
    size_t len;
    const char *text; /* NULL for a too_long item */
} ExpectedItem;

enum { TOO_LONG_MAX_LINE = 10 };

/* Each with the action a session takes in role server, then client (SPEC
 * §8: a too-long line is dropped in both; `{}` is no JSON-RPC; `zzz...` is
 * no JSON). */
static const struct {
    ExpectedItem item;
    uint32_t server_action;
    uint32_t client_action;
} TOO_LONG_ITEMS[] = {
    {{JSONRPC_KIND_RESPONSE, 8, "{\"id\":1}"}, JSONRPC_ACTION_FORWARD, JSONRPC_ACTION_FORWARD},
    {{JSONRPC_KIND_TOO_LONG, 250, NULL}, JSONRPC_ACTION_DROP, JSONRPC_ACTION_DROP},
    {{JSONRPC_KIND_NOT_JSONRPC, 2, "{}"}, JSONRPC_ACTION_DROP, JSONRPC_ACTION_DIVERT},
    {{JSONRPC_KIND_TOO_LONG, 11, NULL}, JSONRPC_ACTION_DROP, JSONRPC_ACTION_DROP},
    {{JSONRPC_KIND_PARSE_ERROR, 10, "zzzzzzzzzz"}, JSONRPC_ACTION_ANSWER, JSONRPC_ACTION_DIVERT},
    {{JSONRPC_KIND_TOO_LONG, 37, NULL}, JSONRPC_ACTION_DROP, JSONRPC_ACTION_DROP},
};

static void check_too_long_item(void *context, size_t index, const JsonRpcLine *item, const JsonRpcBatch *batch) {
    const Feed *feed = context;
    if (!check(index < COUNT_OF(TOO_LONG_ITEMS), "more items than expected")) {
        return;
    }
    const ExpectedItem *want = &TOO_LONG_ITEMS[index].item;
    if (feed->profile == JSONRPC_PROFILE_MCP && want->kind == JSONRPC_KIND_RESPONSE) {
        /* {"id":1} has no jsonrpc member: no MCP response (SPEC §10.3 (b)),
         * and no request of ours waits on id 1, so it is dropped. */
        check_enum("kind", KINDS, item->classification.kind, JSONRPC_KIND_INVALID_RESPONSE);
        check_enum("action", ACTIONS, item->action, feed->role != 0 ? JSONRPC_ACTION_DROP : JSONRPC_ACTION_NONE);
        return;
    }
    check_enum("kind", KINDS, item->classification.kind, want->kind);
    check_size("len", item->len, want->len);
    if (want->text != NULL && item->len == want->len) {
        JsonRpcStr got = {(const char *)batch->bytes + item->offset, item->len};
        check_bytes("line bytes at offset", got, (Text){TEXT_EXACT, want->text, want->len});
    }
    if (feed->role != 0) {
        uint32_t action = feed->role == JSONRPC_ROLE_SERVER ? TOO_LONG_ITEMS[index].server_action
                                                            : TOO_LONG_ITEMS[index].client_action;
        check_enum("action", ACTIONS, item->action, action);
    }
}

/* Through a reader at every chunk size, and through a session in each role
 * and profile at a few. */
static void check_too_long(void) {
    ByteBuf stream = {0};
    buf_append(&stream, "{\"id\":1}\n", 9);
    append_repeated(&stream, 'x', 250);
    buf_append(&stream, "\n{}\n", 4);
    append_repeated(&stream, 'y', 11);
    buf_append(&stream, "\n", 1);
    append_repeated(&stream, 'z', 10);
    buf_append(&stream, "\n", 1);
    append_repeated(&stream, 'w', 37);
    char label[96];
    for (uint32_t role = 0; role <= JSONRPC_ROLE_CLIENT; role++) {
        for (size_t p = 0; p < (role == 0 ? 1 : COUNT_OF(PROFILES_TESTED)); p++) {
            uint32_t profile = PROFILES_TESTED[p];
            for (size_t chunk = 1; chunk <= MAX_CHUNK; chunk += role == 0 ? 1 : 6) {
                snprintf(label, sizeof label, "too-long stream (%s %s, chunks of %zu)",
                         role == 0 ? "reader" : jsonrpc_role_name(role), PROFILE_NAMES[profile], chunk);
                Feed feed = {.label = label,
                             .bytes = stream.data,
                             .len = stream.len,
                             .chunk = chunk,
                             .max_line = TOO_LONG_MAX_LINE,
                             .profile = profile,
                             .role = role,
                             .check_item = check_too_long_item};
                feed.context = &feed;
                check_size("items", feed_stream(&feed), COUNT_OF(TOO_LONG_ITEMS));
            }
        }
    }
    buf_free(&stream);
}

/* A long line in small pieces: nothing until its LF, then the line whole.
 * A reader that searched or copied the held bytes again at each of these
 * 2^18 pieces would take about 2^39 byte steps (hours under valgrind),
 * where a linear one takes about 2^22. */
static void check_long_line_in_pieces(void) {
    enum { PIECE = 16 };
    const size_t len = ((size_t)4 << 20) + 2;
    set_context("a %zu-byte line in %d-byte pieces", len, PIECE);
    ByteBuf line = {0};
    buf_append(&line, "\"", 1);
    append_repeated(&line, 'p', len - 2);
    buf_append(&line, "\"", 1);
    JsonRpcReader *reader = jsonrpc_reader_new(0, JSONRPC_PROFILE_JSONRPC);
    JsonRpcBatch batch = {0};
    size_t at = 0;
    for (; at < len; at += PIECE) {
        JsonRpcStatus status = jsonrpc_reader_feed(reader, line.data + at, min_size(PIECE, len - at), &batch);
        if (!check(status == JSONRPC_STATUS_OK && batch.count == 0, "status %u, %zu items after %zu bytes",
                   (unsigned)status, batch.count, at)) {
            break;
        }
    }
    JsonRpcStatus status = jsonrpc_reader_feed(reader, (const uint8_t *)"\n", 1, &batch);
    if (at >= len && check(status == JSONRPC_STATUS_OK && batch.count == 1, "status %u, %zu items at the LF",
                           (unsigned)status, batch.count)) {
        check_size("len", batch.items[0].len, len);
        check_enum("kind", KINDS, batch.items[0].classification.kind, JSONRPC_KIND_NOT_OBJECT);
        check(batch.bytes_len == len + 1 && memcmp(batch.bytes, line.data, len) == 0, "the line's bytes differ");
    }
    jsonrpc_reader_free(reader);
    buf_free(&line);
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
    for (size_t p = 0; p < COUNT_OF(PROFILES_TESTED); p++) {
        uint32_t profile = PROFILES_TESTED[p];
        set_context("jsonrpc_classify(NULL, 0, %s)", PROFILE_NAMES[profile]);
        JsonRpcClassification c = jsonrpc_classify(NULL, 0, profile);
        check_enum("kind", KINDS, c.kind, JSONRPC_KIND_EMPTY);
        free_classification_twice(&c);

        set_context("jsonrpc_classify(NULL, 5, %s)", PROFILE_NAMES[profile]);
        c = jsonrpc_classify(NULL, 5, profile);
        check_enum("kind", KINDS, c.kind, JSONRPC_KIND_PARSE_ERROR);
        if (!check(contains(c.reason, "NULL"), "the reason does not say NULL")) {
            print_text("reason", text_of_str(c.reason));
        }
        free_classification_twice(&c);
    }
}

static void check_invalid_reply_edges(void) {
    set_context("jsonrpc_invalid_reply(NULL, 5, JSONRPC_ROLE_SERVER)");
    Text parse_error = {TEXT_EXACT, PARSE_ERROR_REPLY, strlen(PARSE_ERROR_REPLY)};
    for (size_t p = 0; p < COUNT_OF(PROFILES_TESTED); p++) {
        check_invalid_reply(NULL, 5, JSONRPC_ROLE_SERVER, PROFILES_TESTED[p], "reply", parse_error);
    }

    /* A line that a server must answer, so that no reply is the role's doing. */
    static const unsigned char line[] = "{";
    const uint32_t roles[] = {0, 3, 0xFFFFFFFFu};
    for (size_t i = 0; i < COUNT_OF(roles); i++) {
        /* The role is checked first: a bad profile too is still UNKNOWN_ROLE. */
        const uint32_t profiles[] = {JSONRPC_PROFILE_JSONRPC, JSONRPC_PROFILE_MCP, 0, UINT32_MAX};
        for (size_t p = 0; p < COUNT_OF(profiles); p++) {
            set_context("jsonrpc_invalid_reply(\"{\", 1, %#x, %#x)", (unsigned)roles[i], (unsigned)profiles[p]);
            JsonRpcReply reply = jsonrpc_invalid_reply(line, 1, roles[i], profiles[p]);
            check(reply.status == JSONRPC_STATUS_UNKNOWN_ROLE, "status %u, expected UNKNOWN_ROLE",
                  (unsigned)reply.status);
            check(reply.text.ptr == NULL && reply.text.len == 0, "text given for an unknown role");
            jsonrpc_string_free(&reply.text);
        }
    }
}

/* A value that is no JsonRpcProfile is refused by every call that takes
 * one: JSONRPC_KIND_NONE with the reason "unknown profile" (the header's
 * words), JSONRPC_STATUS_UNKNOWN_PROFILE, or NULL. */
static void check_unknown_profiles(void) {
    static const unsigned char line[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}";
    const size_t len = sizeof line - 1;
    const Text unknown = {TEXT_EXACT, "unknown profile", strlen("unknown profile")};
    for (size_t i = 0; i < COUNT_OF(NOT_PROFILES); i++) {
        uint32_t profile = NOT_PROFILES[i];
        set_context("jsonrpc_classify(an invalid request, profile %#x)", (unsigned)profile);
        JsonRpcClassification c = jsonrpc_classify(line, len, profile);
        check_enum("kind", KINDS, c.kind, JSONRPC_KIND_NONE);
        check_text("reason", c.reason, unknown);
        check(c.id.ptr == NULL && c.method.ptr == NULL && c.reply_server.ptr == NULL && c.reply_client.ptr == NULL &&
                  c.substitute.ptr == NULL && c.id_span.len == 0,
              "an unknown profile's result carries the line's fields");
        free_classification_twice(&c);

        set_context("jsonrpc_classify(NULL, 0, profile %#x)", (unsigned)profile);
        c = jsonrpc_classify(NULL, 0, profile);
        check_enum("kind", KINDS, c.kind, JSONRPC_KIND_NONE);
        check_text("reason", c.reason, unknown);
        free_classification_twice(&c);

        const size_t scratch_sizes[] = {0, 8, 1024};
        for (size_t s = 0; s < COUNT_OF(scratch_sizes); s++) {
            set_context("jsonrpc_classify_into(an invalid request, profile %#x, %zu bytes of scratch)",
                        (unsigned)profile, scratch_sizes[s]);
            unsigned char *scratch = scratch_sizes[s] ? xrealloc(NULL, scratch_sizes[s]) : NULL;
            JsonRpcClassification into;
            memset(&into, 0xa5, sizeof into);
            JsonRpcStatus status = jsonrpc_classify_into(line, len, profile, &into, scratch, scratch_sizes[s]);
            check(status == JSONRPC_STATUS_UNKNOWN_PROFILE, "status %u, expected UNKNOWN_PROFILE",
                  (unsigned)status);
            check_enum("kind", KINDS, into.kind, JSONRPC_KIND_NONE);
            check_text("reason", into.reason, unknown);
            check(into.id.ptr == NULL && into.reply_server.ptr == NULL && into.substitute.ptr == NULL,
                  "an unknown profile's result carries the line's strings");
            free_classification_twice(&into);
            free(scratch);
        }
        set_context("jsonrpc_classify_into(NULL out, profile %#x)", (unsigned)profile);
        check(jsonrpc_classify_into(line, len, profile, NULL, NULL, 0) == JSONRPC_STATUS_NULL_ARGUMENT,
              "a NULL out is not NULL_ARGUMENT");

        for (uint32_t role = JSONRPC_ROLE_SERVER; role <= JSONRPC_ROLE_CLIENT; role++) {
            set_context("jsonrpc_invalid_reply(an invalid request, %s, profile %#x)", jsonrpc_role_name(role),
                        (unsigned)profile);
            JsonRpcReply reply = jsonrpc_invalid_reply(line, len, role, profile);
            check(reply.status == JSONRPC_STATUS_UNKNOWN_PROFILE, "status %u, expected UNKNOWN_PROFILE",
                  (unsigned)reply.status);
            check(reply.text.ptr == NULL && reply.text.len == 0, "text given for an unknown profile");
            jsonrpc_string_free(&reply.text);

            set_context("jsonrpc_session_new(%s, profile %#x)", jsonrpc_role_name(role), (unsigned)profile);
            JsonRpcSession *session = jsonrpc_session_new(role, profile, 0);
            check(session == NULL, "a session for an unknown profile");
            jsonrpc_session_free(session);
        }
        set_context("jsonrpc_reader_new(0, profile %#x)", (unsigned)profile);
        JsonRpcReader *reader = jsonrpc_reader_new(0, profile);
        check(reader == NULL, "a reader for an unknown profile");
        jsonrpc_reader_free(reader);
        reader = jsonrpc_reader_new(100, profile);
        check(reader == NULL, "a reader for an unknown profile");
        jsonrpc_reader_free(reader);
    }
    /* And a role that is none: no session, whatever the profile. */
    const uint32_t not_roles[] = {0, 3, UINT32_MAX};
    for (size_t i = 0; i < COUNT_OF(not_roles); i++) {
        for (size_t p = 0; p < COUNT_OF(PROFILES_TESTED); p++) {
            set_context("jsonrpc_session_new(role %#x, %s)", (unsigned)not_roles[i], PROFILE_NAMES[PROFILES_TESTED[p]]);
            JsonRpcSession *session = jsonrpc_session_new(not_roles[i], PROFILES_TESTED[p], 0);
            check(session == NULL, "a session for an unknown role");
            jsonrpc_session_free(session);
        }
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
    jsonrpc_reader_free(NULL);
    jsonrpc_session_free(NULL);
    check(true, "the free functions accept NULL"); /* reached: none crashed */
}

static void check_versions(void) {
    set_context("versions");
    check(jsonrpc_abi_version() == JSONRPC_ABI_VERSION, "jsonrpc_abi_version() is %u, the header's is %d",
          (unsigned)jsonrpc_abi_version(), JSONRPC_ABI_VERSION);
    check(JSONRPC_ABI_VERSION == 3, "the header is ABI %d, not 3", JSONRPC_ABI_VERSION);
    const char *version = jsonrpc_version();
    check(version != NULL && version[0] != '\0', "jsonrpc_version() is NULL or empty");
}

static void check_name(uint32_t value, const char *got, const char *want) {
    check(want == NULL ? got == NULL : got != NULL && strcmp(got, want) == 0, "%u: expected %s, got %s",
          (unsigned)value, want != NULL ? want : "NULL", got != NULL ? got : "NULL");
}

/* Every value of a table named as the table says (but NULL for the values
 * in `unnamed`), every value after the table's last one and UINT32_MAX
 * unnamed. */
static void check_table_names(const char *function, const char *(*name)(uint32_t), NameTable table,
                              uint32_t unnamed) {
    set_context("%s", function);
    for (uint32_t value = 0; value <= table.count + 1; value++) {
        const char *want = value < table.count && value != unnamed ? table.names[value] : NULL;
        check_name(value, name(value), want);
    }
    check_name(UINT32_MAX, name(UINT32_MAX), NULL);
    check_name(UINT32_MAX - 1, name(UINT32_MAX - 1), NULL);
}

/* The names are the library's: each against the vectors' spelling (the
 * test's own tables), and NULL for a value that names nothing. */
static void check_names(void) {
    check_table_names("jsonrpc_kind_name", jsonrpc_kind_name, KINDS, JSONRPC_KIND_NONE);
    check_table_names("jsonrpc_id_kind_name", jsonrpc_id_kind_name, ID_KINDS, UINT32_MAX);
    static const char *const ROLE_NAMES[] = {NULL, "server", "client"};
    check_table_names("jsonrpc_role_name", jsonrpc_role_name, (NameTable){ROLE_NAMES, COUNT_OF(ROLE_NAMES)},
                      UINT32_MAX);
    check_table_names("jsonrpc_profile_name", jsonrpc_profile_name, PROFILES, UINT32_MAX);
    check_table_names("jsonrpc_action_name", jsonrpc_action_name, ACTIONS, JSONRPC_ACTION_NONE);
    /* The statuses as the header names its constants, in lower case. */
    static const char *const STATUS_NAMES[] = {
        [JSONRPC_STATUS_OK] = "ok",
        [JSONRPC_STATUS_UNKNOWN_ROLE] = "unknown_role",
        [JSONRPC_STATUS_NULL_ARGUMENT] = "null_argument",
        [JSONRPC_STATUS_OUT_OF_MEMORY] = "out_of_memory",
        [JSONRPC_STATUS_INTERNAL_ERROR] = "internal_error",
        [JSONRPC_STATUS_UNKNOWN_PROFILE] = "unknown_profile",
    };
    check_table_names("jsonrpc_status_name", jsonrpc_status_name,
                      (NameTable){STATUS_NAMES, COUNT_OF(STATUS_NAMES)}, UINT32_MAX);

    /* The messages a peer acts on (SPEC §8, §9): request, notification,
     * response; an invalid_response is none. */
    set_context("jsonrpc_kind_is_message");
    for (uint32_t kind = 0; kind <= COUNT_OF(KIND_NAMES) + 1; kind++) {
        bool want = kind == JSONRPC_KIND_REQUEST || kind == JSONRPC_KIND_NOTIFICATION || kind == JSONRPC_KIND_RESPONSE;
        check(jsonrpc_kind_is_message(kind) == want, "%s (%u): expected %s", name_of(KINDS, kind), (unsigned)kind,
              want ? "true" : "false");
    }
    check(!jsonrpc_kind_is_message(UINT32_MAX), "UINT32_MAX is a message");
}

static void check_edges(void) {
    check_classify_null();
    check_invalid_reply_edges();
    check_unknown_profiles();
    check_log_value_edges();
    check_free_null();
    check_versions();
    check_names();
}

/* ------------------------------------------------------------------------
 * The reader's promises in the header, one by one.
 */

/* A batch that is not empty, to see a call overwrite it. */
static JsonRpcBatch stale_batch(void) {
    static const JsonRpcLine line = {0};
    return (JsonRpcBatch){&line, 1, (const uint8_t *)"x", 1, "y", 1};
}

static void check_refused(const char *what, JsonRpcStatus status, const JsonRpcBatch *out) {
    set_context("%s", what);
    check(status == JSONRPC_STATUS_NULL_ARGUMENT, "status %u, expected NULL_ARGUMENT", (unsigned)status);
    if (out != NULL) {
        check(out->count == 0 && out->bytes_len == 0 && out->texts_len == 0, "*out is not an empty batch");
    }
}

/* Feeds `text` and checks the status and the batch's promises; gives the
 * batch (empty when the call failed). */
static JsonRpcBatch feed_text(JsonRpcReader *reader, const char *text, uint64_t *number) {
    JsonRpcBatch batch = stale_batch();
    JsonRpcStatus status = jsonrpc_reader_feed(reader, (const uint8_t *)text, strlen(text), &batch);
    if (!check(status == JSONRPC_STATUS_OK, "feeding \"%s\": status %u", text, (unsigned)status) ||
        !check_batch(&batch, number, false, 0)) {
        return (JsonRpcBatch){0};
    }
    return batch;
}

static JsonRpcBatch end_stream(JsonRpcReader *reader, uint64_t *number) {
    JsonRpcBatch batch = stale_batch();
    JsonRpcStatus status = jsonrpc_reader_end(reader, &batch);
    if (!check(status == JSONRPC_STATUS_OK, "jsonrpc_reader_end: status %u", (unsigned)status) ||
        !check_batch(&batch, number, true, 0)) {
        return (JsonRpcBatch){0};
    }
    return batch;
}

/* Item `index` of `batch` is a complete line with these bytes and kind. */
static void check_line(const JsonRpcBatch *batch, size_t index, uint64_t number, const char *text, uint32_t kind) {
    if (!check(index < batch->count, "no item %zu (%zu items)", index, batch->count)) {
        return;
    }
    const JsonRpcLine *item = &batch->items[index];
    check(item->number == number, "item %zu is line %" PRIu64 ", expected %" PRIu64, index, item->number, number);
    check_enum("kind", KINDS, item->classification.kind, kind);
    JsonRpcStr got = {(const char *)batch->bytes + item->offset, item->len};
    check_bytes("line bytes", got, (Text){TEXT_EXACT, text, strlen(text)});
}

static void check_too_long_line(const JsonRpcBatch *batch, size_t index, uint64_t number, size_t len) {
    if (!check(index < batch->count, "no item %zu (%zu items)", index, batch->count)) {
        return;
    }
    const JsonRpcLine *item = &batch->items[index];
    check(item->number == number, "item %zu is line %" PRIu64 ", expected %" PRIu64, index, item->number, number);
    check_enum("kind", KINDS, item->classification.kind, JSONRPC_KIND_TOO_LONG);
    check_size("len", item->len, len);
    check_too_long_fields(item);
}

/* NULL reader, NULL out, NULL data with a length: refused, with *out (when
 * there is one) an empty batch. (NULL, 0) is no bytes. */
static void check_reader_nulls(void) {
    static const uint8_t data[] = "{}\n";
    JsonRpcReader *reader = jsonrpc_reader_new(0, JSONRPC_PROFILE_JSONRPC);
    set_context("jsonrpc_reader_new(0)");
    if (!check(reader != NULL, "NULL")) {
        return;
    }
    JsonRpcBatch out = stale_batch();
    check_refused("jsonrpc_reader_feed(NULL, data, 3, &out)", jsonrpc_reader_feed(NULL, data, 3, &out), &out);
    out = stale_batch();
    check_refused("jsonrpc_reader_end(NULL, &out)", jsonrpc_reader_end(NULL, &out), &out);
    check_refused("jsonrpc_reader_feed(reader, data, 3, NULL)", jsonrpc_reader_feed(reader, data, 3, NULL), NULL);
    check_refused("jsonrpc_reader_end(reader, NULL)", jsonrpc_reader_end(reader, NULL), NULL);
    out = stale_batch();
    check_refused("jsonrpc_reader_feed(reader, NULL, 3, &out)", jsonrpc_reader_feed(reader, NULL, 3, &out), &out);

    /* After the refusals the reader still works: a fresh stream, in which
     * (NULL, 0) adds nothing to a line being read. */
    set_context("jsonrpc_reader_feed(reader, NULL, 0, &out)");
    uint64_t number = 0;
    end_stream(reader, &number);
    number = 0;
    JsonRpcBatch batch = feed_text(reader, "ab", &number);
    check_size("items after \"ab\"", batch.count, 0);
    batch = stale_batch();
    JsonRpcStatus status = jsonrpc_reader_feed(reader, NULL, 0, &batch);
    check(status == JSONRPC_STATUS_OK, "status %u", (unsigned)status);
    check(check_batch(&batch, &number, false, 0) && batch.count == 0, "(NULL, 0) gave %zu items", batch.count);
    batch = feed_text(reader, "\n", &number);
    check_size("items at the LF", batch.count, 1);
    check_line(&batch, 0, 1, "ab", JSONRPC_KIND_PARSE_ERROR);
    jsonrpc_reader_free(reader);
}

/* Lines are numbered from 1 across batches, too-long lines included; end()
 * gives a last line without LF, or a too-long line still open, and starts
 * a new stream, with nothing of the old one left. */
static void check_reader_numbers_and_end(void) {
    set_context("line numbers, and jsonrpc_reader_end");
    JsonRpcReader *reader = jsonrpc_reader_new(4, JSONRPC_PROFILE_JSONRPC);
    if (!check(reader != NULL, "jsonrpc_reader_new(4) gave NULL")) {
        return;
    }
    uint64_t number = 0;
    JsonRpcBatch batch = feed_text(reader, "a\nb", &number);
    check_size("items", batch.count, 1);
    check_line(&batch, 0, 1, "a", JSONRPC_KIND_PARSE_ERROR);
    batch = feed_text(reader, "cdef\n\n[]", &number);
    check_size("items", batch.count, 2);
    check_too_long_line(&batch, 0, 2, 5);
    check_line(&batch, 1, 3, "", JSONRPC_KIND_EMPTY);
    batch = end_stream(reader, &number);
    check_size("items at the end", batch.count, 1);
    check_line(&batch, 0, 4, "[]", JSONRPC_KIND_BATCH);
    check_size("bytes_len at the end (no LF)", batch.bytes_len, 2);
    batch = end_stream(reader, &number);
    check_size("items at a second end", batch.count, 0);

    number = 0;
    batch = feed_text(reader, "{}\n0123", &number);
    check_line(&batch, 0, 1, "{}", JSONRPC_KIND_NOT_JSONRPC);
    batch = feed_text(reader, "45", &number);
    check_size("items while a line is dropped", batch.count, 0);
    batch = end_stream(reader, &number);
    check_size("items at the end", batch.count, 1);
    check_too_long_line(&batch, 0, 2, 6);

    number = 0;
    batch = feed_text(reader, "9\n", &number);
    check_size("items in the new stream", batch.count, 1);
    check_line(&batch, 0, 1, "9", JSONRPC_KIND_NOT_OBJECT);
    jsonrpc_reader_free(reader);
}

/* The strings of a batch stand back to back in `texts`, item after item, in
 * the order id, method, reason, reply_server, reply_client, substitute (check_batch
 * checks where each one is); the items own nothing. */
static void check_reader_texts(void) {
    set_context("a batch's texts");
    JsonRpcReader *reader = jsonrpc_reader_new(0, JSONRPC_PROFILE_JSONRPC);
    if (!check(reader != NULL, "jsonrpc_reader_new(0) gave NULL")) {
        return;
    }
    uint64_t number = 0;
    JsonRpcBatch batch = feed_text(reader,
                                   "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"m\"}\n"
                                   "[1]\n"
                                   "{\"jsonrpc\":\"2.0\",\"id\":\"\\u0061\",\"method\":\"t\\u00e9\"}\n",
                                   &number);
    check_size("items", batch.count, 3);
    if (batch.count == 3) {
        const JsonRpcClassification *first = &batch.items[0].classification;
        check_enum("kind", KINDS, first->kind, JSONRPC_KIND_INVALID_REQUEST);
        check(first->reason.ptr != NULL && first->reply_server.ptr != NULL && first->reply_client.ptr != NULL,
              "the invalid request lacks a reason or a reply");
        static const char head[] = "{}\0m\0"; /* id, then method, each with its NUL */
        check(batch.texts_len > sizeof head - 1 && memcmp(batch.texts, head, sizeof head - 1) == 0,
              "texts does not start with the first item's id and method");
        const JsonRpcClassification *last = &batch.items[2].classification;
        check_text("id", last->id, (Text){TEXT_EXACT, "\"\\u0061\"", 8});
        check_text("method", last->method, (Text){TEXT_EXACT, "t\xc3\xa9", 3});
        static const char tail[] = "\"\\u0061\"\0t\xc3\xa9"; /* the last strings close texts */
        check(batch.texts_len >= sizeof tail &&
                  memcmp(batch.texts + batch.texts_len - sizeof tail, tail, sizeof tail) == 0,
              "texts does not end with the last item's id and method");
    }
    jsonrpc_reader_free(reader);

    /* In the MCP profile the substitute comes last: an invalid_response's
     * strings are its id, its reason, then its substitute (SPEC §10.3). */
    set_context("a batch's texts, MCP profile");
    reader = jsonrpc_reader_new(0, JSONRPC_PROFILE_MCP);
    if (!check(reader != NULL, "jsonrpc_reader_new(0, MCP) gave NULL")) {
        return;
    }
    number = 0;
    batch = feed_text(reader, "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"result\":[]}\n", &number);
    check_size("items", batch.count, 1);
    if (batch.count == 1) {
        const JsonRpcClassification *c = &batch.items[0].classification;
        check_enum("kind", KINDS, c->kind, JSONRPC_KIND_INVALID_RESPONSE);
        static const char reason[] = "Invalid Response: the result must be an object, not an array";
        static const char substitute[] = "{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"error\":{\"code\":-32603,\"message\":"
                                         "\"Internal error: the peer's response to this request is not valid MCP\"}}";
        check_text("reason", c->reason, (Text){TEXT_EXACT, reason, strlen(reason)});
        check_text("substitute", c->substitute, (Text){TEXT_EXACT, substitute, strlen(substitute)});
        check(c->reply_server.ptr == NULL && c->reply_client.ptr == NULL, "an invalid_response owes a reply");
        ByteBuf want = {0};
        buf_append(&want, "\"r\"", 4);
        buf_append(&want, reason, sizeof reason);
        buf_append(&want, substitute, sizeof substitute);
        check(batch.texts_len == want.len && memcmp(batch.texts, want.data, want.len) == 0,
              "texts is not the id, the reason and the substitute, each with its NUL");
        buf_free(&want);
    }
    jsonrpc_reader_free(reader);
}

static bool same_str(JsonRpcStr a, JsonRpcStr b) {
    return a.ptr == b.ptr && a.len == b.len;
}

static bool same_span(JsonRpcSpan a, JsonRpcSpan b) {
    return a.offset == b.offset && a.len == b.len;
}

/* Field by field (padding bytes are no one's). */
static bool same_line(const JsonRpcLine *a, const JsonRpcLine *b) {
    const JsonRpcClassification *x = &a->classification;
    const JsonRpcClassification *y = &b->classification;
    return a->number == b->number && a->offset == b->offset && a->len == b->len && x->kind == y->kind &&
           x->id_kind == y->id_kind && x->jsonrpc_2_0 == y->jsonrpc_2_0 && x->has_result == y->has_result &&
           x->has_error == y->has_error && x->names_no_request == y->names_no_request && same_str(x->id, y->id) &&
           same_str(x->method, y->method) && same_str(x->reason, y->reason) &&
           same_str(x->reply_server, y->reply_server) && same_str(x->reply_client, y->reply_client) &&
           same_str(x->substitute, y->substitute) && same_span(x->id_span, y->id_span) &&
           same_span(x->method_span, y->method_span) && same_span(x->params_span, y->params_span) &&
           same_span(x->result_span, y->result_span) && same_span(x->error_span, y->error_span) &&
           x->storage == y->storage && a->action == b->action && same_str(a->action_text, b->action_text) &&
           a->note == b->note;
}

/* A batch stays valid, untouched, until its reader's next call, whatever
 * else runs meanwhile; the next call reads on. */
static void check_reader_batch_lifetime(void) {
    set_context("a batch until the next call");
    JsonRpcReader *reader = jsonrpc_reader_new(0, JSONRPC_PROFILE_JSONRPC);
    JsonRpcReader *other = jsonrpc_reader_new(0, JSONRPC_PROFILE_JSONRPC);
    if (!check(reader != NULL && other != NULL, "jsonrpc_reader_new(0) gave NULL")) {
        jsonrpc_reader_free(reader);
        jsonrpc_reader_free(other);
        return;
    }
    uint64_t number = 0;
    JsonRpcBatch batch =
        feed_text(reader, "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\"}\n[1]\n{\"partial\":", &number);
    /* Copies of everything it points to, to compare afterwards. */
    JsonRpcLine *items = xrealloc(NULL, batch.count * sizeof *items);
    for (size_t i = 0; i < batch.count; i++) {
        items[i] = batch.items[i];
    }
    unsigned char *bytes = exact_copy(batch.bytes, batch.bytes_len);
    unsigned char *texts = exact_copy(batch.texts, batch.texts_len);
    ByteBuf noise = {0};
    append_repeated(&noise, ' ', 1000);
    buf_append(&noise, "\n[2]\n", 5);
    for (int i = 0; i < 100; i++) {
        JsonRpcBatch elsewhere;
        check(jsonrpc_reader_feed(other, noise.data, noise.len, &elsewhere) == JSONRPC_STATUS_OK &&
                  elsewhere.count == 2,
              "another reader failed");
        JsonRpcClassification c = jsonrpc_classify(noise.data, noise.len, JSONRPC_PROFILE_JSONRPC);
        jsonrpc_classification_free(&c);
        jsonrpc_reader_free(jsonrpc_reader_new(0, JSONRPC_PROFILE_JSONRPC));
    }
    bool same = memcmp(bytes, batch.bytes, batch.bytes_len) == 0 && memcmp(texts, batch.texts, batch.texts_len) == 0;
    for (size_t i = 0; i < batch.count; i++) {
        same = same && same_line(&items[i], &batch.items[i]);
    }
    check(same, "the batch changed before the reader's next call");
    check_size("items", batch.count, 2);
    check_line(&batch, 0, 1, "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\"}", JSONRPC_KIND_REQUEST);
    check_line(&batch, 1, 2, "[1]", JSONRPC_KIND_BATCH);
    batch = feed_text(reader, "1}\n", &number);
    check_line(&batch, 0, 3, "{\"partial\":1}", JSONRPC_KIND_NOT_JSONRPC);
    free(items);
    free(bytes);
    free(texts);
    buf_free(&noise);
    jsonrpc_reader_free(other);
    jsonrpc_reader_free(reader);
}

/* jsonrpc_reader_new(0) has the default limit, which the header gives as
 * 16 MiB: a line of that length is kept, one a byte longer is not. */
static void check_reader_default_limit(void) {
    set_context("the default line limit");
    const size_t limit = jsonrpc_default_max_line();
    check(limit == (size_t)16 << 20, "jsonrpc_default_max_line() is %zu, not 16 MiB", limit);
    JsonRpcReader *reader = jsonrpc_reader_new(0, JSONRPC_PROFILE_JSONRPC);
    if (!check(reader != NULL, "jsonrpc_reader_new(0) gave NULL")) {
        return;
    }
    enum { PIECE = 1 << 20 };
    unsigned char *piece = xrealloc(NULL, PIECE);
    memset(piece, ' ', PIECE);
    uint64_t number = 0;
    for (size_t extra = 0; extra <= 1; extra++) {
        size_t len = limit + extra;
        JsonRpcBatch batch = {0};
        bool quiet = true;
        for (size_t at = 0; at < len && quiet; at += PIECE) {
            quiet = jsonrpc_reader_feed(reader, piece, min_size(PIECE, len - at), &batch) == JSONRPC_STATUS_OK &&
                    batch.count == 0;
        }
        batch = feed_text(reader, "\n", &number);
        if (check(quiet && batch.count == 1, "a line of %zu bytes: not one item at its LF", len)) {
            uint32_t want = extra == 0 ? JSONRPC_KIND_EMPTY : JSONRPC_KIND_TOO_LONG;
            check_enum("kind", KINDS, batch.items[0].classification.kind, want);
            check_size("len", batch.items[0].len, len);
        }
    }
    free(piece);
    jsonrpc_reader_free(reader);
}

static void check_reader_promises(void) {
    check_reader_nulls();
    check_reader_numbers_and_end();
    check_reader_texts();
    check_reader_batch_lifetime();
    check_reader_default_limit();
}

/* ------------------------------------------------------------------------
 * The session: its promises in the header, and what it decides (SPEC §8,
 * §9, §10.4) on hand-written sequences, whose texts are written here from
 * the SPEC.
 */

/* SPEC §10.3: the substitute for an id (its exact text). */
#define SUBSTITUTE_FOR(ID)                                                                                           \
    "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32603,\"message\":\"Internal error: the peer's response " \
    "to this request is not valid MCP\"}}"
/* SPEC §10.4: the -32600 reply for a request the receiving SDK refused. */
#define REFUSED_REPLY_FOR(ID)                                                                                    \
    "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: the receiving " \
    "MCP SDK cannot read this request\"}}"
#define PARSE_ERROR_TEXT "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"
#define NO_REQUEST_ERROR "\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"

/* A line a session gives back: its bytes (NULL for a too-long line), kind,
 * action and the action's text (NULL for none). */
typedef struct {
    const char *line;
    uint32_t kind;
    uint32_t action;
    const char *text;
} Decided;

enum { MAX_DECIDED = 4, MAX_STEPS = 12 };

typedef enum {
    STEP_NONE,        /* the end of a sequence */
    STEP_SENT,        /* jsonrpc_session_sent(text): OK */
    STEP_FEED,        /* jsonrpc_session_feed(text) gives the lines `want` */
    STEP_END,         /* jsonrpc_session_end gives the lines `want` */
    STEP_REFUSED,     /* jsonrpc_session_refused(text) decides want[0] */
    STEP_OUTSTANDING, /* jsonrpc_session_outstanding is `count` */
} StepType;

typedef struct {
    StepType type;
    const char *text;
    size_t count;
    Decided want[MAX_DECIDED];
} Step;

typedef struct {
    const char *name;
    uint32_t role;
    uint32_t profile;
    size_t max_line;
    Step steps[MAX_STEPS];
} Sequence;

#define SENT(LINE) {STEP_SENT, LINE, 0, {{0}}}
#define OUTSTANDING(N) {STEP_OUTSTANDING, NULL, N, {{0}}}
#define FEED(TEXT, ...) {STEP_FEED, TEXT, 0, {__VA_ARGS__}}
#define END(...) {STEP_END, NULL, 0, {__VA_ARGS__}}
#define FEED_NO_LINE(TEXT) {STEP_FEED, TEXT, 0, {{0}}}
#define END_NO_LINE {STEP_END, NULL, 0, {{0}}}
#define REFUSED(LINE, ACTION, TEXT) {STEP_REFUSED, LINE, 0, {{LINE, 0, ACTION, TEXT}}}

#define REQ_7 "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}"
#define BAD_RESULT_7 "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}"
#define REQ_A "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"initialize\",\"params\":{}}"
#define ERROR_NO_ID "{\"jsonrpc\":\"2.0\"," NO_REQUEST_ERROR
#define ERROR_NULL_ID "{\"jsonrpc\":\"2.0\",\"id\":null," NO_REQUEST_ERROR

static const Sequence SEQUENCES[] = {
    {"a response that is no valid MCP, to the request outstanding: its substitute",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT(REQ_7), OUTSTANDING(1),
      FEED(BAD_RESULT_7 "\n", {BAD_RESULT_7, JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_SUBSTITUTE,
                               SUBSTITUTE_FOR("7")}),
      OUTSTANDING(0),
      /* answered now: nobody waits for a second one */
      FEED(BAD_RESULT_7 "\n", {BAD_RESULT_7, JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_DROP, NULL})}},
    {"a response that is no valid MCP, with no request outstanding: dropped",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED(BAD_RESULT_7 "\n", {BAD_RESULT_7, JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_DROP, NULL}),
      SENT("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}"),
      FEED(BAD_RESULT_7 "\n", {BAD_RESULT_7, JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_DROP, NULL}),
      OUTSTANDING(1)}},
    {"an error without id, one request outstanding: attributed, the id put first",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT(REQ_A), OUTSTANDING(1),
      FEED(ERROR_NO_ID "\n", {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                              "{\"id\":\"a\",\"jsonrpc\":\"2.0\"," NO_REQUEST_ERROR}),
      OUTSTANDING(0), FEED(ERROR_NO_ID "\n", {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_DROP, NULL})}},
    {"an error with id null, one request outstanding: attributed, the id in place of null",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT(REQ_A),
      FEED(ERROR_NULL_ID "\n", {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                                "{\"jsonrpc\":\"2.0\",\"id\":\"a\"," NO_REQUEST_ERROR}),
      OUTSTANDING(0), SENT(REQ_7),
      FEED(ERROR_NULL_ID "\n", {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                                "{\"jsonrpc\":\"2.0\",\"id\":7," NO_REQUEST_ERROR})}},
    {"an error that names no request, two outstanding: dropped; then one: attributed",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT(REQ_A), SENT(REQ_7), OUTSTANDING(2),
      FEED(ERROR_NULL_ID "\n" ERROR_NO_ID "\n",
           {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_DROP, NULL},
           {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_DROP, NULL}),
      OUTSTANDING(2),
      FEED("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n" ERROR_NO_ID "\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_FORWARD, NULL},
           {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
            "{\"id\":\"a\",\"jsonrpc\":\"2.0\"," NO_REQUEST_ERROR}),
      OUTSTANDING(0)}},
    {"an error that names no request, none outstanding: dropped",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED(ERROR_NO_ID "\n", {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_DROP, NULL})}},
    {"the handshake rule in role server too (a server's own requests)",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}"),
      FEED(ERROR_NULL_ID "\n", {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                                "{\"jsonrpc\":\"2.0\",\"id\":\"s1\"," NO_REQUEST_ERROR})}},
    {"an error with id null that is no valid MCP, one outstanding: that request's substitute",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\"x\",\"message\":\"m\"}}\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\"x\",\"message\":\"m\"}}",
            JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_DROP, NULL}),
      SENT(REQ_A),
      FEED("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\"x\",\"message\":\"m\"}}\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\"x\",\"message\":\"m\"}}",
            JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("\"a\"")}),
      OUTSTANDING(0)}},
    {"ids compare as values: \"\\u0061\" sent, \"a\" answered",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT("{\"jsonrpc\":\"2.0\",\"id\":\"\\u0061\",\"method\":\"ping\"}"),
      FEED("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":7}\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":7}", JSONRPC_KIND_INVALID_RESPONSE,
            JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("\"a\"")}),
      OUTSTANDING(0)}},
    {"outstanding until answered, even when cancelled; only requests count",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{}}"),
      SENT("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":5}}"),
      SENT("{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}"), SENT("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}"),
      SENT("not json"), SENT(""), OUTSTANDING(1),
      FEED("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}", JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_FORWARD, NULL}),
      OUTSTANDING(0)}},
    {"the end of the stream: its last line decided, the outstanding requests kept",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"a\"}"), SENT("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"b\"}"),
      FEED_NO_LINE("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":[]}"),
      END({"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":[]}", JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_SUBSTITUTE,
           SUBSTITUTE_FOR("3")}),
      END_NO_LINE, OUTSTANDING(1),
      FEED(ERROR_NO_ID "\n", {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                              "{\"id\":4,\"jsonrpc\":\"2.0\"," NO_REQUEST_ERROR})}},
    {"role server: messages forwarded, the unreadable answered, the rest dropped",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json\n{}\n\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", JSONRPC_KIND_REQUEST, JSONRPC_ACTION_FORWARD, NULL},
           {"not json", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_ANSWER, PARSE_ERROR_TEXT},
           {"{}", JSONRPC_KIND_NOT_JSONRPC, JSONRPC_ACTION_DROP, NULL},
           {"", JSONRPC_KIND_EMPTY, JSONRPC_ACTION_DROP, NULL}),
      FEED("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", JSONRPC_KIND_INVALID_REQUEST,
            JSONRPC_ACTION_ANSWER,
            "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: an MCP id must "
            "be a string or an integer, not a number with a fraction or an exponent\"}}"},
           {"{\"jsonrpc\":\"2.0\",\"method\":\"n\"}", JSONRPC_KIND_NOTIFICATION, JSONRPC_ACTION_FORWARD, NULL})}},
    {"role client: what is no message diverted, a broken request answered",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED("not json\n{}\n\n{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":7}\n",
           {"not json", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_DIVERT, NULL},
           {"{}", JSONRPC_KIND_NOT_JSONRPC, JSONRPC_ACTION_DIVERT, NULL},
           {"", JSONRPC_KIND_EMPTY, JSONRPC_ACTION_DIVERT, NULL},
           {"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":7}", JSONRPC_KIND_INVALID_REQUEST, JSONRPC_ACTION_ANSWER,
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: the method "
            "must be a string, not a number\"}}"})}},
    {"too-long lines are dropped (role server)",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     8,
     {FEED("{\"jsonrpc\":\"2.0\"}\nx\n0123456789",
           {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL},
           {"x", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_ANSWER, PARSE_ERROR_TEXT}),
      END({NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL})}},
    {"too-long lines are dropped (role client)",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_JSONRPC,
     8,
     {FEED("{\"jsonrpc\":\"2.0\"}\nx\n", {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL},
           {"x", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_DIVERT, NULL})}},
    {"refused by the SDK's decoder (role server)",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     0,
     {REFUSED("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{}}", JSONRPC_ACTION_ANSWER,
              REFUSED_REPLY_FOR("1")),
      REFUSED("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"ping\"}", JSONRPC_ACTION_ANSWER,
              REFUSED_REPLY_FOR("\"x\"")),
      REFUSED("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", JSONRPC_ACTION_DROP, NULL),
      REFUSED("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{}}", JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("\"x\"")),
      REFUSED("not json", JSONRPC_ACTION_DROP, NULL), REFUSED("", JSONRPC_ACTION_DROP, NULL)}},
    {"refused by the SDK's decoder (role client): the substitute answers the request",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}"), OUTSTANDING(1),
      REFUSED("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}", JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("4")),
      OUTSTANDING(0),
      REFUSED("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"sampling/createMessage\",\"params\":{}}",
              JSONRPC_ACTION_ANSWER, REFUSED_REPLY_FOR("2"))}},
    {"the JSON-RPC profile: no ids kept, every response forwarded",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_JSONRPC,
     0,
     {SENT(REQ_7), OUTSTANDING(0),
      FEED(BAD_RESULT_7 "\n" ERROR_NULL_ID "\n",
           {BAD_RESULT_7, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_FORWARD, NULL},
           {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_FORWARD, NULL}),
      FEED("not json\n", {"not json", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_DIVERT, NULL})}},
};

/* A session's line, copied out of its batch. */
typedef struct {
    bool too_long;
    ByteBuf line;
    uint32_t kind;
    uint32_t action;
    bool has_text;
    ByteBuf text;
} GotLine;

static void take_lines(const JsonRpcBatch *batch, GotLine *got, size_t *count) {
    for (size_t i = 0; i < batch->count; i++) {
        const JsonRpcLine *item = &batch->items[i];
        if (*count == MAX_DECIDED) {
            check(false, "more than %d lines", MAX_DECIDED);
            return;
        }
        GotLine *line = &got[(*count)++];
        line->too_long = item->classification.kind == JSONRPC_KIND_TOO_LONG;
        if (!line->too_long) {
            buf_append(&line->line, batch->bytes + item->offset, item->len);
        }
        line->kind = item->classification.kind;
        line->action = item->action;
        line->has_text = item->action_text.ptr != NULL;
        if (line->has_text) {
            buf_append(&line->text, item->action_text.ptr, item->action_text.len);
        }
    }
}

static size_t want_count(const Decided want[MAX_DECIDED]) {
    size_t count = 0;
    while (count < MAX_DECIDED && want[count].kind != JSONRPC_KIND_NONE) {
        count++;
    }
    return count;
}

static void check_decided(const GotLine *got, size_t count, const Decided want[MAX_DECIDED]) {
    size_t wanted = want_count(want);
    check_size("lines", count, wanted);
    for (size_t i = 0; i < count && i < wanted; i++) {
        const Decided *w = &want[i];
        const GotLine *g = &got[i];
        check_enum("kind", KINDS, g->kind, w->kind);
        check_enum("action", ACTIONS, g->action, w->action);
        if (w->line != NULL) {
            check_bytes("line", (JsonRpcStr){g->line.data != NULL ? (const char *)g->line.data : "", g->line.len},
                        (Text){TEXT_EXACT, w->line, strlen(w->line)});
        }
        Text text = w->text != NULL ? (Text){TEXT_EXACT, w->text, strlen(w->text)} : (Text){TEXT_ABSENT, NULL, 0};
        check_bytes("action_text", (JsonRpcStr){g->has_text ? (const char *)g->text.data : NULL, g->text.len}, text);
    }
}

/* One step of a sequence, feeding its text `chunk` bytes at a time. */
static void run_step(JsonRpcSession *session, const Sequence *sequence, const Step *step, size_t chunk,
                     uint64_t *number) {
    const uint8_t *text = (const uint8_t *)step->text;
    size_t len = step->text != NULL ? strlen(step->text) : 0;
    switch (step->type) {
    case STEP_NONE:
        return;
    case STEP_SENT: {
        unsigned char *copy = exact_copy(text, len);
        JsonRpcStatus status = jsonrpc_session_sent(session, copy, len);
        free(copy);
        check(status == JSONRPC_STATUS_OK, "jsonrpc_session_sent: status %u", (unsigned)status);
        return;
    }
    case STEP_OUTSTANDING:
        check_size("jsonrpc_session_outstanding", jsonrpc_session_outstanding(session), step->count);
        return;
    case STEP_REFUSED: {
        JsonRpcDecision decision;
        memset(&decision, 0xa5, sizeof decision);
        unsigned char *copy = exact_copy(text, len);
        JsonRpcStatus status = jsonrpc_session_refused(session, copy, len, &decision);
        free(copy);
        check(status == JSONRPC_STATUS_OK, "jsonrpc_session_refused: status %u", (unsigned)status);
        check_enum("action", ACTIONS, decision.action, step->want[0].action);
        const char *want = step->want[0].text;
        check_text("text", str_of_string(decision.text),
                   want != NULL ? (Text){TEXT_EXACT, want, strlen(want)} : (Text){TEXT_ABSENT, NULL, 0});
        check(decision.note != NULL && decision.note[0] != '\0', "no note");
        free_string_twice(&decision.text, "the decision's text");
        return;
    }
    case STEP_FEED:
    case STEP_END: {
        GotLine got[MAX_DECIDED] = {{0}};
        size_t count = 0;
        bool end = step->type == STEP_END;
        for (size_t at = 0; at < len || (end && at == 0); at += chunk) {
            JsonRpcBatch batch = stale_batch();
            size_t piece = min_size(chunk, len - at);
            unsigned char *copy = end ? NULL : exact_copy(text + at, piece);
            JsonRpcStatus status =
                end ? jsonrpc_session_end(session, &batch) : jsonrpc_session_feed(session, copy, piece, &batch);
            free(copy);
            if (!check(status == JSONRPC_STATUS_OK, "status %u", (unsigned)status) ||
                !check_batch(&batch, number, end, sequence->role)) {
                break;
            }
            take_lines(&batch, got, &count);
            if (end) {
                *number = 0; /* a new stream */
                break;
            }
        }
        check_decided(got, count, step->want);
        for (size_t i = 0; i < MAX_DECIDED; i++) {
            buf_free(&got[i].line);
            buf_free(&got[i].text);
        }
        return;
    }
    }
}

static void check_sequences(void) {
    static const size_t CHUNKS[] = {SIZE_MAX, 1, 7};
    for (size_t i = 0; i < COUNT_OF(SEQUENCES); i++) {
        const Sequence *sequence = &SEQUENCES[i];
        for (size_t c = 0; c < COUNT_OF(CHUNKS); c++) {
            set_context("session sequence \"%s\"", sequence->name);
            JsonRpcSession *session = jsonrpc_session_new(sequence->role, sequence->profile, sequence->max_line);
            if (!check(session != NULL, "jsonrpc_session_new gave NULL")) {
                continue;
            }
            uint64_t number = 0;
            for (size_t s = 0; s < MAX_STEPS && sequence->steps[s].type != STEP_NONE; s++) {
                set_context("session sequence \"%s\" (%s, %s, chunks of %zu), step %zu", sequence->name,
                            jsonrpc_role_name(sequence->role), PROFILE_NAMES[sequence->profile], CHUNKS[c], s + 1);
                run_step(session, sequence, &sequence->steps[s], CHUNKS[c], &number);
            }
            jsonrpc_session_free(session);
        }
    }
}

/* NULL arguments: refused as the header says, with *out (when there is
 * one) empty; (NULL, 0) is no bytes, or the empty line. */
static void check_session_nulls(void) {
    static const uint8_t data[] = "{}\n";
    static const uint8_t request[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"}";
    set_context("jsonrpc_session_new(server, MCP, 0)");
    JsonRpcSession *session = jsonrpc_session_new(JSONRPC_ROLE_SERVER, JSONRPC_PROFILE_MCP, 0);
    if (!check(session != NULL, "NULL")) {
        return;
    }
    JsonRpcBatch out = stale_batch();
    check_refused("jsonrpc_session_feed(NULL, data, 3, &out)", jsonrpc_session_feed(NULL, data, 3, &out), &out);
    out = stale_batch();
    check_refused("jsonrpc_session_feed(NULL, NULL, 0, &out)", jsonrpc_session_feed(NULL, NULL, 0, &out), &out);
    out = stale_batch();
    check_refused("jsonrpc_session_end(NULL, &out)", jsonrpc_session_end(NULL, &out), &out);
    check_refused("jsonrpc_session_feed(session, data, 3, NULL)", jsonrpc_session_feed(session, data, 3, NULL),
                  NULL);
    check_refused("jsonrpc_session_end(session, NULL)", jsonrpc_session_end(session, NULL), NULL);
    out = stale_batch();
    check_refused("jsonrpc_session_feed(session, NULL, 3, &out)", jsonrpc_session_feed(session, NULL, 3, &out),
                  &out);
    check_refused("jsonrpc_session_sent(NULL, request, len)",
                  jsonrpc_session_sent(NULL, request, sizeof request - 1), NULL);
    check_refused("jsonrpc_session_sent(session, NULL, 3)", jsonrpc_session_sent(session, NULL, 3), NULL);
    set_context("jsonrpc_session_outstanding");
    check_size("outstanding after the refusals", jsonrpc_session_outstanding(session), 0);
    check_size("jsonrpc_session_outstanding(NULL)", jsonrpc_session_outstanding(NULL), 0);

    const struct {
        const char *what;
        JsonRpcSession *session;
        const uint8_t *line;
        size_t len;
    } refusals[] = {
        {"jsonrpc_session_refused(NULL, request, len, &out)", NULL, request, sizeof request - 1},
        {"jsonrpc_session_refused(session, NULL, 3, &out)", session, NULL, 3},
    };
    for (size_t i = 0; i < COUNT_OF(refusals); i++) {
        set_context("%s", refusals[i].what);
        JsonRpcDecision decision;
        memset(&decision, 0xa5, sizeof decision);
        JsonRpcStatus status = jsonrpc_session_refused(refusals[i].session, refusals[i].line, refusals[i].len,
                                                       &decision);
        check(status == JSONRPC_STATUS_NULL_ARGUMENT, "status %u, expected NULL_ARGUMENT", (unsigned)status);
        check(decision.action == JSONRPC_ACTION_NONE && decision.text.ptr == NULL && decision.text.len == 0,
              "*out is not JSONRPC_ACTION_NONE with no text");
        jsonrpc_string_free(&decision.text);
    }
    set_context("jsonrpc_session_refused(session, request, len, NULL)");
    check(jsonrpc_session_refused(session, request, sizeof request - 1, NULL) == JSONRPC_STATUS_NULL_ARGUMENT,
          "a NULL out is not NULL_ARGUMENT");

    /* (NULL, 0): no bytes for feed, the empty line for sent and refused. */
    set_context("jsonrpc_session_feed(session, NULL, 0, &out)");
    uint64_t number = 0;
    JsonRpcBatch batch = stale_batch();
    JsonRpcStatus status = jsonrpc_session_feed(session, (const uint8_t *)"ab", 2, &batch);
    check(status == JSONRPC_STATUS_OK && batch.count == 0, "status %u, %zu items", (unsigned)status, batch.count);
    batch = stale_batch();
    status = jsonrpc_session_feed(session, NULL, 0, &batch);
    check(status == JSONRPC_STATUS_OK, "status %u", (unsigned)status);
    check(check_batch(&batch, &number, false, JSONRPC_ROLE_SERVER) && batch.count == 0, "(NULL, 0) gave %zu items",
          batch.count);
    batch = stale_batch();
    status = jsonrpc_session_feed(session, (const uint8_t *)"\n", 1, &batch);
    if (check(status == JSONRPC_STATUS_OK && check_batch(&batch, &number, false, JSONRPC_ROLE_SERVER) &&
                  batch.count == 1,
              "no line at the LF")) {
        check_line(&batch, 0, 1, "ab", JSONRPC_KIND_PARSE_ERROR);
        check_enum("action", ACTIONS, batch.items[0].action, JSONRPC_ACTION_ANSWER);
        check_text("action_text", batch.items[0].action_text,
                   (Text){TEXT_EXACT, PARSE_ERROR_REPLY, strlen(PARSE_ERROR_REPLY)});
    }
    set_context("jsonrpc_session_sent(session, NULL, 0)");
    check(jsonrpc_session_sent(session, NULL, 0) == JSONRPC_STATUS_OK, "not OK");
    check_size("outstanding", jsonrpc_session_outstanding(session), 0);
    set_context("jsonrpc_session_refused(session, NULL, 0, &out)");
    JsonRpcDecision decision;
    status = jsonrpc_session_refused(session, NULL, 0, &decision);
    check(status == JSONRPC_STATUS_OK, "status %u", (unsigned)status);
    check_enum("action", ACTIONS, decision.action, JSONRPC_ACTION_DROP);
    check(decision.text.ptr == NULL && decision.note != NULL, "a text, or no note");
    jsonrpc_string_free(&decision.text);
    jsonrpc_session_free(session);
}

/* A session's batch, the session's own texts included, stays valid and
 * untouched until the session's next call, whatever else runs. */
static void check_session_batch_lifetime(void) {
    set_context("a session's batch until its next call");
    JsonRpcSession *session = jsonrpc_session_new(JSONRPC_ROLE_CLIENT, JSONRPC_PROFILE_MCP, 0);
    JsonRpcSession *other = jsonrpc_session_new(JSONRPC_ROLE_CLIENT, JSONRPC_PROFILE_MCP, 0);
    if (!check(session != NULL && other != NULL, "jsonrpc_session_new gave NULL")) {
        jsonrpc_session_free(session);
        jsonrpc_session_free(other);
        return;
    }
    static const char attributed[] = "{\"id\":\"a\",\"jsonrpc\":\"2.0\"," NO_REQUEST_ERROR;
    check(jsonrpc_session_sent(session, (const uint8_t *)REQ_A, strlen(REQ_A)) == JSONRPC_STATUS_OK, "sent failed");
    uint64_t number = 0;
    JsonRpcBatch batch = stale_batch();
    static const char input[] = ERROR_NO_ID "\n" BAD_RESULT_7 "\n";
    JsonRpcStatus status = jsonrpc_session_feed(session, (const uint8_t *)input, strlen(input), &batch);
    if (!check(status == JSONRPC_STATUS_OK && check_batch(&batch, &number, false, JSONRPC_ROLE_CLIENT) &&
                   batch.count == 2,
               "not two lines")) {
        jsonrpc_session_free(session);
        jsonrpc_session_free(other);
        return;
    }
    JsonRpcLine items[2] = {batch.items[0], batch.items[1]};
    unsigned char *text = exact_copy(items[0].action_text.ptr, items[0].action_text.len);
    for (int i = 0; i < 100; i++) {
        JsonRpcBatch elsewhere;
        check(jsonrpc_session_sent(other, (const uint8_t *)REQ_A, strlen(REQ_A)) == JSONRPC_STATUS_OK &&
                  jsonrpc_session_feed(other, (const uint8_t *)input, strlen(input), &elsewhere) ==
                      JSONRPC_STATUS_OK &&
                  elsewhere.count == 2,
              "another session failed");
        jsonrpc_session_free(jsonrpc_session_new(JSONRPC_ROLE_SERVER, JSONRPC_PROFILE_MCP, 0));
    }
    check(same_line(&items[0], &batch.items[0]) && same_line(&items[1], &batch.items[1]) &&
              memcmp(text, batch.items[0].action_text.ptr, batch.items[0].action_text.len) == 0,
          "the batch changed before the session's next call");
    check_text("the attributed line", batch.items[0].action_text,
               (Text){TEXT_EXACT, attributed, strlen(attributed)});
    free(text);
    jsonrpc_session_free(other);
    jsonrpc_session_free(session);
}

static void check_session_promises(void) {
    check_session_nulls();
    check_sequences();
    check_session_batch_lifetime();
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
    check_reader_promises();
    check_session_promises();
    check_many_lines(&vectors);
    check_too_long();
    check_long_line_in_pieces();
    free_vectors(&vectors);
    printf("%lu passed, %lu failed\n", tally.passed, tally.failed);
    return tally.failed == 0 ? 0 : 1;
}
