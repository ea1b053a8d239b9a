package io.github.jsonrpcenvelope;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Both directions of one session (h11's {@code Connection} shape): the
 * library's session of each {@link Direction}, both in one profile, each read
 * in the role of its receiver, and the bookkeeping between them. A request
 * handed on in one direction is outstanding for the other until a response
 * read there names it; the library's own answers need no telling. A
 * transport feeds it the bytes of the direction it reads, does what each
 * line's action says ({@link Action#goes} says where its text goes), tells
 * it of the SDK's own lines to the peer ({@link #wrote}), and asks
 * {@link #refused} when the SDK's decoder refuses a line it handed on (the
 * library settles that by the second refusal).
 *
 * <p>Holds native memory: close it. Its methods may be called from any
 * thread, one call at a time (they are synchronized), so a transport's
 * reading and writing threads may share it.
 */
public final class Relay implements AutoCloseable {
    private Owned owned;

    /** A relay with the profile's default line limit. */
    public Relay(Profile profile) {
        this(profile, 0);
    }

    /** A relay whose lines may be {@code maxLine} bytes long (0: the profile's default, {@link Envelope#maxLine}). */
    public Relay(Profile profile, long maxLine) {
        if (maxLine < 0) {
            throw new IllegalArgumentException("maxLine must not be negative, not " + maxLine);
        }
        try {
            owned = new Owned((MemorySegment) Native.RELAY_NEW.invokeExact(profile.value(), maxLine), Owned.RELAY, this);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The next bytes read in {@code direction}; returns the lines they complete, each with its action. */
    public List<Line> feed(Direction direction, byte[] data) {
        return feed(direction.value(), data, 0, data.length);
    }

    /** The next {@code len} bytes read in {@code direction}, at {@code data[off]}; returns the lines they complete. */
    public List<Line> feed(Direction direction, byte[] data, int off, int len) {
        return feed(direction.value(), data, off, len);
    }

    /** Ends {@code direction}'s stream: returns its last line when it had no LF. */
    public List<Line> end(Direction direction) {
        return end(direction.value());
    }

    /** Tells the relay of a line (without its LF) that went in {@code direction} not through it: the SDK's own. */
    public void wrote(Direction direction, String line) {
        wrote(direction.value(), line.getBytes(StandardCharsets.UTF_8));
    }

    /** Tells the relay of a line (without its LF) that went in {@code direction} not through it: the SDK's own. */
    public void wrote(Direction direction, byte[] line) {
        wrote(direction.value(), line);
    }

    /**
     * What to do instead when the receiver of {@code direction} (the SDK's decoder) refused {@code line},
     * which the relay handed on: ANSWER, SUBSTITUTE (a substitute refused in its turn is then DROP) or DROP.
     */
    public Decision refused(Direction direction, String line) {
        return refused(direction.value(), line.getBytes(StandardCharsets.UTF_8));
    }

    /** As {@link #refused(Direction, String)}. */
    public Decision refused(Direction direction, byte[] line) {
        return refused(direction.value(), line);
    }

    /** How many requests written toward the sender of {@code direction}'s lines still wait for its response. */
    public long outstanding(Direction direction) {
        return outstanding(direction.value());
    }

    // The calls by the C ABI's value of a direction: any value reaches the library, which refuses
    // one that is no direction (JSONRPC_STATUS_UNKNOWN_DIRECTION).

    synchronized List<Line> feed(int direction, byte[] data, int off, int len) {
        Owned o = live();
        java.util.Objects.checkFromIndexSize(off, len, data.length);
        MemorySegment in = Native.heap(data, off, len);
        return o.lines("jsonrpc_relay_feed",
                (h, b) -> (int) Native.RELAY_FEED.invokeExact(h, direction, in, (long) len, b));
    }

    synchronized List<Line> end(int direction) {
        return live().lines("jsonrpc_relay_end", (h, b) -> (int) Native.RELAY_END.invokeExact(h, direction, b));
    }

    synchronized void wrote(int direction, byte[] line) {
        MemorySegment r = live().handle;
        try {
            int status = (int) Native.RELAY_WROTE.invokeExact(r, direction, Native.heap(line, 0, line.length),
                    (long) line.length);
            Native.check(status, "jsonrpc_relay_wrote");
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    synchronized Decision refused(int direction, byte[] line) {
        MemorySegment r = live().handle;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(Native.DECISION);
            int status = (int) Native.RELAY_REFUSED.invokeExact(r, direction, Native.heap(line, 0, line.length),
                    (long) line.length, out);
            Native.check(status, "jsonrpc_relay_refused");
            return Decision.take(out);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    synchronized long outstanding(int direction) {
        MemorySegment r = live().handle;
        try {
            return (long) Native.RELAY_OUTSTANDING.invokeExact(r, direction);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    private Owned live() {
        if (owned == null) {
            throw new IllegalStateException("the relay is closed");
        }
        return owned;
    }

    /**
     * Frees the library's relay; a second call does nothing. A relay never closed is freed
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
