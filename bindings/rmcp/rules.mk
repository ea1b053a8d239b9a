# The library's Rust API documentation and the rmcp transport
# (bindings/rmcp, crate jsonrpc-envelope-rmcp), with its example server
# (examples/rust), included by the top Makefile.
#
# test-rmcp: `cargo doc` of the library with no warning, then the
# transport's tests and doctests, those marked #[ignore]
# (they need what this target makes) included: the rmcp client on our
# child-process transport against the Python SDK's example server, with the
# Python of target/python-mcp (bindings/python/rules.mk). The example server
# against the real SDKs' clients and the session lines is in tests/sessions
# (rmcp-example builds it). rmcp and tokio are dependencies of bindings/rmcp
# and examples/rust alone, which are not the workspace's default members: the
# library's and the CLI's builds never see them.

RMCP_SERVER := target/debug/rmcp-sdk-server

TESTS += test-rmcp
BENCHES += bench-rmcp
.PHONY: test-rmcp test-rust-doc rmcp-example bench-rmcp

# The library's doctests run in test-rust (cargo test); the transport's in
# test-rmcp.
test-rust-doc: setup-build
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --no-deps -p jsonrpc-envelope

# The transport and its example are always built together, so that cargo
# resolves one set of features for both (one build of tokio and rmcp).
RMCP_PACKAGES := -p jsonrpc-envelope-rmcp -p jsonrpc-envelope-rmcp-example

rmcp-example: setup-build
	$(CARGO) build $(RMCP_PACKAGES)

test-rmcp: setup-build test-rust-doc python-mcp-venv
	RMCP_PYTHON="$(CURDIR)/$(PYTHON_MCP)" PYTHON="$(PYTHON)" \
	$(CARGO) test $(RMCP_PACKAGES) -- --include-ignored

# The same MCP tool call over our rmcp transports and over rmcp's own, in
# one run, in turns (bench/rmcp/round_trip.rs, an example of
# bindings/rmcp) with the example's server (--bins: `--example` alone builds
# no binary); part of `make bench`, which puts bench/out/mcp-rmcp.txt in
# bench/RESULTS.md.
bench-rmcp: setup-build
	$(CARGO) build --release $(RMCP_PACKAGES) --bins --example round_trip
	mkdir -p bench/out
	target/release/examples/round_trip target/release/rmcp-sdk-server 20 500 > bench/out/mcp-rmcp.txt
	cat bench/out/mcp-rmcp.txt
