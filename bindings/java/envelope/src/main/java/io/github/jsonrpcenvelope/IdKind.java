package io.github.jsonrpcenvelope;

/**
 * What the {@code id} member holds (SPEC §3).
 * The values are the C ABI's; {@link #toString()} is the library's own name
 * for each (the one spelling of the vectors and of log records).
 */
public enum IdKind {
    ABSENT(0),
    NULL(1),
    STRING(2),
    NUMBER(3),
    OBJECT(4),
    ARRAY(5),
    BOOLEAN(6);

    private final int value;
    private final String libraryName;

    IdKind(int value) {
        this.value = value;
        this.libraryName = Native.nameOf(Native.ID_KIND_NAME, value);
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
    public static IdKind of(int value) {
        return VALUES.of(value);
    }

    /** The constant the library names {@code name}. */
    public static IdKind named(String name) {
        return VALUES.named(name);
    }

    private static final Values<IdKind> VALUES = new Values<>(IdKind.class, IdKind::value);
}
