package io.github.jsonrpcenvelope;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A library object that outlives a call (a reader or a session) and the
 * arena of its batch: fed, ended, and freed exactly once, by {@link #close()},
 * or, only as a safety net, by a {@link Cleaner} when its owner becomes
 * unreachable without having been closed. Its owner serializes the calls.
 */
final class Owned {
    /** The library's functions of one kind of object, and the prefix of their names. */
    record Functions(String prefix, MethodHandle feed, MethodHandle end, MethodHandle free) {}

    static final Functions READER = new Functions("jsonrpc_reader", Native.READER_FEED, Native.READER_END,
            Native.READER_FREE);
    static final Functions SESSION = new Functions("jsonrpc_session", Native.SESSION_FEED, Native.SESSION_END,
            Native.SESSION_FREE);

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
        try {
            int status = (int) functions.feed().invokeExact(handle, Native.heap(data, off, len), (long) len, batch);
            Native.check(status, functions.prefix() + "_feed");
            return Batches.read(batch);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** Ends the stream: returns its last line when it had no LF. */
    List<Line> end() {
        try {
            int status = (int) functions.end().invokeExact(handle, batch);
            Native.check(status, functions.prefix() + "_end");
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
