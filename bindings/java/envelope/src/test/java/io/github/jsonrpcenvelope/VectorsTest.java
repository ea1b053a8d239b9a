package io.github.jsonrpcenvelope;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every vector of envelope.jsonl (JSON-RPC profile) and mcp.jsonl (MCP profile), byte for byte. */
class VectorsTest {

    static Stream<Arguments> vectors() {
        List<Arguments> out = new ArrayList<>();
        for (Vectors.VectorFile f : Vectors.FILES) {
            for (Vectors.Vector v : Vectors.read(f.name())) {
                out.add(Arguments.of(f.profile(), v));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("vectors")
    void classify(Profile profile, Vectors.Vector v) {
        Vectors.check(v, Envelope.classify(v.input(), profile));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("vectors")
    void invalidReply(Profile profile, Vectors.Vector v) {
        assertEquals(Vectors.opt(v.v(), "reply_server"), Envelope.invalidReply(v.input(), Role.SERVER, profile), "server");
        assertEquals(Vectors.opt(v.v(), "reply_client"), Envelope.invalidReply(v.input(), Role.CLIENT, profile), "client");
    }

    @Test
    void defaultProfileIsJsonRpc() {
        for (Vectors.Vector v : Vectors.read("envelope.jsonl")) {
            Vectors.check(v, Envelope.classify(v.input()));
            assertEquals(Vectors.opt(v.v(), "reply_server"), Envelope.invalidReply(v.input(), Role.SERVER));
        }
    }

    @Test
    void vectorFilesAreWhole() {
        // Every kind the library names is exercised by some vector of some file, but too_long (never from classify).
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (Vectors.VectorFile f : Vectors.FILES) {
            for (Vectors.Vector v : Vectors.read(f.name())) {
                seen.add(v.v().get("kind").asText());
            }
        }
        for (Kind k : Kind.values()) {
            if (k != Kind.TOO_LONG) {
                assertTrue(seen.contains(k.toString()), "no vector of kind " + k);
            }
        }
    }

    @Test
    void logValue() {
        List<JsonNode> records = Vectors.records("log_value.jsonl");
        for (JsonNode v : records) {
            byte[] in = v.hasNonNull("input")
                    ? v.get("input").asText().getBytes(StandardCharsets.UTF_8)
                    : HexFormat.of().parseHex(v.get("input_hex").asText());
            assertEquals(v.get("output").asText(), Envelope.logValue(in), v.get("name").asText());
        }
    }

    // ---- the reader ----------------------------------------------------

    /** The vectors whose input has no LF, joined by LF: the reader gives each back as its vector says. */
    static List<Vectors.Vector> oneLineVectors(String file) {
        List<Vectors.Vector> out = new ArrayList<>();
        for (Vectors.Vector v : Vectors.read(file)) {
            boolean lf = false;
            for (byte b : v.input()) {
                lf |= b == '\n';
            }
            if (!lf) {
                out.add(v);
            }
        }
        return out;
    }

    static byte[] join(List<byte[]> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < lines.size(); i++) {
            if (i > 0) {
                out.write('\n');
            }
            out.writeBytes(lines.get(i));
        }
        return out.toByteArray();
    }

    static List<Line> readInChunks(byte[] data, int n, Profile profile) {
        List<Line> got = new ArrayList<>();
        try (Reader r = new Reader(profile)) {
            for (int off = 0; off < data.length; off += n) {
                got.addAll(r.feed(data, off, Math.min(n, data.length - off)));
            }
            got.addAll(r.end());
        }
        return got;
    }

    static Stream<Arguments> files() {
        return Vectors.FILES.stream().map(f -> Arguments.of(f.name(), f.profile()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void readerAtEveryChunkSize(String file, Profile profile) {
        List<Vectors.Vector> vs = oneLineVectors(file);
        assertTrue(vs.size() > 50, "too few one-line vectors in " + file);
        byte[] data = join(vs.stream().map(Vectors.Vector::input).toList());
        for (int n = 1; n <= 70; n++) {
            List<Line> got = readInChunks(data, n, profile);
            assertEquals(vs.size(), got.size(), n + " at a time: lines");
            for (int i = 0; i < vs.size(); i++) {
                Line l = got.get(i);
                assertEquals(i + 1, l.number(), n + " at a time: number");
                assertArrayEquals(vs.get(i).input(), l.bytes(), n + " at a time: bytes of " + vs.get(i));
                assertEquals(vs.get(i).input().length, l.length());
                assertEquals(Action.NONE, l.action());
                assertTrue(l.actionText().isEmpty() && l.note().isEmpty());
                Vectors.check(vs.get(i), l.classification());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void readerSplitsEveryVectorAtLf(String file, Profile profile) {
        // All the vectors, those with an LF inside included: the reader's lines are the LF-separated pieces,
        // each classified as classify classifies it (which the vectors check above).
        byte[] data = join(Vectors.read(file).stream().map(Vectors.Vector::input).toList());
        List<byte[]> pieces = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= data.length; i++) {
            if (i == data.length || data[i] == '\n') {
                pieces.add(java.util.Arrays.copyOfRange(data, start, i));
                start = i + 1;
            }
        }
        for (int n : new int[] {1, 7, 64, 70, data.length}) {
            List<Line> got = readInChunks(data, n, profile);
            assertEquals(pieces.size(), got.size());
            for (int i = 0; i < pieces.size(); i++) {
                assertArrayEquals(pieces.get(i), got.get(i).bytes());
                assertEquals(Envelope.classify(pieces.get(i), profile), got.get(i).classification());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void readMessages(String file, Profile profile) {
        List<Vectors.Vector> vs = oneLineVectors(file);
        byte[] data = join(vs.stream().map(Vectors.Vector::input).toList());
        InputStream in = new java.io.ByteArrayInputStream(data) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 13));
            }
        };
        try (Stream<Line> lines = Envelope.readMessages(in, profile)) {
            List<Line> got = lines.toList();
            assertEquals(vs.size(), got.size());
            for (int i = 0; i < vs.size(); i++) {
                assertArrayEquals(vs.get(i).input(), got.get(i).bytes());
                Vectors.check(vs.get(i), got.get(i).classification());
            }
        }
    }
}
