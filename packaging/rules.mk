# packaging/rules.mk: the release artifacts (included by the top Makefile).
#
#   make dist        writes dist/, every artifact at the workspace's version:
#                      jsonrpc_envelope-<v>-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
#                      jsonrpc_envelope-<v>.tar.gz          (the Python sdist, with the crate)
#                      libjsonrpc_envelope-<v>-x86_64-linux-gnu.tar.gz   (C and C++)
#                      goproxy/                             (the Go module, as GOPROXY=file:// reads it)
#   make test-dist   installs each one as a user would, from the artifact
#                    alone in an empty directory, and checks what each holds
#
# The library is built once for all of them, by cargo-zigbuild against
# glibc 2.17's symbol versions (zig carries the old glibc's stubs, so no
# container or old distribution is needed), in the `dist` profile (release
# without debug info), with the build machine's paths remapped out of the
# panic locations. target/dist-lib holds the shipped copies: the shared
# library, and the static library without its debug sections.
# The tools come from PyPI into target/dist-tools (packaging/tools.txt).

DIST         := dist
DIST_TOOLS   := $(CURDIR)/target/dist-tools
DIST_GLIBC   := 2.17
DIST_TRIPLE  := x86_64-unknown-linux-gnu
DIST_BUILD   := target/$(DIST_TRIPLE)/dist
DIST_LIB     := target/dist-lib
DIST_VERSION := $(shell sed -n '/^\[workspace\.package\]/,/^\[/s/^version = "\([^"]*\)"$$/\1/p' Cargo.toml)
DIST_PLAT    := manylinux_$(subst .,_,$(DIST_GLIBC))_x86_64
DIST_C_NAME  := libjsonrpc_envelope-$(DIST_VERSION)-x86_64-linux-gnu
# Every artifact's time stamps: the commit's, so that a rebuild is the same.
DIST_EPOCH    = $(shell git log -1 --format=%ct 2>/dev/null || date +%s)
DIST_CARGO_HOME := $(or $(CARGO_HOME),$(HOME)/.cargo)
# Where code inlined from the standard library names its sources: a local
# path when rustup's rust-src is installed, remapped to the /rustc/<commit>/
# that a toolchain without it writes. (These run only in the recipes that
# use them.)
DIST_RUST_SRC    = $(shell rustc --print sysroot 2>/dev/null)/lib/rustlib/src/rust
DIST_RUSTC_HASH  = $(shell rustc -vV 2>/dev/null | sed -n 's/^commit-hash: //p')

.PHONY: dist dist-python dist-go dist-c dist-crates dist-tools test-dist \
        test-dist-contents test-dist-python test-dist-go test-dist-c test-dist-crates test-dist-panic

TESTS += test-dist

dist-tools: $(DIST_TOOLS)/.installed

# What the artifacts' build and tests run, installed on first use (see
# "setup" in the top Makefile): a Python that makes virtual environments,
# Go (setup-go), cmake and pkg-config (setup-cpp).
$(DIST_TOOLS)/.installed: | setup-venv
test-dist-go: setup-go
test-dist-c test-dist-panic: setup-cpp

clean: clean-dist
.PHONY: clean-dist
clean-dist:
	rm -rf $(DIST)

$(DIST_TOOLS)/.installed: packaging/tools.txt
	@echo "dist: installing the release tools from PyPI into $(DIST_TOOLS)"
	rm -rf '$(DIST_TOOLS)'
	$(PYTHON) -m venv '$(DIST_TOOLS)'
	'$(DIST_TOOLS)/bin/python' -m pip install --quiet --disable-pip-version-check -r packaging/tools.txt
	touch $@

# cargo zigbuild of the library as it ships; $(1): more cargo arguments.
dist_cargo = PATH='$(DIST_TOOLS)/bin':"$$PATH" \
	RUSTFLAGS='--remap-path-prefix=$(CURDIR)=jsonrpc-envelope --remap-path-prefix=$(DIST_CARGO_HOME)=cargo-home --remap-path-prefix=$(DIST_RUST_SRC)=/rustc/$(DIST_RUSTC_HASH)' \
	nice $(CARGO) zigbuild --quiet --profile dist --lib --locked --target $(DIST_TRIPLE).$(DIST_GLIBC) $(1)

$(DIST_BUILD)/libjsonrpc_envelope.so: $(DIST_TOOLS)/.installed FORCE
	$(call dist_cargo,)

# The CLI (`jsonrpc-envelope`: classify, lint, guard, probe) as it ships in
# the wheel, the npm package and the C archive's bin/: the same zig build
# against glibc 2.17, the library linked in statically, stripped.
DIST_BIN := target/dist-bin
$(DIST_BUILD)/jsonrpc-envelope: $(DIST_TOOLS)/.installed FORCE
	PATH='$(DIST_TOOLS)/bin':"$$PATH" \
	RUSTFLAGS='--remap-path-prefix=$(CURDIR)=jsonrpc-envelope --remap-path-prefix=$(DIST_CARGO_HOME)=cargo-home --remap-path-prefix=$(DIST_RUST_SRC)=/rustc/$(DIST_RUSTC_HASH)' \
	nice $(CARGO) zigbuild --quiet --profile dist --locked -p jsonrpc-envelope-cli --bin jsonrpc-envelope --target $(DIST_TRIPLE).$(DIST_GLIBC)

$(DIST_BIN)/jsonrpc-envelope: $(DIST_BUILD)/jsonrpc-envelope
	mkdir -p $(DIST_BIN)
	strip -o $(DIST_BIN)/.jsonrpc-envelope $(DIST_BUILD)/jsonrpc-envelope
	mv -f $(DIST_BIN)/.jsonrpc-envelope $@

# Each file is written aside and renamed into place: the C archive's
# `make install` comes here again while the other artifacts may read them.
$(DIST_LIB)/libjsonrpc_envelope.so: $(DIST_BUILD)/libjsonrpc_envelope.so
	mkdir -p $(DIST_LIB)
	strip --strip-debug -o $(DIST_LIB)/.libjsonrpc_envelope.a $(DIST_BUILD)/libjsonrpc_envelope.a
	mv -f $(DIST_LIB)/.libjsonrpc_envelope.a $(DIST_LIB)/libjsonrpc_envelope.a
	cp $(DIST_BUILD)/libjsonrpc_envelope.so $(DIST_LIB)/.libjsonrpc_envelope.so
	mv -f $(DIST_LIB)/.libjsonrpc_envelope.so $@

dist:
	@test -n '$(DIST_VERSION)' && test -n '$(ABI)' || { echo "dist: no version or ABI found" >&2; exit 2; }
	rm -rf $(DIST)
	$(MAKE) --no-print-directory dist-python dist-go dist-c dist-crates dist-node $(if $(JAVA_JDK),dist-java)
	@$(if $(JAVA_JDK),true,echo "dist: no Maven artifacts: no JDK $(JAVA_MIN) or newer (JAVA_HOME or /usr/lib/jvm/*)")
	cd $(DIST) && find . -type f ! -name SHA256SUMS | LC_ALL=C sort | sed 's|^\./||' | xargs sha256sum > SHA256SUMS
	@echo "dist: jsonrpc-envelope $(DIST_VERSION) (ABI $(ABI)) in $(DIST)/"

# The sdist (setup.py adds the crate as `cargo package` makes it), then the
# wheel built from that sdist around the library built above; auditwheel
# checks that it needs nothing newer than glibc 2.17 and tags it so.
dist-python: $(DIST_LIB)/libjsonrpc_envelope.so $(DIST_BIN)/jsonrpc-envelope
	rm -rf target/dist-python
	mkdir -p target/dist-python $(DIST)
	SOURCE_DATE_EPOCH=$(DIST_EPOCH) JSONRPC_ENVELOPE_BUNDLE_LIB='$(CURDIR)/$(DIST_LIB)/libjsonrpc_envelope.so' \
		JSONRPC_ENVELOPE_BUNDLE_CLI='$(CURDIR)/$(DIST_BIN)/jsonrpc-envelope' \
		'$(DIST_TOOLS)/bin/python' -m build --outdir target/dist-python bindings/python > target/dist-python/build.log 2>&1 \
		|| { cat target/dist-python/build.log; exit 1; }
	PATH='$(DIST_TOOLS)/bin':"$$PATH" auditwheel repair --plat $(DIST_PLAT) --wheel-dir $(DIST) \
		target/dist-python/jsonrpc_envelope-$(DIST_VERSION)-py3-none-linux_x86_64.whl
	cp target/dist-python/jsonrpc_envelope-$(DIST_VERSION).tar.gz $(DIST)/

dist-go: $(DIST_LIB)/libjsonrpc_envelope.so
	$(PYTHON) packaging/go_module.py --binding $(GO_BINDING) --version v$(DIST_VERSION) \
		--time "$$(date -u -d @$(DIST_EPOCH) +%Y-%m-%dT%H:%M:%SZ)" --header include/jsonrpc_envelope.h \
		--static-lib $(DIST_LIB)/libjsonrpc_envelope.a --proxy $(DIST)/goproxy \
		--license LICENSE-MIT --license LICENSE-APACHE

# `make install` into a staging directory, with a .pc that finds its prefix
# from its own place; the CMake package already does; and the CLI in bin/.
dist-c: $(DIST_LIB)/libjsonrpc_envelope.so $(DIST_BIN)/jsonrpc-envelope
	rm -rf target/dist-c
	$(MAKE) --no-print-directory install-cpp CPP_INSTALL_LIB=$(DIST_LIB) PREFIX=/$(DIST_C_NAME) \
		DESTDIR='$(CURDIR)/target/dist-c' 'PC_PREFIX=$$$${pcfiledir}/../..' CPP_OUT=target/dist-c/configured
	install -D -m 0755 $(DIST_BIN)/jsonrpc-envelope target/dist-c/$(DIST_C_NAME)/bin/jsonrpc-envelope
	install -d target/dist-c/$(DIST_C_NAME)/share/doc/jsonrpc-envelope
	install -m 0644 README.md CHANGELOG.md LICENSE-MIT LICENSE-APACHE target/dist-c/$(DIST_C_NAME)/share/doc/jsonrpc-envelope/
	mkdir -p $(DIST)
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@$(DIST_EPOCH) \
		-C target/dist-c -cf - $(DIST_C_NAME) | gzip -9n > $(DIST)/$(DIST_C_NAME).tar.gz

# The library's crate and the CLI's, as crates.io would get them: `cargo
# package` of both. Its own check, a build of each from its package, is left
# to test-dist-crates, which builds and installs the CLI's package against
# the library's from dist/ alone (the same build, done once).
dist-crates:
	mkdir -p $(DIST)/crates
	$(CARGO) package --quiet --locked --allow-dirty --no-verify -p jsonrpc-envelope -p jsonrpc-envelope-cli --target-dir target/dist-crates
	cp target/dist-crates/package/jsonrpc-envelope-$(DIST_VERSION).crate \
		target/dist-crates/package/jsonrpc-envelope-cli-$(DIST_VERSION).crate $(DIST)/crates/

# ---- tests of the artifacts ---------------------------------------------

DIST_TEST_ENV = DIST='$(CURDIR)/$(DIST)' VERSION='$(DIST_VERSION)' ABI='$(ABI)' \
	VECTORS='$(CURDIR)/tests/vectors' PYTHON='$(PYTHON)' DIST_TOOLS='$(DIST_TOOLS)' \
	NAIVE_SERVER='$(CURDIR)/examples/guard/naive_server.py'

test-dist: test-dist-contents test-dist-python test-dist-go test-dist-c test-dist-crates test-dist-node test-dist-panic test-dist-java

test-dist-contents: dist
	$(PYTHON) tests/dist/check_artifacts.py --dist $(DIST) --version $(DIST_VERSION) --abi $(ABI) \
		--changelog CHANGELOG.md --go-module "$$(sed -n 's/^module //p' $(GO_BINDING)/go.mod)" \
		--forbid '$(CURDIR)' --forbid '$(DIST_CARGO_HOME)' --forbid '$(HOME)/' --forbid /work/
	'$(DIST_TOOLS)/bin/auditwheel' show $(DIST)/jsonrpc_envelope-$(DIST_VERSION)-*.whl | tr -s ' \n' ' ' \
		| grep -o 'is consistent with the following platform tag: "$(DIST_PLAT)"' \
		|| { echo "test-dist: auditwheel show does not accept the wheel as $(DIST_PLAT)" >&2; exit 1; }

test-dist-python: dist
	$(DIST_TEST_ENV) tests/dist/test_python.sh

test-dist-go: dist
	$(DIST_TEST_ENV) tests/dist/test_go.sh

test-dist-c: dist
	$(DIST_TEST_ENV) CC='$(CC)' CXX='$(CXX)' CMAKE='$(CMAKE)' PKG_CONFIG='$(PKG_CONFIG)' tests/dist/test_c.sh

test-dist-crates: dist
	$(DIST_TEST_ENV) CARGO='$(CARGO)' tests/dist/test_crates.sh

# The shipped library is linked by zig, whose unwinder is not the system's
# libgcc_s: tests/c/panic_test.c against the same build with the panic-test
# feature shows that a panic inside still unwinds to the guard.
DIST_PANIC_DIR := target/dist-panic-test
DIST_PANIC     := $(DIST_PANIC_DIR)/$(DIST_TRIPLE)/dist

$(DIST_PANIC)/libjsonrpc_envelope.so: $(DIST_TOOLS)/.installed FORCE
	$(call dist_cargo,--features panic-test --target-dir $(DIST_PANIC_DIR))
	ln -sf libjsonrpc_envelope.so $@.$(ABI)

test-dist-panic: $(DIST_PANIC)/libjsonrpc_envelope.so
	$(CC) $(CFLAGS_STRICT) tests/c/panic_test.c -L$(DIST_PANIC) -ljsonrpc_envelope -o $(DIST_PANIC_DIR)/panic_test
	LD_LIBRARY_PATH=$(DIST_PANIC) RUST_BACKTRACE=0 $(DIST_PANIC_DIR)/panic_test hook 2> $(DIST_PANIC_DIR)/panic_test.stderr \
		|| { cat $(DIST_PANIC_DIR)/panic_test.stderr; exit 1; }
	grep -c "the panic test's panic" $(DIST_PANIC_DIR)/panic_test.stderr | xargs echo 'test-dist panic: panics caught inside the zig-linked library:'
