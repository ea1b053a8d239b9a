import io.github.jsonrpcenvelope.Classification;
import io.github.jsonrpcenvelope.Envelope;
import io.github.jsonrpcenvelope.Kind;
import io.github.jsonrpcenvelope.Line;
import io.github.jsonrpcenvelope.Profile;
import io.github.jsonrpcenvelope.Reader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Java binding's classify and reader against what a Java host would write without it: Jackson's
 * readTree of each line, then the envelope read from the tree in Java (object or not, method, id,
 * result, error: request, notification, response or neither, with the id's text and the method).
 * Over the bench corpus (bench/out/{small,medium,large}.jsonl, bench/corpus.py), in one run, in turns:
 * each round runs every row once over the whole corpus file, and each row keeps its fastest round.
 *
 *   java --enable-native-access=ALL-UNNAMED -cp CLASSPATH bench/java/ClassifyBench.java ROUNDS FILE...
 *
 * (make bench-java: the classpath of examples/java, which holds the binding and the MCP SDK's Jackson.)
 */
public final class ClassifyBench {
    static final ObjectMapper JACKSON = JsonMapper.builder().build();

    /** What the envelope says of one line, written with Jackson's tree; returns a number to keep. */
    static long jacksonClassify(byte[] line) {
        JsonNode tree;
        try {
            tree = JACKSON.readTree(line);
        } catch (RuntimeException e) {
            return 1; // parse_error
        }
        if (tree == null || tree.isMissingNode()) {
            return 2; // empty
        }
        if (!tree.isObject()) {
            return tree.isArray() ? 3 : 4; // batch, not an object
        }
        JsonNode method = tree.get("method");
        JsonNode id = tree.get("id");
        String idText = id == null ? null : id.toString();
        if (method != null) {
            if (!method.isString()) {
                return 5; // invalid request
            }
            String name = method.asString();
            return (id == null ? 6 : 7) + name.length() + (idText == null ? 0 : idText.length());
        }
        if (id != null || tree.has("result") || tree.has("error")) {
            return 8 + (idText == null ? 0 : idText.length());
        }
        return 9;
    }

    static long oursClassify(byte[] line) {
        Classification c = Envelope.classify(line, Profile.MCP);
        return c.kind().value() + c.method().map(String::length).orElse(0) + c.id().map(String::length).orElse(0);
    }

    static long oursReader(byte[] stream) {
        long sum = 0;
        try (Reader r = new Reader(Profile.MCP)) {
            for (int at = 0; at < stream.length; at += Envelope.CHUNK_SIZE) {
                for (Line l : r.feed(stream, at, Math.min(Envelope.CHUNK_SIZE, stream.length - at))) {
                    sum += l.kind().value();
                }
            }
            for (Line l : r.end()) {
                sum += l.kind().value();
            }
        }
        return sum;
    }

    static long jacksonStream(byte[] stream) {
        long sum = 0;
        int start = 0;
        for (int i = 0; i < stream.length; i++) {
            if (stream[i] == '\n') {
                sum += jacksonClassify(java.util.Arrays.copyOfRange(stream, start, i));
                start = i + 1;
            }
        }
        return sum;
    }

    record Row(String name, ToLongFunction<byte[]> perLine, ToLongFunction<byte[]> perStream) {}

    public static void main(String[] args) throws IOException {
        int rounds = Integer.parseInt(args[0]);
        List<Row> rows = List.of(
                new Row("Envelope.classify (MCP profile)", ClassifyBench::oursClassify, null),
                new Row("Jackson readTree + envelope in Java", ClassifyBench::jacksonClassify, null),
                new Row("Reader, 64 KiB chunks (MCP profile)", null, ClassifyBench::oursReader),
                new Row("Jackson, lines split + readTree + envelope", null, ClassifyBench::jacksonStream));
        System.out.printf(Locale.ROOT, "Java %s, %d rounds in turns, the fastest round of each row%n%n",
                System.getProperty("java.version"), rounds);
        System.out.println("| corpus | lines | bytes/line | Envelope.classify | Jackson readTree + envelope | ratio | Reader (64 KiB chunks) | Jackson, split + readTree | ratio |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (int f = 1; f < args.length; f++) {
            Path path = Path.of(args[f]);
            byte[] stream = Files.readAllBytes(path);
            List<byte[]> lines = new ArrayList<>();
            int start = 0;
            for (int i = 0; i < stream.length; i++) {
                if (stream[i] == '\n') {
                    lines.add(java.util.Arrays.copyOfRange(stream, start, i));
                    start = i + 1;
                }
            }
            long[] best = new long[rows.size()];
            java.util.Arrays.fill(best, Long.MAX_VALUE);
            long keep = 0;
            // The JIT first: a few rounds not counted.
            for (int round = -5; round < rounds; round++) {
                for (int k = 0; k < rows.size(); k++) {
                    Row row = rows.get((k + Math.max(round, 0)) % rows.size()); // a different row first each round
                    long t = System.nanoTime();
                    if (row.perLine() != null) {
                        for (byte[] line : lines) {
                            keep += row.perLine().applyAsLong(line);
                        }
                    } else {
                        keep += row.perStream().applyAsLong(stream);
                    }
                    long ns = System.nanoTime() - t;
                    int index = rows.indexOf(row);
                    if (round >= 0) {
                        best[index] = Math.min(best[index], ns);
                    }
                }
            }
            double n = lines.size();
            double size = stream.length / n;
            String name = path.getFileName().toString().replace(".jsonl", "");
            System.out.printf(Locale.ROOT, "| %s | %d | %.0f | %s | %s | %.2fx | %s | %s | %.2fx |%n", name, lines.size(), size,
                    figure(best[0], n, size), figure(best[1], n, size), (double) best[1] / best[0],
                    figure(best[2], n, size), figure(best[3], n, size), (double) best[3] / best[2]);
            if (keep == 42) {
                System.out.println();
            }
        }
        System.out.println();
        System.out.println("ratio: Jackson's time over ours (above 1: ours is faster).");
    }

    /** ns per line for short lines, MB/s for long ones. */
    static String figure(long ns, double lines, double bytesPerLine) {
        double perLine = ns / lines;
        return bytesPerLine < 1000 ? String.format(Locale.ROOT, "%.0f ns/line", perLine)
                : String.format(Locale.ROOT, "%.0f MB/s", bytesPerLine / perLine * 1000);
    }
}
