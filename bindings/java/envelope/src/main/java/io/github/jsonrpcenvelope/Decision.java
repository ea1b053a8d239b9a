package io.github.jsonrpcenvelope;

import java.util.Optional;

/**
 * What a session decided for a line the SDK's own decoder refused
 * ({@link Session#refused}): ANSWER (write {@code text} back to the sender),
 * SUBSTITUTE (hand {@code text} to the SDK instead) or DROP; with the note
 * for the log record (log it at error level: a fault of the profile).
 */
public record Decision(Action action, Optional<String> text, Optional<String> note) {}
