package io.github.jsonrpcenvelope;

/**
 * Which endpoint reads a line (SPEC §4): a server reads its client's input, a client a server's output.
 * The values are the C ABI's; {@link #toString()} is the library's own name
 * for each (the one spelling of the vectors and of log records).
 */
public enum Role {
    SERVER(1),
    CLIENT(2);

    private final int value;
    private final String libraryName;

    Role(int value) {
        this.value = value;
        this.libraryName = Native.nameOf(Native.ROLE_NAME, value);
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

    /** The constant of a C ABI value. */
    public static Role of(int value) {
        return VALUES.of(value);
    }

    /** The constant the library names {@code name}. */
    public static Role named(String name) {
        return VALUES.named(name);
    }

    private static final Values<Role> VALUES = new Values<>(Role.class, Role::value);
}
