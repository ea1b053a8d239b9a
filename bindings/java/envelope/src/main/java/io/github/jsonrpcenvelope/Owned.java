package io.github.jsonrpcenvelope;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A library object that outlives a call (a reader, a session or a relay) and
 * the arena of its batch: fed, ended, and freed exactly once, by {@link #close()},
 * or, only as a safety net, by a {@link Cleaner} when its owner becomes
 * unreachable without having been closed. Its owner serializes the calls.
 * Every batch the library gives it becomes Lines in one place, {@link #lines}.
 */
final class Owned {
    /**
     * The library's functions of one kind of object, and the prefix of their names. {@code feed}
     * and {@code end} take the object, (the bytes,) and the batch; a relay's take a direction too,
     * so it has none here and calls {@link #lines} with its own.
     */
    record Functions(String prefix, MethodHandle feed, MethodHandle end, MethodHandle free) {}

    static final Functions READER = new Functions("jsonrpc_reader", Native.READER_FEED, Native.READER_END,
            Native.READER_FREE);
    static final Functions SESSION = new Functions("jsonrpc_session", Native.SESSION_FEED, Native.SESSION_END,
            Native.SESSION_FREE);
    static final Functions RELAY = new Functions("jsonrpc_relay", null, null, Native.RELAY_FREE);

    /** One call of the library's that fills {@code batch}, the owned object's; returns its status. */
    @FunctionalInterface
    interface Fill {
        int call(MemorySegment handle, MemorySegment batch) throws Throwable;
    }

    private static final Cleaner CLEANER = Cleaner.create();
    /** How many are not freed yet (for the tests of the safety net). */
    static final AtomicLong LIVE = new AtomicLong();

    /** The library's object. */
    final MemorySegment handle;
    /** Where the library describes its last batch (a JsonRpcBatch). */
    final MemorySegment batch;
    private final Cleaner.Cleanable cleanable;

    private final Functions functions;

    /**
     * Takes {@code handle}, made by the {@code functions}' {@code _new} (NULL: it failed, for want of
     * memory); {@code owner} is the Java object that holds it.
     */
    Owned(MemorySegment handle, Functions functions, Object owner) {
        if (handle.equals(MemorySegment.NULL)) {
            throw new EnvelopeException(functions.prefix() + "_new failed (out of memory)");
        }
        this.functions = functions;
        MethodHandle free = functions.free();
        Arena arena = Arena.ofShared();
        this.handle = handle;
        try {
            this.batch = arena.allocate(Native.BATCH);
        } catch (RuntimeException | Error e) {
            arena.close();
            try {
                free.invokeExact(handle);
            } catch (Throwable t) {
                e.addSuppressed(t);
            }
            throw e;
        }
        // The action holds the handle and the arena, never the owner, or the owner would never be unreachable.
        LIVE.incrementAndGet();
        this.cleanable = CLEANER.register(owner, () -> {
            LIVE.decrementAndGet();
            try {
                free.invokeExact(handle);
            } catch (Throwable t) {
                throw Native.rethrow(t);
            } finally {
                arena.close();
            }
        });
    }

    /** The next {@code len} bytes of the stream at {@code data[off]}; returns the lines they complete. */
    List<Line> feed(byte[] data, int off, int len) {
        java.util.Objects.checkFromIndexSize(off, len, data.length);
        MemorySegment in = Native.heap(data, off, len);
        MethodHandle feed = functions.feed();
        return lines(functions.prefix() + "_feed", (h, b) -> (int) feed.invokeExact(h, in, (long) len, b));
    }

    /** Ends the stream: returns its last line when it had no LF. */
    List<Line> end() {
        MethodHandle end = functions.end();
        return lines(functions.prefix() + "_end", (h, b) -> (int) end.invokeExact(h, b));
    }

    /**
     * Calls {@code fill} (the library's function {@code call}) on the object and its batch; returns
     * the batch's lines, or fails with the status's name unless it is OK.
     */
    List<Line> lines(String call, Fill fill) {
        try {
            Native.check(fill.call(handle, batch), call);
            return Batches.read(batch);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Frees the library's object and the batch; a second call does nothing. */
    void close() {
        cleanable.clean();
    }
}
