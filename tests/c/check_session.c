/*
 * check_session.c: the session's promises in the header and its decisions (part of the C vector test; see test_vectors.c).
 */

#include "vector_test.h"

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
 * action and the action's text (NULL for none); and, where given, its id's
 * text and its method (NULL: not checked; ABSENT: absent). */
typedef struct {
    const char *line;
    uint32_t kind;
    uint32_t action;
    const char *text;
    const char *id;
    const char *method;
} Decided;

/* No JSON value is empty: "" stands for an absent id or method. */
#define ABSENT ""

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
    const char *note; /* STEP_REFUSED: the decision's note (NULL: any note) */
    Decided want[MAX_DECIDED];
} Step;

typedef struct {
    const char *name;
    uint32_t role;
    uint32_t profile;
    size_t max_line;
    Step steps[MAX_STEPS];
} Sequence;

#define SENT(LINE) {STEP_SENT, LINE, 0, NULL, {{0}}}
#define OUTSTANDING(N) {STEP_OUTSTANDING, NULL, N, NULL, {{0}}}
#define FEED(TEXT, ...) {STEP_FEED, TEXT, 0, NULL, {__VA_ARGS__}}
#define END(...) {STEP_END, NULL, 0, NULL, {__VA_ARGS__}}
#define FEED_NO_LINE(TEXT) {STEP_FEED, TEXT, 0, NULL, {{0}}}
#define END_NO_LINE {STEP_END, NULL, 0, NULL, {{0}}}
#define REFUSED(LINE, ACTION, TEXT) {STEP_REFUSED, LINE, 0, NULL, {{LINE, 0, ACTION, TEXT, NULL, NULL}}}
#define REFUSED_NOTE(LINE, ACTION, TEXT, NOTE) {STEP_REFUSED, LINE, 0, NOTE, {{LINE, 0, ACTION, TEXT, NULL, NULL}}}
/* The notes of a refusal (SPEC 10.4), and of a second one: the SDK refused
 * the substitute it was handed instead. */
#define REFUSED_NOTE_TEXT "the receiving SDK's decoder refused it"
#define REFUSED_SUBSTITUTE_NOTE "the receiving SDK's decoder refused the substitute too"

#define REQ_7 "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}"
#define BAD_RESULT_7 "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}"
#define REQ_A "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"initialize\",\"params\":{}}"
#define ERROR_NO_ID "{\"jsonrpc\":\"2.0\"," NO_REQUEST_ERROR
#define ERROR_NULL_ID "{\"jsonrpc\":\"2.0\",\"id\":null," NO_REQUEST_ERROR

/* SPEC 10.6: the replies it adds. */
#define TOO_LONG_REPLY_FOR(ID)                                                                                  \
    "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: the line is " \
    "longer than this peer reads\"}}"
#define BATCH_REPLY_FOR(ID)                                                                                    \
    "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: MCP has no " \
    "batches; send each request on its own line\"}}"
#define DAMAGED_REPLY_FOR(ID) "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"

/* Lines over a limit of 64 whose first 64 bytes hold a request's id and
 * method, or a response's id (SPEC 10.6 (d)). */
#define LONG_LIMIT 64
#define X50 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
#define LONG_REQUEST                                                                                            \
    "{\"jsonrpc\":\"2.0\",\"id\":\"big-1\",\"method\":\"tools/call\",\"params\":{\"arguments\":{\"text\":\"" X50 X50 \
    "\"}}}"
#define LONG_RESPONSE_42                                                                                             \
    "{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" X50 X50 "\"}]}}"
#define REQ_42 "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\",\"params\":{}}"
#define BOM "\xEF\xBB\xBF"
#define BATCH_OF_TWO                                                                                                \
    "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"notifications/"              \
    "initialized\"},{\"jsonrpc\":\"2.0\",\"id\":\"2\",\"method\":\"tools/list\"}]"
/* Damaged lines (SPEC 10.6 (c)): invalid UTF-8 after the id and method. */
#define DAMAGED_REQUEST_3 "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"text\":\"a\xFF" "b\"}}"
#define DAMAGED_RESPONSE_7 "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"\xFF\"}}"

static const Sequence SEQUENCES[] = {
    {"a response that is no valid MCP, to the request outstanding: its substitute",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT(REQ_7), OUTSTANDING(1),
      FEED(BAD_RESULT_7 "\n", {BAD_RESULT_7, JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_SUBSTITUTE,
                               SUBSTITUTE_FOR("7"), NULL, NULL}),
      OUTSTANDING(0),
      /* the SDK refused that substitute: the session drops it */
      REFUSED_NOTE(SUBSTITUTE_FOR("7"), JSONRPC_ACTION_DROP, NULL, REFUSED_SUBSTITUTE_NOTE),
      /* answered now: nobody waits for a second one */
      FEED(BAD_RESULT_7 "\n", {BAD_RESULT_7, JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_DROP, NULL, NULL, NULL})}},
    {"a response that is no valid MCP, with no request outstanding: dropped",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED(BAD_RESULT_7 "\n", {BAD_RESULT_7, JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_DROP, NULL, NULL, NULL}),
      SENT("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}"),
      FEED(BAD_RESULT_7 "\n", {BAD_RESULT_7, JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_DROP, NULL, NULL, NULL}),
      OUTSTANDING(1)}},
    {"an error without id, one request outstanding: attributed, the id put first",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT(REQ_A), OUTSTANDING(1),
      FEED(ERROR_NO_ID "\n", {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                              "{\"id\":\"a\",\"jsonrpc\":\"2.0\"," NO_REQUEST_ERROR, NULL, NULL}),
      OUTSTANDING(0), FEED(ERROR_NO_ID "\n", {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_DROP, NULL, NULL, NULL})}},
    {"an error with id null, one request outstanding: attributed, the id in place of null",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT(REQ_A),
      FEED(ERROR_NULL_ID "\n", {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                                "{\"jsonrpc\":\"2.0\",\"id\":\"a\"," NO_REQUEST_ERROR, NULL, NULL}),
      OUTSTANDING(0), SENT(REQ_7),
      FEED(ERROR_NULL_ID "\n", {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                                "{\"jsonrpc\":\"2.0\",\"id\":7," NO_REQUEST_ERROR, NULL, NULL})}},
    {"an error that names no request, two outstanding: dropped; then one: attributed",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT(REQ_A), SENT(REQ_7), OUTSTANDING(2),
      FEED(ERROR_NULL_ID "\n" ERROR_NO_ID "\n",
           {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_DROP, NULL, NULL, NULL},
           {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_DROP, NULL, NULL, NULL}),
      OUTSTANDING(2),
      FEED("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n" ERROR_NO_ID "\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_FORWARD, NULL, NULL, NULL},
           {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
            "{\"id\":\"a\",\"jsonrpc\":\"2.0\"," NO_REQUEST_ERROR, NULL, NULL}),
      OUTSTANDING(0)}},
    {"an error that names no request, none outstanding: dropped",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED(ERROR_NO_ID "\n", {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_DROP, NULL, NULL, NULL})}},
    {"the handshake rule in role server too (a server's own requests)",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}"),
      FEED(ERROR_NULL_ID "\n", {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                                "{\"jsonrpc\":\"2.0\",\"id\":\"s1\"," NO_REQUEST_ERROR, NULL, NULL})}},
    {"an error with id null that is no valid MCP, one outstanding: that request's substitute",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\"x\",\"message\":\"m\"}}\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\"x\",\"message\":\"m\"}}",
            JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_DROP, NULL, NULL, NULL}),
      SENT(REQ_A),
      FEED("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\"x\",\"message\":\"m\"}}\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":\"x\",\"message\":\"m\"}}",
            JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("\"a\""), NULL, NULL}),
      OUTSTANDING(0)}},
    {"ids compare as values: \"\\u0061\" sent, \"a\" answered",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT("{\"jsonrpc\":\"2.0\",\"id\":\"\\u0061\",\"method\":\"ping\"}"),
      FEED("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":7}\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":7}", JSONRPC_KIND_INVALID_RESPONSE,
            JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("\"a\""), NULL, NULL}),
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
           {"{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}", JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_FORWARD, NULL, NULL, NULL}),
      OUTSTANDING(0)}},
    {"the end of the stream: its last line decided, the outstanding requests kept",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"a\"}"), SENT("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"b\"}"),
      FEED_NO_LINE("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":[]}"),
      END({"{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":[]}", JSONRPC_KIND_INVALID_RESPONSE, JSONRPC_ACTION_SUBSTITUTE,
           SUBSTITUTE_FOR("3"), NULL, NULL}),
      END_NO_LINE, OUTSTANDING(1),
      FEED(ERROR_NO_ID "\n", {ERROR_NO_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_ATTRIBUTE,
                              "{\"id\":4,\"jsonrpc\":\"2.0\"," NO_REQUEST_ERROR, NULL, NULL})}},
    {"role server: messages forwarded, the unreadable answered, the rest dropped",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json\n{}\n\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", JSONRPC_KIND_REQUEST, JSONRPC_ACTION_FORWARD, NULL, NULL, NULL},
           {"not json", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_ANSWER, PARSE_ERROR_TEXT, NULL, NULL},
           {"{}", JSONRPC_KIND_NOT_JSONRPC, JSONRPC_ACTION_DROP, NULL, NULL, NULL},
           {"", JSONRPC_KIND_EMPTY, JSONRPC_ACTION_DROP, NULL, NULL, NULL}),
      FEED("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n",
           {"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}", JSONRPC_KIND_INVALID_REQUEST,
            JSONRPC_ACTION_ANSWER,
            "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: an MCP id must "
            "be a string or an integer, not a number with a fraction or an exponent\"}}", NULL, NULL},
           {"{\"jsonrpc\":\"2.0\",\"method\":\"n\"}", JSONRPC_KIND_NOTIFICATION, JSONRPC_ACTION_FORWARD, NULL, NULL, NULL})}},
    {"role client: what is no message diverted, a broken request answered",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED("not json\n{}\n\n{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":7}\n",
           {"not json", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_DIVERT, NULL, NULL, NULL},
           {"{}", JSONRPC_KIND_NOT_JSONRPC, JSONRPC_ACTION_DIVERT, NULL, NULL, NULL},
           {"", JSONRPC_KIND_EMPTY, JSONRPC_ACTION_DIVERT, NULL, NULL, NULL},
           {"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":7}", JSONRPC_KIND_INVALID_REQUEST, JSONRPC_ACTION_ANSWER,
            "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: the method "
            "must be a string, not a number\"}}", NULL, NULL})}},
    {"too-long lines are dropped (role server)",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     8,
     {FEED("{\"jsonrpc\":\"2.0\"}\nx\n0123456789",
           {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL, NULL, NULL},
           {"x", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_ANSWER, PARSE_ERROR_TEXT, NULL, NULL}),
      END({NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL, NULL, NULL})}},
    {"too-long lines are dropped (role client)",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_JSONRPC,
     8,
     {FEED("{\"jsonrpc\":\"2.0\"}\nx\n", {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL, NULL, NULL},
           {"x", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_DIVERT, NULL, NULL, NULL})}},
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
      REFUSED_NOTE("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":{}}", JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("4"),
                   REFUSED_NOTE_TEXT),
      OUTSTANDING(0),
      /* the SDK refused the substitute too: the second refusal drops it */
      REFUSED_NOTE(SUBSTITUTE_FOR("4"), JSONRPC_ACTION_DROP, NULL, REFUSED_SUBSTITUTE_NOTE),
      REFUSED("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"sampling/createMessage\",\"params\":{}}",
              JSONRPC_ACTION_ANSWER, REFUSED_REPLY_FOR("2"))}},
    {"the JSON-RPC profile: no ids kept, every response forwarded",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_JSONRPC,
     0,
     {SENT(REQ_7), OUTSTANDING(0),
      FEED(BAD_RESULT_7 "\n" ERROR_NULL_ID "\n",
           {BAD_RESULT_7, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_FORWARD, NULL, NULL, NULL},
           {ERROR_NULL_ID, JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_FORWARD, NULL, NULL, NULL}),
      FEED("not json\n", {"not json", JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_DIVERT, NULL, NULL, NULL})}},
    /* SPEC 10.6 (d): a line too long to read, whose first bytes hold a
     * request's id and method, or a response's id. */
    {"a too-long request is answered by its id (role server), at its LF and at the end",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     LONG_LIMIT,
     {FEED(LONG_REQUEST "\n" REQ_7 "\n",
           {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_ANSWER, TOO_LONG_REPLY_FOR("\"big-1\""), "\"big-1\"",
            "tools/call"},
           {REQ_7, JSONRPC_KIND_REQUEST, JSONRPC_ACTION_FORWARD, NULL, "7", "tools/list"}),
      FEED_NO_LINE(LONG_REQUEST),
      END({NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_ANSWER, TOO_LONG_REPLY_FOR("\"big-1\""), "\"big-1\"",
           "tools/call"}),
      OUTSTANDING(0)}},
    {"a too-long request in role client: dropped",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     LONG_LIMIT,
     {FEED(LONG_REQUEST "\n",
           {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL, "\"big-1\"", "tools/call"})}},
    {"a too-long response: substituted while its id is outstanding, else dropped",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     LONG_LIMIT,
     {FEED(LONG_RESPONSE_42 "\n", {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL, "42", ABSENT}),
      SENT(REQ_42), OUTSTANDING(1),
      FEED(LONG_RESPONSE_42 "\n",
           {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("42"), "42", ABSENT}),
      OUTSTANDING(0),
      FEED(LONG_RESPONSE_42 "\n", {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL, "42", ABSENT}),
      SENT(REQ_42), FEED_NO_LINE(LONG_RESPONSE_42),
      END({NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("42"), "42", ABSENT}),
      OUTSTANDING(0)}},
    {"a too-long response to a server's own request: substituted (role server)",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     LONG_LIMIT,
     {SENT("{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"sampling/createMessage\",\"params\":{}}"),
      FEED(LONG_RESPONSE_42 "\n",
           {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_SUBSTITUTE, SUBSTITUTE_FOR("42"), "42", ABSENT}),
      OUTSTANDING(0)}},
    {"the JSON-RPC profile reads no first bytes: too-long lines dropped, carrying nothing",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_JSONRPC,
     LONG_LIMIT,
     {FEED(LONG_REQUEST "\n" LONG_RESPONSE_42 "\n",
           {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL, ABSENT, ABSENT},
           {NULL, JSONRPC_KIND_TOO_LONG, JSONRPC_ACTION_DROP, NULL, ABSENT, ABSENT})}},
    /* SPEC 10.6 (a): a byte order mark. */
    {"a byte order mark: the message forwarded in its normal form, without the mark (role server)",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED(BOM REQ_A "\n" BOM REQ_7 " \r\n",
           {BOM REQ_A, JSONRPC_KIND_REQUEST, JSONRPC_ACTION_FORWARD, REQ_A, "\"a\"", "initialize"},
           {BOM REQ_7 " \r", JSONRPC_KIND_REQUEST, JSONRPC_ACTION_FORWARD, REQ_7, "7", "tools/list"}),
      FEED(BOM "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n",
           {BOM "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", JSONRPC_KIND_NOTIFICATION,
            JSONRPC_ACTION_FORWARD, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", ABSENT,
            "notifications/initialized"})}},
    {"a byte order mark before a response to the request outstanding (role client)",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {SENT(REQ_7), OUTSTANDING(1),
      FEED(BOM "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n",
           {BOM "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", JSONRPC_KIND_RESPONSE, JSONRPC_ACTION_FORWARD,
            "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", "7", ABSENT}),
      OUTSTANDING(0)}},
    {"a byte order mark in the JSON-RPC profile: a parse error, as before",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_JSONRPC,
     0,
     {FEED(BOM REQ_7 "\n", {BOM REQ_7, JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_ANSWER, PARSE_ERROR_TEXT, ABSENT,
                            ABSENT})}},
    /* SPEC 10.6 (b): a batch. */
    {"a batch: each request answered, one reply a line, in the batch's order (role server)",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED(BATCH_OF_TWO "\n[{\"jsonrpc\":\"2.0\",\"method\":\"n\"}]\n",
           {BATCH_OF_TWO, JSONRPC_KIND_BATCH, JSONRPC_ACTION_ANSWER,
            BATCH_REPLY_FOR("1") "\n" BATCH_REPLY_FOR("\"2\""), NULL, NULL},
           {"[{\"jsonrpc\":\"2.0\",\"method\":\"n\"}]", JSONRPC_KIND_BATCH, JSONRPC_ACTION_ANSWER,
            "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: this server "
            "doesn't accept batches\"}}", NULL, NULL})}},
    {"a batch in role client: diverted, no reply",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED(BATCH_OF_TWO "\n", {BATCH_OF_TWO, JSONRPC_KIND_BATCH, JSONRPC_ACTION_DIVERT, NULL, NULL, NULL})}},
    /* SPEC 10.6 (c): a damaged line. */
    {"a damaged request answered by its id; a damaged response dropped, or substituted (role server)",
     JSONRPC_ROLE_SERVER,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED(DAMAGED_REQUEST_3 "\n", {DAMAGED_REQUEST_3, JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_ANSWER,
                                    DAMAGED_REPLY_FOR("3"), "3", "tools/call"}),
      FEED(DAMAGED_RESPONSE_7 "\n", {DAMAGED_RESPONSE_7, JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_DROP, NULL, "7",
                                     ABSENT}),
      SENT("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"roots/list\"}"),
      FEED(DAMAGED_RESPONSE_7 "\n", {DAMAGED_RESPONSE_7, JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_SUBSTITUTE,
                                     SUBSTITUTE_FOR("7"), "7", ABSENT})}},
    {"a damaged response: substituted while its id is outstanding, else diverted (role client)",
     JSONRPC_ROLE_CLIENT,
     JSONRPC_PROFILE_MCP,
     0,
     {FEED(DAMAGED_REQUEST_3 "\n", {DAMAGED_REQUEST_3, JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_DIVERT, NULL, "3",
                                    "tools/call"}),
      FEED(DAMAGED_RESPONSE_7 "\n",
           {DAMAGED_RESPONSE_7, JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_DIVERT, NULL, "7", ABSENT}),
      SENT(REQ_7), OUTSTANDING(1),
      FEED(DAMAGED_RESPONSE_7 "\n", {DAMAGED_RESPONSE_7, JSONRPC_KIND_PARSE_ERROR, JSONRPC_ACTION_SUBSTITUTE,
                                     SUBSTITUTE_FOR("7"), "7", ABSENT}),
      OUTSTANDING(0)}},
};

/* A session's line, copied out of its batch. */
typedef struct {
    bool too_long;
    ByteBuf line;
    uint32_t kind;
    uint32_t action;
    bool has_text;
    ByteBuf text;
    bool has_id, has_method;
    ByteBuf id, method;
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
        const JsonRpcClassification *c = &item->classification;
        line->has_id = c->id.ptr != NULL;
        if (line->has_id) {
            buf_append(&line->id, c->id.ptr, c->id.len);
        }
        line->has_method = c->method.ptr != NULL;
        if (line->has_method) {
            buf_append(&line->method, c->method.ptr, c->method.len);
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
        const struct {
            const char *what;
            const char *want;
            bool has;
            const ByteBuf *got;
        } strings[] = {{"id", w->id, g->has_id, &g->id}, {"method", w->method, g->has_method, &g->method}};
        for (size_t s = 0; s < COUNT_OF(strings); s++) {
            const char *want = strings[s].want;
            if (want == NULL) {
                continue; /* not checked */
            }
            Text expected = want[0] != '\0' ? (Text){TEXT_EXACT, want, strlen(want)} : (Text){TEXT_ABSENT, NULL, 0};
            const char *ptr = strings[s].has ? (strings[s].got->data != NULL ? (const char *)strings[s].got->data : "")
                                             : NULL;
            check_bytes(strings[s].what, (JsonRpcStr){ptr, strings[s].got->len}, expected);
        }
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
        if (step->note != NULL && decision.note != NULL) {
            check(strcmp(decision.note, step->note) == 0, "note \"%s\", want \"%s\"", decision.note, step->note);
        }
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
            buf_free(&got[i].id);
            buf_free(&got[i].method);
        }
        return;
    }
    }
}

/* Every sequence is fed whole (c == 0) and at every chunk size from 1 to
 * MAX_CHUNK, so that each of its lines is cut at every place. */
static size_t chunk_size(size_t c) {
    return c == 0 ? SIZE_MAX : c;
}

static void check_sequences(void) {
    for (size_t i = 0; i < COUNT_OF(SEQUENCES); i++) {
        const Sequence *sequence = &SEQUENCES[i];
        for (size_t c = 0; c <= MAX_CHUNK; c += chunk_step()) {
            const size_t chunk = chunk_size(c);
            set_context("session sequence \"%s\"", sequence->name);
            JsonRpcSession *session = jsonrpc_session_new(sequence->role, sequence->profile, sequence->max_line);
            if (!check(session != NULL, "jsonrpc_session_new gave NULL")) {
                continue;
            }
            uint64_t number = 0;
            for (size_t s = 0; s < MAX_STEPS && sequence->steps[s].type != STEP_NONE; s++) {
                set_context("session sequence \"%s\" (%s, %s, chunks of %zu), step %zu", sequence->name,
                            jsonrpc_role_name(sequence->role), PROFILE_NAMES[sequence->profile], chunk, s + 1);
                run_step(session, sequence, &sequence->steps[s], chunk, &number);
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

void check_session_promises(void) {
    check_session_nulls();
    check_sequences();
    check_session_batch_lifetime();
}
