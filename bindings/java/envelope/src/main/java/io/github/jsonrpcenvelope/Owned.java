package io.github.jsonrpcenvelope;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A library object that outlives a call (a reader or a session) and the
 * arena of its batch, freed exactly once: by {@link #close()}, or, only as
 * a safety net, by a {@link Cleaner} when its owner becomes unreachable
 * without having been closed.
 */
final class Owned {
    private static final Cleaner CLEANER = Cleaner.create();
    /** How many are not freed yet (for the tests of the safety net). */
    static final AtomicLong LIVE = new AtomicLong();

    /** The library's object. */
    final MemorySegment handle;
    /** Where the library describes its last batch (a JsonRpcBatch). */
    final MemorySegment batch;
    private final Cleaner.Cleanable cleanable;

    /** Takes {@code handle} (not NULL), which {@code free} frees; {@code owner} is the Java object that holds it. */
    Owned(MemorySegment handle, MethodHandle free, Object owner) {
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

    /** Frees the library's object and the batch; a second call does nothing. */
    void close() {
        cleanable.clean();
    }
}
