package io.github.jsonrpcenvelope;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The repository's shared vectors (tests/vectors), read with Jackson, and the checks every language runs. */
final class Vectors {
    private Vectors() {}

    static final ObjectMapper JSON = new ObjectMapper();

    static Path root() {
        String dir = System.getProperty("jsonrpc.envelope.root");
        return Path.of(dir != null ? dir : "../../..").toAbsolutePath().normalize();
    }

    static Path file(String name) {
        return root().resolve("tests").resolve("vectors").resolve(name);
    }

    /** A vector file and the profile its records are classified by. */
    record VectorFile(String name, Profile profile) {}

    static final List<VectorFile> FILES = List.of(
            new VectorFile("envelope.jsonl", Profile.JSONRPC), new VectorFile("mcp.jsonl", Profile.MCP));

    static final Set<String> FIELDS = Set.of("name", "line", "line_hex", "kind", "id_kind", "id", "method",
            "jsonrpc_2_0", "has_result", "has_error", "names_no_request", "spans", "reason", "reply_server",
            "reply_client", "substitute");

    /** One vector: its name, its input's bytes and its record. */
    record Vector(String name, byte[] input, JsonNode v) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<JsonNode> records(String name) {
        List<JsonNode> out = new ArrayList<>();
        try {
            for (String l : Files.readAllLines(file(name), StandardCharsets.UTF_8)) {
                if (!l.isBlank()) {
                    out.add(JSON.readTree(l));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (out.isEmpty()) {
            fail(name + ": no vectors");
        }
        return out;
    }

    static List<Vector> read(String name) {
        List<Vector> out = new ArrayList<>();
        for (JsonNode v : records(name)) {
            for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) {
                String f = it.next();
                if (!FIELDS.contains(f)) {
                    fail(name + ": unknown field " + f + " in " + v.get("name"));
                }
            }
            byte[] input;
            if (v.hasNonNull("line")) {
                input = v.get("line").asText().getBytes(StandardCharsets.UTF_8);
            } else if (v.hasNonNull("line_hex")) {
                input = HexFormat.of().parseHex(v.get("line_hex").asText());
            } else {
                throw new AssertionError(name + ": neither line nor line_hex in " + v.get("name"));
            }
            out.add(new Vector(v.get("name").asText(), input, v));
        }
        return out;
    }

    static Optional<String> opt(JsonNode v, String field) {
        JsonNode n = v.get(field);
        return n == null || n.isNull() ? Optional.empty() : Optional.of(n.asText());
    }

    static final Map<String, java.util.function.Function<Classification, Span>> SPANS = Map.of(
            "id", Classification::idSpan,
            "method", Classification::methodSpan,
            "params", Classification::paramsSpan,
            "result", Classification::resultSpan,
            "error", Classification::errorSpan);

    /** Compares c, the classification of the vector's input, with its record, field by field. */
    static void check(Vector vec, Classification c) {
        JsonNode v = vec.v();
        String n = vec.name() + ": ";
        assertEquals(v.get("kind").asText(), c.kind().toString(), n + "kind");
        assertEquals(v.get("id_kind").asText(), c.idKind().toString(), n + "id_kind");
        assertEquals(opt(v, "id"), c.id(), n + "id");
        assertEquals(opt(v, "method"), c.method(), n + "method");
        assertEquals(v.get("jsonrpc_2_0").asBoolean(), c.jsonrpc20(), n + "jsonrpc_2_0");
        assertEquals(v.get("has_result").asBoolean(), c.hasResult(), n + "has_result");
        assertEquals(v.get("has_error").asBoolean(), c.hasError(), n + "has_error");
        assertEquals(v.get("names_no_request").asBoolean(), c.namesNoRequest(), n + "names_no_request");
        JsonNode spans = v.get("spans");
        for (Iterator<String> it = spans.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            assertTrue(SPANS.containsKey(f), n + "unknown span " + f);
        }
        for (var e : SPANS.entrySet()) {
            Span s = e.getValue().apply(c);
            JsonNode want = spans.get(e.getKey());
            if (want == null) {
                assertFalse(s.present(), n + "span " + e.getKey() + " = " + s + ", want none");
            } else {
                assertEquals(new Span(want.get(0).asLong(), want.get(1).asLong()), s, n + "span " + e.getKey());
            }
        }
        if (c.id().isPresent()) {
            assertArrayEquals(c.id().get().getBytes(StandardCharsets.UTF_8), c.idSpan().in(vec.input()),
                    n + "id is not the line's bytes at its span");
        }
        if (v.get("kind").asText().equals("parse_error")) {
            assertTrue(c.reason().isPresent() && !c.reason().get().isEmpty(), n + "parse_error without a reason");
        } else {
            assertEquals(opt(v, "reason"), c.reason(), n + "reason");
        }
        assertEquals(opt(v, "reply_server"), c.replyServer(), n + "reply_server");
        assertEquals(opt(v, "reply_client"), c.replyClient(), n + "reply_client");
        assertEquals(opt(v, "reply_server"), c.reply(Role.SERVER), n + "reply(SERVER)");
        assertEquals(opt(v, "reply_client"), c.reply(Role.CLIENT), n + "reply(CLIENT)");
        assertEquals(opt(v, "substitute"), c.substitute(), n + "substitute");
    }
}
