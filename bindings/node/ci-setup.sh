#!/usr/bin/env bash
# What the Node binding's tests (bindings/node/rules.mk) need beyond npm
# packages, checked, not installed: Node 20 or newer with npm, and the Node
# headers the addon is built against (<prefix>/include/node, which Node's
# own packages and tarballs carry). npm packages come from the registry
# during make test-node. make runs it as setup-node; it prints nothing
# when all is there.
set -euo pipefail

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    echo "bindings/node: node and npm are needed (Node 20 or newer)" >&2
    exit 1
fi
major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$major" -lt 20 ]; then
    echo "bindings/node: Node $(node --version) is too old; the binding needs Node 20 or newer" >&2
    exit 1
fi
nodedir="${NODE_GYP_NODEDIR:-$(node -p 'require("path").resolve(process.execPath, "..", "..")')}"
headers="$nodedir/include/node"
if [ ! -f "$headers/node_api.h" ] || [ ! -f "$headers/common.gypi" ]; then
    echo "bindings/node: no Node headers in $headers (set NODE_GYP_NODEDIR to a folder whose include/node has them)" >&2
    exit 1
fi
