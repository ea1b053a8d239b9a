package io.github.jsonrpcenvelope.mcp;

import io.github.jsonrpcenvelope.Profile;
import io.github.jsonrpcenvelope.Relay;
import io.github.jsonrpcenvelope.Role;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A drop-in for the SDK's {@code StdioServerTransportProvider}, with the same
 * constructors and contract (one session over stdin/stdout, newline-delimited
 * JSON-RPC), whose reading is the library's relay in the MCP profile, read
 * as a server reads (SPEC §9, §10): a line the SDK could not take (a parse
 * error, an invalid request, a too-long line, ...) is answered or logged as
 * the library decides, instead of ending the session.
 *
 * <pre>{@code
 * var transport = new EnvelopeStdioServerTransportProvider(McpJsonDefaults.getMapper());
 * McpServer.sync(transport).serverInfo("echo", "1.0.0").toolCall(...).build();
 * }</pre>
 */
public class EnvelopeStdioServerTransportProvider implements McpServerTransportProvider {
    private static final Logger LOG = LoggerFactory.getLogger(EnvelopeStdioServerTransportProvider.class);

    /** How many bytes the read loop asks stdin for at a time. */
    static final int READ_SIZE = 64 * 1024;

    private final McpJsonMapper jsonMapper;
    private final InputStream inputStream;
    private final OutputStream outputStream;
    private final long maxLine;
    private McpServerSession session;
    private final AtomicBoolean isClosing = new AtomicBoolean(false);
    private final Sinks.One<Void> inboundReady = Sinks.one();

    /** Over System.in and System.out. */
    public EnvelopeStdioServerTransportProvider(McpJsonMapper jsonMapper) {
        this(jsonMapper, System.in, System.out);
    }

    public EnvelopeStdioServerTransportProvider(McpJsonMapper jsonMapper, InputStream inputStream,
            OutputStream outputStream) {
        this(jsonMapper, inputStream, outputStream, 0);
    }

    /**
     * @param inputMaxSize the longest line, in bytes (LF excluded), that is read;
     *                     a longer one is never held whole (0: the library's default,
     *                     {@link io.github.jsonrpcenvelope.Envelope#maxLine} of MCP)
     */
    public EnvelopeStdioServerTransportProvider(McpJsonMapper jsonMapper, InputStream inputStream,
            OutputStream outputStream, int inputMaxSize) {
        this.jsonMapper = Objects.requireNonNull(jsonMapper, "The JsonMapper can not be null");
        this.inputStream = Objects.requireNonNull(inputStream, "The InputStream can not be null");
        this.outputStream = Objects.requireNonNull(outputStream, "The OutputStream can not be null");
        if (inputMaxSize < 0) {
            throw new IllegalArgumentException("inputMaxSize must not be negative");
        }
        this.maxLine = inputMaxSize;
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        var transport = new SessionTransport();
        this.session = sessionFactory.create(transport);
        transport.initProcessing();
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        if (this.session == null) {
            return Mono.error(new IllegalStateException("No session to notify"));
        }
        return this.session.sendNotification(method, params)
                .doOnError(e -> LOG.error("Failed to send notification: {}", e.getMessage()));
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return Mono.defer(() -> {
            if (this.session == null) {
                return Mono.error(new IllegalStateException("No session to notify"));
            }
            if (!this.session.getId().equals(sessionId)) {
                return Mono.error(new IllegalStateException("Existing session id " + this.session.getId()
                        + " doesn't match the notification target: " + sessionId));
            }
            return this.session.sendNotification(method, params);
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        if (this.session == null) {
            return Mono.empty();
        }
        return this.session.closeGracefully();
    }

    private class SessionTransport implements McpServerTransport {
        private final Sinks.Many<JSONRPCMessage> inboundSink = Sinks.many().unicast().onBackpressureBuffer();
        private final Sinks.Many<JSONRPCMessage> outboundSink = Sinks.many().unicast().onBackpressureBuffer();
        private final AtomicBoolean isStarted = new AtomicBoolean(false);
        private final Scheduler inboundScheduler =
                Schedulers.fromExecutorService(Executors.newSingleThreadExecutor(), "envelope-stdio-inbound");
        private final Scheduler outboundScheduler =
                Schedulers.fromExecutorService(Executors.newSingleThreadExecutor(), "envelope-stdio-outbound");
        private final Sinks.One<Void> outboundReady = Sinks.one();
        private final Relay envelope = new Relay(Profile.MCP, maxLine);
        private final SessionPump pump = new SessionPump(envelope, Role.SERVER, jsonMapper, "stdin", LOG,
                outputStream, message -> {
                    if (!inboundSink.tryEmitNext(message).isSuccess() && !isClosing.get()) {
                        LOG.error("Failed to enqueue inbound message");
                    }
                });

        @Override
        public Mono<Void> sendMessage(JSONRPCMessage message) {
            return Mono.zip(inboundReady.asMono(), outboundReady.asMono()).then(Mono.defer(() -> {
                if (emit(outboundSink, message)) {
                    return Mono.empty();
                }
                return Mono.error(new RuntimeException("Failed to enqueue message"));
            }));
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return jsonMapper.convertValue(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.fromRunnable(() -> {
                isClosing.set(true);
                LOG.debug("Session transport closing gracefully");
                inboundSink.tryEmitComplete();
            });
        }

        @Override
        public void close() {
            isClosing.set(true);
            LOG.debug("Session transport closed");
        }

        private void initProcessing() {
            inboundSink.asFlux().flatMap(message -> session.handle(message)).doOnTerminate(() -> {
                outboundSink.tryEmitComplete();
                inboundScheduler.dispose();
            }).subscribe();
            startInboundProcessing();
            startOutboundProcessing();
        }

        /** Reads stdin a chunk at a time into the library's relay, which decides each line. */
        private void startInboundProcessing() {
            if (!isStarted.compareAndSet(false, true)) {
                return;
            }
            inboundScheduler.schedule(() -> {
                inboundReady.tryEmitValue(null);
                byte[] buf = new byte[READ_SIZE];
                try {
                    while (!isClosing.get()) {
                        int n = inputStream.read(buf);
                        if (n < 0) {
                            pump.end();
                            break;
                        }
                        if (!isClosing.get()) {
                            pump.feed(buf, n);
                        }
                    }
                } catch (IOException e) {
                    logIfNotClosing("Error reading from stdin", e);
                } catch (RuntimeException e) {
                    logIfNotClosing("Error in inbound processing", e);
                } finally {
                    isClosing.set(true);
                    if (session != null) {
                        session.close();
                    }
                    inboundSink.tryEmitComplete();
                }
            });
        }

        /** Writes the SDK's messages to stdout, each told to the relay first. */
        private void startOutboundProcessing() {
            outboundSink.asFlux()
                    .doOnSubscribe(subscription -> outboundReady.tryEmitValue(null))
                    .publishOn(outboundScheduler)
                    .<JSONRPCMessage>handle((message, sink) -> {
                        if (message != null && !isClosing.get()) {
                            try {
                                String json = jsonMapper.writeValueAsString(message);
                                // As the SDK's: no line break inside a line.
                                json = json.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n");
                                pump.writeLine(json);
                                sink.next(message);
                            } catch (IOException e) {
                                if (!isClosing.get()) {
                                    LOG.error("Error writing message", e);
                                    sink.error(new RuntimeException(e));
                                } else {
                                    LOG.debug("Stream closed during shutdown", e);
                                }
                            }
                        } else if (isClosing.get()) {
                            sink.complete();
                        }
                    })
                    .doOnComplete(this::finish)
                    .doOnError(e -> {
                        if (!isClosing.get()) {
                            LOG.error("Error in outbound processing", e);
                        }
                        finish();
                    })
                    .subscribe();
        }

        private void finish() {
            isClosing.set(true);
            outboundScheduler.dispose();
            envelope.close();
        }

        private void logIfNotClosing(String message, Exception e) {
            if (!isClosing.get()) {
                LOG.error(message, e);
            }
        }
    }

    /**
     * Emits into a unicast sink, which refuses a second emitter at the same
     * moment (FAIL_NON_SERIALIZED): the SDK answers on several threads (a
     * sync server's tool calls run apart from its pings), so emitters take
     * turns here.
     */
    static <T> boolean emit(Sinks.Many<T> sink, T value) {
        synchronized (sink) {
            return sink.tryEmitNext(value).isSuccess();
        }
    }
}
