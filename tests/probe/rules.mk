# The probe (jsonrpc-envelope probe, SPEC section 11), included by the top
# Makefile:
# - its verdicts against an independent check: a server that misbehaves in
#   known ways on lines chosen from the vectors (tests/probe/faulty_server.py);
#   each fault must be reported where it was planted, and nothing else;
# - the official MCP SDKs' echo servers (the session tests' configurations,
#   tests/sessions/conftest.py) on their own stdio transports, on this
#   project's, and behind the guard: ours and the guard pass, the SDKs' own
#   transports show their known failures. Each report goes to the test log
#   and to target/probe-reports/ (summary.md, SDK-MODE.txt and .json).
#
#   make test-probe [PROBE_LINES=200] [PROBE_SEED=9] [PROBE_JOBS=6]
#
# What it runs is what test-sessions runs (peers/rules.mk, mcpstdio-example in
# bindings/go/rules.mk, node-addon in bindings/node/rules.mk) and the release
# build's CLI.

PROBE_LINES ?= 200
PROBE_SEED  ?= 9
PROBE_JOBS  ?= 6

TESTS += test-probe
.PHONY: test-probe

test-probe: setup-pytest $(RELEASE_LIB)/libjsonrpc_envelope.so sdk mcpstdio-example node-addon
	JSONRPC_ENVELOPE_LIB="$(CURDIR)/$(RELEASE_LIB)/libjsonrpc_envelope.so" \
	JSONRPC_ENVELOPE_BIN="$(CURDIR)/$(RELEASE_LIB)/jsonrpc-envelope" \
	PROBE_LINES='$(PROBE_LINES)' PROBE_SEED='$(PROBE_SEED)' PROBE_JOBS='$(PROBE_JOBS)' \
	PYTHONDONTWRITEBYTECODE=1 $(PYTEST) -p no:cacheprovider -q tests/probe
