package io.github.jsonrpcenvelope.examples;

import io.github.jsonrpcenvelope.mcp.EnvelopeStdioServerTransportProvider;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;

/**
 * An MCP server with one tool, {@code echo}, on stdio: on jsonrpc-envelope's
 * transport, or with {@code --sdk-transport} on the SDK's own. The switch is
 * the one line that makes the transport. Logs go to stderr.
 */
public final class SdkServer {
    private SdkServer() {}

    public static void main(String[] args) {
        List<String> argv = List.of(args);
        for (String a : argv) {
            if (!a.equals("--sdk-transport")) {
                System.err.println("usage: sdk_server.sh [--sdk-transport]");
                System.exit(2);
            }
        }
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        McpServerTransportProvider transport = argv.contains("--sdk-transport")
                ? new StdioServerTransportProvider(mapper)
                : new EnvelopeStdioServerTransportProvider(mapper);
        McpSchema.Tool echo = McpSchema.Tool.builder("echo", mapper,
                        "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}")
                .description("Echoes its text.")
                .build();
        McpSyncServer server = McpServer.sync(transport)
                .serverInfo("jsonrpc-envelope-java-echo", "0.1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
                .toolCall(echo, (exchange, request) -> McpSchema.CallToolResult.builder()
                        .addTextContent(String.valueOf(request.arguments().get("text")))
                        .build())
                .build();
        // The transport's threads serve stdin until it ends; then the process exits.
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    }
}
