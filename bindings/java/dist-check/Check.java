// test-dist-java runs this with the jar from dist/maven alone (no checkout,
// no JSONRPC_ENVELOPE_LIB): the library comes out of the jar, is of ABI 3 and
// of the expected version, and classifies and answers a line.
import io.github.jsonrpcenvelope.Envelope;
import io.github.jsonrpcenvelope.Kind;
import io.github.jsonrpcenvelope.Profile;
import io.github.jsonrpcenvelope.Role;
import java.nio.charset.StandardCharsets;

public class Check {
    public static void main(String[] args) {
        String want = args[0];
        check(Envelope.abiVersion() == 3, "ABI " + Envelope.abiVersion());
        check(Envelope.version().equals(want), "version " + Envelope.version() + ", want " + want);
        byte[] line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes(StandardCharsets.UTF_8);
        check(Envelope.classify(line, Profile.MCP).kind() == Kind.REQUEST, "a request");
        String reply = Envelope.invalidReply("{".getBytes(StandardCharsets.UTF_8), Role.SERVER, Profile.MCP).orElse("");
        check(reply.contains("-32700"), "the parse error reply: " + reply);
        System.out.println("test-dist-java: jsonrpc-envelope " + Envelope.version() + " from the jar alone: ok");
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("test-dist-java: wrong " + what);
            System.exit(1);
        }
    }
}
