package io.github.jsonrpcenvelope;

/**
 * Which way a line travels through a {@link Relay}: to the server (read as a
 * server reads it) or to the host (read as a host, a client, reads it).
 * The values are the C ABI's; {@link #toString()} is the library's own name
 * for each (the one spelling of the vectors and of log records).
 */
public enum Direction {
    TO_SERVER(1),
    TO_HOST(2);

    private final int value;
    private final String libraryName;

    Direction(int value) {
        this.value = value;
        this.libraryName = Native.nameOf(Native.DIRECTION_NAME, value);
    }

    /** The value the C ABI gives it. */
    public int value() {
        return value;
    }

    /** The library's name for it, as the vectors and log records spell it. */
    @Override
    public String toString() {
        return libraryName;
    }

    /** The direction an endpoint in {@code role} reads (a server reads what goes to the server), as the library says. */
    public static Direction readBy(Role role) {
        try {
            return of((int) Native.DIRECTION_READ_BY.invokeExact(role.value()));
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
    }

    /** The constant of a C ABI value. */
    public static Direction of(int value) {
        return VALUES.of(value);
    }

    /** The constant the library names {@code name}. */
    public static Direction named(String name) {
        return VALUES.named(name);
    }

    private static final Values<Direction> VALUES = new Values<>(Direction.class, Direction::value);
}
