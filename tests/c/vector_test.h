/*
 * vector_test.h: what the parts of the C vector test (test_vectors.c and
 * the files it names) share: the library's header, the checks and their
 * tally, the expected values as the flat file gives them, and each part's
 * entry points. test_vectors.c says what the program does and how to run it.
 */

#ifndef VECTOR_TEST_H
#define VECTOR_TEST_H

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

static const char PARSE_ERROR_REPLY[] =
    "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";

/* The profile values (the header's), in the order the tests take them. */
static const uint32_t PROFILES_TESTED[] = {JSONRPC_PROFILE_JSONRPC, JSONRPC_PROFILE_MCP};

/* Values that are no profile (0 is deliberately none). */
static const uint32_t NOT_PROFILES[] = {0, 3, UINT32_MAX};

/* The largest chunk of the stream passes; every size from 1 is tried. */
enum { MAX_CHUNK = 70 };

/* The step between the chunk sizes the stream passes try: 1 (every size),
 * unless the environment's JSONRPC_TEST_CHUNK_STEP says more. `make test-c`
 * runs every size under ASan and every seventh under valgrind, where each
 * pass costs some twenty-five times as much and what valgrind alone sees
 * (reads of memory never written) does not depend on where a line is cut. */
size_t chunk_step(void);

/* ------------------------------------------------------------------------
 * Memory the test itself needs: failing to get it ends the run.
 */

/* A growable byte buffer. */
typedef struct {
    unsigned char *data;
    size_t len;
    size_t cap;
} ByteBuf;

/* ------------------------------------------------------------------------
 * Checks: each one counts; a failure is printed after the current context.
 */

typedef struct {
    unsigned long passed;
    unsigned long failed;
    char context[512];
} Tally;

/* Every check's count, and the context a failure is printed after
 * (support.c). */
extern Tally tally;

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

enum { FLAG_JSONRPC_2_0, FLAG_HAS_RESULT, FLAG_HAS_ERROR, FLAG_NAMES_NO_REQUEST, FLAG_COUNT };
static const char *const FLAG_NAMES[FLAG_COUNT] = {"jsonrpc_2_0", "has_result", "has_error", "names_no_request"};

enum { SPAN_ID, SPAN_METHOD, SPAN_PARAMS, SPAN_RESULT, SPAN_ERROR, SPAN_COUNT };
static const char *const SPAN_NAMES[SPAN_COUNT] = {"id_span", "method_span", "params_span", "result_span",
                                                   "error_span"};

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

/* The strings of a classification, in the header's order (check_lines.c). */
enum { STRING_COUNT = 6 };

/* ---- support.c: memory, checks, expected values */
void *xrealloc(void *ptr, size_t size);
unsigned char *exact_copy(const void *bytes, size_t len);
void buf_reserve(ByteBuf *buf, size_t len);
void buf_append(ByteBuf *buf, const void *bytes, size_t len);
void append_repeated(ByteBuf *buf, char byte, size_t count);
void buf_free(ByteBuf *buf);
PRINTF_LIKE(1, 2)
void set_context(const char *fmt, ...);
PRINTF_LIKE(2, 3)
bool check(bool ok, const char *fmt, ...);
void print_bytes(const char *bytes, size_t len);
void print_text(const char *label, Text text);
Text text_of_str(JsonRpcStr str);
JsonRpcStr str_of_string(JsonRpcString string);
bool text_matches(JsonRpcStr got, Text want);
void check_bytes(const char *what, JsonRpcStr got, Text want);
void check_text(const char *what, JsonRpcStr got, Text want);
const char *name_of(NameTable table, uint32_t value);
void check_enum(const char *what, NameTable table, uint32_t got, uint32_t want);
void check_size(const char *what, size_t got, size_t want);
void flags_of(const JsonRpcClassification *c, bool flags[FLAG_COUNT]);
void spans_of(const JsonRpcClassification *c, JsonRpcSpan spans[SPAN_COUNT]);
const char *source_of(const EnvelopeVector *vector);

/* ---- vector_file.c: the flat file of the vectors */
void free_vectors(Vectors *vectors);
bool load_vectors(const char *path, Vectors *vectors);

/* ---- check_lines.c: the vectors one line at a time */
void free_classification_twice(JsonRpcClassification *c);
void free_string_twice(JsonRpcString *string, const char *what);
void check_classification(const JsonRpcClassification *c, const EnvelopeVector *vector);
void check_invalid_reply(const unsigned char *line, size_t len, uint32_t role, uint32_t profile,
                                const char *what, Text want);
void strings_of(const JsonRpcClassification *c, const JsonRpcStr *out[STRING_COUNT]);
void check_envelope_vector(const EnvelopeVector *vector);
void check_prefixes(const EnvelopeVector *vector);
void check_log_vector(const LogVector *vector);

/* ---- check_streams.c: the vectors as streams */
size_t min_size(size_t a, size_t b);
void check_too_long_fields(const JsonRpcLine *item);
bool check_batch(const JsonRpcBatch *batch, uint64_t *number, bool at_end, uint32_t role);
void check_many_lines(const Vectors *vectors);
void check_too_long(void);
void check_long_line_in_pieces(void);

/* ---- check_edges.c: the edges of the ABI */
void check_edges(void);

/* ---- check_reader.c: the reader's promises */
JsonRpcBatch stale_batch(void);
void check_refused(const char *what, JsonRpcStatus status, const JsonRpcBatch *out);
void check_line(const JsonRpcBatch *batch, size_t index, uint64_t number, const char *text, uint32_t kind);
bool same_line(const JsonRpcLine *a, const JsonRpcLine *b);
void check_reader_promises(void);

/* ---- check_session.c: the session's promises */
void check_session_promises(void);
void check_relay_promises(void);

#endif /* VECTOR_TEST_H */
