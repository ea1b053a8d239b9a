package io.github.jsonrpcenvelope;

/**
 * What a {@link Session} decided to do with a line (SPEC §8 to §10). {@code NONE} is a plain {@link Reader}'s line (its name is {@code "none"}, the library has none).
 * The values are the C ABI's; {@link #toString()} is the library's own name
 * for each (the one spelling of the vectors and of log records).
 */
public enum Action {
    NONE(0),
    FORWARD(1),
    ANSWER(2),
    SUBSTITUTE(3),
    ATTRIBUTE(4),
    DROP(5),
    DIVERT(6);

    private final int value;
    private final String libraryName;

    Action(int value) {
        this.value = value;
        String n = Native.nameOf(Native.ACTION_NAME, value);
        this.libraryName = n == null && value == 0 ? "none" : n;
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
    public static Action of(int value) {
        Action v = value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
        if (v == null) {
            throw new IllegalArgumentException("no Action has the value " + Integer.toUnsignedString(value));
        }
        return v;
    }

    /** The constants by value (the library's values are small). */
    private static final Action[] BY_VALUE = byValue();

    private static Action[] byValue() {
        int max = 0;
        for (Action v : values()) {
            max = Math.max(max, v.value);
        }
        Action[] table = new Action[max + 1];
        for (Action v : values()) {
            table[v.value] = v;
        }
        return table;
    }

    /** The constant the library names {@code name}. */
    public static Action named(String name) {
        for (Action v : values()) {
            if (v.libraryName != null && v.libraryName.equals(name)) {
                return v;
            }
        }
        throw new IllegalArgumentException("no Action is named " + name);
    }
}
