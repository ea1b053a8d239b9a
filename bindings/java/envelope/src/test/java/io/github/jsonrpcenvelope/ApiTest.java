package io.github.jsonrpcenvelope;

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
        assertEquals(16L << 20, Envelope.defaultMaxLine());
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

    @Test
    void sessionActions() {
        // A server reading its client by the MCP profile: a request is forwarded; a line owed a
        // reply is answered with exactly the reply the vectors give (here: the classification's).
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

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
