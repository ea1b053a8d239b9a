# The Go binding (bindings/go) and the Go echo server (examples/go/echo-server),
# included by the top Makefile: vet, a gofmt check, every test under the race
# detector, and a short fuzz run of FuzzClassify.
#
# Go is looked for on PATH, then in /usr/local/go/bin. CGO_ENABLED=1 makes a
# missing C compiler an error instead of a silent build without cgo. -count=1:
# Go's test cache does not know the Rust library, so a cached pass could
# outlive a change to it. The fuzz run is bounded by a count, not a duration
# (Go's fuzz coordinator can fail time-bounded runs on a loaded machine).

GOLANG      ?= go
# Go's build cache does not see the C header (it lives outside the module),
# so its hash goes into CGO_CFLAGS, which is part of the cache key: a
# changed header always recompiles the cgo code.
GO_ENV      := PATH="$$PATH:/usr/local/go/bin" CGO_ENABLED=1 \
               CGO_CFLAGS="-g -O2 -DJSONRPC_ENVELOPE_HEADER_HASH=$$(sha256sum $(CURDIR)/include/jsonrpc_envelope.h | cut -c1-16)"
GO_FUZZTIME ?= 20000x
GO_BINDING  := bindings/go
GO_ECHO     := examples/go/echo-server

TESTS += test-go
.PHONY: test-go

test-go: $(RELEASE_LIB)/libjsonrpc_envelope.so
	cd $(GO_BINDING) && $(GO_ENV) $(GOLANG) vet ./...
	cd $(GO_ECHO) && $(GO_ENV) $(GOLANG) vet ./...
	@unformatted="$$($(GO_ENV) gofmt -l $(GO_BINDING) $(GO_ECHO))"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l: not formatted:"; echo "$$unformatted"; exit 1; fi; \
	echo "gofmt -l $(GO_BINDING) $(GO_ECHO): clean"
	cd $(GO_BINDING) && $(GO_ENV) $(GOLANG) test -race -count=1 ./...
	cd $(GO_ECHO) && $(GO_ENV) $(GOLANG) test -race -count=1 ./...
	cd $(GO_BINDING) && $(GO_ENV) $(GOLANG) test -run '^$$' -fuzz '^FuzzClassify$$' -fuzztime $(GO_FUZZTIME) .

# The Go binding's benchmarks (not a test): Classify and the Reader against
# encoding/json unmarshalling into json.RawMessage fields, on the same lines;
# part of `make bench`, which puts bench/out/go.txt in bench/RESULTS.md.
BENCHES += bench-go
.PHONY: bench-go

bench-go: $(RELEASE_LIB)/libjsonrpc_envelope.so
	mkdir -p bench/out
	cd $(GO_BINDING) && $(GO_ENV) $(GOLANG) test -run '^$$' -bench . -benchmem -count=5 > $(CURDIR)/bench/out/go.txt
	cat bench/out/go.txt

# Peak memory of the echo servers, Go's and, beside it, Python's: each runs
# as a process with its default line limit and is sent a 20 MiB line, then a
# request it must still answer (bench/echo_memory.py). Not a test; part of
# `make bench`, which puts bench/out/echo-memory.txt in bench/RESULTS.md.
BENCHES += bench-echo-memory
.PHONY: bench-echo-memory

bench-echo-memory: $(RELEASE_LIB)/libjsonrpc_envelope.so
	mkdir -p bench/out
	cd $(GO_ECHO) && $(GO_ENV) $(GOLANG) build -o $(CURDIR)/bench/out/echo-server-go .
	JSONRPC_ENVELOPE_LIB="$(CURDIR)/$(RELEASE_LIB)/libjsonrpc_envelope.so" PYTHONDONTWRITEBYTECODE=1 \
	$(PYTHON) bench/echo_memory.py go=bench/out/echo-server-go 'python=$(PYTHON) examples/python/echo_server.py' \
	  > bench/out/echo-memory.txt; status=$$?; cat bench/out/echo-memory.txt; exit $$status

# ---- mcpstdio: stdio transports for the official Go MCP SDK --------------
# bindings/go/mcpstdio is a module of its own (requiring
# github.com/modelcontextprotocol/go-sdk, fetched from the module proxy into
# Go's module cache), so that the binding never requires the SDK.
# test-go-mcp vets it and the example server on it (examples/go/sdk_server),
# and runs its tests under the race detector: they talk to the example, to
# the Go SDK's own server (sdk-go), and to the Python SDK's servers, ours
# among them, with the Python of target/python-mcp (bindings/python/rules.mk).

MCPSTDIO         := bindings/go/mcpstdio
MCPSTDIO_EXAMPLE := target/mcpstdio/sdk_server
MCPSTDIO_GO_ENV  := $(GO_ENV) GOFLAGS=-mod=readonly

TESTS += test-go-mcp
.PHONY: test-go-mcp mcpstdio-example

# go build decides what is out of date.
mcpstdio-example: $(RELEASE_LIB)/libjsonrpc_envelope.so
	mkdir -p $(dir $(MCPSTDIO_EXAMPLE))
	cd examples/go/sdk_server && $(MCPSTDIO_GO_ENV) $(GOLANG) build -o $(CURDIR)/$(MCPSTDIO_EXAMPLE) .

test-go-mcp: $(RELEASE_LIB)/libjsonrpc_envelope.so mcpstdio-example python-mcp-venv sdk-go
	cd $(MCPSTDIO) && $(MCPSTDIO_GO_ENV) $(GOLANG) vet ./...
	cd examples/go/sdk_server && $(MCPSTDIO_GO_ENV) $(GOLANG) vet ./...
	@unformatted="$$($(GO_ENV) gofmt -l $(MCPSTDIO) examples/go/sdk_server)"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l: not formatted:"; echo "$$unformatted"; exit 1; fi; \
	echo "gofmt -l $(MCPSTDIO) examples/go/sdk_server: clean"
	cd $(MCPSTDIO) && $(MCPSTDIO_GO_ENV) $(PYTHON_MCP_ENV) MCPSTDIO_PYTHON="$(CURDIR)/$(PYTHON_MCP)" \
	MCPSTDIO_GO_SERVER="$(CURDIR)/$(MCPSTDIO_EXAMPLE)" SDK_GO_ECHO_SERVER="$(CURDIR)/$(SDK_GO_BIN)/echo-server" \
	$(GOLANG) test -race -count=1 ./...

# The same MCP tool-call round trip over mcpstdio and over the Go SDK's own
# stdio transports, in one run, in turns (BenchmarkToolCallInTurns; not a
# test); part of `make bench`, which puts bench/out/mcp-go.txt in
# bench/RESULTS.md.
BENCHES += bench-go-mcp
.PHONY: bench-go-mcp

bench-go-mcp: $(RELEASE_LIB)/libjsonrpc_envelope.so mcpstdio-example python-mcp-venv sdk-go
	mkdir -p bench/out
	cd $(MCPSTDIO) && $(MCPSTDIO_GO_ENV) $(PYTHON_MCP_ENV) MCPSTDIO_PYTHON="$(CURDIR)/$(PYTHON_MCP)" \
	MCPSTDIO_GO_SERVER="$(CURDIR)/$(MCPSTDIO_EXAMPLE)" SDK_GO_ECHO_SERVER="$(CURDIR)/$(SDK_GO_BIN)/echo-server" \
	$(GOLANG) test -run '^$$' -bench ToolCallInTurns -benchtime 3000x -count 5 > $(CURDIR)/bench/out/mcp-go.txt
	cat bench/out/mcp-go.txt
