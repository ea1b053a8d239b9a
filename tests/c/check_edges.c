/*
 * check_edges.c: the edges of the C ABI (part of the C vector test; see test_vectors.c).
 */

#include "vector_test.h"

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
    static const char *const DIRECTION_NAMES[] = {NULL, "to_server", "to_host"};
    check_table_names("jsonrpc_direction_name", jsonrpc_direction_name,
                      (NameTable){DIRECTION_NAMES, COUNT_OF(DIRECTION_NAMES)}, UINT32_MAX);
    /* The statuses as the header names its constants, in lower case. */
    static const char *const STATUS_NAMES[] = {
        [JSONRPC_STATUS_OK] = "ok",
        [JSONRPC_STATUS_UNKNOWN_ROLE] = "unknown_role",
        [JSONRPC_STATUS_NULL_ARGUMENT] = "null_argument",
        [JSONRPC_STATUS_OUT_OF_MEMORY] = "out_of_memory",
        [JSONRPC_STATUS_INTERNAL_ERROR] = "internal_error",
        [JSONRPC_STATUS_UNKNOWN_PROFILE] = "unknown_profile",
        [JSONRPC_STATUS_UNKNOWN_DIRECTION] = "unknown_direction",
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

/* ------------------------------------------------------------------------
 * The header's promises of SPEC 10.6 for one line (jsonrpc_classify,
 * jsonrpc_classify_into, jsonrpc_invalid_reply).
 */

static bool span_zero(JsonRpcSpan span) {
    return span.offset == 0 && span.len == 0;
}

/* `got` is exactly the bytes of `line` at `span`. */
static bool at_span(JsonRpcStr got, const char *line, JsonRpcSpan span) {
    return got.ptr != NULL && span.len == got.len && memcmp(line + span.offset, got.ptr, got.len) == 0;
}

/* A damaged request or response (SPEC 10.6 (c)) as the header gives it: a
 * JSONRPC_KIND_PARSE_ERROR with the readable id (exactly the line's bytes
 * at id_span) and, for a request, the readable method; every other field
 * as for any parse error (a reason; no flag, no other span, no client
 * reply); a request's reply_server names its id, a response has none but
 * its substitute. */
static void check_damaged(const JsonRpcClassification *c, const char *line, const char *id, uint32_t id_kind,
                          const char *method, const char *reply_server, const char *substitute) {
    check_enum("kind", KINDS, c->kind, JSONRPC_KIND_PARSE_ERROR);
    check_enum("id_kind", ID_KINDS, c->id_kind, id_kind);
    check_text("id", c->id, (Text){TEXT_EXACT, id, strlen(id)});
    check(at_span(c->id, line, c->id_span), "the id is not the line's bytes at id_span (%zu,%zu)", c->id_span.offset,
          c->id_span.len);
    if (method != NULL) {
        check_text("method", c->method, (Text){TEXT_EXACT, method, strlen(method)});
        check(c->method_span.len == strlen(method) + 2 &&
                  memcmp(line + c->method_span.offset + 1, method, strlen(method)) == 0,
              "the method is not between the quotes at method_span (%zu,%zu)", c->method_span.offset,
              c->method_span.len);
    } else {
        check(c->method.ptr == NULL && span_zero(c->method_span), "a damaged response has a method");
    }
    check(!c->jsonrpc_2_0 && !c->has_result && !c->has_error && !c->names_no_request,
          "a damaged line has a flag set (jsonrpc_2_0 %d, has_result %d, has_error %d, names_no_request %d)",
          c->jsonrpc_2_0, c->has_result, c->has_error, c->names_no_request);
    check(span_zero(c->params_span) && span_zero(c->result_span) && span_zero(c->error_span),
          "a damaged line has a params, result or error span");
    check_text("reason", c->reason, (Text){TEXT_ANY, NULL, 0});
    check_text("reply_server", c->reply_server,
               reply_server != NULL ? (Text){TEXT_EXACT, reply_server, strlen(reply_server)} : (Text){TEXT_ABSENT, NULL, 0});
    check_text("reply_client", c->reply_client, (Text){TEXT_ABSENT, NULL, 0});
    check_text("substitute", c->substitute,
               substitute != NULL ? (Text){TEXT_EXACT, substitute, strlen(substitute)} : (Text){TEXT_ABSENT, NULL, 0});
}

static void check_damaged_lines(void) {
    static const struct {
        const char *name;
        const char *line;
        const char *id;
        uint32_t id_kind;
        const char *method; /* NULL for a response */
        const char *reply_server;
        const char *substitute;
    } DAMAGED[] = {
        {"a damaged request (invalid UTF-8 in its params)",
         "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"text\":\"a\xff"
         "b\"}}",
         "3", JSONRPC_ID_NUMBER, "tools/call",
         "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}", NULL},
        {"a damaged request cut short, after a byte order mark",
         "\xEF\xBB\xBF  {\"method\":\"ping\", \"id\" : \"q\\u0031\" ,\"params\":{\"a\":[1,",
         "\"q\\u0031\"", JSONRPC_ID_STRING, "ping",
         "{\"jsonrpc\":\"2.0\",\"id\":\"q\\u0031\",\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}", NULL},
        {"a damaged response (its result being read)", "{\"jsonrpc\":\"2.0\",\"id\":\"r-9\",\"result\":{\"content\":[",
         "\"r-9\"", JSONRPC_ID_STRING, NULL, NULL,
         "{\"jsonrpc\":\"2.0\",\"id\":\"r-9\",\"error\":{\"code\":-32603,\"message\":\"Internal error: the peer's "
         "response to this request is not valid MCP\"}}"},
        {"a damaged error response (data after it)", "{\"jsonrpc\":\"2.0\",\"id\":-4,\"error\":{\"code\":1,\"message\":\"m\"}} x",
         "-4", JSONRPC_ID_NUMBER, NULL, NULL,
         "{\"jsonrpc\":\"2.0\",\"id\":-4,\"error\":{\"code\":-32603,\"message\":\"Internal error: the peer's "
         "response to this request is not valid MCP\"}}"},
    };
    static unsigned char scratch[1024];
    for (size_t i = 0; i < COUNT_OF(DAMAGED); i++) {
        const char *line = DAMAGED[i].line;
        size_t len = strlen(line);
        unsigned char *copy = exact_copy(line, len);
        set_context("%s, jsonrpc_classify (mcp)", DAMAGED[i].name);
        JsonRpcClassification c = jsonrpc_classify(copy, len, JSONRPC_PROFILE_MCP);
        check_damaged(&c, line, DAMAGED[i].id, DAMAGED[i].id_kind, DAMAGED[i].method, DAMAGED[i].reply_server,
                      DAMAGED[i].substitute);
        free_classification_twice(&c);
        set_context("%s, jsonrpc_classify_into (mcp)", DAMAGED[i].name);
        check(jsonrpc_classify_into(copy, len, JSONRPC_PROFILE_MCP, &c, scratch, sizeof scratch) == JSONRPC_STATUS_OK,
              "status not OK");
        check_damaged(&c, line, DAMAGED[i].id, DAMAGED[i].id_kind, DAMAGED[i].method, DAMAGED[i].reply_server,
                      DAMAGED[i].substitute);
        jsonrpc_classification_free(&c);
        set_context("%s, jsonrpc_invalid_reply (mcp)", DAMAGED[i].name);
        const char *reply = DAMAGED[i].reply_server;
        check_invalid_reply(copy, len, JSONRPC_ROLE_SERVER, JSONRPC_PROFILE_MCP, "server",
                            reply != NULL ? (Text){TEXT_EXACT, reply, strlen(reply)} : (Text){TEXT_ABSENT, NULL, 0});
        check_invalid_reply(copy, len, JSONRPC_ROLE_CLIENT, JSONRPC_PROFILE_MCP, "client",
                            (Text){TEXT_ABSENT, NULL, 0});
        /* The JSON-RPC profile: a parse error like any other, with no id. */
        set_context("%s, jsonrpc_classify (jsonrpc)", DAMAGED[i].name);
        c = jsonrpc_classify(copy, len, JSONRPC_PROFILE_JSONRPC);
        check_enum("kind", KINDS, c.kind, JSONRPC_KIND_PARSE_ERROR);
        check(c.id.ptr == NULL && c.method.ptr == NULL && c.substitute.ptr == NULL && c.id_kind == JSONRPC_ID_ABSENT &&
                  span_zero(c.id_span) && span_zero(c.method_span),
              "the JSON-RPC profile reads a damaged line's members");
        check_text("reply_server", c.reply_server, (Text){TEXT_EXACT, PARSE_ERROR_REPLY, strlen(PARSE_ERROR_REPLY)});
        free_classification_twice(&c);
        free(copy);
    }
}

/* An MCP batch of requests (SPEC 10.6 (b)): reply_server is one reply per
 * request, in the batch's order, joined by LF (each line one reply, a
 * response to that request's id, no array), the same text that
 * jsonrpc_invalid_reply gives for the server role; the client role owes
 * none. */
static void check_batch_replies(void) {
    static const char line[] = "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"n\"},"
                               "{\"id\":\"two\",\"method\":\"tools/list\"},{\"id\":1.5,\"method\":\"x\"},7,"
                               "{\"jsonrpc\":\"2.0\",\"id\":-3,\"method\":\"m\",\"params\":[]}]";
    static const char *const IDS[] = {"1", "\"two\"", "-3"};
    static const char message[] = "Invalid Request: MCP has no batches; send each request on its own line";
    const size_t len = strlen(line);
    unsigned char *copy = exact_copy(line, len);
    set_context("an MCP batch of three requests, jsonrpc_classify");
    JsonRpcClassification c = jsonrpc_classify(copy, len, JSONRPC_PROFILE_MCP);
    check_enum("kind", KINDS, c.kind, JSONRPC_KIND_BATCH);
    check(c.reply_client.ptr == NULL, "a client owes a batch a reply");
    ByteBuf want = {0};
    for (size_t i = 0; i < COUNT_OF(IDS); i++) {
        char reply[256];
        snprintf(reply, sizeof reply, "%s{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32600,\"message\":\"%s\"}}",
                 i > 0 ? "\n" : "", IDS[i], message);
        buf_append(&want, reply, strlen(reply));
    }
    check_text("reply_server", c.reply_server, (Text){TEXT_EXACT, (const char *)want.data, want.len});
    /* Each line of it is one reply: a response, as the MCP profile reads it,
     * to the id of the request in its place. */
    size_t lines = 0;
    for (const char *at = c.reply_server.ptr, *end = at != NULL ? at + c.reply_server.len : NULL; at != NULL && at < end;
         lines++) {
        const char *lf = memchr(at, '\n', (size_t)(end - at));
        size_t line_len = (size_t)((lf != NULL ? lf : end) - at);
        JsonRpcClassification one = jsonrpc_classify((const uint8_t *)at, line_len, JSONRPC_PROFILE_MCP);
        check(one.kind == JSONRPC_KIND_RESPONSE && one.has_error && lines < COUNT_OF(IDS) &&
                  text_matches(one.id, (Text){TEXT_EXACT, IDS[lines], strlen(IDS[lines])}),
              "line %zu of the reply is not an error response to %s", lines + 1,
              lines < COUNT_OF(IDS) ? IDS[lines] : "no request");
        jsonrpc_classification_free(&one);
        at = lf != NULL ? lf + 1 : end;
    }
    check_size("lines of the reply", lines, COUNT_OF(IDS));
    set_context("an MCP batch of three requests, jsonrpc_invalid_reply");
    check_invalid_reply(copy, len, JSONRPC_ROLE_SERVER, JSONRPC_PROFILE_MCP, "server",
                        (Text){TEXT_EXACT, (const char *)want.data, want.len});
    check_invalid_reply(copy, len, JSONRPC_ROLE_CLIENT, JSONRPC_PROFILE_MCP, "client", (Text){TEXT_ABSENT, NULL, 0});
    free_classification_twice(&c);
    /* The JSON-RPC profile keeps section 4's one reply. */
    set_context("an MCP batch of three requests, jsonrpc_classify (jsonrpc)");
    c = jsonrpc_classify(copy, len, JSONRPC_PROFILE_JSONRPC);
    check_enum("kind", KINDS, c.kind, JSONRPC_KIND_BATCH);
    check(c.reply_server.ptr != NULL && memchr(c.reply_server.ptr, '\n', c.reply_server.len) == NULL &&
              strstr(c.reply_server.ptr, "\"id\":null") != NULL,
          "the JSON-RPC profile's reply to a batch is not one reply with id null");
    free_classification_twice(&c);
    buf_free(&want);
    free(copy);
}

void check_edges(void) {
    check_classify_null();
    check_invalid_reply_edges();
    check_unknown_profiles();
    check_log_value_edges();
    check_free_null();
    check_versions();
    check_names();
    check_damaged_lines();
    check_batch_replies();
}
