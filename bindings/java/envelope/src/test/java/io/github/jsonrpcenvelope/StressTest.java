package io.github.jsonrpcenvelope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class StressTest {
    /** This process's resident set, in KiB (Linux). */
    static long rssKiB() throws IOException {
        for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (l.startsWith("VmRSS:")) {
                return Long.parseLong(l.replaceAll("[^0-9]", ""));
            }
        }
        throw new IllegalStateException("no VmRSS");
    }

    static List<byte[]> inputs() {
        List<byte[]> out = new ArrayList<>();
        for (Vectors.VectorFile f : Vectors.FILES) {
            for (Vectors.Vector v : Vectors.read(f.name())) {
                out.add(v.input());
            }
        }
        return out;
    }

    @Test
    void aMillionCallsWithoutGrowth() throws IOException {
        List<byte[]> in = inputs();
        // The heap is all resident from the start (-Xms = -Xmx, AlwaysPreTouch: see the pom), so what
        // RSS gains is native memory. Warm up (JIT, the allocator's pools) with the same calls, then measure.
        calls(in, 300_000);
        System.gc();
        long before = rssKiB();
        long kinds = calls(in, 1_000_000);
        System.gc();
        long after = rssKiB();
        assertTrue(kinds > 0);
        // Leaking one allocation a call would be 32 MB at least (malloc's smallest chunk).
        assertTrue(after - before < 12 * 1024, "RSS grew from " + before + " KiB to " + after + " KiB");
    }

    @Test
    void readersSessionsAndRelaysNeverClosedAreFreedByTheCleaner() throws InterruptedException {
        byte[] chunk = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{\"partial".getBytes();
        long before = Owned.LIVE.get();
        Reader closed = new Reader(Profile.MCP);
        assertEquals(before + 1, Owned.LIVE.get());
        closed.close();
        assertEquals(before, Owned.LIVE.get(), "close() frees at once");
        closed.close();
        assertEquals(before, Owned.LIVE.get(), "a second close() does nothing");
        abandon(chunk, 50_000);
        // The collector finds them unreachable and the cleaner frees each (its library object and arena).
        for (int i = 0; i < 200 && Owned.LIVE.get() > before; i++) {
            System.gc();
            Thread.sleep(50);
        }
        assertEquals(before, Owned.LIVE.get(), "readers, sessions and relays never closed are freed by the cleaner");
    }

    /** n readers, sessions and relays, each fed a chunk that leaves a partial line buffered, none closed. */
    static void abandon(byte[] chunk, int n) {
        for (int i = 0; i < n; i++) {
            switch (i % 3) {
                case 0 -> new Reader(Profile.MCP).feed(chunk);
                case 1 -> new Session(Role.SERVER, Profile.MCP).feed(chunk);
                default -> new Relay(Profile.MCP).feed(Direction.TO_HOST, chunk);
            }
        }
    }

    /** n classify calls (and invalidReply, logValue, sessions and relays among them); returns the sum of the kinds. */
    static long calls(List<byte[]> in, int n) {
        Profile[] profiles = Profile.values();
        Role[] roles = Role.values();
        long kinds = 0;
        for (int i = 0; i < n; i++) {
            byte[] line = in.get(i % in.size());
            kinds += Envelope.classify(line, profiles[i % 2]).kind().value();
            if (i % 10 == 0) {
                Envelope.invalidReply(line, roles[i % 2], profiles[(i / 10) % 2]);
                Envelope.logValue(line);
            }
            if (i % 1000 == 0) {
                try (Session s = new Session(roles[i % 2], Profile.MCP)) {
                    s.feed(line);
                    s.sent(line);
                    s.end();
                }
                try (Relay r = new Relay(Profile.MCP)) {
                    Direction d = Direction.readBy(roles[i % 2]);
                    r.feed(d, line);
                    r.wrote(Action.ANSWER.goes(d).orElseThrow(), line);
                    r.refused(d, line);
                    r.end(d);
                }
            }
        }
        return kinds;
    }

    @Test
    void manyThreadsGetTheSameResults() throws Exception {
        List<byte[]> in = inputs();
        List<Classification> want = new ArrayList<>();
        for (byte[] l : in) {
            want.add(Envelope.classify(l, Profile.MCP));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                final int seed = t;
                results.add(pool.submit(() -> {
                    int checked = 0;
                    for (int round = 0; round < 200; round++) {
                        for (int i = 0; i < in.size(); i++) {
                            int k = (i * 7 + seed + round) % in.size();
                            assertEquals(want.get(k), Envelope.classify(in.get(k), Profile.MCP));
                            checked++;
                        }
                    }
                    // A reader each, and one shared session taking turns.
                    try (Reader r = new Reader(Profile.MCP)) {
                        for (byte[] l : in) {
                            r.feed(l);
                            r.feed(new byte[] {'\n'});
                        }
                    }
                    return checked;
                }));
            }
            for (Future<Integer> f : results) {
                assertEquals(200 * in.size(), f.get());
            }
        } finally {
            pool.shutdown();
        }
    }
}
