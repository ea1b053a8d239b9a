#!/usr/bin/env bash
# What peers/rules.mk needs on a fresh Debian machine besides python3 with venv
# (make's setup-venv): Node 18+ with npm, and Go 1.25+ (the Go SDK's
# minimum), preinstalled at /usr/local/go/bin on the project's machines.
# Installs only what is missing, and prints nothing when nothing is. make
# runs it as setup-peers, before the SDKs are installed.
set -euo pipefail
export PATH="$PATH:/usr/local/go/bin"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "peers: installing nodejs and npm"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends nodejs npm
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 18 ]; then
    echo "peers: Node $(node --version) is too old; the TypeScript SDK needs Node 18 or newer" >&2
    exit 1
fi

min_go=1.25
if ! command -v go >/dev/null 2>&1; then
    echo "peers: no go command on PATH or in /usr/local/go/bin; install Go $min_go or newer" >&2
    exit 1
fi
have_go="$(go env GOVERSION)"
have_go="${have_go#go}"
if [ "$(printf '%s\n%s\n' "$min_go" "$have_go" | sort -V | head -n 1)" != "$min_go" ]; then
    echo "peers: Go $have_go is too old; the Go SDK needs Go $min_go or newer" >&2
    exit 1
fi
