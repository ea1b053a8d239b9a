// test-dist-java runs this with the jar from dist/maven alone (no checkout,
// no JSONRPC_ENVELOPE_LIB): the library comes out of the jar, is of ABI 3 and
// of the expected version, and classifies and answers every line of the MCP
// vectors as they say (vectors.tsv, written from tests/vectors/mcp.jsonl by
// bindings/java/rules.mk: the line in hex, its kind, its reply_server in hex
// or "-"; the expected values are the vectors', never this file's).
import io.github.jsonrpcenvelope.Classification;
import io.github.jsonrpcenvelope.Envelope;
import io.github.jsonrpcenvelope.Profile;
import io.github.jsonrpcenvelope.Role;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

public class Check {
    public static void main(String[] args) throws Exception {
        String want = args[0];
        check(Envelope.abiVersion() == 3, "ABI " + Envelope.abiVersion());
        check(Envelope.version().equals(want), "version " + Envelope.version() + ", want " + want);
        List<String> records = Files.readAllLines(Path.of(args[1]), StandardCharsets.US_ASCII);
        check(!records.isEmpty(), "vectors: none in " + args[1]);
        HexFormat hex = HexFormat.of();
        for (String record : records) {
            String[] fields = record.split("\t", -1);
            byte[] line = hex.parseHex(fields[0]);
            Classification c = Envelope.classify(line, Profile.MCP);
            check(c.kind().toString().equals(fields[1]), "kind " + c.kind() + " of " + fields[0] + ", want " + fields[1]);
            String reply = fields[2].equals("-") ? null : new String(hex.parseHex(fields[2]), StandardCharsets.UTF_8);
            check(c.reply(Role.SERVER).orElse(null) == null ? reply == null : c.reply(Role.SERVER).get().equals(reply),
                    "reply_server of " + fields[0] + ": " + c.reply(Role.SERVER) + ", want " + reply);
        }
        System.out.println("test-dist-java: jsonrpc-envelope " + Envelope.version() + " from the jar alone, "
                + records.size() + " MCP vectors: ok");
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            System.err.println("test-dist-java: wrong " + what);
            System.exit(1);
        }
    }
}
