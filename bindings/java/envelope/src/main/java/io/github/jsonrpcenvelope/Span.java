package io.github.jsonrpcenvelope;

import java.util.Arrays;

/**
 * Where a member's value stands in its line: {@code offset} and {@code len}
 * in bytes from the line's first byte. A JSON value is never empty, so a
 * length of 0 means the member is absent.
 */
public record Span(long offset, long len) {
    /** The absent span. */
    public static final Span ABSENT = new Span(0, 0);

    /** Whether the member is present. */
    public boolean present() {
        return len != 0;
    }

    /** The span's bytes in {@code line}, or null when absent. */
    public byte[] in(byte[] line) {
        return present() ? Arrays.copyOfRange(line, (int) offset, (int) (offset + len)) : null;
    }
}
