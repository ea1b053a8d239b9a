# The official MCP SDKs, pinned and installed into local ignored folders, with
# one echo-tool stdio server and one client driver per SDK (peers/README.md).
# Included by the top Makefile; tests that need an SDK depend on its target:
#
#   sdk-python  target/sdk/python: a venv with peers/python/requirements.txt
#   sdk-node    peers/node/node_modules: `npm ci` from the committed lock file
#   sdk-go      target/sdk/go/{echo-server,client}, built with the modules
#               peers/go/go.sum pins (fetched from the module proxy)
#
# Each is redone only when its pin or its programs change.

SDK_PYTHON_VENV := target/sdk/python
SDK_PYTHON      := $(SDK_PYTHON_VENV)/bin/python
SDK_NODE_STAMP  := peers/node/node_modules/.package-lock.json
SDK_GO_BIN      := target/sdk/go
SDK_GO_ENV      := PATH="$$PATH:/usr/local/go/bin" GOFLAGS=-mod=readonly

.PHONY: sdk sdk-python sdk-node sdk-go

sdk: sdk-python sdk-node sdk-go

sdk-python: $(SDK_PYTHON_VENV)/.installed
sdk-node: $(SDK_NODE_STAMP)
sdk-go: $(SDK_GO_BIN)/echo-server $(SDK_GO_BIN)/client

# Node, npm and Go (peers/ci-setup.sh, the top Makefile's setup-peers) and a
# Python that makes virtual environments, before any of them is used.
setup-peers: setup-venv
$(SDK_PYTHON_VENV)/.installed $(SDK_NODE_STAMP) $(SDK_GO_BIN)/echo-server $(SDK_GO_BIN)/client: | setup-peers

$(SDK_PYTHON_VENV)/.installed: peers/python/requirements.txt
	rm -rf $(SDK_PYTHON_VENV)
	$(PYTHON) -m venv $(SDK_PYTHON_VENV)
	$(SDK_PYTHON) -m pip install --quiet --disable-pip-version-check -r $<
	touch $@

# npm ci installs exactly the lock file, and writes this stamp inside.
$(SDK_NODE_STAMP): peers/node/package.json peers/node/package-lock.json
	cd peers/node && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(SDK_GO_BIN)/%: peers/go/%/main.go peers/go/go.mod peers/go/go.sum
	mkdir -p $(SDK_GO_BIN)
	@unformatted="$$($(SDK_GO_ENV) gofmt -l peers/go/$*)"; \
	if [ -n "$$unformatted" ]; then echo "gofmt -l: not formatted: $$unformatted"; exit 1; fi
	cd peers/go && $(SDK_GO_ENV) go vet ./$*
	cd peers/go && $(SDK_GO_ENV) go build -o $(CURDIR)/$@ ./$*
