package io.github.jsonrpcenvelope;

/**
 * What a line is (SPEC §2).
 * The values are the C ABI's; {@link #toString()} is the library's own name
 * for each (the one spelling of the vectors and of log records).
 */
public enum Kind {
    EMPTY(1),
    PARSE_ERROR(2),
    BATCH(3),
    NOT_OBJECT(4),
    INVALID_REQUEST(5),
    REQUEST(6),
    NOTIFICATION(7),
    RESPONSE(8),
    NOT_JSONRPC(9),
    TOO_LONG(10),
    INVALID_RESPONSE(11);

    private final int value;
    private final String libraryName;

    Kind(int value) {
        this.value = value;
        this.libraryName = Native.nameOf(Native.KIND_NAME, value);
    }

    /** The value the C ABI gives it. */
    public int value() {
        return value;
    }

    /**
     * Whether it is a message a peer acts on (a request, a notification or a
     * response), as the library says.
     */
    public boolean isMessage() {
        try {
            return (boolean) Native.KIND_IS_MESSAGE.invokeExact(value);
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The library's name for it, as the vectors and log records spell it. */
    @Override
    public String toString() {
        return libraryName;
    }

    /** The constant of a C ABI value. */
    public static Kind of(int value) {
        return VALUES.of(value);
    }

    /** The constant the library names {@code name}. */
    public static Kind named(String name) {
        return VALUES.named(name);
    }

    private static final Values<Kind> VALUES = new Values<>(Kind.class, Kind::value);
}
