package io.github.jsonrpcenvelope;

import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A stream reader (SPEC §6): takes a stream's bytes as they are read and
 * gives back each line they complete, classified by its profile. Lines end
 * at LF; a line over the limit is never held whole and comes once, as
 * {@link Kind#TOO_LONG}, when its end is seen. In the MCP profile its
 * classification may carry the id (and, for a request, the method and the
 * reply a server owes; for a response, the substitute) that its first bytes
 * hold (SPEC §10.6 (d)); its bytes are never kept.
 *
 * <p>Holds native memory: close it (try-with-resources). Its methods may be
 * called from any thread, one call at a time (they are synchronized).
 */
public final class Reader implements AutoCloseable {
    private Owned owned;

    /** A reader with the library's default line limit ({@link Envelope#defaultMaxLine()}). */
    public Reader(Profile profile) {
        this(0, profile);
    }

    /** A reader whose lines may be {@code maxLine} bytes long (0: the library's default). */
    public Reader(long maxLine, Profile profile) {
        if (maxLine < 0) {
            throw new IllegalArgumentException("maxLine must not be negative, not " + maxLine);
        }
        try {
            owned = new Owned((MemorySegment) Native.READER_NEW.invokeExact(maxLine, profile.value()), Owned.READER, this);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The next bytes of the stream; returns the lines they complete. */
    public List<Line> feed(byte[] data) {
        return feed(data, 0, data.length);
    }

    /** The next {@code len} bytes of the stream at {@code data[off]}; returns the lines they complete. */
    public synchronized List<Line> feed(byte[] data, int off, int len) {
        return live().feed(data, off, len);
    }

    /** Ends the stream: returns its last line when it had no LF. The reader is then as new. */
    public synchronized List<Line> end() {
        return live().end();
    }

    private Owned live() {
        if (owned == null) {
            throw new IllegalStateException("the reader is closed");
        }
        return owned;
    }

    /**
     * Frees the library's reader; a second call does nothing. A reader never closed is freed
     * when the garbage collector finds it unreachable, as a safety net only.
     */
    @Override
    public synchronized void close() {
        if (owned != null) {
            Owned o = owned;
            owned = null;
            o.close();
        }
    }
}
