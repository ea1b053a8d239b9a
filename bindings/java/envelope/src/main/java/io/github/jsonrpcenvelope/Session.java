package io.github.jsonrpcenvelope;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One endpoint's session (SPEC §8 to §10): a stream reader that also
 * decides, in its role and profile, what to do with each line it reads
 * ({@link Line#action()}), and keeps the ids of the requests written the
 * other way that are still outstanding. A transport feeds it what it reads,
 * tells it what it writes ({@link #sent}), and does what each line's action
 * says; when the SDK's own decoder refuses a line the session handed on, it
 * asks {@link #refused} what to do instead. (The transports use a
 * {@link Relay}: a session for each direction, with the bookkeeping between
 * them.)
 *
 * <p>Holds native memory: close it. Its methods may be called from any
 * thread, one call at a time (they are synchronized), so a transport's
 * reading and writing threads may share it.
 */
public final class Session implements AutoCloseable {
    private Owned owned;

    /** A session with the library's default line limit. */
    public Session(Role role, Profile profile) {
        this(role, profile, 0);
    }

    /** A session whose lines may be {@code maxLine} bytes long (0: the library's default). */
    public Session(Role role, Profile profile, long maxLine) {
        if (maxLine < 0) {
            throw new IllegalArgumentException("maxLine must not be negative, not " + maxLine);
        }
        try {
            owned = new Owned((MemorySegment) Native.SESSION_NEW.invokeExact(role.value(), profile.value(), maxLine), Owned.SESSION, this);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The next bytes read; returns the lines they complete, each with its action. */
    public List<Line> feed(byte[] data) {
        return feed(data, 0, data.length);
    }

    /** The next {@code len} bytes read, at {@code data[off]}; returns the lines they complete. */
    public synchronized List<Line> feed(byte[] data, int off, int len) {
        return live().feed(data, off, len);
    }

    /** Ends the stream read: returns its last line when it had no LF. Outstanding requests are kept. */
    public synchronized List<Line> end() {
        return live().end();
    }

    /** Tells the session of a line written to the peer whose lines it reads (without its LF). */
    public void sent(String line) {
        sent(line.getBytes(StandardCharsets.UTF_8));
    }

    /** Tells the session of a line written to the peer whose lines it reads (without its LF). */
    public synchronized void sent(byte[] line) {
        MemorySegment s = live().handle;
        try {
            int status = (int) Native.SESSION_SENT.invokeExact(s, Native.heap(line, 0, line.length), (long) line.length);
            Native.check(status, "jsonrpc_session_sent");
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** What to do instead when the SDK's own decoder refused {@code line}, which this session handed on. */
    public Decision refused(String line) {
        return refused(line.getBytes(StandardCharsets.UTF_8));
    }

    /** What to do instead when the SDK's own decoder refused {@code line}, which this session handed on. */
    public synchronized Decision refused(byte[] line) {
        MemorySegment s = live().handle;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(Native.DECISION);
            int status = (int) Native.SESSION_REFUSED.invokeExact(s, Native.heap(line, 0, line.length),
                    (long) line.length, out);
            Native.check(status, "jsonrpc_session_refused");
            return Decision.take(out);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** How many requests written the other way still wait for a response. */
    public synchronized long outstanding() {
        MemorySegment s = live().handle;
        try {
            return (long) Native.SESSION_OUTSTANDING.invokeExact(s);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    private Owned live() {
        if (owned == null) {
            throw new IllegalStateException("the session is closed");
        }
        return owned;
    }

    /**
     * Frees the library's session; a second call does nothing. A session never closed is freed
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
