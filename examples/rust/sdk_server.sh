#!/usr/bin/env bash
# The rmcp (official Rust MCP SDK) example server, one tool `echo`, on
# stdio through jsonrpc-envelope's transport (jsonrpc_envelope_rmcp::stdio());
# `--sdk-transport` serves it on rmcp's own rmcp::transport::stdio().
# Built with cargo on first use (and whenever its sources change; cargo's
# output goes to stderr), so an MCP host's configuration can name this
# script directly:
#
#   {"command": "/path/to/checkout/examples/rust/sdk_server.sh"}
#
# Log records go to stderr; RUST_LOG chooses the level (default: warn).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cargo="${CARGO:-cargo}"
command -v "$cargo" >/dev/null 2>&1 || {
  echo "sdk_server.sh needs cargo (Rust), which is not on PATH: install Rust with rustup (https://rustup.rs)" >&2
  exit 1
}
"$cargo" build --quiet --release --manifest-path "$root/Cargo.toml" -p jsonrpc-envelope-rmcp-example >&2
exec "$root/target/release/rmcp-sdk-server" "$@"
