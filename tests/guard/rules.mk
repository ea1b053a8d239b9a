# The guard (jsonrpc-envelope guard, SPEC section 8) against real peers,
# included by the top Makefile: issue #14's abuse lines against the official
# SDKs' stdio servers without and with the guard, and the SDKs' clients
# through the guard with polluting servers (tests/guard/*.py, pytest). The
# guard's own tests (the naive server, lifecycle, memory) are Rust
# integration tests in cli/tests/, run by test-rust.

TESTS += test-guard
.PHONY: test-guard

test-guard: $(RELEASE_LIB)/libjsonrpc_envelope.so sdk
	PYTHONDONTWRITEBYTECODE=1 $(PYTHON) -m pytest -p no:cacheprovider -q tests/guard
