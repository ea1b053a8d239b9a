package io.github.jsonrpcenvelope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The struct layouts against the C compiler's: a small C program, compiled
 * with the header, prints sizeof, alignof and offsetof of every struct and
 * member; each must equal the Java layout's.
 */
class LayoutTest {
    static final Map<String, StructLayout> STRUCTS = Map.of(
            "JsonRpcSpan", Native.SPAN,
            "JsonRpcStr", Native.STR,
            "JsonRpcString", Native.STRING,
            "JsonRpcClassification", Native.CLASSIFICATION,
            "JsonRpcLine", Native.LINE,
            "JsonRpcBatch", Native.BATCH,
            "JsonRpcReply", Native.REPLY,
            "JsonRpcDecision", Native.DECISION);

    @Test
    void layoutsMatchTheHeader(@TempDir Path dir) throws IOException, InterruptedException {
        StringBuilder c = new StringBuilder(
                "#include <stdio.h>\n#include <stddef.h>\n#include <stdalign.h>\n#include \"jsonrpc_envelope.h\"\nint main(void) {\n");
        int members = 0;
        for (var e : STRUCTS.entrySet()) {
            String s = e.getKey();
            c.append("printf(\"%s#size %zu\\n\", \"").append(s).append("\", sizeof(").append(s).append("));\n");
            c.append("printf(\"%s#align %zu\\n\", \"").append(s).append("\", alignof(").append(s).append("));\n");
            for (MemoryLayout m : e.getValue().memberLayouts()) {
                if (m.name().isEmpty()) {
                    continue; // padding
                }
                String f = m.name().get();
                c.append("printf(\"%s.%s offset %zu size %zu\\n\", \"").append(s).append("\", \"").append(f)
                        .append("\", offsetof(").append(s).append(", ").append(f).append("), sizeof(((")
                        .append(s).append("*)0)->").append(f).append("));\n");
                members++;
            }
        }
        c.append("return 0;\n}\n");
        Path src = dir.resolve("layout.c");
        Files.writeString(src, c);
        Path exe = dir.resolve("layout");
        String cc = System.getenv().getOrDefault("CC", "cc");
        Process p = new ProcessBuilder(cc, "-std=c11", "-Wall", "-Werror",
                "-I" + Vectors.root().resolve("include"), src.toString(), "-o", exe.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "compiling the layout program: " + out);
        p = new ProcessBuilder(exe.toString()).redirectErrorStream(true).start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, p.waitFor());
        Map<String, String> got = new HashMap<>();
        for (String l : lines) {
            int sp = l.indexOf(' ');
            got.put(l.substring(0, sp), l.substring(sp + 1));
        }
        int checked = 0;
        for (var e : STRUCTS.entrySet()) {
            String s = e.getKey();
            StructLayout layout = e.getValue();
            assertEquals("" + layout.byteSize(), got.get(s + "#size"), s);
            // A struct's alignment in C: the largest of its members' (the Java layout's own alignment).
            assertEquals("" + layout.byteAlignment(), got.get(s + "#align"), s);
            long end = 0;
            for (MemoryLayout m : layout.memberLayouts()) {
                if (m.name().isPresent()) {
                    String f = m.name().get();
                    long off = layout.byteOffset(MemoryLayout.PathElement.groupElement(f));
                    assertEquals("offset " + off + " size " + m.byteSize(), got.get(s + "." + f), s + "." + f);
                    checked++;
                }
                end += m.byteSize();
            }
            assertEquals(layout.byteSize(), end, s + ": members and padding fill the struct");
        }
        assertEquals(members, checked);
        assertTrue(checked >= 40, "checked " + checked + " members");
    }
}
