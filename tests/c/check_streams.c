/*
 * check_streams.c: the vectors as streams through a reader and a session, at every chunk size (part of the C vector test; see test_vectors.c).
 */

#include "vector_test.h"

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

size_t min_size(size_t a, size_t b) {
    return a < b ? a : b;
}

static bool span_is_zero(JsonRpcSpan span) {
    return span.offset == 0 && span.len == 0;
}

/* A TOO_LONG item carries its number, its length, an offset of 0, no bytes
 * and no reason; in the MCP profile, where its first bytes hold a damaged
 * request or response (SPEC 10.6 (d)), also the readable id (its kind, its
 * span: a position in the line, whose bytes are not held) and, for a
 * request, the method and the reply_server, for a response the substitute;
 * nothing else (but, from a session, its action). */
void check_too_long_fields(const JsonRpcLine *item) {
    const JsonRpcClassification *c = &item->classification;
    check(item->offset == 0, "a too_long item at offset %zu", item->offset);
    check(!c->jsonrpc_2_0 && !c->has_result && !c->has_error && !c->names_no_request &&
              span_is_zero(c->params_span) && span_is_zero(c->result_span) && span_is_zero(c->error_span) &&
              c->storage == NULL,
          "a too_long item carries fields");
    check(c->reason.ptr == NULL && c->reply_client.ptr == NULL, "a too_long item has a reason or a client reply");
    if (c->id.ptr == NULL) {
        check(c->id_kind == JSONRPC_ID_ABSENT && span_is_zero(c->id_span) && span_is_zero(c->method_span) &&
                  c->method.ptr == NULL && c->reply_server.ptr == NULL && c->substitute.ptr == NULL,
              "a too_long item without an id has fields, strings or a reply");
        return;
    }
    /* What its first bytes hold: an MCP id, then a request's method and
     * reply, or a response's substitute, never both. */
    check(c->id_kind == JSONRPC_ID_STRING || c->id_kind == JSONRPC_ID_NUMBER,
          "a too_long item's id is of kind %s, no MCP id", name_of(ID_KINDS, c->id_kind));
    check(c->id_span.len == c->id.len && c->id_span.offset > 0 && c->id_span.offset + c->id_span.len <= item->len,
          "a too_long item's id_span (%zu,%zu) is not its id's place in the line", c->id_span.offset,
          c->id_span.len);
    bool request = c->method.ptr != NULL;
    check(request == (c->method_span.len > 0) && request == (c->reply_server.ptr != NULL) &&
              request == (c->substitute.ptr == NULL),
          "a too_long item is neither a request (method, its span, reply_server) nor a response (substitute)");
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
 * items without bytes (check_too_long_fields); every string (a TOO_LONG
 * item's too) in `texts`, back to back in field order, each
 * followed by its NUL, and nothing else there; each item's action as
 * check_action_fields says (`role` 0 for a plain reader's batch). False
 * when the items cannot be looked at further. */
bool check_batch(const JsonRpcBatch *batch, uint64_t *number, bool at_end, uint32_t role) {
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
            /* Dropped, but a too-long request answered (role server) or a
             * too-long response substituted (SPEC 10.6 (d));
             * check_action_fields holds the text to the item's own. */
            uint32_t action = item->action;
            check(role == 0 || action == JSONRPC_ACTION_DROP ||
                      (action == JSONRPC_ACTION_ANSWER && role == JSONRPC_ROLE_SERVER && c->reply_server.ptr != NULL) ||
                      (action == JSONRPC_ACTION_SUBSTITUTE && c->substitute.ptr != NULL),
                  "a session's too_long item %zu is %s", i, name_of(ACTIONS, action));
        } else {
            ok = ok && check(c->kind != JSONRPC_KIND_NONE, "item %zu has kind none", i) &&
                 check(c->storage == NULL, "item %zu owns memory", i) &&
                 check(item->offset >= bytes_end && item->offset <= batch->bytes_len &&
                           item->len <= batch->bytes_len - item->offset,
                       "item %zu at %zu (len %zu) is not after the last or not inside the %zu bytes", i,
                       item->offset, item->len, batch->bytes_len);
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
 * nothing to give them to, are dropped; §10.8 (a): a server reads no
 * response nobody waits for). */
static uint32_t expected_action(const EnvelopeVector *vector, uint32_t role) {
    bool server = role == JSONRPC_ROLE_SERVER;
    switch (vector->kind) {
    case JSONRPC_KIND_REQUEST:
    case JSONRPC_KIND_NOTIFICATION:
        return JSONRPC_ACTION_FORWARD;
    case JSONRPC_KIND_RESPONSE:
        if (vector->profile == JSONRPC_PROFILE_MCP && (vector->flags[FLAG_NAMES_NO_REQUEST] || server)) {
            return JSONRPC_ACTION_DROP;
        }
        return JSONRPC_ACTION_FORWARD;
    case JSONRPC_KIND_INVALID_RESPONSE:
        return JSONRPC_ACTION_DROP;
    case JSONRPC_KIND_INVALID_REQUEST:
        return JSONRPC_ACTION_ANSWER;
    case JSONRPC_KIND_PARSE_ERROR:
        if (vector->substitute.mode != TEXT_ABSENT) {
            /* A damaged response (SPEC 10.6 (c)): never answered, and with
             * no request outstanding, not substituted either. */
            return server ? JSONRPC_ACTION_DROP : JSONRPC_ACTION_DIVERT;
        }
        return server ? JSONRPC_ACTION_ANSWER : JSONRPC_ACTION_DIVERT;
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

/* Every chunk size from 1 to MAX_CHUNK (every chunk_step()th) and the whole
 * stream through a reader; a few of them through a session in each role. */
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
    for (size_t chunk = 1; chunk <= MAX_CHUNK; chunk += chunk_step()) {
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
void check_many_lines(const Vectors *vectors) {
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
void check_too_long(void) {
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
void check_long_line_in_pieces(void) {
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
