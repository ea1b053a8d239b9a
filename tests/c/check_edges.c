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

void check_edges(void) {
    check_classify_null();
    check_invalid_reply_edges();
    check_unknown_profiles();
    check_log_value_edges();
    check_free_null();
    check_versions();
    check_names();
}
