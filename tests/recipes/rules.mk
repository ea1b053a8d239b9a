# The MCP-config recipes of docs/MCP-CONFIGS.md, run as written (issue 31),
# included by the top Makefile: each recipe is read from the document (a
# client's JSON configuration, or a `claude mcp add` line), its
# `uvx jsonrpc-envelope` / `npx -y jsonrpc-envelope` pointed at a local CLI,
# its server, `npx -y @modelcontextprotocol/server-everything`, at the pinned
# copy below (npx --offline: the registry is never asked), and started by
# the official MCP Python SDK's client, which lists the tools and calls
# `echo`; the --record recipes' file must be written, and the document's
# lint recipe must read it (tests/recipes/test_recipes.py, pytest).
#
#   make test-recipes [JSONRPC_ENVELOPE_LAUNCHER_UVX='uvx --from ...'] [JSONRPC_ENVELOPE_LAUNCHER_NPX='npx ...']
#
# Each launcher variable is the argv prefix that replaces the published
# command (split as a shell would): by default the artifacts of `make dist`
# (below).
# What it runs: that CLI, the Python SDK's client (sdk-python, peers/rules.mk)
# and the server of tests/recipes/package.json.

TESTS += test-recipes
SETUP += setup-recipes
.PHONY: test-recipes setup-recipes

# A real published MCP server, the reference one: @modelcontextprotocol/
# server-everything, pinned in tests/recipes/package.json, installed with
# its dependencies exactly as the committed package-lock.json has them
# (`npm ci`, from the npm registry) into target/recipes/node_modules, so that
# nothing in the source tree changes and `make clean` removes it. It needs
# Node 20 or newer (its @hono/node-server does) and npm. Like every setup
# target it checks each time (silent, milliseconds) and installs only when
# the install is missing or the lock file changed.
RECIPES_DIR := target/recipes
RECIPES_NODE_VERSION := 20

setup-recipes:
	@mk/need.sh test-recipes node=nodejs npm npx=npm
	@[ "$$(node -p 'process.versions.node.split(".")[0]')" -ge $(RECIPES_NODE_VERSION) ] || { \
	  echo "test-recipes needs Node $(RECIPES_NODE_VERSION) or newer for @modelcontextprotocol/server-everything, and node is $$(node --version): install a newer Node.js" >&2; exit 1; }
	@cmp -s tests/recipes/package-lock.json $(RECIPES_DIR)/package-lock.json \
	  && cmp -s tests/recipes/package.json $(RECIPES_DIR)/package.json \
	  && [ -f $(RECIPES_DIR)/node_modules/.package-lock.json ] || { \
	  echo "setup-recipes: installing $$(sed -n 's/^ *"\(@modelcontextprotocol\/server-everything\)": "\(.*\)"$$/\1 \2/p' tests/recipes/package.json) from the npm registry into $(RECIPES_DIR)/node_modules (npm ci, tests/recipes/package-lock.json)"; \
	  rm -rf $(RECIPES_DIR) && mkdir -p $(RECIPES_DIR) \
	  && cp tests/recipes/package.json tests/recipes/package-lock.json $(RECIPES_DIR)/ \
	  && (cd $(RECIPES_DIR) && npm ci --no-audit --no-fund --loglevel=error >/dev/null) || { \
	    rm -rf $(RECIPES_DIR); \
	    echo "test-recipes needs @modelcontextprotocol/server-everything in $(RECIPES_DIR)/node_modules, and npm ci could not install it: see above (is registry.npmjs.org reachable?)" >&2; exit 1; }; }

# The launchers are the artifacts `make dist` writes, run as the recipes
# name them: uvx with the wheel; npx with the npm package, installed (from
# dist/, each time) beside the server in target/recipes/node_modules, where
# `npx -y jsonrpc-envelope` finds it as it finds a published one. (Not `npx
# --package TGZ`: npm hands --package on to the command's environment, and
# the server's own `npx -y` below the guard would then run the wrong
# package.) Their caches are in target/recipes; neither asks a registry.
RECIPES_WHEEL = $(CURDIR)/$(DIST)/jsonrpc_envelope-$(DIST_VERSION)-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
RECIPES_NPM   = $(CURDIR)/$(DIST)/jsonrpc-envelope-$(DIST_VERSION).tgz
JSONRPC_ENVELOPE_LAUNCHER_UVX ?= $(DIST_TOOLS)/bin/uvx --offline --python $(PYTHON) --from $(RECIPES_WHEEL) jsonrpc-envelope
JSONRPC_ENVELOPE_LAUNCHER_NPX ?= npx --offline -y jsonrpc-envelope

test-recipes: setup-pytest setup-recipes sdk-python $(RELEASE_LIB)/libjsonrpc_envelope.so dist
	rm -rf $(RECIPES_DIR)/uv $(RECIPES_DIR)/npm-cache
	cd $(RECIPES_DIR) && npm_config_cache="$(CURDIR)/$(RECIPES_DIR)/npm-cache" \
	  npm install --no-save --offline --no-audit --no-fund --loglevel=error '$(RECIPES_NPM)' >/dev/null
	UV_CACHE_DIR="$(CURDIR)/$(RECIPES_DIR)/uv/cache" UV_TOOL_DIR="$(CURDIR)/$(RECIPES_DIR)/uv/tools" UV_NO_CONFIG=1 \
	npm_config_cache="$(CURDIR)/$(RECIPES_DIR)/npm-cache" npm_config_update_notifier=false \
	JSONRPC_ENVELOPE_LAUNCHER_UVX='$(JSONRPC_ENVELOPE_LAUNCHER_UVX)' \
	JSONRPC_ENVELOPE_LAUNCHER_NPX='$(JSONRPC_ENVELOPE_LAUNCHER_NPX)' \
	JSONRPC_ENVELOPE_BIN="$(CURDIR)/$(RELEASE_LIB)/jsonrpc-envelope" \
	RECIPES_NODE_MODULES="$(CURDIR)/$(RECIPES_DIR)/node_modules" \
	PYTHONDONTWRITEBYTECODE=1 $(PYTEST) -p no:cacheprovider -q tests/recipes
