package io.github.jsonrpcenvelope;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Where the strings of classifications stand, copied to the heap in one piece: a batch's
 * {@code texts} (the header: every string of its classifications stands there) or a
 * classification's scratch. A string is read by its pointer's distance from {@code base}; one
 * that stands elsewhere (a session's own text) is read where it is.
 */
record Texts(byte[] data, long base) {
    /** No copy: every string is read where it is. */
    static final Texts NONE = new Texts(new byte[0], 0);

    /** The {@code len} bytes at {@code from}, copied. */
    static Texts copy(MemorySegment from, long len) {
        if (len == 0 || from.equals(MemorySegment.NULL)) {
            return NONE;
        }
        return new Texts(from.reinterpret(len).toArray(ValueLayout.JAVA_BYTE), from.address());
    }

    /** Where a classification's strings stand in it. */
    private static final long[] STRINGS = {Native.C_ID, Native.C_METHOD, Native.C_REASON, Native.C_REPLY_SERVER,
        Native.C_REPLY_CLIENT, Native.C_SUBSTITUTE};

    /** The part of {@code scratch} that the strings of {@code c} (written by classify_into) use, copied. */
    static Texts used(MemorySegment c, MemorySegment scratch) {
        long base = scratch.address();
        long end = 0;
        for (long at : STRINGS) {
            long off = c.get(ValueLayout.JAVA_LONG, at) - base;
            if (off >= 0 && off < scratch.byteSize()) {
                end = Math.max(end, off + c.get(Native.SIZE_T, at + 8));
            }
        }
        return end == 0 ? NONE : new Texts(scratch.asSlice(0, end).toArray(ValueLayout.JAVA_BYTE), base);
    }

    /** The JsonRpcStr (or JsonRpcString) at {@code at} in {@code s}, decoded. */
    Optional<String> str(MemorySegment s, long at) {
        long ptr = s.get(ValueLayout.JAVA_LONG, at);
        if (ptr == 0) {
            return Optional.empty();
        }
        long len = s.get(Native.SIZE_T, at + 8);
        long off = ptr - base;
        if (off >= 0 && off + len <= data.length) {
            return Optional.of(new String(data, (int) off, (int) len, StandardCharsets.UTF_8));
        }
        return Native.str(s, at);
    }
}
