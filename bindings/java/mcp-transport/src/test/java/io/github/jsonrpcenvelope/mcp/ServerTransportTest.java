package io.github.jsonrpcenvelope.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The SDK's server on our transport and, as the control, on its own: every
 * one-line vector of mcp.jsonl, each followed by a ping. On ours every ping
 * is answered and every owed reply is the vector's, byte for byte; on the
 * SDK's own, the first line it cannot decode ends the session.
 */
class ServerTransportTest {
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    record Vector(String name, byte[] input, Optional<String> replyServer) {}

    static List<Vector> vectors() throws IOException {
        Path root = Path.of(System.getProperty("jsonrpc.envelope.root", "../../..")).toAbsolutePath().normalize();
        List<Vector> out = new ArrayList<>();
        for (String l : Files.readAllLines(root.resolve("tests/vectors/mcp.jsonl"), StandardCharsets.UTF_8)) {
            if (l.isBlank()) {
                continue;
            }
            JsonNode v = JSON.readTree(l);
            byte[] in = v.hasNonNull("line") ? v.get("line").asString().getBytes(StandardCharsets.UTF_8)
                    : HexFormat.of().parseHex(v.get("line_hex").asString());
            boolean oneLine = true;
            for (byte b : in) {
                oneLine &= b != '\n';
            }
            if (oneLine) {
                JsonNode r = v.get("reply_server");
                out.add(new Vector(v.get("name").asString(), in,
                        r == null || r.isNull() ? Optional.empty() : Optional.of(r.asString())));
            }
        }
        assertTrue(out.size() > 100, "vectors: " + out.size());
        return out;
    }

    /** A server with one echo tool on the transport made from its stdin and stdout. */
    static final class Harness implements AutoCloseable {
        final PipedOutputStream toServer = new PipedOutputStream();
        final PipedInputStream fromServer = new PipedInputStream(1 << 20);
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final McpSyncServer server;

        Harness(Function<Map.Entry<PipedInputStream, OutputStream>, McpServerTransportProvider> transport)
                throws IOException {
            PipedInputStream stdin = new PipedInputStream(toServer, 1 << 20);
            PipedOutputStream stdout = new PipedOutputStream(fromServer);
            McpJsonMapper mapper = McpJsonDefaults.getMapper();
            McpSchema.Tool echo = McpSchema.Tool.builder("echo", mapper,
                    "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}")
                    .description("echoes its text").build();
            server = McpServer.sync(transport.apply(Map.entry(stdin, stdout)))
                    .serverInfo("echo", "1.0.0")
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                    .toolCall(echo, (exchange, req) -> McpSchema.CallToolResult.builder()
                            .addTextContent(String.valueOf(req.arguments().get("text"))).build())
                    .build();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(fromServer, StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        lines.add(l);
                    }
                } catch (IOException e) {
                    // the server's end closed
                }
            }, "test-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        void send(byte[] line) throws IOException {
            toServer.write(line);
            toServer.write('\n');
            toServer.flush();
        }

        void send(String line) throws IOException {
            send(line.getBytes(StandardCharsets.UTF_8));
        }

        /** The lines written until one has the id {@code id} (that one last), or null after a timeout. */
        List<String> until(String id, long seconds) throws Exception {
            List<String> got = new ArrayList<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (true) {
                String l = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (l == null) {
                    return null;
                }
                got.add(l);
                JsonNode n = JSON.readTree(l);
                if (n.has("id") && n.get("id").isString() && n.get("id").asString().equals(id)
                        && (n.has("result") || n.has("error"))) {
                    return got;
                }
            }
        }

        /**
         * The lines written until there was a response with each of the string ids {@code ids} (the SDK
         * answers the requests it is handed in any order), or null after a timeout.
         */
        List<String> untilAll(List<String> ids, long seconds) throws Exception {
            List<String> got = new ArrayList<>();
            List<String> waiting = new ArrayList<>(ids);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (!waiting.isEmpty()) {
                String l = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (l == null) {
                    return null;
                }
                got.add(l);
                JsonNode n = JSON.readTree(l);
                if (n.has("id") && n.get("id").isString() && (n.has("result") || n.has("error"))) {
                    waiting.remove(n.get("id").asString());
                }
            }
            return got;
        }

        @Override
        public void close() {
            server.closeGracefully();
        }
    }

    static void initialize(Harness h) throws Exception {
        h.send(INIT);
        List<String> got = h.until("init", 10);
        assertNotNull(got, "no answer to initialize");
        assertTrue(got.get(got.size() - 1).contains("\"result\""), got.toString());
        h.send(INITIALIZED);
    }

    @Test
    void everyVectorThenAPingOnOurs() throws Exception {
        try (Harness h = new Harness(io -> new EnvelopeStdioServerTransportProvider(McpJsonDefaults.getMapper(),
                io.getKey(), io.getValue()))) {
            initialize(h);
            int i = 0;
            int owed = 0;
            for (Vector v : vectors()) {
                i++;
                h.send(v.input());
                h.send("{\"jsonrpc\":\"2.0\",\"id\":\"ping-" + i + "\",\"method\":\"ping\"}");
                List<String> got = h.until("ping-" + i, 10);
                assertNotNull(got, v.name() + ": the ping after it was not answered");
                if (v.replyServer().isPresent()) {
                    owed++;
                    // A batch's reply is one reply a line (SPEC 10.6 (b)): each is written, whole.
                    for (String reply : v.replyServer().get().split("\n")) {
                        assertTrue(got.contains(reply), v.name() + ": owed " + reply + ", got " + got);
                    }
                }
            }
            assertTrue(owed > 50, "owed replies: " + owed);
            // A tool call still works at the end.
            h.send("{\"jsonrpc\":\"2.0\",\"id\":\"call\",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                    + "\"arguments\":{\"text\":\"still here\"}}}");
            List<String> got = h.until("call", 10);
            assertNotNull(got);
            assertTrue(got.get(got.size() - 1).contains("still here"), got.toString());
        }
    }

    /** 5,000 lines made from the vectors by a seeded random walk: cut, bytes changed, inserted, doubled. */
    static List<byte[]> randomLines() throws IOException {
        List<Vector> vs = vectors();
        java.util.Random rng = new java.util.Random(25);
        List<byte[]> out = new ArrayList<>();
        while (out.size() < 5000) {
            byte[] b = vs.get(rng.nextInt(vs.size())).input().clone();
            int edits = 1 + rng.nextInt(3);
            for (int e = 0; e < edits && b.length > 0; e++) {
                int at = rng.nextInt(b.length);
                switch (rng.nextInt(4)) {
                    case 0 -> b = java.util.Arrays.copyOf(b, at); // cut
                    case 1 -> b[at] = (byte) rng.nextInt(256); // change
                    case 2 -> { // insert one of the bytes JSON cares about
                        byte[] c = new byte[b.length + 1];
                        System.arraycopy(b, 0, c, 0, at);
                        String set = "{}[]\",:\\ \r\t0-1e.\u00e9";
                        c[at] = (byte) set.charAt(rng.nextInt(set.length()));
                        System.arraycopy(b, at, c, at + 1, b.length - at);
                        b = c;
                    }
                    default -> { // the line twice
                        byte[] c = java.util.Arrays.copyOf(b, b.length * 2);
                        System.arraycopy(b, 0, c, b.length, b.length);
                        b = c;
                    }
                }
            }
            for (int i = 0; i < b.length; i++) {
                if (b[i] == '\n') {
                    b[i] = ' ';
                }
            }
            out.add(b);
        }
        return out;
    }

    @Test
    void randomLinesThenAPingOnOurs() throws Exception {
        try (Harness h = new Harness(io -> new EnvelopeStdioServerTransportProvider(McpJsonDefaults.getMapper(),
                io.getKey(), io.getValue()))) {
            initialize(h);
            int i = 0;
            int owed = 0;
            for (byte[] line : randomLines()) {
                i++;
                h.send(line);
                h.send("{\"jsonrpc\":\"2.0\",\"id\":\"ping-" + i + "\",\"method\":\"ping\"}");
                List<String> got = h.until("ping-" + i, 10);
                assertNotNull(got, "line " + i + ": the ping after it was not answered: "
                        + new String(line, StandardCharsets.UTF_8));
                Optional<String> reply = io.github.jsonrpcenvelope.Envelope.classify(line,
                        io.github.jsonrpcenvelope.Profile.MCP).replyServer();
                if (reply.isPresent()) {
                    owed++;
                    for (String r : reply.get().split("\n")) {
                        assertTrue(got.contains(r), "line " + i + ": owed " + r + ", got " + got);
                    }
                }
            }
            assertTrue(owed > 1000, "owed replies: " + owed);
        }
    }

    static byte[] bytes(Object... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (Object p : parts) {
            out.writeBytes(p instanceof byte[] b ? b : ((String) p).getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    /** A line whose ids ({@code ids}) are each owed a response: an error with {@code code}, or a result (null). */
    record Owed(String name, byte[] line, List<String> ids, Integer code) {}

    /**
     * SPEC 10.6 through the SDK's server on our transport: a batch of two requests, a request after a byte
     * order mark, a damaged request, a request cut short and a request longer than the library's default
     * line limit (read from the library) each get a response for every id they hold, and the session goes on.
     */
    @Test
    void everyRequestWhoseIdIsInTheLineIsAnsweredOnOurs() throws Exception {
        long max = io.github.jsonrpcenvelope.Envelope.maxLine(io.github.jsonrpcenvelope.Profile.MCP);
        assertTrue(max < Integer.MAX_VALUE - 1000, "default limit " + max);
        byte[] head = bytes("{\"jsonrpc\":\"2.0\",\"id\":\"long\",\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"echo\",\"arguments\":{\"text\":\"");
        byte[] tail = bytes("\"}}}");
        byte[] tooLong = new byte[(int) max + 1];
        java.util.Arrays.fill(tooLong, (byte) 'x');
        System.arraycopy(head, 0, tooLong, 0, head.length);
        System.arraycopy(tail, 0, tooLong, tooLong.length - tail.length, tail.length);
        List<Owed> cases = List.of(
                new Owed("a batch of two requests",
                        bytes("[{\"jsonrpc\":\"2.0\",\"id\":\"b1\",\"method\":\"ping\"},"
                                + "{\"jsonrpc\":\"2.0\",\"id\":\"b2\",\"method\":\"tools/list\"}]"),
                        List.of("b1", "b2"), -32600),
                new Owed("a request after a byte order mark",
                        bytes(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                                "{\"jsonrpc\":\"2.0\",\"id\":\"bom\",\"method\":\"ping\"}"),
                        List.of("bom"), null),
                new Owed("a damaged request (a byte FF inside params)",
                        bytes("{\"jsonrpc\":\"2.0\",\"id\":\"damaged\",\"method\":\"tools/call\",\"params\":{\"name\":"
                                + "\"echo\",\"arguments\":{\"text\":\"a", new byte[] {(byte) 0xFF}, "b\"}}}"),
                        List.of("damaged"), -32700),
                new Owed("a request cut short",
                        bytes("{\"jsonrpc\":\"2.0\",\"id\":\"cut\",\"method\":\"tools/call\",\"params\":{\"name\":\"ec"),
                        List.of("cut"), -32700),
                new Owed("a request longer than the default line limit", tooLong, List.of("long"), -32600));
        try (Harness h = new Harness(io -> new EnvelopeStdioServerTransportProvider(McpJsonDefaults.getMapper(),
                io.getKey(), io.getValue()))) {
            initialize(h);
            int i = 0;
            for (Owed c : cases) {
                i++;
                h.send(c.line());
                h.send("{\"jsonrpc\":\"2.0\",\"id\":\"ping-" + i + "\",\"method\":\"ping\"}");
                List<String> waitFor = new ArrayList<>(c.ids());
                waitFor.add("ping-" + i);
                List<String> got = h.untilAll(waitFor, 60);
                assertNotNull(got, c.name() + ": no response to each of " + waitFor);
                for (String id : c.ids()) {
                    List<JsonNode> answers = new ArrayList<>();
                    for (String l : got) {
                        JsonNode n = JSON.readTree(l);
                        if (n.has("id") && n.get("id").isString() && n.get("id").asString().equals(id)) {
                            answers.add(n);
                        }
                    }
                    assertEquals(1, answers.size(), c.name() + ": responses with id " + id + " in " + got);
                    JsonNode a = answers.get(0);
                    if (c.code() == null) {
                        assertTrue(a.has("result") && !a.has("error"), c.name() + ": " + a);
                    } else {
                        assertEquals(c.code().intValue(), a.get("error").get("code").asInt(), c.name() + ": " + a);
                    }
                }
            }
            // The session did not end: a tool call still works.
            h.send("{\"jsonrpc\":\"2.0\",\"id\":\"call\",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                    + "\"arguments\":{\"text\":\"still here\"}}}");
            List<String> got = h.until("call", 10);
            assertNotNull(got, "the session ended");
            assertTrue(got.get(got.size() - 1).contains("still here"), got.toString());
        }
    }

    @Test
    void theSdksOwnTransportEndsAtTheFirstBrokenLine() throws Exception {
        try (Harness h = new Harness(io -> new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
                io.getKey(), io.getValue()))) {
            initialize(h);
            h.send("{\"jsonrpc\":\"2.0\",\"id\":\"p0\",\"method\":\"ping\"}");
            assertNotNull(h.until("p0", 10));
            h.send("{not json");
            h.send("{\"jsonrpc\":\"2.0\",\"id\":\"p1\",\"method\":\"ping\"}");
            assertNull(h.until("p1", 3), "the SDK's own transport answered after a broken line");
        }
    }

    @Test
    void aBrokenLineIsAnsweredOnOurs() throws Exception {
        try (Harness h = new Harness(io -> new EnvelopeStdioServerTransportProvider(McpJsonDefaults.getMapper(),
                io.getKey(), io.getValue()))) {
            initialize(h);
            h.send("{not json");
            h.send("{\"jsonrpc\":\"2.0\",\"id\":\"p1\",\"method\":\"ping\"}");
            List<String> got = h.until("p1", 10);
            assertNotNull(got);
            assertEquals(2, got.size(), got.toString());
            assertTrue(got.get(0).contains("-32700"), got.toString());
            assertFalse(got.get(1).contains("error"), got.toString());
        }
    }
}
