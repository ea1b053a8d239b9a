# The Python binding (bindings/python) and the Python echo server
# (examples/python), included by the top Makefile: pytest against the release
# library through JSONRPC_ENVELOPE_LIB (every vector, chunk boundaries, huge
# and deep lines, threads, memory over a million calls, the header's
# declarations, import failures, the echo server as a subprocess), and a
# `pip install ./bindings/python` into a fresh venv, whose isolated build
# fetches setuptools from PyPI: skip that one offline with
#   make test-python PYTHON_PYTEST_ARGS='-m "not install"'
# pytest exits 5 when it ran no test, which fails the target.

PYTHON_BINDING     := bindings/python
PYTHON_PYTEST_ARGS ?=

TESTS += test-python
.PHONY: test-python

test-python: setup-pytest $(RELEASE_LIB)/libjsonrpc_envelope.so
	cd $(PYTHON_BINDING) && \
	JSONRPC_ENVELOPE_LIB="$(CURDIR)/$(RELEASE_LIB)/libjsonrpc_envelope.so" PYTHONDONTWRITEBYTECODE=1 \
	$(PYTEST) -p no:cacheprovider $(PYTHON_PYTEST_ARGS)

# The Python binding's benchmark (not a test): ns per line for classify and
# read_messages against json.loads, and orjson.loads (installed from PyPI
# into target/bench-python), each plus a plain classification; part of
# `make bench`, which puts bench/out/python.txt in bench/RESULTS.md.
BENCHES += bench-python
.PHONY: bench-python

PYTHON_BENCH_DEPS := target/bench-python

$(PYTHON_BENCH_DEPS)/orjson:
	@echo "bench-python: installing orjson from PyPI into $(PYTHON_BENCH_DEPS)"
	$(PYTHON) -m pip install --quiet --target $(PYTHON_BENCH_DEPS) orjson

bench-python: $(RELEASE_LIB)/libjsonrpc_envelope.so $(PYTHON_BENCH_DEPS)/orjson
	mkdir -p bench/out
	JSONRPC_ENVELOPE_LIB="$(CURDIR)/$(RELEASE_LIB)/libjsonrpc_envelope.so" PYTHONDONTWRITEBYTECODE=1 \
	PYTHONPATH="$(CURDIR)/$(PYTHON_BENCH_DEPS)" $(PYTHON) bench/python_bench.py > bench/out/python.txt
	cat bench/out/python.txt

# ---- jsonrpc_envelope.mcpstdio: stdio transports for the official MCP SDK ------
# test-python-mcp runs bindings/python/tests_mcp with the Python of a venv
# made by `pip install "./bindings/python[mcp,test]"` (from PyPI, with the
# SDK and what it pulls pinned by peers/python/requirements.txt as
# constraints), redone only when the package's metadata or the pins change;
# the package alone is installed again (with its library, built by cargo)
# whenever its Python sources or the C header change, so that the installed
# copy one test imports is never of an older ABI than the library.
# Like test-python, the tests import the package's source and the library
# of JSONRPC_ENVELOPE_LIB. They also talk to the Go SDK's servers: ours
# (examples/go/sdk_server, bindings/go/rules.mk) and its own (sdk-go).

PYTHON_MCP_VENV := target/python-mcp
PYTHON_MCP      := $(PYTHON_MCP_VENV)/bin/python
# The environment under which a test runs the transports' code from the
# source: the package and the library.
PYTHON_MCP_ENV  := JSONRPC_ENVELOPE_LIB="$(CURDIR)/$(RELEASE_LIB)/libjsonrpc_envelope.so" \
                   PYTHONPATH="$(CURDIR)/$(PYTHON_BINDING)/src" PYTHONDONTWRITEBYTECODE=1

TESTS += test-python-mcp
.PHONY: test-python-mcp python-mcp-venv

python-mcp-venv: $(PYTHON_MCP_VENV)/.package

$(PYTHON_MCP_VENV)/.installed: | setup-venv

$(PYTHON_MCP_VENV)/.installed: $(PYTHON_BINDING)/pyproject.toml $(PYTHON_BINDING)/setup.py peers/python/requirements.txt
	rm -rf $(PYTHON_MCP_VENV)
	$(PYTHON) -m venv $(PYTHON_MCP_VENV)
	$(PYTHON_MCP) -m pip install --quiet --disable-pip-version-check \
	  -c peers/python/requirements.txt "./$(PYTHON_BINDING)[mcp,test]"
	touch $@

PYTHON_SOURCES := $(wildcard $(PYTHON_BINDING)/src/jsonrpc_envelope/*.py $(PYTHON_BINDING)/src/jsonrpc_envelope/mcpstdio/*.py)

$(PYTHON_MCP_VENV)/.package: $(PYTHON_MCP_VENV)/.installed $(PYTHON_SOURCES) include/jsonrpc_envelope.h
	rm -rf $(PYTHON_BINDING)/build  # setuptools' build/lib keeps modules the sources no longer have
	$(PYTHON_MCP) -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall "./$(PYTHON_BINDING)"
	touch $@

test-python-mcp: $(RELEASE_LIB)/libjsonrpc_envelope.so python-mcp-venv mcpstdio-example sdk-go
	cd $(PYTHON_BINDING) && $(PYTHON_MCP_ENV) \
	MCPSTDIO_GO_SERVER="$(CURDIR)/$(MCPSTDIO_EXAMPLE)" SDK_GO_ECHO_SERVER="$(CURDIR)/$(SDK_GO_BIN)/echo-server" \
	$(CURDIR)/$(PYTHON_MCP) -m pytest -p no:cacheprovider tests_mcp

# The same MCP tool-call round trip over jsonrpc_envelope.mcpstdio and over the
# SDK's own stdio transports, in one run, in turns (bench/mcp_python_bench.py;
# not a test); part of `make bench`, which puts bench/out/mcp-python.txt in
# bench/RESULTS.md.
BENCHES += bench-python-mcp
.PHONY: bench-python-mcp

bench-python-mcp: $(RELEASE_LIB)/libjsonrpc_envelope.so python-mcp-venv
	mkdir -p bench/out
	$(PYTHON_MCP_ENV) $(PYTHON_MCP) bench/mcp_python_bench.py > bench/out/mcp-python.txt
	cat bench/out/mcp-python.txt
