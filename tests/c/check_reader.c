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

void check_reader_promises(void) {
    check_reader_nulls();
    check_reader_numbers_and_end();
    check_reader_texts();
    check_reader_batch_lifetime();
    check_reader_default_limit();
}
