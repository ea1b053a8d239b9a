package io.github.jsonrpcenvelope;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * What a session or a relay decided for a line the SDK's own decoder refused
 * ({@link Session#refused}, {@link Relay#refused}): ANSWER (write {@code text}
 * back to the sender), SUBSTITUTE (hand {@code text} to the SDK instead) or
 * DROP; with the note for the log record (log it at error level: a fault of
 * the profile). Where the text goes is the action's to say: {@link Action#goes}.
 */
public record Decision(Action action, Optional<String> text, Optional<String> note) {
    /** The JsonRpcDecision the library wrote at {@code out}, its text then freed. */
    static Decision take(MemorySegment out) throws Throwable {
        Optional<String> text = Native.str(out, Native.D_TEXT);
        Native.STRING_FREE.invokeExact(out.asSlice(Native.D_TEXT));
        return new Decision(Action.of(out.get(Native.U32, Native.D_ACTION)), text,
                Optional.ofNullable(Native.cString(out.get(Native.PTR, Native.D_NOTE))));
    }
}
