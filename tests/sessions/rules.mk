# Sessions against the official MCP SDKs (issue 22), included by the top
# Makefile: each SDK's stdio server on this project's transport, behind the
# guard, and on its own transport (the control), after a real initialize,
# sent every vector line and SESSIONS_LINES random lines (tests/sessions/
# lines.py, seeded with SESSIONS_SEED), each followed by a ping; and each
# SDK's client on this project's client transport against a server that
# writes the same kinds of lines between its answers (tests/sessions/*.py,
# pytest). The table of the servers goes to the test log and to
# target/sessions/servers.md (the clients' to target/sessions/clients.md,
# every failure to target/sessions/failures.txt). Both protocol eras
# (test_eras.py, eras.py): the Python SDK's client in its legacy, default
# and 2026-07-28 modes against the Python SDK's server; the shapes of SPEC
# 10.6 (a batch, a byte order mark, damaged and too-long requests) and a
# client's stray responses, written by a raw host in each era to every
# SDK's server; a 2026-07-28 server that writes requests, against the
# clients that speak that era. Its tables go to the test log and to
# target/sessions/eras.md (its failures to target/sessions/eras-failures.txt).
#
#   make test-sessions [SESSIONS_LINES=5000] [SESSIONS_SEED=22] [SESSIONS_JOBS=3]
#
# What it runs: the SDKs' echo servers (peers/rules.mk), the Python SDK's on
# jsonrpc_envelope.mcpstdio from the source (examples/python/sdk_server.py), the
# Go SDK's on mcpstdio (mcpstdio-example, bindings/go/rules.mk), the
# TypeScript SDK's on the Node binding's transport (its test fixture, with
# the addon of node-addon, bindings/node/rules.mk), the Java SDK's on the
# Java transport (examples/java/sdk_server.sh, where a JDK 22+ is found:
# java-example, bindings/java/rules.mk), rmcp's on the rmcp transport
# (rmcp-example, bindings/rmcp/rules.mk), the guard of the release build,
# and a Go client on mcpstdio built here (tests/sessions/peers/go_client).

SESSIONS_LINES ?= 5000
SESSIONS_SEED  ?= 22
SESSIONS_JOBS  ?= 3
SESSIONS_GO_CLIENT := target/sessions/go_client

TESTS += test-sessions
.PHONY: test-sessions sessions-go-client

# go build decides what is out of date.
sessions-go-client: $(RELEASE_LIB)/libjsonrpc_envelope.so | setup-peers
	mkdir -p $(dir $(SESSIONS_GO_CLIENT))
	@unformatted="$$($(GO_ENV) gofmt -l tests/sessions/peers/go_client)"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l: not formatted: $$unformatted"; exit 1; fi
	cd tests/sessions/peers/go_client && $(MCPSTDIO_GO_ENV) $(GOLANG) vet . && \
	  $(MCPSTDIO_GO_ENV) $(GOLANG) build -o $(CURDIR)/$(SESSIONS_GO_CLIENT) .

test-sessions: setup-pytest $(RELEASE_LIB)/libjsonrpc_envelope.so sdk mcpstdio-example node-addon sessions-go-client \
               java-example rmcp-example
	SESSIONS_JAVA=$(if $(JAVA_JDK),1,0) SESSIONS_RMCP_SERVER="$(CURDIR)/$(RMCP_SERVER)" \
	JSONRPC_ENVELOPE_LIB="$(CURDIR)/$(RELEASE_LIB)/libjsonrpc_envelope.so" \
	JSONRPC_ENVELOPE_BIN="$(CURDIR)/$(RELEASE_LIB)/jsonrpc-envelope" \
	SESSIONS_LINES='$(SESSIONS_LINES)' SESSIONS_SEED='$(SESSIONS_SEED)' SESSIONS_JOBS='$(SESSIONS_JOBS)' \
	PYTHONDONTWRITEBYTECODE=1 $(PYTEST) -p no:cacheprovider -q tests/sessions
