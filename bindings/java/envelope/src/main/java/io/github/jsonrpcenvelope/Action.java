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

    /**
     * Where the text of a line read in {@code direction} goes (the line itself, for a FORWARD
     * without a text), as the library says: on in {@code direction} (to its receiver, for a
     * transport the SDK) for FORWARD, SUBSTITUTE and ATTRIBUTE; back in the other direction (to
     * the line's sender) for ANSWER; nowhere but the log (empty) for DROP, DIVERT and NONE.
     */
    public java.util.Optional<Direction> goes(Direction direction) {
        int to;
        try {
            to = (int) Native.ACTION_GOES.invokeExact(value, direction.value());
        } catch (Throwable t) {
            throw Native.rethrow(t);
        }
        return to == 0 ? java.util.Optional.empty() : java.util.Optional.of(Direction.of(to));
    }

    /** The constant of a C ABI value. */
    public static Action of(int value) {
        return VALUES.of(value);
    }

    /** The constant the library names {@code name}. */
    public static Action named(String name) {
        return VALUES.named(name);
    }

    private static final Values<Action> VALUES = new Values<>(Action.class, Action::value);
}
