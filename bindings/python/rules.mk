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

test-python: $(RELEASE_LIB)/libjsonrpc_envelope.so
	cd $(PYTHON_BINDING) && \
	JSONRPC_ENVELOPE_LIB="$(CURDIR)/$(RELEASE_LIB)/libjsonrpc_envelope.so" PYTHONDONTWRITEBYTECODE=1 \
	$(PYTHON) -m pytest -p no:cacheprovider $(PYTHON_PYTEST_ARGS)

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
