package io.github.jsonrpcenvelope;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * jsonrpc-envelope: what a line of JSON-RPC 2.0 traffic is and what reply
 * it is owed, decided by the native library (loaded from the jar, or from
 * the file named by {@code JSONRPC_ENVELOPE_LIB} or the system property
 * {@code jsonrpc.envelope.lib}). Every method may be called from any number
 * of threads at once.
 */
public final class Envelope {
    private Envelope() {}

    /** Scratch for one classification's strings: holds almost every line's (replies included). */
    private static final long SCRATCH = 1024;

    /** Classifies one line (without its LF) by the JSON-RPC profile. */
    public static Classification classify(byte[] line) {
        return classify(line, Profile.JSONRPC);
    }

    /**
     * Each thread's classification and scratch for {@link #classify}, reused from one call to the next
     * (1 KiB and a little: a line's strings almost always fit the scratch, so the call allocates
     * nothing native); freed with the thread.
     */
    private static final ThreadLocal<MemorySegment[]> BUFFERS = ThreadLocal.withInitial(() -> {
        Arena arena = Arena.ofAuto();
        return new MemorySegment[] {arena.allocate(Native.CLASSIFICATION), arena.allocate(SCRATCH)};
    });

    /** Classifies one line (without its LF) by {@code profile}. */
    public static Classification classify(byte[] line, Profile profile) {
        MemorySegment[] buffers = BUFFERS.get();
        MemorySegment out = buffers[0];
        MemorySegment scratch = buffers[1];
        try {
            int status = (int) Native.CLASSIFY_INTO.invokeExact(MemorySegment.ofArray(line), (long) line.length,
                    profile.value(), out, scratch, SCRATCH);
            try {
                Native.check(status, "jsonrpc_classify_into");
                return Classification.read(out, 0, Texts.used(out, scratch));
            } finally {
                Native.CLASSIFICATION_FREE.invokeExact(out);
            }
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Classifies one line given as text (UTF-8-encoded) by {@code profile}. */
    public static Classification classify(String line, Profile profile) {
        return classify(line.getBytes(StandardCharsets.UTF_8), profile);
    }

    /** The one reply owed for {@code line} by the endpoint in {@code role}, by the JSON-RPC profile. */
    public static Optional<String> invalidReply(byte[] line, Role role) {
        return invalidReply(line, role, Profile.JSONRPC);
    }

    /** The one reply owed for {@code line} by the endpoint in {@code role}, by {@code profile}, byte for byte. */
    public static Optional<String> invalidReply(byte[] line, Role role, Profile profile) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment reply = (MemorySegment) Native.INVALID_REPLY.invokeExact((SegmentAllocator) arena,
                    Native.copyIn(arena, line, 0, line.length), (long) line.length, role.value(), profile.value());
            Native.check(reply.get(Native.U32, Native.R_STATUS), "jsonrpc_invalid_reply");
            Optional<String> text = Native.str(reply, Native.R_TEXT);
            Native.STRING_FREE.invokeExact(reply.asSlice(Native.R_TEXT));
            return text;
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * A peer's bytes rendered for one log line (SPEC §5): compact JSON, or
     * text with invalid sequences replaced and control characters escaped,
     * at most 256 UTF-16 units and then an ellipsis.
     */
    public static String logValue(byte[] data) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = (MemorySegment) Native.LOG_VALUE.invokeExact((SegmentAllocator) arena,
                    Native.copyIn(arena, data, 0, data.length), (long) data.length);
            Optional<String> text = Native.str(s, 0);
            Native.STRING_FREE.invokeExact(s);
            return text.orElseThrow(() -> new EnvelopeException("jsonrpc_log_value failed"));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The library's version, such as {@code "0.1.0"}. */
    public static String version() {
        try {
            return Native.cString((MemorySegment) Native.VERSION.invokeExact());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The library's ABI version (checked at load: this binding needs 3). */
    public static int abiVersion() {
        try {
            return (int) Native.ABI_VERSION_FN.invokeExact();
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /**
     * The line limit of a reader or session of {@code profile} made with 0: the library's default for
     * the profile (for MCP, the longest line every official MCP SDK reads).
     */
    public static long maxLine(Profile profile) {
        try {
            return (long) Native.PROFILE_MAX_LINE.invokeExact(profile.value());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The line limit of a JSON-RPC profile reader made with 0: the library's default. */
    public static long defaultMaxLine() {
        try {
            return (long) Native.DEFAULT_MAX_LINE.invokeExact();
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** How many bytes {@link #readMessages} asks its stream for at a time. */
    public static final int CHUNK_SIZE = 64 * 1024;

    /** {@link #readMessages(InputStream, Profile, long)} with the default line limit. */
    public static Stream<Line> readMessages(InputStream in, Profile profile) {
        return readMessages(in, profile, 0);
    }

    /**
     * Every line of a stream, in order, classified by {@code profile}: the
     * stream is read a chunk at a time (lines come as soon as a read returns
     * them) and handed to a {@link Reader}; a last line without LF comes too.
     * The reader is freed when the stream of lines ends or is closed (use
     * try-with-resources when you may stop early). An {@link IOException}
     * from {@code in} is thrown as an {@link UncheckedIOException}.
     */
    public static Stream<Line> readMessages(InputStream in, Profile profile, long maxLine) {
        Reader reader = new Reader(maxLine, profile);
        Iterator<Line> it = new Iterator<>() {
            private final ArrayDeque<Line> ready = new ArrayDeque<>();
            private final byte[] buf = new byte[CHUNK_SIZE];
            private boolean done;

            @Override
            public boolean hasNext() {
                while (ready.isEmpty() && !done) {
                    int n;
                    try {
                        n = in.read(buf);
                    } catch (IOException e) {
                        reader.close();
                        done = true;
                        throw new UncheckedIOException(e);
                    }
                    if (n < 0) {
                        ready.addAll(reader.end());
                        reader.close();
                        done = true;
                    } else {
                        ready.addAll(reader.feed(buf, 0, n));
                    }
                }
                return !ready.isEmpty();
            }

            @Override
            public Line next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return ready.removeFirst();
            }
        };
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(it, Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(reader::close);
    }
}
