package io.github.jsonrpcenvelope;

/**
 * The rule set a line is read by (SPEC §10): JSON-RPC 2.0 alone, or as MCP narrows it.
 * The values are the C ABI's; {@link #toString()} is the library's own name
 * for each (the one spelling of the vectors and of log records).
 */
public enum Profile {
    JSONRPC(1),
    MCP(2);

    private final int value;
    private final String libraryName;

    Profile(int value) {
        this.value = value;
        this.libraryName = Native.nameOf(Native.PROFILE_NAME, value);
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
    public static Profile of(int value) {
        return VALUES.of(value);
    }

    /** The constant the library names {@code name}. */
    public static Profile named(String name) {
        return VALUES.named(name);
    }

    private static final Values<Profile> VALUES = new Values<>(Profile.class, Profile::value);
}
