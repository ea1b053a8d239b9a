# The Java binding (bindings/java, java.lang.foreign over the C ABI), built
# and tested with Maven; included by the top Makefile (bindings/*/rules.mk).
#
# It needs a JDK of 22 or newer (java.lang.foreign is final there):
# bindings/java/find-jdk.sh takes JAVA_HOME when it is one, else the newest
# under /usr/lib/jvm. Where there is none, test-java says so in one line,
# with how to get one, and skips. Maven keeps its repository in target/m2
# (never ~/.m2); what it fetches comes from Maven Central. The jar carries
# the library of $(JAVA_NATIVE_DIR) (the release build here; the dist
# build for `make dist`).

MVN             ?= mvn
JAVA_MIN        := 22
JAVA_DIR        := bindings/java
JAVA_M2         := $(CURDIR)/target/m2
JAVA_NATIVE_DIR ?= $(CURDIR)/$(RELEASE_LIB)
JAVA_NO_JDK     := test-java: skipped: no JDK $(JAVA_MIN) or newer (JAVA_HOME or /usr/lib/jvm/*); install one (e.g. apt-get install openjdk-25-jdk, or Temurin 25 from adoptium.net) or point JAVA_HOME at it
# The JDK's home, or nothing; and Maven's command line with it.
JAVA_JDK        = $(shell $(JAVA_DIR)/find-jdk.sh $(JAVA_MIN))
# Maven's own libraries use sun.misc.Unsafe, which JDK 24+ warns about: allowed quietly where the flag exists.
JAVA_MVN        = JAVA_HOME="$(JAVA_JDK)" JSONRPC_ENVELOPE_LIB= \
                  MAVEN_OPTS="$$MAVEN_OPTS $$("$(JAVA_JDK)/bin/java" --sun-misc-unsafe-memory-access=allow -version >/dev/null 2>&1 && echo --sun-misc-unsafe-memory-access=allow)" \
                  $(MVN) -B --no-transfer-progress -Dstyle.color=never \
                  -f $(JAVA_DIR)/pom.xml -Dmaven.repo.local=$(JAVA_M2) -Djsonrpc.native.dir=$(JAVA_NATIVE_DIR)

SETUP += setup-java
TESTS += test-java
BENCHES += bench-java
.PHONY: setup-java test-java java-example bench-java

setup-java:
	@mk/need.sh test-java mvn=maven

# The example server of examples/java, built as its script builds it on
# first use (for the session tests, tests/sessions/rules.mk); nothing without
# a JDK (the session tests then leave Java out, saying so).
java-example: setup-java $(RELEASE_LIB)/libjsonrpc_envelope.so
	@if [ -z "$(JAVA_JDK)" ]; then echo "$(JAVA_NO_JDK)" | sed 's/^test-java/java-example/'; exit 0; fi; \
	examples/java/sdk_server.sh --build

# The binding against Jackson's readTree plus a classification in Java, and
# the same MCP tool call over our transports and over the SDK's own, each in
# one run, in turns (bench/java); part of `make bench`, which puts
# bench/out/java.txt and mcp-java.txt in bench/RESULTS.md.
JAVA_BENCH = "$(JAVA_JDK)/bin/java" --enable-native-access=ALL-UNNAMED -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
             -cp "$$(cat target/java-example/classpath.txt)"
bench-java: java-example bench-corpus
	@if [ -z "$(JAVA_JDK)" ]; then echo "$(JAVA_NO_JDK)" | sed 's/^test-java/bench-java/'; exit 0; fi; \
	mkdir -p bench/out && \
	$(JAVA_BENCH) bench/java/ClassifyBench.java 40 bench/out/small.jsonl bench/out/medium.jsonl bench/out/large.jsonl \
	  > bench/out/java.txt && cat bench/out/java.txt && \
	$(JAVA_BENCH) bench/java/RoundTripBench.java examples/java/sdk_server.sh 20 500 > bench/out/mcp-java.txt && \
	cat bench/out/mcp-java.txt

# The example's tests also run our client transport against the Python
# example server, with the Python of target/python-mcp (bindings/python/rules.mk).
test-java: setup-java $(RELEASE_LIB)/libjsonrpc_envelope.so python-mcp-venv
	@if [ -z "$(JAVA_JDK)" ]; then echo "$(JAVA_NO_JDK)"; exit 0; fi; \
	echo "test-java: JDK $(JAVA_JDK)"; \
	rm -rf $(JAVA_DIR)/*/target/surefire-reports examples/java/target/surefire-reports; \
	$(JAVA_MVN) -q verify -Djsonrpc.envelope.python=$(CURDIR)/$(PYTHON_MCP) && \
	cat $(JAVA_DIR)/*/target/surefire-reports/*.txt examples/java/target/surefire-reports/*.txt | \
	  awk '/^Tests run:/ { gsub(",", ""); n += $$3; f += $$5; e += $$7; s += $$9 } \
	       END { printf "test-java: %d tests, %d failures, %d errors, %d skipped\n", n, f, e, s }'

# ---- the Maven artifacts (make dist-java, make test-dist-java) --------------
# dist-java writes dist/maven, a Maven repository (as file:// reads it) with
# io.github.jsonrpc-envelope:jsonrpc-envelope (carrying the glibc 2.17 build
# of packaging/rules.mk) and jsonrpc-envelope-mcp, at the library's version.
# test-dist-java fetches the binding from that repository alone into an
# empty local repository and runs a program on it from an empty directory,
# with no checkout beside it and no JSONRPC_ENVELOPE_LIB.

# (DIST and DIST_LIB come from packaging/rules.mk, included later: used in recipes only.)
JAVA_DIST       = $(DIST)/maven
JAVA_DIST_TEST := $(CURDIR)/target/dist-java
.PHONY: dist-java test-dist-java

dist-java: JAVA_NATIVE_DIR = $(CURDIR)/$(DIST_LIB)
dist-java: setup-java
	@if [ -z "$(JAVA_JDK)" ]; then echo "dist-java: no JDK $(JAVA_MIN) or newer: install one (e.g. apt-get install openjdk-25-jdk) or point JAVA_HOME at it" >&2; exit 1; fi
	$(MAKE) --no-print-directory $(DIST_LIB)/libjsonrpc_envelope.so
	rm -rf $(JAVA_DIST)
	$(JAVA_MVN) -q -DskipTests -pl envelope,mcp-transport -am deploy \
	  -DaltDeploymentRepository=dist::file://$(CURDIR)/$(JAVA_DIST)
	unzip -p $(JAVA_DIST)/io/github/jsonrpc-envelope/jsonrpc-envelope/$(DIST_VERSION)/jsonrpc-envelope-$(DIST_VERSION).jar \
	  native/linux-x86_64/libjsonrpc_envelope.so | cmp - $(DIST_LIB)/libjsonrpc_envelope.so
	@echo "dist-java: $(JAVA_DIST)/io/github/jsonrpc-envelope/{jsonrpc-envelope,jsonrpc-envelope-mcp}/$(DIST_VERSION)"

test-dist-java: setup-java dist
	@if [ -z "$(JAVA_JDK)" ]; then echo "$(JAVA_NO_JDK)" | sed 's/^test-java/test-dist-java/'; exit 0; fi; \
	set -e; test -d $(JAVA_DIST) || { echo "test-dist-java: no $(JAVA_DIST): run make dist-java first" >&2; exit 1; }; \
	rm -rf $(JAVA_DIST_TEST) && mkdir -p $(JAVA_DIST_TEST)/run; \
	JAVA_HOME="$(JAVA_JDK)" $(MVN) -B -q --no-transfer-progress -Dstyle.color=never -Dmaven.repo.local=$(JAVA_DIST_TEST)/m2 \
	  org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get -Dtransitive=false \
	  -Dartifact=io.github.jsonrpc-envelope:jsonrpc-envelope:$(DIST_VERSION) \
	  -DremoteRepositories=dist::default::file://$(CURDIR)/$(JAVA_DIST) > $(JAVA_DIST_TEST)/fetch.log 2>&1 \
	  || { cat $(JAVA_DIST_TEST)/fetch.log; exit 1; }; \
	cp $(JAVA_DIST_TEST)/m2/io/github/jsonrpc-envelope/jsonrpc-envelope/$(DIST_VERSION)/jsonrpc-envelope-$(DIST_VERSION).jar \
	  $(JAVA_DIST_TEST)/run/; \
	cp $(JAVA_DIR)/dist-check/Check.java $(JAVA_DIST_TEST)/run/; \
	$(PYTHON) -c 'import json, sys; [print("\t".join((bytes.fromhex(r["line_hex"]).hex() if "line_hex" in r else r["line"].encode("utf-8", "surrogatepass").hex(), r["kind"], "-" if r["reply_server"] is None else r["reply_server"].encode("utf-8", "surrogatepass").hex()))) for r in map(json.loads, filter(str.strip, sys.stdin))]' \
	  < tests/vectors/mcp.jsonl > $(JAVA_DIST_TEST)/run/vectors.tsv; \
	cd $(JAVA_DIST_TEST)/run && env -u JSONRPC_ENVELOPE_LIB "$(JAVA_JDK)/bin/java" --enable-native-access=ALL-UNNAMED \
	  -cp jsonrpc-envelope-$(DIST_VERSION).jar Check.java $(DIST_VERSION) vectors.tsv
