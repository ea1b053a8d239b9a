/*
 * vector_file.c: reading the flat file of the vectors (part of the C vector test; see test_vectors.c).
 */

#include "vector_test.h"

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

void free_vectors(Vectors *vectors) {
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

bool load_vectors(const char *path, Vectors *vectors) {
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
