# The Node binding (bindings/node, npm package jsonrpc-envelope) and the
# Node echo server (examples/node), included by the top Makefile: the
# package's dev dependencies from npm into bindings/node/node_modules
# (ignored; reinstalled when package-lock.json changes), the addon built by
# node-gyp against the running node's headers and the release library's
# static archive, then every test under node --test: the vectors of both
# profiles (envelope.jsonl, mcp.jsonl), the reader at every chunk size, the
# session on hand-written sequences, memory over a million calls, argument
# errors, the ABI check, faults inside the library (the panic-test
# archive), every path of the addon under valgrind, the types (tsc), the
# MCP profile against the SDK's own decoder, the SDK transports against the
# SDK's own, the Python, Go and Node echo servers with the SDK client, and
# npm pack.

NODE        ?= node
NPM         ?= npm
NODE_DIR    := bindings/node
NODE_STAMP  := $(NODE_DIR)/node_modules/.package-lock.json

TESTS += test-node
.PHONY: test-node node-addon

# npm writes node_modules/.package-lock.json on every install: newer than
# package-lock.json means the installed tree is current.
$(NODE_STAMP): $(NODE_DIR)/package.json $(NODE_DIR)/package-lock.json | setup-node
	cd $(NODE_DIR) && $(NPM) ci --no-audit --no-fund
	touch $@

# The addon, rebuilt on every run (node-gyp takes seconds, and cannot tell
# when the library's archive changed).
node-addon: $(RELEASE_LIB)/libjsonrpc_envelope.so $(NODE_STAMP)
	@mkdir -p target
	cd $(NODE_DIR) && $(NPM) run --silent build > $(CURDIR)/target/node-build.log 2>&1 || { cat $(CURDIR)/target/node-build.log; exit 1; }

# PANIC_LIB (the top Makefile's, defined after this file is included) is
# read when the recipe runs.
test-node: node-addon
	@$(MAKE) --no-print-directory $(PANIC_LIB)/libjsonrpc_envelope.so
	cd $(NODE_DIR) && JSONRPC_PANIC_LIB='$(CURDIR)/$(PANIC_LIB)/libjsonrpc_envelope.a' $(NODE) --test test/*.test.mjs

# The Node binding's benchmark (not a test): ns per line of classify and
# readMessages against JSON.parse plus a classification in JavaScript, in
# turns; part of `make bench`, which puts bench/out/node.txt in
# bench/RESULTS.md.
BENCHES += bench-node
.PHONY: bench-node

bench-node: node-addon
	mkdir -p bench/out
	$(NODE) bench/node_bench.mjs > bench/out/node.txt
	cat bench/out/node.txt
