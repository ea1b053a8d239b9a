#!/usr/bin/env bash
# examples/java/sdk_server.sh [--sdk-transport]
# examples/java/sdk_server.sh --build     (build what it needs, then exit)
#
# The MCP Java SDK server with one `echo` tool, on stdio, on jsonrpc-envelope's
# transport (io.github.jsonrpcenvelope.mcp.EnvelopeStdioServerTransportProvider),
# or with --sdk-transport on the SDK's own StdioServerTransportProvider: an MCP
# host's configuration can name this script as its command. On first use (and
# after a change to the sources) it builds the library (cargo) and the Java
# modules (Maven, into target/, with its repository in target/m2), saying so
# on stderr; stdout carries only the protocol.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
jdk="$("$root/bindings/java/find-jdk.sh" 22)" || {
    echo "sdk_server.sh: needs a JDK 22 or newer (JAVA_HOME or /usr/lib/jvm/*): install one (e.g. apt-get install openjdk-25-jdk, or Temurin 25 from adoptium.net) or point JAVA_HOME at it" >&2
    exit 1
}
out="$root/target/java-example"
classpath="$out/classpath.txt"

stale() {
    [[ ! -s "$classpath" ]] && return 0
    [[ -n "$(find "$root/src" "$root/include" "$root/Cargo.toml" "$root/bindings/java" "$root/examples/java" \
        -type f -newer "$classpath" -not -path '*/target/*' -print -quit)" ]]
}

if stale; then
    echo "sdk_server.sh: building the library and the Java example (once)" >&2
    mkdir -p "$out"
    (cd "$root" && cargo build --release) >&2  # as make builds it, so neither undoes the other
    # Maven's own libraries use sun.misc.Unsafe, which JDK 24+ warns about: allowed quietly where the flag exists.
    opts="${MAVEN_OPTS:-}"
    "$jdk/bin/java" --sun-misc-unsafe-memory-access=allow -version >/dev/null 2>&1 && opts="$opts --sun-misc-unsafe-memory-access=allow"
    mvn=(env JAVA_HOME="$jdk" MAVEN_OPTS="$opts" mvn -B -q --no-transfer-progress -Dstyle.color=never -f "$root/bindings/java/pom.xml"
        -Dmaven.repo.local="$root/target/m2" -Djsonrpc.native.dir="$root/target/release")
    "${mvn[@]}" -DskipTests -pl ../../examples/java -am install >&2
    "${mvn[@]}" -pl ../../examples/java dependency:build-classpath -Dmdep.outputFile="$classpath.tmp" >&2
    jar="$root/examples/java/target/jsonrpc-envelope-example-sdk-server-0.1.0.jar"
    printf '%s:%s' "$jar" "$(cat "$classpath.tmp")" > "$classpath"
    rm -f "$classpath.tmp"
fi

java=("$jdk/bin/java" --enable-native-access=ALL-UNNAMED -cp "$(cat "$classpath")")
main=io.github.jsonrpcenvelope.examples.SdkServer
# A class-data archive of one session (an initialize, then the end of
# stdin) makes every later start about four times faster; where it is
# missing or stale the JVM starts without it.
archive="$out/sdk-server.jsa"
if [[ ! -s "$archive" || "$archive" -ot "$classpath" ]]; then
    printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"archive","version":"0"}}}' |
        "${java[@]}" -XX:ArchiveClassesAtExit="$archive.tmp" -Xlog:cds=off -Xlog:cds+dynamic=off "$main" >/dev/null 2>&1 &&
        mv -f "$archive.tmp" "$archive" || rm -f "$archive.tmp"
fi

[[ "${1:-}" == "--build" ]] && exit 0

exec "${java[@]:0:1}" -XX:SharedArchiveFile="$archive" -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off \
    "${java[@]:1}" "$main" "$@"
