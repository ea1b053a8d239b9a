# bindings/cpp/rules.mk: C and C++ hosts (included by the top Makefile).
#
#   make install [PREFIX=/usr/local] [DESTDIR=]   the libraries, both headers,
#                                                 pkg-config and CMake files
#                [CPP_INSTALL_LIB=target/release]  where the libraries come from
#                [PC_PREFIX=$(PREFIX)]            the .pc's prefix (make dist
#                                                 gives ${pcfiledir}/../..)
#   make uninstall [PREFIX=...] [DESTDIR=]        removes exactly those files
#   make cpp-host                                 builds examples/cpp/host.cpp
#   make test-cpp                                 every C/C++ test below
#
# Build output goes under target/ (target/cpp, target/cpp-asan,
# target/cpp-release, target/cpp-prefix, target/cpp-destdir).

CMAKE      ?= cmake
CTEST      ?= ctest
PKG_CONFIG ?= pkg-config
CPP_JOBS   ?= $(shell nproc 2>/dev/null || echo 2)

PREFIX  ?= /usr/local
DESTDIR ?=
CPP_INSTALL_LIB ?= $(RELEASE_LIB)
PC_PREFIX ?= $(PREFIX)

CPP_DIR      := bindings/cpp
CPP_OUT      := target/cpp
CPP_ASAN     := target/cpp-asan
CPP_RELEASE  := target/cpp-release
CPP_PREFIX   := $(CURDIR)/target/cpp-prefix
CPP_DESTDIR  := $(CURDIR)/target/cpp-destdir
CPP_FLAT     := $(CPP_OUT)/vectors.flat
CPP_HOST     := $(CPP_OUT)/host
CPP_VERSION  := $(shell sed -n 's/^version = "\([^"]*\)"$$/\1/p' Cargo.toml | head -n 1)

.PHONY: install uninstall install-cpp uninstall-cpp cpp-host \
        test-cpp test-cpp-asan test-cpp-valgrind test-cpp-consumers test-cpp-host

TESTS += test-cpp

# What these targets run (cmake, GoogleTest, ...) is installed on first use
# by setup-cpp, the top Makefile's rule for ci-setup.sh.
test-cpp-asan test-cpp-valgrind test-cpp-consumers test-cpp-host cpp-host: setup-cpp

# ---- install ---------------------------------------------------------------

install: install-cpp
uninstall: uninstall-cpp

CPP_ROOT = $(DESTDIR)$(PREFIX)

# Every file `make install` writes, relative to $(DESTDIR)$(PREFIX): the
# manifest `make uninstall` removes.
CPP_INSTALLED = \
	lib/libjsonrpc_envelope.so.$(ABI) \
	lib/libjsonrpc_envelope.so \
	lib/libjsonrpc_envelope.a \
	include/jsonrpc_envelope.h \
	include/jsonrpc_envelope.hpp \
	lib/pkgconfig/jsonrpc-envelope.pc \
	lib/cmake/jsonrpc_envelope/jsonrpc_envelopeConfig.cmake \
	lib/cmake/jsonrpc_envelope/jsonrpc_envelopeConfigVersion.cmake

# The templates' @PREFIX@ (PC_PREFIX: PREFIX without DESTDIR, unless given),
# @VERSION@ and @ABI@.
CPP_CONFIGURE = sed -e 's|@PREFIX@|$(PC_PREFIX)|g' -e 's|@VERSION@|$(CPP_VERSION)|g' -e 's|@ABI@|$(ABI)|g'

install-cpp: $(CPP_INSTALL_LIB)/libjsonrpc_envelope.so
	@case '$(PREFIX)' in /*) ;; *) echo "make install: PREFIX must be an absolute path, not '$(PREFIX)'" >&2; exit 2;; esac
	@test -n '$(ABI)' && test -n '$(CPP_VERSION)' || { echo "make install: no ABI or version found" >&2; exit 2; }
	install -d '$(CPP_ROOT)/lib/pkgconfig' '$(CPP_ROOT)/lib/cmake/jsonrpc_envelope' '$(CPP_ROOT)/include'
	install -m 0755 $(CPP_INSTALL_LIB)/libjsonrpc_envelope.so '$(CPP_ROOT)/lib/libjsonrpc_envelope.so.$(ABI)'
	ln -sfn libjsonrpc_envelope.so.$(ABI) '$(CPP_ROOT)/lib/libjsonrpc_envelope.so'
	install -m 0644 $(CPP_INSTALL_LIB)/libjsonrpc_envelope.a '$(CPP_ROOT)/lib/libjsonrpc_envelope.a'
	install -m 0644 include/jsonrpc_envelope.h $(CPP_DIR)/jsonrpc_envelope.hpp '$(CPP_ROOT)/include/'
	mkdir -p $(CPP_OUT)/packaging
	$(CPP_CONFIGURE) $(CPP_DIR)/packaging/jsonrpc-envelope.pc.in > $(CPP_OUT)/packaging/jsonrpc-envelope.pc
	$(CPP_CONFIGURE) $(CPP_DIR)/packaging/jsonrpc_envelopeConfig.cmake.in > $(CPP_OUT)/packaging/jsonrpc_envelopeConfig.cmake
	$(CPP_CONFIGURE) $(CPP_DIR)/packaging/jsonrpc_envelopeConfigVersion.cmake.in > $(CPP_OUT)/packaging/jsonrpc_envelopeConfigVersion.cmake
	install -m 0644 $(CPP_OUT)/packaging/jsonrpc-envelope.pc '$(CPP_ROOT)/lib/pkgconfig/'
	install -m 0644 $(CPP_OUT)/packaging/jsonrpc_envelopeConfig.cmake \
		$(CPP_OUT)/packaging/jsonrpc_envelopeConfigVersion.cmake '$(CPP_ROOT)/lib/cmake/jsonrpc_envelope/'

uninstall-cpp:
	rm -f $(foreach file,$(CPP_INSTALLED),'$(CPP_ROOT)/$(file)')
	rmdir '$(CPP_ROOT)/lib/cmake/jsonrpc_envelope' 2>/dev/null || true

# ---- the example host ------------------------------------------------------

cpp-host: $(CPP_HOST)

$(CPP_HOST): examples/cpp/host.cpp $(CPP_DIR)/jsonrpc_envelope.hpp include/jsonrpc_envelope.h | $(RELEASE_LIB)/libjsonrpc_envelope.so
	mkdir -p $(CPP_OUT)
	$(CXX) -std=c++17 -O2 -g -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Werror -Iinclude -I$(CPP_DIR) \
		$< -L$(RELEASE_LIB) -ljsonrpc_envelope -Wl,-rpath,$(CURDIR)/$(RELEASE_LIB) -o $@

# ---- tests -----------------------------------------------------------------

test-cpp: test-cpp-asan test-cpp-valgrind test-cpp-consumers test-cpp-host

$(CPP_FLAT): tests/c/flatten_vectors.py tests/vectors/envelope.jsonl tests/vectors/log_value.jsonl tests/vectors/mcp.jsonl
	mkdir -p $(CPP_OUT)
	$(PYTHON) tests/c/flatten_vectors.py tests/vectors/envelope.jsonl tests/vectors/log_value.jsonl tests/vectors/mcp.jsonl $@

# configure DIR, build type, library dir, then extra -D options.
cpp_configure = CC='$(CC)' CXX='$(CXX)' $(CMAKE) -S $(CPP_DIR)/tests -B $(1) -DCMAKE_BUILD_TYPE=$(2) \
	-DJSONRPC_ROOT='$(CURDIR)' -DJSONRPC_LIB_DIR='$(CURDIR)/$(3)' \
	-DJSONRPC_VECTORS_FLAT='$(CURDIR)/$(CPP_FLAT)' $(4) > $(1).configure.log || { cat $(1).configure.log; exit 1; }

# ctest DIR: runs every test, shows each program's summary (the whole log on
# a failure), and fails when one failed.
cpp_ctest = $(CTEST) --test-dir $(1) --output-on-failure -V > $(1).ctest.log 2>&1; status=$$?; \
	grep -E '^[0-9]+: (\[=+\] [0-9]+ tests|\[ *(PASSED|FAILED) *\]|two units|no exceptions)|Test +\#|tests passed|tests failed' $(1).ctest.log; \
	test $$status -eq 0 || { tail -n 300 $(1).ctest.log; exit 1; }

# The GoogleTest suite (vectors, moves, the reader at every chunk size),
# each header alone, two translation units, no exceptions: with ASan and
# UBSan, against the debug library.
test-cpp-asan: $(CPP_FLAT) $(DEBUG_LIB)/libjsonrpc_envelope.so
	@mkdir -p target
	$(call cpp_configure,$(CPP_ASAN),Debug,$(DEBUG_LIB),-DJSONRPC_SANITIZE=ON -DJSONRPC_VALGRIND=)
	$(CMAKE) --build $(CPP_ASAN) --parallel $(CPP_JOBS)
	nm $(CPP_ASAN)/test_wrapper | grep -q '__asan_init' || { echo 'ASan is not linked'; exit 1; }
	nm $(CPP_ASAN)/test_wrapper | grep -q '__ubsan_handle' || { echo 'UBSan is not linked'; exit 1; }
	$(call cpp_ctest,$(CPP_ASAN))

# The same programs at -O2 against the release library, each under valgrind.
test-cpp-valgrind: $(CPP_FLAT) $(RELEASE_LIB)/libjsonrpc_envelope.so
	@mkdir -p target
	$(call cpp_configure,$(CPP_RELEASE),RelWithDebInfo,$(RELEASE_LIB),-DJSONRPC_SANITIZE=OFF '-DJSONRPC_VALGRIND=$(VALGRIND_RUN)')
	$(CMAKE) --build $(CPP_RELEASE) --parallel $(CPP_JOBS)
	$(call cpp_ctest,$(CPP_RELEASE))

# Out-of-tree programs against an installed copy only, then uninstall; and
# a DESTDIR install that stages files without DESTDIR in their contents.
test-cpp-consumers: $(RELEASE_LIB)/libjsonrpc_envelope.so
	rm -rf '$(CPP_PREFIX)' '$(CPP_DESTDIR)'
	$(MAKE) --no-print-directory install-cpp PREFIX='$(CPP_PREFIX)' DESTDIR=
	CC='$(CC)' CXX='$(CXX)' CMAKE='$(CMAKE)' PKG_CONFIG='$(PKG_CONFIG)' \
		$(CPP_DIR)/tests/consumers/run.sh '$(CPP_PREFIX)' '$(CURDIR)/$(CPP_OUT)/consumers' '$(ABI)'
	$(MAKE) --no-print-directory uninstall-cpp PREFIX='$(CPP_PREFIX)' DESTDIR=
	@left=$$(find '$(CPP_PREFIX)' ! -type d); \
		test -z "$$left" || { echo "make uninstall left: $$left"; exit 1; }; \
		echo "consumers: make uninstall left no file in $(CPP_PREFIX)"
	$(CPP_OUT)/consumers/consumer_c_static > /dev/null
	$(CPP_OUT)/consumers/cmake-build/consumer_cpp_static > /dev/null
	@echo "consumers: the static programs still run with the installed files gone"
	$(MAKE) --no-print-directory install-cpp PREFIX=/opt/jsonrpc-envelope DESTDIR='$(CPP_DESTDIR)'
	grep -qx 'prefix=/opt/jsonrpc-envelope' '$(CPP_DESTDIR)/opt/jsonrpc-envelope/lib/pkgconfig/jsonrpc-envelope.pc'
	test "$$(readlink '$(CPP_DESTDIR)/opt/jsonrpc-envelope/lib/libjsonrpc_envelope.so')" = libjsonrpc_envelope.so.$(ABI)
	test "$$(find '$(CPP_DESTDIR)' ! -type d | wc -l)" -eq $(words $(CPP_INSTALLED))
	$(MAKE) --no-print-directory uninstall-cpp PREFIX=/opt/jsonrpc-envelope DESTDIR='$(CPP_DESTDIR)'
	@left=$$(find '$(CPP_DESTDIR)' ! -type d); \
		test -z "$$left" || { echo "make uninstall left: $$left"; exit 1; }; \
		echo "consumers: DESTDIR install staged $(words $(CPP_INSTALLED)) files, and uninstall removed them"

# examples/cpp/host.cpp against fake servers: a well-behaved one, one that
# refuses initialize with an error whose id is null (fail fast), a silent
# one, one that exits, one that cannot start; the default server
# (examples/python/echo_server.py) when it exists; and the well-behaved
# session under valgrind.
test-cpp-host: $(CPP_HOST) $(RELEASE_LIB)/libjsonrpc_envelope.so
	VALGRIND_RUN='$(VALGRIND_RUN)' ECHO_SERVER_LIB='$(CURDIR)/$(RELEASE_LIB)/libjsonrpc_envelope.so' $(CPP_DIR)/tests/test_host.sh $(CPP_HOST) '$(PYTHON)' $(CPP_OUT)/host-test
