import io.github.jsonrpcenvelope.mcp.EnvelopeStdioClientTransport;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The same MCP tool call (tools/call of echo) over jsonrpc-envelope's Java transports and over the
 * Java SDK's own stdio transports, in one run, in turns: two sessions open at once, the SDK's client
 * on EnvelopeStdioClientTransport with the example server on our server transport, and the SDK's
 * client on StdioClientTransport with the same server on the SDK's StdioServerTransportProvider
 * (--sdk-transport). Blocks of calls alternate between them (ours first in even blocks), each call
 * timed alone; a round trip is two messages, each written by one transport and read by the other.
 *
 *   java -cp CLASSPATH bench/java/RoundTripBench.java SERVER_SCRIPT BLOCKS CALLS_PER_BLOCK
 *
 * (make bench-java: SERVER_SCRIPT is examples/java/sdk_server.sh.)
 */
public final class RoundTripBench {
    /** Calls on each session before the measured ones: both transports' downcalls and decoders compiled. */
    static final int WARM_UP = 20_000;

    public static void main(String[] args) {
        String script = args[0];
        int blocks = Integer.parseInt(args[1]);
        int calls = Integer.parseInt(args[2]);
        var mapper = McpJsonDefaults.getMapper();
        McpSyncClient ours = McpClient.sync(new EnvelopeStdioClientTransport(
                ServerParameters.builder(script).build(), mapper)).requestTimeout(Duration.ofSeconds(30)).build();
        McpSyncClient sdk = McpClient.sync(new StdioClientTransport(
                ServerParameters.builder(script).args(List.of("--sdk-transport")).build(), mapper))
                .requestTimeout(Duration.ofSeconds(30)).build();
        try {
            ours.initialize();
            sdk.initialize();
            McpSchema.CallToolRequest call = McpSchema.CallToolRequest.builder("echo")
                    .arguments(Map.of("text", "hello through stdio")).build();
            for (int i = 0; i < WARM_UP; i++) {
                ours.callTool(call);
                sdk.callTool(call);
            }
            List<Long> oursNs = new ArrayList<>();
            List<Long> sdkNs = new ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                McpSyncClient first = b % 2 == 0 ? ours : sdk;
                McpSyncClient second = first == ours ? sdk : ours;
                for (McpSyncClient client : List.of(first, second)) {
                    List<Long> into = client == ours ? oursNs : sdkNs;
                    for (int i = 0; i < calls; i++) {
                        long t = System.nanoTime();
                        McpSchema.CallToolResult r = client.callTool(call);
                        into.add(System.nanoTime() - t);
                        if (!"hello through stdio".equals(((McpSchema.TextContent) r.content().get(0)).text())) {
                            throw new IllegalStateException("wrong echo: " + r);
                        }
                    }
                }
            }
            long[] o = sorted(oursNs);
            long[] s = sorted(sdkNs);
            System.out.printf(Locale.ROOT, "Java %s; %d blocks of %d calls each, in turns, after %,d calls of warm-up%n%n",
                    System.getProperty("java.version"), blocks, calls, WARM_UP);
            System.out.println("| transports (client and server) | calls | median | p90 |");
            System.out.println("|---|---:|---:|---:|");
            System.out.printf(Locale.ROOT, "| jsonrpc-envelope's | %d | %.1f µs | %.1f µs |%n", o.length, at(o, 0.5), at(o, 0.9));
            System.out.printf(Locale.ROOT, "| the Java SDK's own | %d | %.1f µs | %.1f µs |%n", s.length, at(s, 0.5), at(s, 0.9));
            System.out.printf(Locale.ROOT, "%nmedian ours / the SDK's: %.2f (below 1: ours is faster)%n", at(o, 0.5) / at(s, 0.5));
        } finally {
            ours.closeGracefully();
            sdk.closeGracefully();
        }
    }

    static long[] sorted(List<Long> ns) {
        long[] a = ns.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a;
    }

    static double at(long[] sorted, double q) {
        return sorted[(int) Math.min(sorted.length - 1, Math.round(q * (sorted.length - 1)))] / 1000.0;
    }
}
