package io.github.jsonrpcenvelope.mcp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.jsonrpcenvelope.Direction;
import io.github.jsonrpcenvelope.Profile;
import io.github.jsonrpcenvelope.Relay;
import io.github.jsonrpcenvelope.Role;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * The pump's refusal loop, with an SDK decoder that refuses what the test says: the relay's decision
 * is carried out (an answer written back, a substitute handed on), and a substitute refused in its
 * turn ends the loop, by the library's decision. The expected lines are written by hand.
 */
class SessionPumpTest {
    static final String SUBSTITUTE_6 = "{\"jsonrpc\":\"2.0\",\"id\":6,\"error\":{\"code\":-32603,"
            + "\"message\":\"Internal error: the peer's response to this request is not valid MCP\"}}";
    static final String REFUSED_REPLY_1 = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32600,"
            + "\"message\":\"Invalid Request: the receiving MCP SDK cannot read this request\"}}";

    /** The SDK's own mapper, whose decoding refuses the texts {@code refuse} accepts. */
    static McpJsonMapper refusing(Predicate<String> refuse) {
        McpJsonMapper sdk = McpJsonDefaults.getMapper();
        return (McpJsonMapper) Proxy.newProxyInstance(SessionPumpTest.class.getClassLoader(),
                new Class<?>[] {McpJsonMapper.class}, (proxy, method, args) -> {
                    if (method.getName().equals("readValue") && args[0] instanceof String s && refuse.test(s)) {
                        throw new IOException("refused by the test");
                    }
                    try {
                        return method.invoke(sdk, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** A logger that keeps the messages of its error records. */
    static Logger errors(List<String> into) {
        return (Logger) Proxy.newProxyInstance(SessionPumpTest.class.getClassLoader(), new Class<?>[] {Logger.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("error") && args != null && args[0] instanceof String m) {
                        into.add(m);
                    }
                    return method.getReturnType() == boolean.class ? Boolean.TRUE : null;
                });
    }

    static final String TOOLS_LIST_6 = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/list\"}";

    static byte[] b(String s) {
        return (s + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aRequestTheServerSdkRefusesIsAnsweredBack() {
        List<String> logged = new ArrayList<>();
        List<JSONRPCMessage> sdk = new ArrayList<>();
        ByteArrayOutputStream back = new ByteArrayOutputStream();
        try (Relay relay = new Relay(Profile.MCP)) {
            SessionPump pump = new SessionPump(relay, Role.SERVER, refusing(s -> s.contains("\"method\":\"x\"")),
                    "stdin", errors(logged), back, sdk::add);
            byte[] in = b("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\"}");
            pump.feed(in, in.length);
            assertEquals(List.of(), sdk);
            assertEquals(REFUSED_REPLY_1 + "\n", back.toString(StandardCharsets.UTF_8));
            assertEquals(1, logged.size(), logged.toString());
            assertTrue(logged.get(0).contains("refused a line"), logged.toString());
            // The request, forwarded when read, was answered by the relay itself: nobody waits for it.
            assertEquals(0, relay.outstanding(Direction.TO_SERVER));
            assertEquals(0, relay.outstanding(Direction.TO_HOST));
        }
    }

    @Test
    void aResponseTheClientSdkRefusesIsSubstituted() throws IOException {
        List<String> logged = new ArrayList<>();
        List<JSONRPCMessage> sdk = new ArrayList<>();
        ByteArrayOutputStream back = new ByteArrayOutputStream();
        try (Relay relay = new Relay(Profile.MCP)) {
            SessionPump pump = new SessionPump(relay, Role.CLIENT, refusing(s -> s.contains("\"result\"")),
                    "server stdout", errors(logged), back, sdk::add);
            // The SDK's request to the server: told to the relay, then written.
            pump.writeLine(TOOLS_LIST_6);
            assertEquals(1, relay.outstanding(Direction.TO_HOST));
            byte[] in = b("{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}");
            pump.feed(in, in.length);
            assertEquals(1, sdk.size(), sdk.toString());
            McpSchema.JSONRPCResponse r = (McpSchema.JSONRPCResponse) sdk.get(0);
            assertEquals(6, ((Number) r.id()).intValue());
            assertEquals(-32603, r.error().code().intValue());
            assertEquals(TOOLS_LIST_6 + "\n", back.toString(StandardCharsets.UTF_8));
            assertEquals(1, logged.size(), logged.toString());
            assertEquals(0, relay.outstanding(Direction.TO_HOST));
        }
    }

    @Test
    void aSubstituteRefusedInItsTurnIsDropped() throws IOException {
        List<String> logged = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        List<JSONRPCMessage> sdk = new ArrayList<>();
        ByteArrayOutputStream back = new ByteArrayOutputStream();
        try (Relay relay = new Relay(Profile.MCP)) {
            // The SDK refuses every response, the substitute too.
            SessionPump pump = new SessionPump(relay, Role.CLIENT, refusing(s -> {
                boolean no = s.contains("\"result\"") || s.contains("\"error\"");
                if (no) {
                    refused.add(s);
                }
                return no;
            }), "server stdout", errors(logged), back, sdk::add);
            pump.writeLine(TOOLS_LIST_6);
            byte[] in = b("{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}");
            pump.feed(in, in.length);
            assertEquals(List.of(), sdk);
            // Tried twice: the line, then its substitute; nothing more, and nothing written back.
            assertEquals(List.of("{\"jsonrpc\":\"2.0\",\"id\":6,\"result\":{}}", SUBSTITUTE_6), refused);
            assertEquals(2, logged.size(), logged.toString());
            assertTrue(logged.get(1).contains("refused a substitute"), logged.toString());
            assertEquals(TOOLS_LIST_6 + "\n", back.toString(StandardCharsets.UTF_8));
            // The session goes on: the next message is handed on.
            byte[] next = b("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}");
            pump.feed(next, next.length);
            assertEquals(1, sdk.size());
            assertTrue(sdk.get(0) instanceof McpSchema.JSONRPCNotification, sdk.toString());
        }
    }
}
