package io.github.jsonrpcenvelope.mcp;

import io.github.jsonrpcenvelope.Action;
import io.github.jsonrpcenvelope.Decision;
import io.github.jsonrpcenvelope.Envelope;
import io.github.jsonrpcenvelope.Direction;
import io.github.jsonrpcenvelope.Line;
import io.github.jsonrpcenvelope.Relay;
import io.github.jsonrpcenvelope.Role;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * What both transports share: the library's relay (MCP profile) reads every
 * byte that arrives, in the direction the transport's role reads, and
 * decides what each line is owed; this class only does it. Where a line's
 * text goes is the library's to say ({@link Action#goes}): on in that
 * direction, to the SDK's own decoder and on to the SDK (FORWARD, SUBSTITUTE,
 * ATTRIBUTE); back the other way, to the line's sender (ANSWER); or nowhere
 * but the log (DROP, DIVERT). A too-long line is no exception: its bytes
 * were never held, but the relay may answer it or substitute it by the id
 * its first bytes hold (SPEC §10.6 (d)), and the text is carried out as for
 * any other line. Every line the SDK writes to the peer is told to the relay
 * first ({@link Relay#wrote}); the relay notes its own answers itself. Where
 * the SDK's decoder refuses a line the relay handed on, the relay says what
 * to do instead ({@link Relay#refused}, settled by the second refusal),
 * logged at error level: the SDK never sees a decoding error, which would
 * end its session.
 */
final class SessionPump {
    private final Relay relay;
    /** The direction read (the peer's lines, to the SDK) and the one written (the SDK's, to the peer). */
    private final Direction read;
    private final Direction written;
    private final McpJsonMapper jsonMapper;
    private final String stream;
    private final Logger logger;
    private final OutputStream back;
    private final Consumer<JSONRPCMessage> sdk;

    /**
     * @param relay      the relay of the transport's session
     * @param role       the SDK's role: it reads {@link Direction#readBy} it
     * @param jsonMapper the SDK's mapper, whose decoder the SDK's own stdio transports use
     * @param stream     what is read, for log records ("stdin", "server stdout")
     * @param back       where the peer that wrote the lines reads (answers and the SDK's lines go there)
     * @param sdk        what takes each message for the SDK
     */
    SessionPump(Relay relay, Role role, McpJsonMapper jsonMapper, String stream, Logger logger, OutputStream back,
            Consumer<JSONRPCMessage> sdk) {
        this.relay = relay;
        this.read = Direction.readBy(role);
        // The way back to the line's sender: where the library sends an answer.
        this.written = Action.ANSWER.goes(read).orElseThrow();
        this.jsonMapper = jsonMapper;
        this.stream = stream;
        this.logger = logger;
        this.back = back;
        this.sdk = sdk;
    }

    /** Hands the relay the next bytes read and does what each line they complete is owed. */
    void feed(byte[] buf, int len) {
        for (Line line : relay.feed(read, buf, 0, len)) {
            handle(line);
        }
    }

    /** Ends the stream: its last line, if it had no LF. */
    void end() {
        for (Line line : relay.end(read)) {
            handle(line);
        }
    }

    private void handle(Line line) {
        Optional<Direction> to = line.action().goes(read);
        // The decision's text, or the line itself (only a FORWARD without
        // one); an action of the library's with no text goes nowhere.
        Optional<String> given = line.action() == Action.FORWARD ? Optional.of(line.actionText().orElseGet(line::text))
                : line.actionText();
        if (given.isEmpty()) {
            to = Optional.empty();
        }
        String text = given.orElse("");
        if (to.equals(Optional.of(read))) {
            if (line.action() != Action.FORWARD) {
                record(line, "jsonrpc-envelope: line replaced before the SDK");
            }
            handOn(line, text);
            return;
        }
        record(line, "jsonrpc-envelope: line kept from the SDK");
        if (to.equals(Optional.of(written))) {
            writeBack(line, text);
        }
    }

    /**
     * Decodes text with the SDK's own decoder and hands the message on; where it refuses, does what
     * the relay says instead: write its text back, or hand it on in its turn. The relay settles a
     * substitute refused again (DROP), so this ends by the second refusal.
     */
    private void handOn(Line line, String text) {
        for (int refusals = 0; ; refusals++) {
            JSONRPCMessage message;
            try {
                message = McpSchema.deserializeJsonRpcMessage(jsonMapper, text);
            } catch (Exception e) {
                Decision d = relay.refused(read, text);
                logRefusal(line, text, e, d, refusals);
                if (d.text().isEmpty()) {
                    return; // an action of the library's with no text goes nowhere
                }
                Optional<Direction> to = d.action().goes(read);
                String instead = d.text().get();
                if (to.equals(Optional.of(written))) {
                    writeBack(line, instead);
                } else if (to.equals(Optional.of(read))) {
                    text = instead;
                    continue;
                }
                return;
            }
            sdk.accept(message);
            return;
        }
    }

    /** A refusal of the SDK's decoder, at error level: of the line ({@code refusals} 0), or of a substitute. */
    private void logRefusal(Line line, String text, Exception e, Decision d, int refusals) {
        if (refusals == 0) {
            logger.error("jsonrpc-envelope: the SDK's decoder refused a line (stream={}, line={}, kind={}, action={}, "
                            + "note={}, error={}, text={}{})",
                    stream, line.number(), line.kind(), d.action(), d.note().orElse(""),
                    Envelope.logValue(String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8)),
                    Envelope.logValue(text.getBytes(StandardCharsets.UTF_8)),
                    d.text().map(t -> ", reply=" + Envelope.logValue(t.getBytes(StandardCharsets.UTF_8))).orElse(""));
        } else {
            logger.error("jsonrpc-envelope: the SDK's decoder refused a substitute (stream={}, line={}, action={}, "
                            + "note={}, error={}, text={})",
                    stream, line.number(), d.action(), d.note().orElse(""), String.valueOf(e.getMessage()),
                    Envelope.logValue(text.getBytes(StandardCharsets.UTF_8)));
        }
    }

    /**
     * A line that did not reach the SDK as it was read, with the library's action and note. A too-long
     * line's bytes were never held: its record has its length, and its reply or substitute where the
     * library found its id in its first bytes (SPEC §10.6 (d)).
     */
    private void record(Line line, String what) {
        logger.warn("{} (stream={}, line={}, kind={}, bytes={}, action={}, note={}, text={}{})", what, stream,
                line.number(), line.kind(), line.length(), line.action(), line.note().orElse(""),
                Envelope.logValue(line.bytes()),
                line.actionText().map(t -> ", reply=" + Envelope.logValue(t.getBytes(StandardCharsets.UTF_8)))
                        .orElse(""));
    }

    /**
     * The library's answer to a line, written back to its sender whole (a batch's answer is several
     * lines joined by LF, SPEC §10.6 (b)); the relay noted it when it decided.
     */
    private void writeBack(Line line, String answer) {
        try {
            write(answer.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            logger.warn("jsonrpc-envelope: the reply could not be written (stream={}, line={}): {}", stream,
                    line.number(), e.toString());
        }
    }

    /**
     * One of the SDK's own lines to the peer: told to the relay, then written with its LF in one
     * piece, never inside another line. The relay learns of a request before it leaves, so that its
     * answer always finds it outstanding.
     */
    void writeLine(String json) throws IOException {
        byte[] data = json.getBytes(StandardCharsets.UTF_8);
        try {
            relay.wrote(written, data);
        } catch (IllegalStateException closed) {
            // The relay is closed: the transport is closing, nothing more is read.
        }
        write(data);
    }

    private void write(byte[] data) throws IOException {
        byte[] buf = new byte[data.length + 1];
        System.arraycopy(data, 0, buf, 0, data.length);
        buf[data.length] = '\n';
        synchronized (back) {
            back.write(buf);
            back.flush();
        }
    }
}
