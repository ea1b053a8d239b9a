package io.github.jsonrpcenvelope;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The Relay wrapper over jsonrpc_relay_*, and Direction and Action.goes. The expected values are
 * written by hand from the relay's specification (the C header), never computed by the code tested.
 */
class RelayTest {
    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static final String PING_7 = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}";
    static final String RESULT_7 = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}";
    static final String SUBSTITUTE_8 = "{\"jsonrpc\":\"2.0\",\"id\":8,\"error\":{\"code\":-32603,"
            + "\"message\":\"Internal error: the peer's response to this request is not valid MCP\"}}";
    static final String SUBSTITUTE_6 = "{\"jsonrpc\":\"2.0\",\"id\":6,\"error\":{\"code\":-32603,"
            + "\"message\":\"Internal error: the peer's response to this request is not valid MCP\"}}";
    static final String PARSE_ERROR_REPLY = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,"
            + "\"message\":\"Parse error\"}}";
    static final String REFUSED_REPLY_1 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,"
            + "\"message\":\"Invalid Request: the receiving MCP SDK cannot read this request\"}}";

    @Test
    void directionsHaveTheLibrarysValuesAndNames() {
        assertEquals(1, Direction.TO_SERVER.value());
        assertEquals(2, Direction.TO_HOST.value());
        assertEquals(Direction.TO_SERVER, Direction.named("to_server"));
        assertEquals(Direction.TO_HOST, Direction.of(2));
        assertEquals(Direction.TO_SERVER, Direction.readBy(Role.SERVER));
        assertEquals(Direction.TO_HOST, Direction.readBy(Role.CLIENT));
        assertThrows(IllegalArgumentException.class, () -> Direction.of(0));
        assertThrows(IllegalArgumentException.class, () -> Direction.of(3));
        assertThrows(IllegalArgumentException.class, () -> Direction.named("sideways"));
    }

    @Test
    void goesSaysWhereEachActionsTextGoes() {
        for (Direction d : Direction.values()) {
            assertEquals(Optional.of(d), Action.FORWARD.goes(d), d.toString());
            assertEquals(Optional.of(d), Action.SUBSTITUTE.goes(d), d.toString());
            assertEquals(Optional.of(d), Action.ATTRIBUTE.goes(d), d.toString());
            assertEquals(Optional.empty(), Action.DROP.goes(d), d.toString());
            assertEquals(Optional.empty(), Action.DIVERT.goes(d), d.toString());
            assertEquals(Optional.empty(), Action.NONE.goes(d), d.toString());
        }
        // An answer goes back the way the line came.
        assertEquals(Optional.of(Direction.TO_HOST), Action.ANSWER.goes(Direction.TO_SERVER));
        assertEquals(Optional.of(Direction.TO_SERVER), Action.ANSWER.goes(Direction.TO_HOST));
    }

    @Test
    void theLibraryRefusesWhatIsNoDirection() throws Throwable {
        assertNull(Native.nameOf(Native.DIRECTION_NAME, 0));
        assertNull(Native.nameOf(Native.DIRECTION_NAME, 3));
        assertEquals(0, (int) Native.DIRECTION_READ_BY.invokeExact(0));
        assertEquals(0, (int) Native.DIRECTION_READ_BY.invokeExact(3));
        assertEquals(0, (int) Native.ACTION_GOES.invokeExact(1, 0));
        assertEquals(0, (int) Native.ACTION_GOES.invokeExact(2, 3));
        assertEquals(0, (int) Native.ACTION_GOES.invokeExact(9, 1));
        assertEquals(MemorySegment.NULL, (MemorySegment) Native.RELAY_NEW.invokeExact(0, 0L));
        assertEquals(MemorySegment.NULL, (MemorySegment) Native.RELAY_NEW.invokeExact(3, 0L));
    }

    /** A call with a bad direction: the binding's error for JSONRPC_STATUS_UNKNOWN_DIRECTION (6). */
    static void unknownDirection(String call, org.junit.jupiter.api.function.Executable e) {
        EnvelopeException x = assertThrows(EnvelopeException.class, e, call);
        assertEquals(6, x.status(), call);
        assertEquals(call + ": unknown_direction", x.getMessage());
    }

    @Test
    void aBadDirectionIsRefusedWithItsStatus() {
        try (Relay r = new Relay(Profile.MCP)) {
            byte[] ping = b(PING_7 + "\n");
            for (int bad : new int[] {0, 3}) {
                unknownDirection("jsonrpc_relay_feed", () -> r.feed(bad, ping, 0, ping.length));
                unknownDirection("jsonrpc_relay_end", () -> r.end(bad));
                unknownDirection("jsonrpc_relay_wrote", () -> r.wrote(bad, b(PING_7)));
                unknownDirection("jsonrpc_relay_refused", () -> r.refused(bad, b(PING_7)));
                assertEquals(0, r.outstanding(bad));
            }
            // Nothing changed: the relay goes on.
            assertEquals(0, r.outstanding(Direction.TO_HOST));
            assertEquals(Action.FORWARD, r.feed(Direction.TO_SERVER, ping).get(0).action());
            assertEquals(1, r.outstanding(Direction.TO_HOST));
        }
    }

    @Test
    void aRequestForwardedToTheServerIsOutstandingForTheHostUntilAnswered() {
        try (Relay r = new Relay(Profile.MCP)) {
            assertEquals(0, r.outstanding(Direction.TO_HOST));
            List<Line> lines = r.feed(Direction.TO_SERVER, b(PING_7 + "\n"));
            assertEquals(1, lines.size());
            Line l = lines.get(0);
            assertEquals(1, l.number());
            assertEquals(Kind.REQUEST, l.kind());
            assertEquals(Action.FORWARD, l.action());
            assertEquals(PING_7, l.text());
            assertEquals(Optional.empty(), l.actionText());
            assertEquals(Optional.empty(), l.note());
            assertEquals(1, r.outstanding(Direction.TO_HOST));
            assertEquals(0, r.outstanding(Direction.TO_SERVER));
            // The server's response clears it.
            l = r.feed(Direction.TO_HOST, b(RESULT_7 + "\n")).get(0);
            assertEquals(Kind.RESPONSE, l.kind());
            assertEquals(Action.FORWARD, l.action());
            assertEquals(0, r.outstanding(Direction.TO_HOST));
            // A broken response to a request outstanding is substituted once, then dropped.
            r.feed(Direction.TO_SERVER, b("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}\n"));
            assertEquals(1, r.outstanding(Direction.TO_HOST));
            byte[] bad = b("{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":[]}\n");
            l = r.feed(Direction.TO_HOST, bad).get(0);
            assertEquals(Action.SUBSTITUTE, l.action());
            assertEquals(Optional.of(SUBSTITUTE_8), l.actionText());
            assertTrue(l.note().isPresent());
            assertEquals(0, r.outstanding(Direction.TO_HOST));
            l = r.feed(Direction.TO_HOST, bad).get(0);
            assertEquals(Action.DROP, l.action());
            assertEquals(Optional.empty(), l.actionText());
            assertTrue(l.note().isPresent());
        }
    }

    @Test
    void eachDirectionIsAStreamOfItsOwnFedInChunksAndEnded() {
        byte[] toServer = b(PING_7 + "\n{\"jsonrpc\":\"2.0\",");
        byte[] toHost = b("{\"jsonrpc\"");
        for (int n = 1; n <= toServer.length; n++) {
            try (Relay r = new Relay(Profile.MCP)) {
                List<Line> server = new ArrayList<>();
                List<Line> host = new ArrayList<>();
                // The two streams, interleaved: neither's partial line touches the other's.
                for (int off = 0; off < toServer.length; off += n) {
                    server.addAll(r.feed(Direction.TO_SERVER, toServer, off, Math.min(n, toServer.length - off)));
                    if (off < toHost.length) {
                        host.addAll(r.feed(Direction.TO_HOST, toHost, off, Math.min(n, toHost.length - off)));
                    }
                }
                String at = n + " at a time";
                assertEquals(1, server.size(), at);
                assertEquals(Action.FORWARD, server.get(0).action(), at);
                assertEquals(PING_7, server.get(0).text(), at);
                assertEquals(List.of(), host, at);
                // The last line of each, without its LF: a parse error, answered to the host, diverted from it.
                List<Line> last = r.end(Direction.TO_SERVER);
                assertEquals(1, last.size(), at);
                assertEquals(2, last.get(0).number(), at);
                assertEquals(Kind.PARSE_ERROR, last.get(0).kind(), at);
                assertEquals(Action.ANSWER, last.get(0).action(), at);
                assertEquals(Optional.of(PARSE_ERROR_REPLY), last.get(0).actionText(), at);
                assertTrue(last.get(0).note().isPresent(), at);
                last = r.end(Direction.TO_HOST);
                assertEquals(1, last.size(), at);
                assertEquals(1, last.get(0).number(), at);
                assertArrayEquals(toHost, last.get(0).bytes(), at);
                assertEquals(Kind.PARSE_ERROR, last.get(0).kind(), at);
                assertEquals(Action.DIVERT, last.get(0).action(), at);
                assertEquals(Optional.empty(), last.get(0).actionText(), at);
                // Ended: nothing more.
                assertEquals(List.of(), r.end(Direction.TO_SERVER), at);
                // Ending a stream keeps what is outstanding: the ping still waits for the server.
                assertEquals(1, r.outstanding(Direction.TO_HOST), at);
            }
        }
    }

    @Test
    void wroteNotesTheSdksOwnRequests() {
        try (Relay r = new Relay(Profile.MCP)) {
            // A server transport: the SDK writes a request to the host.
            r.wrote(Direction.TO_HOST, "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}");
            assertEquals(1, r.outstanding(Direction.TO_SERVER));
            assertEquals(0, r.outstanding(Direction.TO_HOST));
            // The host's error naming no request is attributed to it, the one outstanding.
            Line l = r.feed(Direction.TO_SERVER,
                    b("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}\n")).get(0);
            assertEquals(Action.ATTRIBUTE, l.action());
            assertEquals(Optional.of("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"error\":{\"code\":-32600,\"message\":\"x\"}}"),
                    l.actionText());
            assertTrue(l.note().isPresent());
            assertEquals(0, r.outstanding(Direction.TO_SERVER));
            // A client transport: the SDK writes a request to the server; its bytes, as given.
            r.wrote(Direction.TO_SERVER, b("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}"));
            assertEquals(1, r.outstanding(Direction.TO_HOST));
            // A notification or a response waits for nothing.
            r.wrote(Direction.TO_SERVER, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            r.wrote(Direction.TO_HOST, "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}");
            assertEquals(1, r.outstanding(Direction.TO_HOST));
            assertEquals(0, r.outstanding(Direction.TO_SERVER));
        }
    }

    @Test
    void refusedTwiceIsSettled() {
        try (Relay r = new Relay(Profile.MCP)) {
            r.feed(Direction.TO_SERVER, b("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}\n"));
            assertEquals(1, r.outstanding(Direction.TO_HOST));
            // The client SDK refused the server's response: its substitute, handed on in its place.
            Decision d = r.refused(Direction.TO_HOST, "{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}");
            assertEquals(Action.SUBSTITUTE, d.action());
            assertEquals(Optional.of(SUBSTITUTE_6), d.text());
            assertTrue(d.note().isPresent());
            assertEquals(0, r.outstanding(Direction.TO_HOST));
            // It refused the substitute too: dropped, with a note and no text.
            d = r.refused(Direction.TO_HOST, b(SUBSTITUTE_6));
            assertEquals(Action.DROP, d.action());
            assertEquals(Optional.empty(), d.text());
            assertTrue(d.note().isPresent() && !d.note().get().isEmpty());
            // The server SDK refused a request: answered, back to the host.
            d = r.refused(Direction.TO_SERVER, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}");
            assertEquals(Action.ANSWER, d.action());
            assertEquals(Optional.of(REFUSED_REPLY_1), d.text());
            assertTrue(d.note().isPresent());
            // A refused notification: dropped.
            d = r.refused(Direction.TO_SERVER, "{\"jsonrpc\":\"2.0\",\"method\":\"x\"}");
            assertEquals(Action.DROP, d.action());
            assertEquals(Optional.empty(), d.text());
            // Answers are responses: they leave nothing outstanding.
            assertEquals(0, r.outstanding(Direction.TO_HOST));
            assertEquals(0, r.outstanding(Direction.TO_SERVER));
        }
    }

    static final String TOO_LONG_REPLY = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,"
            + "\"message\":\"Invalid Request: the line is longer than this peer reads\"}}";

    @Test
    void theLineLimitAndTheProfile() {
        String longLine = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"text\":\""
                + "x".repeat(200) + "\"}}";
        try (Relay r = new Relay(Profile.MCP, 64)) {
            Line l = r.feed(Direction.TO_SERVER, b(longLine + "\n")).get(0);
            assertEquals(Kind.TOO_LONG, l.kind());
            assertEquals(longLine.length(), l.length());
            assertEquals(Action.ANSWER, l.action());
            assertEquals(Optional.of(TOO_LONG_REPLY), l.actionText());
        }
        // 0: the profile's default, which this line is within.
        try (Relay r = new Relay(Profile.MCP, 0)) {
            assertEquals(Action.FORWARD, r.feed(Direction.TO_SERVER, b(longLine + "\n")).get(0).action());
        }
        // The JSON-RPC profile tracks nothing.
        try (Relay r = new Relay(Profile.JSONRPC)) {
            assertEquals(Action.FORWARD, r.feed(Direction.TO_SERVER, b(PING_7 + "\n")).get(0).action());
            assertEquals(0, r.outstanding(Direction.TO_HOST));
        }
        assertThrows(IllegalArgumentException.class, () -> new Relay(Profile.MCP, -1));
    }

    @Test
    void aRelayDecidesAsTheSessionOfEachDirection() {
        // Every one-line MCP vector, read in each direction, decided as a session in that
        // direction's role decides it (the same lines, by the same conversion).
        for (Role role : Role.values()) {
            Direction d = Direction.readBy(role);
            try (Relay r = new Relay(Profile.MCP); Session s = new Session(role, Profile.MCP)) {
                for (Vectors.Vector v : VectorsTest.oneLineVectors("mcp.jsonl")) {
                    byte[] line = ApiTest.concat(v.input(), new byte[] {'\n'});
                    List<Line> got = r.feed(d, line);
                    List<Line> want = s.feed(line);
                    assertEquals(want.size(), got.size(), v.name());
                    for (int i = 0; i < want.size(); i++) {
                        Line g = got.get(i);
                        Line w = want.get(i);
                        assertEquals(w.number(), g.number(), v.name());
                        assertArrayEquals(w.bytes(), g.bytes(), v.name());
                        assertEquals(w.classification(), g.classification(), v.name());
                        assertEquals(w.action(), g.action(), v.name());
                        assertEquals(w.actionText(), g.actionText(), v.name());
                        assertEquals(w.note(), g.note(), v.name());
                    }
                }
            }
        }
    }

    @Test
    void aClosedRelayRefusesCalls() {
        long before = Owned.LIVE.get();
        Relay r = new Relay(Profile.MCP);
        assertEquals(before + 1, Owned.LIVE.get());
        r.close();
        assertEquals(before, Owned.LIVE.get());
        r.close();
        assertEquals(before, Owned.LIVE.get());
        assertThrows(IllegalStateException.class, () -> r.feed(Direction.TO_SERVER, b("x\n")));
        assertThrows(IllegalStateException.class, () -> r.end(Direction.TO_HOST));
        assertThrows(IllegalStateException.class, () -> r.wrote(Direction.TO_HOST, "{}"));
        assertThrows(IllegalStateException.class, () -> r.refused(Direction.TO_HOST, "{}"));
        assertThrows(IllegalStateException.class, () -> r.outstanding(Direction.TO_HOST));
    }
}
