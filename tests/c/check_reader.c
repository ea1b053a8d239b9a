/*
 * check_reader.c: the reader's promises in the header (part of the C vector test; see test_vectors.c).
 */

#include "vector_test.h"

/* ------------------------------------------------------------------------
 * The reader's promises in the header, one by one.
 */

/* A batch that is not empty, to see a call overwrite it. */
JsonRpcBatch stale_batch(void) {
    static const JsonRpcLine line = {0};
    return (JsonRpcBatch){&line, 1, (const uint8_t *)"x", 1, "y", 1};
}

void check_refused(const char *what, JsonRpcStatus status, const JsonRpcBatch *out) {
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
void check_line(const JsonRpcBatch *batch, size_t index, uint64_t number, const char *text, uint32_t kind) {
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
bool same_line(const JsonRpcLine *a, const JsonRpcLine *b) {
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

/* jsonrpc_reader_new(0) has its profile's default limit,
 * jsonrpc_profile_max_line(profile): for the JSON-RPC profile
 * jsonrpc_default_max_line(), which the header gives as 16 MiB; the MCP
 * profile's is read from the library, never restated here. A line of that
 * length is kept, one a byte longer is not. */
static void check_reader_default_limit(void) {
    set_context("the default line limit");
    const size_t limit = jsonrpc_default_max_line();
    check(limit == (size_t)16 << 20, "jsonrpc_default_max_line() is %zu, not 16 MiB", limit);
    check(jsonrpc_profile_max_line(JSONRPC_PROFILE_JSONRPC) == limit,
          "jsonrpc_profile_max_line(JSONRPC) is %zu, not jsonrpc_default_max_line()",
          jsonrpc_profile_max_line(JSONRPC_PROFILE_JSONRPC));
    check(jsonrpc_profile_max_line(JSONRPC_PROFILE_MCP) > 0, "jsonrpc_profile_max_line(MCP) is 0");
    for (size_t i = 0; i < COUNT_OF(NOT_PROFILES); i++) {
        check(jsonrpc_profile_max_line(NOT_PROFILES[i]) == 0, "jsonrpc_profile_max_line(%#x) is not 0",
              (unsigned)NOT_PROFILES[i]);
    }
    enum { PIECE = 1 << 20 };
    unsigned char *piece = xrealloc(NULL, PIECE);
    memset(piece, ' ', PIECE);
    for (size_t p = 0; p < COUNT_OF(PROFILES_TESTED); p++) {
        const uint32_t profile = PROFILES_TESTED[p];
        const size_t max_line = jsonrpc_profile_max_line(profile);
        set_context("the default line limit (%s, %zu)", PROFILE_NAMES[profile], max_line);
        JsonRpcReader *reader = jsonrpc_reader_new(0, profile);
        if (!check(reader != NULL, "jsonrpc_reader_new(0) gave NULL")) {
            continue;
        }
        uint64_t number = 0;
        for (size_t extra = 0; extra <= 1; extra++) {
            size_t len = max_line + extra;
            JsonRpcBatch batch = {0};
            bool quiet = true;
            for (size_t at = 0; at < len && quiet; at += PIECE) {
                quiet = jsonrpc_reader_feed(reader, piece, min_size(PIECE, len - at), &batch) ==
                            JSONRPC_STATUS_OK &&
                        batch.count == 0;
            }
            batch = feed_text(reader, "\n", &number);
            if (check(quiet && batch.count == 1, "a line of %zu bytes: not one item at its LF", len)) {
                uint32_t want = extra == 0 ? JSONRPC_KIND_EMPTY : JSONRPC_KIND_TOO_LONG;
                check_enum("kind", KINDS, batch.items[0].classification.kind, want);
                check_size("len", batch.items[0].len, len);
            }
        }
        jsonrpc_reader_free(reader);
    }
    free(piece);
}

/* ------------------------------------------------------------------------
 * SPEC 10.6 through a reader: a line too long to read whose first bytes
 * (as many as the limit) hold a request's or a response's id, and a line
 * after a byte order mark, at every chunk size.
 */

/* The -32600 reply for a request on a line too long to read (SPEC 10.6 (d)). */
#define TOO_LONG_REPLY_FOR(ID)                                                                                  \
    "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32600,\"message\":\"Invalid Request: the line is " \
    "longer than this peer reads\"}}"
/* SPEC 10.3's substitute for an id. */
#define HEAD_SUBSTITUTE_FOR(ID)                                                                                      \
    "{\"jsonrpc\":\"2.0\",\"id\":" ID ",\"error\":{\"code\":-32603,\"message\":\"Internal error: the peer's response " \
    "to this request is not valid MCP\"}}"

enum { HEAD_LIMIT = 64 };

/* What one item of a head stream must be: a line within the limit (`text`
 * its bytes), or a too-long one; for either, what it carries. */
typedef struct {
    uint32_t kind;
    size_t len;
    const char *text;   /* a kept line's bytes; NULL for a too-long one */
    const char *id;     /* NULL: absent */
    uint32_t id_kind;
    size_t id_offset;
    const char *method; /* NULL: absent */
    size_t method_offset;
    const char *reply_server;
    const char *substitute;
} HeadItem;

static Text text_or_absent(const char *text) {
    return text != NULL ? (Text){TEXT_EXACT, text, strlen(text)} : (Text){TEXT_ABSENT, NULL, 0};
}

/* One item against what it must be. */
static void check_head_item(const JsonRpcBatch *batch, const JsonRpcLine *item, const HeadItem *want) {
    const JsonRpcClassification *c = &item->classification;
    check_enum("kind", KINDS, c->kind, want->kind);
    check_size("len", item->len, want->len);
    if (want->text != NULL && item->len == want->len) {
        check_bytes("line bytes", (JsonRpcStr){(const char *)batch->bytes + item->offset, item->len},
                    text_or_absent(want->text));
    }
    check_text("id", c->id, text_or_absent(want->id));
    check_enum("id_kind", ID_KINDS, c->id_kind, want->id != NULL ? want->id_kind : JSONRPC_ID_ABSENT);
    JsonRpcSpan id_span = want->id != NULL ? (JsonRpcSpan){want->id_offset, strlen(want->id)} : (JsonRpcSpan){0, 0};
    check(c->id_span.offset == id_span.offset && c->id_span.len == id_span.len, "id_span %zu,%zu, expected %zu,%zu",
          c->id_span.offset, c->id_span.len, id_span.offset, id_span.len);
    check_text("method", c->method, text_or_absent(want->method));
    /* A method without escapes: its span is its text and the quotes. */
    JsonRpcSpan method_span = want->method != NULL ? (JsonRpcSpan){want->method_offset, strlen(want->method) + 2}
                                                   : (JsonRpcSpan){0, 0};
    check(c->method_span.offset == method_span.offset && c->method_span.len == method_span.len,
          "method_span %zu,%zu, expected %zu,%zu", c->method_span.offset, c->method_span.len, method_span.offset,
          method_span.len);
    check_text("reply_server", c->reply_server, text_or_absent(want->reply_server));
    check_text("substitute", c->substitute, text_or_absent(want->substitute));
    if (want->kind == JSONRPC_KIND_TOO_LONG) {
        check(c->reply_client.ptr == NULL && c->reason.ptr == NULL, "a too-long line has a reason or a client reply");
    }
}

/* Feeds `stream` to a reader of `profile` and `max_line`, `chunk` bytes at
 * a time (each a heap copy freed after the call), then ends it; checks
 * every batch (check_batch) and each item against `want`. */
static void read_heads(const char *label, const ByteBuf *stream, size_t chunk, size_t max_line, uint32_t profile,
                       const HeadItem *want, size_t count) {
    JsonRpcReader *reader = jsonrpc_reader_new(max_line, profile);
    set_context("%s (chunks of %zu)", label, chunk);
    if (!check(reader != NULL, "jsonrpc_reader_new gave NULL")) {
        return;
    }
    uint64_t number = 0;
    size_t items = 0;
    for (size_t at = 0;;) {
        bool end = at == stream->len;
        size_t piece = end ? 0 : min_size(chunk, stream->len - at);
        unsigned char *copy = end ? NULL : exact_copy(stream->data + at, piece);
        JsonRpcBatch batch = stale_batch();
        JsonRpcStatus status =
            end ? jsonrpc_reader_end(reader, &batch) : jsonrpc_reader_feed(reader, copy, piece, &batch);
        free(copy);
        at += piece;
        set_context("%s (chunks of %zu), after %zu bytes%s", label, chunk, at, end ? " and the end" : "");
        if (!check(status == JSONRPC_STATUS_OK, "status %u", (unsigned)status) ||
            !check_batch(&batch, &number, end, 0)) {
            break;
        }
        for (size_t i = 0; i < batch.count; i++, items++) {
            set_context("%s (chunks of %zu), item %zu", label, chunk, items);
            if (check(items < count, "more items than the %zu expected", count)) {
                check_head_item(&batch, &batch.items[i], &want[items]);
            }
        }
        if (end) {
            break;
        }
    }
    set_context("%s (chunks of %zu)", label, chunk);
    check_size("items", items, count);
    jsonrpc_reader_free(reader);
}

#define LONG_REQUEST_HEAD "{\"jsonrpc\":\"2.0\",\"id\":\"big-1\",\"method\":\"tools/call\","
#define LONG_RESPONSE_HEAD "{\"jsonrpc\":\"2.0\",\"id\":42,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\""
#define OK_REQUEST "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"

/* A too-long request: its head, then `pad` bytes of text, then its end. */
static size_t append_long_request(ByteBuf *stream, size_t pad) {
    size_t before = stream->len;
    buf_append(stream, LONG_REQUEST_HEAD "\"params\":{\"arguments\":{\"text\":\"", strlen(LONG_REQUEST_HEAD) + 32);
    append_repeated(stream, 'x', pad);
    buf_append(stream, "\"}}}", 4);
    return stream->len - before;
}

/* The header: a line over the limit is TOO_LONG, at offset 0; in the MCP
 * profile, where its first bytes (as many as the limit) hold a damaged
 * request or response, it also has the readable id, id_kind and id_span (a
 * position in the line, whose bytes are not held) and, for a request,
 * method, method_span and the reply_server that says the line is too long;
 * for a response, the substitute; otherwise nothing else. In the JSON-RPC
 * profile nothing changes. */
static void check_reader_too_long_heads(void) {
    ByteBuf stream = {0};
    size_t request_len = append_long_request(&stream, 200);
    buf_append(&stream, "\n" OK_REQUEST "\n", strlen(OK_REQUEST) + 2);
    size_t at = stream.len;
    buf_append(&stream, LONG_RESPONSE_HEAD, strlen(LONG_RESPONSE_HEAD));
    append_repeated(&stream, 'y', 200);
    buf_append(&stream, "\"}]}}\n", 6);
    size_t response_len = stream.len - at - 1;
    /* A notification: a method, no id. */
    at = stream.len;
    static const char notification[] = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"";
    buf_append(&stream, notification, strlen(notification));
    append_repeated(&stream, 'z', 100);
    buf_append(&stream, "\"}}\n", 4);
    size_t notification_len = stream.len - at - 1;
    /* A request whose id stands past the first bytes. */
    at = stream.len;
    static const char late_id[] = "{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"pad\":\"";
    buf_append(&stream, late_id, strlen(late_id));
    append_repeated(&stream, 'p', 100);
    buf_append(&stream, "\"},\"id\":5}\n", 11);
    size_t late_len = stream.len - at - 1;
    /* No JSON at all. */
    append_repeated(&stream, 'w', 100);
    buf_append(&stream, "\n", 1);
    /* The too-long request again, still open when the stream ends. */
    append_long_request(&stream, 150);
    size_t last_len = request_len - 50;

    const size_t id_at = strlen("{\"jsonrpc\":\"2.0\",\"id\":");
    const size_t method_at = strlen("{\"jsonrpc\":\"2.0\",\"id\":\"big-1\",\"method\":");
    const HeadItem request = {JSONRPC_KIND_TOO_LONG, request_len, NULL, "\"big-1\"", JSONRPC_ID_STRING, id_at,
                              "tools/call", method_at, TOO_LONG_REPLY_FOR("\"big-1\""), NULL};
    HeadItem last = request;
    last.len = last_len;
    const HeadItem mcp[] = {
        request,
        {JSONRPC_KIND_REQUEST, strlen(OK_REQUEST), OK_REQUEST, "2", JSONRPC_ID_NUMBER, id_at, "ping",
         strlen("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"), NULL, NULL},
        {JSONRPC_KIND_TOO_LONG, response_len, NULL, "42", JSONRPC_ID_NUMBER, id_at, NULL, 0, NULL,
         HEAD_SUBSTITUTE_FOR("42")},
        {JSONRPC_KIND_TOO_LONG, notification_len, NULL, NULL, 0, 0, NULL, 0, NULL, NULL},
        {JSONRPC_KIND_TOO_LONG, late_len, NULL, NULL, 0, 0, NULL, 0, NULL, NULL},
        {JSONRPC_KIND_TOO_LONG, 100, NULL, NULL, 0, 0, NULL, 0, NULL, NULL},
        last,
    };
    HeadItem plain[COUNT_OF(mcp)];
    for (size_t i = 0; i < COUNT_OF(mcp); i++) {
        /* The JSON-RPC profile: a too-long line carries nothing. */
        plain[i] = mcp[i].kind == JSONRPC_KIND_TOO_LONG
                       ? (HeadItem){JSONRPC_KIND_TOO_LONG, mcp[i].len, NULL, NULL, 0, 0, NULL, 0, NULL, NULL}
                       : mcp[i];
    }
    for (size_t chunk = 1; chunk <= MAX_CHUNK; chunk += chunk_step()) {
        read_heads("too-long lines' first bytes (reader, mcp)", &stream, chunk, HEAD_LIMIT, JSONRPC_PROFILE_MCP,
                   mcp, COUNT_OF(mcp));
    }
    read_heads("too-long lines' first bytes (reader, mcp)", &stream, stream.len, HEAD_LIMIT, JSONRPC_PROFILE_MCP,
               mcp, COUNT_OF(mcp));
    for (size_t chunk = 1; chunk <= MAX_CHUNK; chunk += 3) {
        read_heads("too-long lines (reader, jsonrpc)", &stream, chunk, HEAD_LIMIT, JSONRPC_PROFILE_JSONRPC, plain,
                   COUNT_OF(plain));
    }
    buf_free(&stream);

    /* "As many as the limit": the request's method is readable when the
     * `,` after it is the last of the first max_line bytes, and not when
     * it is the first byte past them. */
    ByteBuf one = {0};
    size_t len = append_long_request(&one, 100);
    const size_t readable = strlen(LONG_REQUEST_HEAD);
    HeadItem cut = request;
    cut.len = len;
    for (size_t chunk = 1; chunk <= MAX_CHUNK; chunk += chunk_step()) {
        read_heads("a head that ends with the method's comma", &one, chunk, readable, JSONRPC_PROFILE_MCP, &cut, 1);
        read_heads("a head that ends before the method's comma", &one, chunk, readable - 1, JSONRPC_PROFILE_MCP,
                   &(HeadItem){JSONRPC_KIND_TOO_LONG, len, NULL, NULL, 0, 0, NULL, 0, NULL, NULL}, 1);
    }
    buf_free(&one);
}

/* SPEC 10.6 (a): a line after a byte order mark is classified as the rest
 * of the line, its spans counted from the line's first byte (the mark's);
 * in the JSON-RPC profile it stays a parse error. */
static void check_reader_byte_order_mark(void) {
    ByteBuf stream = {0};
    static const char bom[] = "\xEF\xBB\xBF";
    static const char request[] = "{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"initialize\",\"params\":{}}";
    buf_append(&stream, bom, 3);
    buf_append(&stream, request, strlen(request));
    buf_append(&stream, "\n", 1);
    buf_append(&stream, bom, 3);
    buf_append(&stream, OK_REQUEST, strlen(OK_REQUEST));
    ByteBuf first = {0};
    buf_append(&first, bom, 3);
    buf_append(&first, request, strlen(request) + 1);
    ByteBuf second = {0};
    buf_append(&second, bom, 3);
    buf_append(&second, OK_REQUEST, strlen(OK_REQUEST) + 1);
    const size_t id_at = 3 + strlen("{\"jsonrpc\":\"2.0\",\"id\":");
    const HeadItem mcp[] = {
        {JSONRPC_KIND_REQUEST, first.len - 1, (const char *)first.data, "\"b\"", JSONRPC_ID_STRING, id_at,
         "initialize", 3 + strlen("{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":"), NULL, NULL},
        {JSONRPC_KIND_REQUEST, second.len - 1, (const char *)second.data, "2", JSONRPC_ID_NUMBER, id_at, "ping",
         3 + strlen("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":"), NULL, NULL},
    };
    const HeadItem plain[] = {
        {JSONRPC_KIND_PARSE_ERROR, first.len - 1, (const char *)first.data, NULL, 0, 0, NULL, 0, PARSE_ERROR_REPLY,
         NULL},
        {JSONRPC_KIND_PARSE_ERROR, second.len - 1, (const char *)second.data, NULL, 0, 0, NULL, 0,
         PARSE_ERROR_REPLY, NULL},
    };
    for (size_t chunk = 1; chunk <= MAX_CHUNK; chunk += chunk_step()) {
        read_heads("a byte order mark (reader, mcp)", &stream, chunk, 0, JSONRPC_PROFILE_MCP, mcp, COUNT_OF(mcp));
        read_heads("a byte order mark (reader, jsonrpc)", &stream, chunk, 0, JSONRPC_PROFILE_JSONRPC, plain,
                   COUNT_OF(plain));
    }
    buf_free(&first);
    buf_free(&second);
    buf_free(&stream);
}

void check_reader_promises(void) {
    check_reader_nulls();
    check_reader_numbers_and_end();
    check_reader_texts();
    check_reader_batch_lifetime();
    check_reader_default_limit();
    check_reader_too_long_heads();
    check_reader_byte_order_mark();
}
