package io.github.jsonrpcenvelope;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiTest {
    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void loadsTheJarsLibraryOfAbi3() {
        assertEquals(3, Envelope.abiVersion());
        assertTrue(Envelope.version().matches("\\d+\\.\\d+\\.\\d+.*"), Envelope.version());
        // The tests run with JSONRPC_ENVELOPE_LIB unset: the library came out of the resources.
        assertTrue(Native.LIBRARY_PATH.toString().contains("jsonrpc-envelope"), Native.LIBRARY_PATH.toString());
        // The default line limit is the library's to choose: only read here, never restated.
        assertTrue(Envelope.defaultMaxLine() > 0, String.valueOf(Envelope.defaultMaxLine()));
        assertEquals(Envelope.defaultMaxLine(), Envelope.maxLine(Profile.JSONRPC));
        assertTrue(Envelope.maxLine(Profile.MCP) > 0 && Envelope.maxLine(Profile.MCP) < Envelope.defaultMaxLine());
        // The jar's version is the library's (bindings/java/pom.xml follows Cargo.toml).
        assertEquals(Envelope.version(), System.getProperty("jsonrpc.envelope.maven.version"));
    }

    @Test
    void everyConstantHasTheLibrarysName() {
        // The names the SPEC and the vectors use; NONE (no action) has none in the library.
        for (Kind k : Kind.values()) {
            assertNotNull(k.toString(), k.name());
            assertEquals(k, Kind.named(k.toString()));
            assertEquals(k, Kind.of(k.value()));
        }
        for (IdKind k : IdKind.values()) {
            assertNotNull(k.toString(), k.name());
        }
        assertEquals("server", Role.SERVER.toString());
        assertEquals("client", Role.CLIENT.toString());
        assertEquals("to_server", Direction.TO_SERVER.toString());
        assertEquals("to_host", Direction.TO_HOST.toString());
        assertEquals("jsonrpc", Profile.JSONRPC.toString());
        assertEquals("mcp", Profile.MCP.toString());
        assertEquals(List.of("none", "forwarded", "answered", "substituted", "attributed", "dropped", "diverted"),
                java.util.Arrays.stream(Action.values()).map(Action::toString).toList());
        assertEquals("invalid_response", Kind.INVALID_RESPONSE.toString());
        assertTrue(Kind.REQUEST.isMessage() && Kind.NOTIFICATION.isMessage() && Kind.RESPONSE.isMessage());
        assertTrue(!Kind.INVALID_RESPONSE.isMessage() && !Kind.TOO_LONG.isMessage() && !Kind.PARSE_ERROR.isMessage());
    }

    @Test
    void unknownValuesAreRefused() throws Throwable {
        assertThrows(IllegalArgumentException.class, () -> Kind.of(0));
        assertThrows(IllegalArgumentException.class, () -> Kind.of(12));
        assertThrows(IllegalArgumentException.class, () -> Profile.of(0));
        assertThrows(IllegalArgumentException.class, () -> Profile.of(3));
        assertThrows(IllegalArgumentException.class, () -> Role.of(0));
        assertThrows(IllegalArgumentException.class, () -> Direction.of(0));
        assertThrows(IllegalArgumentException.class, () -> Action.named("forward"));
        // The library itself refuses them (what Profile and Role keep the user from passing).
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(Native.CLASSIFICATION);
            int status = (int) Native.CLASSIFY_INTO.invokeExact(MemorySegment.ofArray(b("{}")), 2L, 3, out,
                    MemorySegment.NULL, 0L);
            assertEquals(5, status);
            assertEquals("unknown_profile", EnvelopeException.statusName(status));
            EnvelopeException e = assertThrows(EnvelopeException.class, () -> Classification.read(out, 0, Texts.NONE));
            assertEquals("unknown profile", e.getMessage());
            Native.CLASSIFICATION_FREE.invokeExact(out);
            assertEquals(MemorySegment.NULL, (MemorySegment) Native.READER_NEW.invokeExact(0L, 0));
            assertEquals(MemorySegment.NULL, (MemorySegment) Native.SESSION_NEW.invokeExact(3, 2, 0L));
            assertEquals(MemorySegment.NULL, (MemorySegment) Native.SESSION_NEW.invokeExact(1, 7, 0L));
            MemorySegment reply = (MemorySegment) Native.INVALID_REPLY.invokeExact((SegmentAllocator) arena,
                    MemorySegment.NULL, 0L, 9, 1);
            assertEquals(1, reply.get(Native.U32, Native.R_STATUS));
        }
        assertThrows(IllegalArgumentException.class, () -> new Reader(-1, Profile.JSONRPC));
    }

    @Test
    void emptyAndBinaryInput() {
        assertEquals(Kind.EMPTY, Envelope.classify(new byte[0]).kind());
        Classification c = Envelope.classify(new byte[] {(byte) 0xff, 0, '{'}, Profile.MCP);
        assertEquals(Kind.PARSE_ERROR, c.kind());
        assertTrue(c.reason().isPresent());
        assertEquals("", Envelope.logValue(new byte[0]));
    }

    @Test
    void closedReaderAndSessionRefuseCalls() {
        Reader r = new Reader(Profile.JSONRPC);
        r.close();
        r.close();
        assertThrows(IllegalStateException.class, () -> r.feed(b("x\n")));
        Session s = new Session(Role.SERVER, Profile.MCP);
        s.close();
        s.close();
        assertThrows(IllegalStateException.class, () -> s.feed(b("x\n")));
        assertThrows(IllegalStateException.class, () -> s.outstanding());
    }

    @Test
    void tooLongLines() {
        String ok = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";
        String longLine = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"" + "x".repeat(100) + "\"}";
        byte[] data = b(ok + "\n" + longLine + "\n" + ok);
        for (int n = 1; n <= 70; n++) {
            try (Reader r = new Reader(40, Profile.JSONRPC)) {
                List<Line> got = new java.util.ArrayList<>();
                for (int off = 0; off < data.length; off += n) {
                    got.addAll(r.feed(data, off, Math.min(n, data.length - off)));
                }
                got.addAll(r.end());
                assertEquals(3, got.size());
                assertEquals(Kind.REQUEST, got.get(0).kind());
                assertEquals(Kind.TOO_LONG, got.get(1).kind());
                assertEquals(longLine.length(), got.get(1).length());
                assertEquals(0, got.get(1).bytes().length);
                assertEquals(3, got.get(2).number());
                assertEquals(ok, got.get(2).text());
            }
        }
    }

    // ---- SPEC 10.6: every request whose id is in the line is answered by it ----

    static final String TOO_LONG_REPLY = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,"
            + "\"message\":\"Invalid Request: the line is longer than this peer reads\"}}";
    static final String SUBSTITUTE_7 = "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32603,"
            + "\"message\":\"Internal error: the peer's response to this request is not valid MCP\"}}";

    /** The lines of {@code data} read {@code n} bytes at a time by {@code feed}, then {@code end}. */
    static List<Line> inChunks(byte[] data, int n, java.util.function.Function<byte[], List<Line>> feed,
            java.util.function.Supplier<List<Line>> end) {
        List<Line> got = new java.util.ArrayList<>();
        for (int off = 0; off < data.length; off += n) {
            got.addAll(feed.apply(java.util.Arrays.copyOfRange(data, off, Math.min(data.length, off + n))));
        }
        got.addAll(end.get());
        return got;
    }

    @Test
    void aTooLongMcpRequestCarriesItsIdAndIsAnswered() {
        // The reader holds the line's first 64 bytes, which hold its id and method: the too_long item carries
        // them and the reply a server owes; a session in role server answers the line with it.
        String ok = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";
        String longLine = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"arguments\":{\"text\":\""
                + "x".repeat(200) + "\"}}}";
        byte[] data = b(ok + "\n" + longLine + "\n" + ok + "\n");
        for (int n = 1; n <= 70; n++) {
            List<Line> read;
            List<Line> decided;
            try (Reader r = new Reader(64, Profile.MCP); Session s = new Session(Role.SERVER, Profile.MCP, 64)) {
                read = inChunks(data, n, r::feed, r::end);
                decided = inChunks(data, n, s::feed, s::end);
            }
            for (List<Line> got : List.of(read, decided)) {
                String at = n + " at a time: ";
                assertEquals(3, got.size(), at + got);
                Line l = got.get(1);
                assertEquals(Kind.TOO_LONG, l.kind(), at);
                assertEquals(2, l.number(), at);
                assertEquals(longLine.length(), l.length(), at);
                assertEquals(0, l.bytes().length, at);
                Classification c = l.classification();
                assertEquals(Optional.of("1"), c.id(), at);
                assertEquals(IdKind.NUMBER, c.idKind(), at);
                assertEquals(new Span(longLine.indexOf("\"id\":1") + 5, 1), c.idSpan(), at);
                assertEquals(Optional.of("tools/call"), c.method(), at);
                assertEquals(new Span(longLine.indexOf("\"tools/call\""), 12), c.methodSpan(), at);
                assertEquals(Optional.of(TOO_LONG_REPLY), c.replyServer(), at);
                assertEquals(Optional.empty(), c.replyClient(), at);
                assertEquals(Optional.empty(), c.substitute(), at);
                assertEquals(Kind.REQUEST, got.get(2).kind(), at);
                assertEquals(ok, got.get(2).text(), at);
            }
            assertEquals(Action.NONE, read.get(1).action());
            assertEquals(Action.ANSWER, decided.get(1).action());
            assertEquals(Optional.of(TOO_LONG_REPLY), decided.get(1).actionText());
            assertTrue(decided.get(1).note().isPresent());
            assertEquals(Action.FORWARD, decided.get(2).action());
        }
        // A client owes a too-long request nothing: dropped.
        try (Session s = new Session(Role.CLIENT, Profile.MCP, 64)) {
            Line l = s.feed(b(longLine + "\n")).get(0);
            assertEquals(Kind.TOO_LONG, l.kind());
            assertEquals(Action.DROP, l.action());
            assertTrue(l.actionText().isEmpty());
        }
        // The JSON-RPC profile reads no head: the item carries nothing.
        try (Reader r = new Reader(64, Profile.JSONRPC)) {
            Classification c = r.feed(b(longLine + "\n")).get(0).classification();
            assertEquals(Kind.TOO_LONG, c.kind());
            assertTrue(c.id().isEmpty() && c.method().isEmpty() && c.replyServer().isEmpty(), c.toString());
        }
    }

    @Test
    void aTooLongMcpRequestAtTheDefaultLimitIsAnswered() {
        // The library's own limit, whatever it is: a request one byte longer is answered by its id.
        long max = Envelope.maxLine(Profile.MCP);
        assertTrue(max < Integer.MAX_VALUE - 1000, "default limit " + max);
        String head = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"text\":\"";
        String tail = "\"}}\n";
        byte[] line = new byte[(int) max + 1 + 1];
        byte[] h = b(head);
        byte[] t = b(tail);
        java.util.Arrays.fill(line, (byte) 'x');
        System.arraycopy(h, 0, line, 0, h.length);
        System.arraycopy(t, 0, line, line.length - t.length, t.length);
        try (Session s = new Session(Role.SERVER, Profile.MCP)) {
            List<Line> got = new java.util.ArrayList<>();
            for (int off = 0; off < line.length; off += 1 << 16) {
                got.addAll(s.feed(line, off, Math.min(1 << 16, line.length - off)));
            }
            assertEquals(1, got.size());
            assertEquals(Kind.TOO_LONG, got.get(0).kind());
            assertEquals(max + 1, got.get(0).length());
            assertEquals(Action.ANSWER, got.get(0).action());
            assertEquals(Optional.of(TOO_LONG_REPLY), got.get(0).actionText());
        }
    }

    @Test
    void aTooLongResponseIsSubstitutedWhileItsIdIsOutstanding() {
        String longResponse = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"" + "y".repeat(200) + "\"}}";
        byte[] data = b(longResponse + "\n");
        for (int n = 1; n <= 70; n++) {
            String at = n + " at a time: ";
            try (Reader r = new Reader(64, Profile.MCP)) {
                Classification c = inChunks(data, n, r::feed, r::end).get(0).classification();
                assertEquals(Kind.TOO_LONG, c.kind(), at);
                assertEquals(Optional.of("7"), c.id(), at);
                assertEquals(new Span(longResponse.indexOf("\"id\":7") + 5, 1), c.idSpan(), at);
                assertEquals(Optional.empty(), c.method(), at);
                assertEquals(Optional.of(SUBSTITUTE_7), c.substitute(), at);
                assertEquals(Optional.empty(), c.replyServer(), at);
            }
            try (Session s = new Session(Role.CLIENT, Profile.MCP, 64)) {
                // Nobody waits on id 7: dropped.
                Line l = inChunks(data, n, s::feed, s::end).get(0);
                assertEquals(Action.DROP, l.action(), at);
                assertTrue(l.actionText().isEmpty(), at);
                // Once a request with id 7 went out: substituted, and the request is answered.
                s.sent("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\"}");
                assertEquals(1, s.outstanding(), at);
                l = inChunks(data, n, s::feed, s::end).get(0);
                assertEquals(Kind.TOO_LONG, l.kind(), at);
                assertEquals(Action.SUBSTITUTE, l.action(), at);
                assertEquals(Optional.of(SUBSTITUTE_7), l.actionText(), at);
                assertTrue(l.note().isPresent(), at);
                assertEquals(0, s.outstanding(), at);
            }
        }
    }

    @Test
    void aRequestAfterAByteOrderMarkIsForwardedInItsNormalForm() {
        String request = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{}}";
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] line = concat(bom, b(request));
        Classification c = Envelope.classify(line, Profile.MCP);
        assertEquals(Kind.REQUEST, c.kind());
        // Spans count from the line's first byte, the mark's.
        assertEquals(new Span(3 + request.indexOf("\"id\":0") + 5, 1), c.idSpan());
        assertEquals("0", new String(c.idSpan().in(line), StandardCharsets.UTF_8));
        // The JSON-RPC profile keeps its rule: no byte order mark.
        assertEquals(Kind.PARSE_ERROR, Envelope.classify(line, Profile.JSONRPC).kind());
        byte[] data = concat(line, b("\n"));
        for (Role role : Role.values()) {
            for (int n = 1; n <= data.length; n++) {
                try (Session s = new Session(role, Profile.MCP)) {
                    List<Line> got = inChunks(data, n, s::feed, s::end);
                    assertEquals(1, got.size());
                    assertEquals(Action.FORWARD, got.get(0).action(), role + ", " + n);
                    assertArrayEquals(line, got.get(0).bytes());
                    assertEquals(Optional.of(request), got.get(0).actionText(), role + ", " + n);
                }
            }
        }
    }

    @Test
    void aBatchOfRequestsIsAnsweredWithOneTextOfSeveralLines() {
        String batch = "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"2\",\"method\":\"tools/list\"}]";
        String noBatches = ",\"error\":{\"code\":-32600,"
                + "\"message\":\"Invalid Request: MCP has no batches; send each request on its own line\"}}";
        String want = "{\"jsonrpc\":\"2.0\",\"id\":1" + noBatches + "\n{\"jsonrpc\":\"2.0\",\"id\":\"2\"" + noBatches;
        Classification c = Envelope.classify(batch, Profile.MCP);
        assertEquals(Kind.BATCH, c.kind());
        assertEquals(Optional.of(want), c.replyServer());
        assertEquals(Optional.empty(), c.replyClient());
        assertEquals(Optional.of(want), Envelope.invalidReply(b(batch), Role.SERVER, Profile.MCP));
        assertEquals(Optional.empty(), Envelope.invalidReply(b(batch), Role.CLIENT, Profile.MCP));
        byte[] data = b(batch + "\n");
        for (int n = 1; n <= 70; n++) {
            try (Session s = new Session(Role.SERVER, Profile.MCP)) {
                List<Line> got = inChunks(data, n, s::feed, s::end);
                assertEquals(1, got.size());
                assertEquals(Action.ANSWER, got.get(0).action());
                // One text, one reply a line, in the batch's order.
                String text = got.get(0).actionText().orElseThrow();
                assertEquals(want, text);
                assertEquals(2, text.split("\n").length);
            }
        }
        try (Session s = new Session(Role.CLIENT, Profile.MCP)) {
            assertEquals(Action.DIVERT, s.feed(data).get(0).action());
        }
    }

    @Test
    void aDamagedRequestIsAnsweredByItsReadableId() {
        byte[] line = concat(b("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"text\":\"a"),
                new byte[] {(byte) 0xFF});
        line = concat(line, b("b\"}}"));
        Classification c = Envelope.classify(line, Profile.MCP);
        assertEquals(Kind.PARSE_ERROR, c.kind());
        assertEquals(Optional.of("3"), c.id());
        assertEquals(Optional.of("tools/call"), c.method());
        String want = "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";
        assertEquals(Optional.of(want), c.replyServer());
        try (Session s = new Session(Role.SERVER, Profile.MCP)) {
            Line l = s.feed(concat(line, b("\n"))).get(0);
            assertEquals(Action.ANSWER, l.action());
            assertEquals(Optional.of(want), l.actionText());
        }
        // The JSON-RPC profile: a parse error as before, with no id.
        Classification j = Envelope.classify(line, Profile.JSONRPC);
        assertEquals(Kind.PARSE_ERROR, j.kind());
        assertTrue(j.id().isEmpty(), j.toString());
    }

    @Test
    void sessionActions() {
        // A server reading its client by the MCP profile: a request is forwarded; a line owed a
        // reply is answered with exactly the reply the vectors give (here: the classification's); a
        // response is dropped, as the session was told of no request (SPEC 10.8 (a)).
        try (Session s = new Session(Role.SERVER, Profile.MCP)) {
            for (Vectors.Vector v : VectorsTest.oneLineVectors("mcp.jsonl")) {
                List<Line> lines = s.feed(concat(v.input(), new byte[] {'\n'}));
                assertEquals(1, lines.size(), v.name());
                Line l = lines.get(0);
                Vectors.check(v, l.classification());
                Optional<String> owed = Vectors.opt(v.v(), "reply_server");
                if (owed.isPresent()) {
                    assertEquals(Action.ANSWER, l.action(), v.name());
                    assertEquals(owed, l.actionText(), v.name());
                }
                if (l.kind() == Kind.RESPONSE) {
                    assertEquals(Action.DROP, l.action(), v.name());
                }
                if (l.action() == Action.FORWARD) {
                    assertTrue(l.kind().isMessage(), v.name());
                    assertTrue(l.note().isEmpty(), v.name());
                } else {
                    assertTrue(l.note().isPresent(), v.name() + ": " + l.action() + " without a note");
                }
            }
        }
    }

    @Test
    void sessionSentAndRefused() {
        // A client reading its server: the request it sent is outstanding until the response comes.
        try (Session s = new Session(Role.CLIENT, Profile.MCP)) {
            assertEquals(0, s.outstanding());
            s.sent("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}");
            assertEquals(1, s.outstanding());
            List<Line> lines = s.feed(b("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}\n"));
            assertEquals(Action.FORWARD, lines.get(0).action());
            assertEquals(0, s.outstanding());
            // The SDK refused a response with a number id: a substitute (the error response for that id).
            s.sent("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}");
            Decision d = s.refused("{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}");
            assertEquals(Action.SUBSTITUTE, d.action());
            assertTrue(d.text().orElseThrow().contains("\"id\":6"), d.toString());
            assertTrue(d.note().isPresent());
        }
        try (Session s = new Session(Role.SERVER, Profile.MCP)) {
            // A refused request is answered with -32600 for its id.
            Decision d = s.refused("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}");
            assertEquals(Action.ANSWER, d.action());
            assertTrue(d.text().orElseThrow().contains("-32600") && d.text().get().contains("\"id\":1"), d.toString());
            // A refused notification: dropped.
            assertEquals(Action.DROP, s.refused("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}").action());
        }
    }

    @Test
    void aServerDropsAResponseNobodyWaitsFor() {
        // SPEC 10.8 (a), MCP profile: a server drops a response to no request it was told of, and forwards
        // one to a request it sent (outstanding until then); a client forwards it either way.
        byte[] response = b("{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"result\":{}}\n");
        try (Session s = new Session(Role.SERVER, Profile.MCP)) {
            Line l = s.feed(response).get(0);
            assertEquals(Kind.RESPONSE, l.kind());
            assertEquals(Action.DROP, l.action());
            assertTrue(l.note().isPresent());
            s.sent("{\"jsonrpc\":\"2.0\",\"id\":\"r1\",\"method\":\"roots/list\"}");
            assertEquals(1, s.outstanding());
            l = s.feed(response).get(0);
            assertEquals(Action.FORWARD, l.action());
            assertTrue(l.note().isEmpty());
            assertEquals(0, s.outstanding());
            // Answered once: the same response again waits on nothing.
            assertEquals(Action.DROP, s.feed(response).get(0).action());
        }
        try (Session s = new Session(Role.CLIENT, Profile.MCP)) {
            assertEquals(Action.FORWARD, s.feed(response).get(0).action());
        }
        // The JSON-RPC profile is unchanged: forwarded in either role.
        for (Role role : Role.values()) {
            try (Session s = new Session(role, Profile.JSONRPC)) {
                assertEquals(Action.FORWARD, s.feed(response).get(0).action(), role.toString());
            }
        }
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
