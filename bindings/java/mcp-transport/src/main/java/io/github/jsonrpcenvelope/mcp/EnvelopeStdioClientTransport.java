package io.github.jsonrpcenvelope.mcp;

import io.github.jsonrpcenvelope.Profile;
import io.github.jsonrpcenvelope.Relay;
import io.github.jsonrpcenvelope.Role;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * A drop-in for the SDK's {@code StdioClientTransport}, with the same
 * constructors and contract (starts the server process, newline-delimited
 * JSON-RPC over its stdin/stdout, stderr to a handler), whose reading of the
 * server's stdout is the library's relay in the MCP profile, read as a
 * client reads (SPEC §9, §10): what the server writes that is no message is
 * logged (diverted) instead of ending the session, and a broken response to
 * a request outstanding fails that request at once (substituted).
 */
public class EnvelopeStdioClientTransport implements McpClientTransport {
    private static final Logger LOG = LoggerFactory.getLogger(EnvelopeStdioClientTransport.class);

    private static final Set<Integer> EXIT_SUCCESS_CODES = Set.of(0, 130, 141, 143);

    private final Sinks.Many<JSONRPCMessage> inboundSink = Sinks.many().unicast().onBackpressureBuffer();
    private final Sinks.Many<JSONRPCMessage> outboundSink = Sinks.many().unicast().onBackpressureBuffer();
    private final Sinks.Many<String> errorSink = Sinks.many().unicast().onBackpressureBuffer();
    private final Scheduler inboundScheduler =
            Schedulers.fromExecutorService(Executors.newSingleThreadExecutor(), "envelope-inbound");
    private final Scheduler outboundScheduler =
            Schedulers.fromExecutorService(Executors.newSingleThreadExecutor(), "envelope-outbound");
    private final Scheduler errorScheduler =
            Schedulers.fromExecutorService(Executors.newSingleThreadExecutor(), "envelope-error");
    private final ServerParameters params;
    private final McpJsonMapper jsonMapper;
    private final Relay relay;
    private volatile Process process;
    private volatile SessionPump pump;
    private volatile boolean isClosing = false;
    private Consumer<String> stdErrorHandler = error -> LOG.info("STDERR Message received: {}", error);

    public EnvelopeStdioClientTransport(ServerParameters params, McpJsonMapper jsonMapper) {
        this(params, jsonMapper, 0);
    }

    /**
     * @param inputMaxSize the longest line, in bytes (LF excluded), read from the server;
     *                     a longer one is never held whole (0: the library's default,
     *                     {@link io.github.jsonrpcenvelope.Envelope#maxLine} of MCP)
     */
    public EnvelopeStdioClientTransport(ServerParameters params, McpJsonMapper jsonMapper, int inputMaxSize) {
        this.params = Objects.requireNonNull(params, "The params can not be null");
        this.jsonMapper = Objects.requireNonNull(jsonMapper, "The JsonMapper can not be null");
        if (inputMaxSize < 0) {
            throw new IllegalArgumentException("inputMaxSize must not be negative");
        }
        this.relay = new Relay(Profile.MCP, inputMaxSize);
    }

    @Override
    public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
        return Mono.<Void>fromRunnable(() -> {
            LOG.info("MCP server starting.");
            inboundSink.asFlux().flatMap(message -> Mono.just(message).transform(handler)).subscribe();
            errorSink.asFlux().subscribe(e -> stdErrorHandler.accept(e));
            List<String> command = new ArrayList<>();
            command.add(params.getCommand());
            command.addAll(params.getArgs());
            ProcessBuilder pb = getProcessBuilder();
            pb.command(command);
            pb.environment().putAll(params.getEnv());
            try {
                process = pb.start();
            } catch (IOException e) {
                throw new RuntimeException("Failed to start process with command: " + command, e);
            }
            pump = new SessionPump(relay, Role.CLIENT, jsonMapper, "server stdout", LOG, process.getOutputStream(),
                    message -> {
                        if (!inboundSink.tryEmitNext(message).isSuccess() && !isClosing) {
                            LOG.error("Failed to enqueue inbound message");
                        }
                    });
            startInboundProcessing();
            startOutboundProcessing();
            startErrorProcessing();
            LOG.info("MCP server started");
        }).subscribeOn(Schedulers.boundedElastic());
    }

    /** The process builder the server is started with (for tests and subclasses, as in the SDK). */
    protected ProcessBuilder getProcessBuilder() {
        return new ProcessBuilder();
    }

    /** Where the server's stderr lines go (by default: logged at info level). */
    public void setStdErrorHandler(Consumer<String> errorHandler) {
        this.stdErrorHandler = errorHandler;
    }

    /** Waits for the server process to exit. */
    public void awaitForExit() {
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            throw new RuntimeException("Process interrupted", e);
        }
    }

    private void startErrorProcessing() {
        errorScheduler.schedule(() -> {
            try (BufferedReader err = new BufferedReader(
                    new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while (!isClosing && (line = err.readLine()) != null) {
                    if (!errorSink.tryEmitNext(line).isSuccess()) {
                        break;
                    }
                }
            } catch (IOException e) {
                if (!isClosing) {
                    LOG.error("Error reading from error stream", e);
                }
            } finally {
                errorSink.tryEmitComplete();
            }
        });
    }

    @Override
    public Mono<Void> sendMessage(JSONRPCMessage message) {
        if (emit(outboundSink, message)) {
            return Mono.empty();
        }
        return Mono.error(new RuntimeException("Failed to enqueue message"));
    }

    /** Reads the server's stdout a chunk at a time into the library's relay, which decides each line. */
    private void startInboundProcessing() {
        inboundScheduler.schedule(() -> {
            byte[] buf = new byte[EnvelopeStdioServerTransportProvider.READ_SIZE];
            try (InputStream in = process.getInputStream()) {
                while (!isClosing) {
                    int n = in.read(buf);
                    if (n < 0) {
                        pump.end();
                        break;
                    }
                    pump.feed(buf, n);
                }
            } catch (IOException e) {
                if (!isClosing) {
                    LOG.error("Error reading from input stream", e);
                }
            } catch (RuntimeException e) {
                if (!isClosing) {
                    LOG.error("Error in inbound processing", e);
                }
            } finally {
                isClosing = true;
                inboundSink.tryEmitComplete();
            }
        });
    }

    private void startOutboundProcessing() {
        outboundSink.asFlux().publishOn(outboundScheduler).<JSONRPCMessage>handle((message, s) -> {
            if (message != null && !isClosing) {
                try {
                    String json = jsonMapper.writeValueAsString(message);
                    json = json.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n");
                    pump.writeLine(json);
                    s.next(message);
                } catch (IOException e) {
                    s.error(new RuntimeException(e));
                }
            }
        }).doOnComplete(() -> {
            isClosing = true;
            outboundSink.tryEmitComplete();
        }).doOnError(e -> {
            if (!isClosing) {
                LOG.error("Error in outbound processing", e);
                isClosing = true;
                outboundSink.tryEmitComplete();
            }
        }).subscribe();
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> {
            isClosing = true;
            LOG.debug("Initiating graceful shutdown");
        }).then(Mono.<Void>defer(() -> {
            inboundSink.tryEmitComplete();
            outboundSink.tryEmitComplete();
            errorSink.tryEmitComplete();
            return Mono.delay(Duration.ofMillis(100)).then();
        })).then(Mono.defer(() -> {
            if (process != null) {
                process.destroy();
                return Mono.fromFuture(process.onExit());
            }
            LOG.warn("Process not started");
            return Mono.<Process>empty();
        })).doOnNext(p -> {
            int exit = p.exitValue();
            if (EXIT_SUCCESS_CODES.contains(exit)) {
                LOG.info("MCP server completed successfully with code {}", exit);
            } else {
                LOG.warn("MCP server process failed with code {}", exit);
            }
        }).then(Mono.fromRunnable(() -> {
            inboundScheduler.dispose();
            errorScheduler.dispose();
            outboundScheduler.dispose();
            relay.close();
            LOG.debug("Graceful shutdown completed");
        })).then().subscribeOn(Schedulers.boundedElastic());
    }

    /** The server's stderr lines, as in the SDK. */
    public Sinks.Many<String> getErrorSink() {
        return errorSink;
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return jsonMapper.convertValue(data, typeRef);
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
