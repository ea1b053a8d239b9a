package io.github.jsonrpcenvelope;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One line read by a {@link Reader} or a {@link Session}.
 *
 * @param number         the line's number in its stream, from 1 (too-long lines included)
 * @param length         its length in bytes, LF excluded
 * @param bytes          its bytes, LF excluded (a copy); empty for a too-long line, which is never held
 * @param classification what the library says it is
 * @param action         what a session decided to do with it ({@link Action#NONE} for a reader's line)
 * @param actionText     for ANSWER the reply to write back to the line's sender (one or more lines, joined by
 *                       LF: written whole); for SUBSTITUTE and
 *                       ATTRIBUTE the line to hand on in this one's place; for FORWARD (MCP profile) the
 *                       line to hand on instead of the bytes when present
 * @param note           why, for every action but FORWARD (for a log record)
 */
public record Line(
        long number,
        long length,
        byte[] bytes,
        Classification classification,
        Action action,
        Optional<String> actionText,
        Optional<String> note) {

    /** The line's kind. */
    public Kind kind() {
        return classification.kind();
    }

    /** The line as text (UTF-8, invalid sequences replaced): for messages, which are valid JSON. */
    public String text() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "Line[number=" + number + ", length=" + length + ", kind=" + classification.kind()
                + ", action=" + action + ", actionText=" + actionText + ", note=" + note + "]";
    }
}
