package io.github.jsonrpcenvelope;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * What a line is and what it carries (SPEC §3), as the library classified it.
 *
 * @param kind           what the line is
 * @param idKind         what its {@code id} member holds
 * @param jsonrpc20      a {@code jsonrpc} member is the string {@code "2.0"}
 * @param hasResult      a {@code result} member is present
 * @param hasError       an {@code error} member is present
 * @param namesNoRequest a response with an error that answers no request (SPEC §2)
 * @param idSpan         where the id's value stands in the line
 * @param methodSpan     where the method's value stands
 * @param paramsSpan     where the params' value stands
 * @param resultSpan     where the result's value stands
 * @param errorSpan      where the error's value stands
 * @param id             the id's exact JSON text, as it stood in the line (MCP profile: also the readable id of
 *                       a damaged or too-long line, SPEC §10.6)
 * @param method         the decoded method, where it is a string
 * @param reason         for an invalid request or response the reply's exact message; for a parse error what is wrong
 * @param replyServer    the reply a server owes for the line; for an MCP batch of requests one reply a line,
 *                       joined by LF, written as one text (SPEC §10.6 (b))
 * @param replyClient    the reply a client owes for the line
 * @param substitute     for an {@code invalid_response} with an MCP id, or a damaged or too-long response whose
 *                       id is readable (SPEC §10.6 (c), (d)), the error response to hand on in its place
 */
public record Classification(
        Kind kind,
        IdKind idKind,
        boolean jsonrpc20,
        boolean hasResult,
        boolean hasError,
        boolean namesNoRequest,
        Span idSpan,
        Span methodSpan,
        Span paramsSpan,
        Span resultSpan,
        Span errorSpan,
        Optional<String> id,
        Optional<String> method,
        Optional<String> reason,
        Optional<String> replyServer,
        Optional<String> replyClient,
        Optional<String> substitute) {

    /** The reply the endpoint in {@code role} owes for the line, if any. */
    public Optional<String> reply(Role role) {
        return role == Role.SERVER ? replyServer : replyClient;
    }

    /** Whether the line is a message a peer acts on (the library's {@code jsonrpc_kind_is_message}). */
    public boolean isMessage() {
        return kind.isMessage();
    }

    /**
     * A classification as the library wrote it at {@code at} in {@code s}, its strings found in
     * {@code texts}; fails on {@code JSONRPC_KIND_NONE}.
     */
    static Classification read(MemorySegment s, long at, Texts texts) {
        int kind = s.get(Native.U32, at + Native.C_KIND);
        if (kind == 0) {
            throw new EnvelopeException(Native.str(s, at + Native.C_REASON).orElse("the call failed"));
        }
        return new Classification(
                Kind.of(kind),
                IdKind.of(s.get(Native.U32, at + Native.C_ID_KIND)),
                s.get(Native.BOOL, at + Native.C_JSONRPC_2_0),
                s.get(Native.BOOL, at + Native.C_HAS_RESULT),
                s.get(Native.BOOL, at + Native.C_HAS_ERROR),
                s.get(Native.BOOL, at + Native.C_NAMES_NO_REQUEST),
                span(s, at + Native.C_ID_SPAN),
                span(s, at + Native.C_METHOD_SPAN),
                span(s, at + Native.C_PARAMS_SPAN),
                span(s, at + Native.C_RESULT_SPAN),
                span(s, at + Native.C_ERROR_SPAN),
                texts.str(s, at + Native.C_ID),
                texts.str(s, at + Native.C_METHOD),
                texts.str(s, at + Native.C_REASON),
                texts.str(s, at + Native.C_REPLY_SERVER),
                texts.str(s, at + Native.C_REPLY_CLIENT),
                texts.str(s, at + Native.C_SUBSTITUTE));
    }

    private static Span span(MemorySegment s, long at) {
        long len = s.get(Native.SIZE_T, at + 8);
        return len == 0 ? Span.ABSENT : new Span(s.get(Native.SIZE_T, at), len);
    }
}
