package io.github.jsonrpcenvelope.mcp;

import io.github.jsonrpcenvelope.Action;
import io.github.jsonrpcenvelope.Decision;
import io.github.jsonrpcenvelope.Envelope;
import io.github.jsonrpcenvelope.Line;
import io.github.jsonrpcenvelope.Session;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.slf4j.Logger;

/**
 * What both transports share: the library's session (MCP profile) reads
 * every byte that arrives and decides what each line is owed; this class
 * only does it. FORWARD, SUBSTITUTE and ATTRIBUTE lines go to the SDK's own
 * decoder and on to the SDK; ANSWER lines are answered back to their sender;
 * DROP and DIVERT lines are logged. A too-long line is no exception: its
 * bytes were never held, but the session may answer it or substitute it
 * by the id its first bytes hold (SPEC §10.6 (d)), and the text is carried
 * out as for any other line. Every line written to the peer is told
 * to the session first ({@link Session#sent}). Where the SDK's decoder
 * refuses a line the session handed on, the session says what to do instead
 * ({@link Session#refused}), logged at error level: the SDK never sees a
 * decoding error, which would end its session.
 */
final class SessionPump {
    private final Session session;
    private final McpJsonMapper jsonMapper;
    private final String stream;
    private final Logger logger;
    private final OutputStream back;
    private final Consumer<JSONRPCMessage> sdk;

    /**
     * @param session    the session reading {@code stream}
     * @param jsonMapper the SDK's mapper, whose decoder the SDK's own stdio transports use
     * @param stream     what is read, for log records ("stdin", "server stdout")
     * @param back       where the peer that wrote the lines reads (answers go there)
     * @param sdk        what takes each message for the SDK
     */
    SessionPump(Session session, McpJsonMapper jsonMapper, String stream, Logger logger, OutputStream back,
            Consumer<JSONRPCMessage> sdk) {
        this.session = session;
        this.jsonMapper = jsonMapper;
        this.stream = stream;
        this.logger = logger;
        this.back = back;
        this.sdk = sdk;
    }

    /** Hands the session the next bytes read and does what each line they complete is owed. */
    void feed(byte[] buf, int len) {
        for (Line line : session.feed(buf, 0, len)) {
            handle(line);
        }
    }

    /** Ends the stream: its last line, if it had no LF. */
    void end() {
        for (Line line : session.end()) {
            handle(line);
        }
    }

    private void handle(Line line) {
        switch (line.action()) {
            case FORWARD -> handOn(line, line.actionText().orElseGet(line::text));
            case SUBSTITUTE, ATTRIBUTE -> {
                record(line, "jsonrpc-envelope: line replaced before the SDK");
                handOn(line, line.actionText().orElseThrow());
            }
            case ANSWER -> {
                record(line, "jsonrpc-envelope: line kept from the SDK");
                try {
                    writeLine(line.actionText().orElseThrow());
                } catch (IOException e) {
                    logger.warn("jsonrpc-envelope: the reply could not be written (stream={}, line={}): {}", stream,
                            line.number(), e.toString());
                }
            }
            default -> record(line, "jsonrpc-envelope: line kept from the SDK"); // dropped, diverted
        }
    }

    /** Decodes text with the SDK's own decoder and hands the message on; where it refuses, asks the session. */
    private void handOn(Line line, String text) {
        JSONRPCMessage message;
        try {
            message = McpSchema.deserializeJsonRpcMessage(jsonMapper, text);
        } catch (Exception e) {
            refused(line, text, e);
            return;
        }
        sdk.accept(message);
    }

    private void refused(Line line, String text, Exception e) {
        Decision d = session.refused(text);
        logger.error("jsonrpc-envelope: the SDK's decoder refused a line (stream={}, line={}, kind={}, action={}, "
                        + "note={}, error={}, text={}{})",
                stream, line.number(), line.kind(), d.action(), d.note().orElse(""),
                Envelope.logValue(String.valueOf(e.getMessage()).getBytes(StandardCharsets.UTF_8)),
                Envelope.logValue(text.getBytes(StandardCharsets.UTF_8)),
                d.text().map(t -> ", reply=" + Envelope.logValue(t.getBytes(StandardCharsets.UTF_8))).orElse(""));
        if (d.action() == Action.ANSWER) {
            try {
                writeLine(d.text().orElseThrow());
            } catch (IOException io) {
                logger.warn("jsonrpc-envelope: the reply could not be written (stream={}, line={}): {}", stream,
                        line.number(), io.toString());
            }
        } else if (d.action() == Action.SUBSTITUTE) {
            try {
                sdk.accept(McpSchema.deserializeJsonRpcMessage(jsonMapper, d.text().orElseThrow()));
            } catch (Exception again) {
                logger.error("jsonrpc-envelope: the SDK's decoder refused a substitute (stream={}, line={}, action={}, "
                                + "error={}, text={})",
                        stream, line.number(), Action.DROP, String.valueOf(again.getMessage()),
                        Envelope.logValue(d.text().get().getBytes(StandardCharsets.UTF_8)));
            }
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
     * Tells the session of a line, then writes it and its LF in one piece,
     * never inside another line. The session learns of a request before it
     * leaves, so that its answer always finds it outstanding. The library's
     * answer to a batch is several lines joined by LF (SPEC §10.6 (b)): each
     * is told to the session, and the text is written whole, in one piece.
     */
    void writeLine(String json) throws IOException {
        byte[] data = json.getBytes(StandardCharsets.UTF_8);
        try {
            int start = 0;
            for (int i = 0; i <= data.length; i++) {
                if (i == data.length || data[i] == '\n') {
                    session.sent(java.util.Arrays.copyOfRange(data, start, i));
                    start = i + 1;
                }
            }
        } catch (IllegalStateException closed) {
            // The session is closed: the transport is closing, nothing more is read.
        }
        byte[] buf = new byte[data.length + 1];
        System.arraycopy(data, 0, buf, 0, data.length);
        buf[data.length] = '\n';
        synchronized (back) {
            back.write(buf);
            back.flush();
        }
    }
}
