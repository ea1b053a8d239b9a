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

# ---- make dist: the npm package -----------------------------------------
#
# dist/jsonrpc-envelope-<v>.tgz, `npm pack` of a staging copy of this folder
# (target/dist-node/package), as `npm publish` would send it: the addon
# built around the shipped library's static archive (target/dist-lib, as the
# other artifacts ship it) by zig's C compiler against glibc 2.17's symbol
# versions, like the library itself (the version script stands for
# --exclude-libs, which zig's linker lacks), stripped; and the CLI,
# `jsonrpc-envelope`, as bin/linux-x64/jsonrpc-envelope (target/dist-bin),
# run by the package's bin, bin/jsonrpc-envelope.cjs: `npx jsonrpc-envelope
# guard -- ...`, `npm install -g jsonrpc-envelope`. The package's prepack
# loads the addon, there, before it is packed.
#
# The library and the CLI are packaging/rules.mk's $(DIST_LIB) and
# $(DIST_BIN) targets, named here because that file is included after this
# one; its variables are read when the recipes run.
DIST_NODE     := target/dist-node
DIST_NODE_PKG := $(DIST_NODE)/package
DIST_NODE_ZIG  = '$(DIST_TOOLS)/bin/python' -m ziglang $(1) -target x86_64-linux-gnu.$(DIST_GLIBC)

.PHONY: dist-node test-dist-node

dist-node: target/dist-lib/libjsonrpc_envelope.so target/dist-bin/jsonrpc-envelope setup-node
	@test "$$($(NODE) -p "require('./$(NODE_DIR)/package.json').version")" = '$(DIST_VERSION)' || { \
	  echo "dist-node: $(NODE_DIR)/package.json's version is not the workspace's, $(DIST_VERSION)" >&2; exit 1; }
	rm -rf $(DIST_NODE)
	mkdir -p $(DIST_NODE_PKG)/bin/linux-x64 $(DIST)
	cp -R $(addprefix $(NODE_DIR)/,package.json README.md index.d.ts binding.gyp lib mcpstdio src scripts bin) $(DIST_NODE_PKG)/
	cd $(DIST_NODE_PKG) && CC="$(call DIST_NODE_ZIG,cc)" CXX="$(call DIST_NODE_ZIG,c++)" LINK="$(call DIST_NODE_ZIG,cc)" \
		$(NPM) run --silent build -- -- -Djsonrpc_root='$(CURDIR)' -Djsonrpc_lib='$(CURDIR)/$(DIST_LIB)/libjsonrpc_envelope.a' \
		-Djsonrpc_hide=-Wl,--version-script='$(CURDIR)/$(DIST_NODE_PKG)/scripts/addon.map' \
		> $(CURDIR)/$(DIST_NODE)/build.log 2>&1 || { cat $(CURDIR)/$(DIST_NODE)/build.log; exit 1; }
	strip --strip-unneeded $(DIST_NODE_PKG)/build/Release/jsonrpc_envelope.node
	install -m 0755 $(DIST_BIN)/jsonrpc-envelope $(DIST_NODE_PKG)/bin/linux-x64/jsonrpc-envelope
	cd $(DIST_NODE_PKG) && $(NPM) pack --json --pack-destination '$(CURDIR)/$(DIST)' > ../pack.json 2> ../pack.log \
		|| { cat ../pack.log; exit 1; }
	@$(NODE) -p 'const [p] = require("./$(DIST_NODE)/pack.json"); `dist-node: $(DIST)/$${p.filename}, $${p.entryCount} files, $${(p.size / 1024).toFixed(1)} KiB`'

# The package, installed from the tarball alone as users do (npm install,
# npx, npm install -g), in an empty folder with its own HOME and npm cache.
# Like every test-dist-*, it tests what `make dist` writes; `make dist-node
# test-dist-node` makes and tests the npm package alone.
test-dist-node: $(if $(filter dist-node,$(MAKECMDGOALS)),dist-node,dist) setup-node
	$(DIST_TEST_ENV) NODE='$(NODE)' NPM='$(NPM)' tests/dist/test_node.sh
