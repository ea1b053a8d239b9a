package io.github.jsonrpcenvelope.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.jsonrpcenvelope.mcp.EnvelopeStdioClientTransport;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The example server, started as its own process, on our transport and on
 * the SDK's, driven by the SDK's client on our client transport and on the
 * SDK's own: a session completes (initialize, tools/list, tools/call) in
 * every pairing.
 */
class SdkServerTest {
    static ServerParameters server(boolean sdkTransport) {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> args = new java.util.ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), SdkServer.class.getName()));
        if (sdkTransport) {
            args.add("--sdk-transport");
        }
        return ServerParameters.builder(java).args(args).env(Map.of("JSONRPC_ENVELOPE_LIB", "")).build();
    }

    /**
     * The Python example server (examples/python/sdk_server.py, on the Python
     * SDK and our Python transport), with the Python of target/python-mcp that
     * test-java is given (bindings/python/rules.mk makes it); skipped without.
     */
    @ParameterizedTest(name = "Python server on the SDK's transport: {0}")
    @CsvSource({"false", "true"})
    void ourClientAgainstThePythonServer(boolean sdkServer) {
        String python = System.getProperty("jsonrpc.envelope.python", "");
        org.junit.jupiter.api.Assumptions.assumeTrue(!python.isEmpty(), "no jsonrpc.envelope.python");
        Path root = Path.of(System.getProperty("jsonrpc.envelope.root")).toAbsolutePath().normalize();
        List<String> args = new java.util.ArrayList<>(List.of(root.resolve("examples/python/sdk_server.py").toString()));
        if (sdkServer) {
            args.add("--sdk-transport");
        }
        ServerParameters params = ServerParameters.builder(python).args(args).env(Map.of(
                "PYTHONPATH", root.resolve("bindings/python/src").toString(),
                "PYTHONDONTWRITEBYTECODE", "1",
                "JSONRPC_ENVELOPE_LIB", root.resolve("target/release/libjsonrpc_envelope.so").toString())).build();
        var transport = new EnvelopeStdioClientTransport(params, McpJsonDefaults.getMapper());
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
            client.initialize();
            assertEquals(List.of("echo"), client.listTools().tools().stream().map(McpSchema.Tool::name).toList());
            McpSchema.CallToolResult r = client.callTool(
                    McpSchema.CallToolRequest.builder("echo").arguments(Map.of("text", "from java")).build());
            assertEquals("from java", ((McpSchema.TextContent) r.content().get(0)).text());
            client.closeGracefully();
        }
    }

    @ParameterizedTest(name = "server on the SDK's transport: {0}, client on ours: {1}")
    @CsvSource({"false,true", "true,true", "false,false", "true,false"})
    void aSessionCompletes(boolean sdkServer, boolean ourClient) {
        var mapper = McpJsonDefaults.getMapper();
        McpClientTransport transport = ourClient
                ? new EnvelopeStdioClientTransport(server(sdkServer), mapper)
                : new StdioClientTransport(server(sdkServer), mapper);
        try (McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30)).build()) {
            McpSchema.InitializeResult init = client.initialize();
            assertEquals("jsonrpc-envelope-java-echo", init.serverInfo().name());
            List<McpSchema.Tool> tools = client.listTools().tools();
            assertEquals(List.of("echo"), tools.stream().map(McpSchema.Tool::name).toList());
            McpSchema.CallToolResult r = client.callTool(
                    McpSchema.CallToolRequest.builder("echo").arguments(Map.of("text", "héllo\nworld")).build());
            assertTrue(r.isError() == null || !r.isError(), r.toString());
            assertEquals("héllo\nworld", ((McpSchema.TextContent) r.content().get(0)).text());
            client.closeGracefully();
        }
    }
}
