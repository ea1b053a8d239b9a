"""Builds libjsonrpc_envelope with cargo and bundles it inside the package.

The crate is, in order: the directory in JSONRPC_ENVELOPE_CRATE; rust/ beside
this file, in an sdist (which carries the crate as `cargo package` makes it,
with its Cargo.lock); ../.. from this file, in a checkout. cargo comes from
PATH (override: CARGO). JSONRPC_ENVELOPE_BUNDLE_LIB names a library built
beforehand to bundle instead (`make dist` gives the one it built for an older
glibc). The wheel holds the library beside the package's modules, where
jsonrpc_envelope/_ffi.py looks for it, and is tagged py3-none-<platform>: the
library is native, but ctypes does not depend on the CPython ABI, so one
wheel serves every Python 3 of a platform.

The wheel also carries the command-line tool, `jsonrpc-envelope` (classify,
lint, guard, probe), as jsonrpc_envelope/_bin/jsonrpc-envelope, run by the
`jsonrpc-envelope` console script and `python -m jsonrpc_envelope`:
JSONRPC_ENVELOPE_BUNDLE_CLI names one built beforehand (`make dist`'s, for
the same old glibc); in a checkout, cargo builds it (the CLI crate, cli/);
an sdist carries only the library's crate, and its wheel no command.

Neither maturin nor setuptools-rust fits a library that Python loads with
ctypes: maturin has no model for a plain C-ABI library (it makes one a cffi
module), and setuptools-rust names it as a CPython extension module and
cannot put a crate from outside this directory into the sdist.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
# Where an sdist carries the crate.
SDIST_CRATE = "rust"


def find_crate():
    if os.environ.get("JSONRPC_ENVELOPE_CRATE"):
        return os.path.abspath(os.environ["JSONRPC_ENVELOPE_CRATE"])
    if os.path.isfile(os.path.join(HERE, SDIST_CRATE, "Cargo.toml")):
        return os.path.join(HERE, SDIST_CRATE)
    return os.path.abspath(os.path.join(HERE, "..", ".."))


CRATE = find_crate()
MANIFEST = os.path.join(CRATE, "Cargo.toml")

if sys.platform == "darwin":
    LIB_NAME = "libjsonrpc_envelope.dylib"
elif sys.platform == "win32":
    LIB_NAME = "jsonrpc_envelope.dll"
else:
    LIB_NAME = "libjsonrpc_envelope.so"


def fail(message):
    sys.stderr.write("jsonrpc-envelope build: %s\n" % message)
    raise SystemExit(1)


def crate_version():
    """The crate's version (the package's version): the workspace's in a
    checkout, the [package] table's in the normalized Cargo.toml of an sdist."""
    if not os.path.isfile(MANIFEST):
        fail(
            "the Rust crate is not at %s: build the package from its sdist or "
            "from a checkout of jsonrpc-envelope (pip install ./bindings/python), "
            "or set JSONRPC_ENVELOPE_CRATE to the crate's directory" % CRATE
        )
    with open(MANIFEST, encoding="utf-8") as manifest:
        text = manifest.read()
    for table in (r"workspace\.package", r"package"):
        found = re.search(r"^\[%s\]\s*$(.*?)(?=^\[|\Z)" % table, text, re.M | re.S)
        version = found and re.search(r'^version\s*=\s*"([^"]+)"', found.group(1), re.M)
        if version:
            return version.group(1)
    fail("no version in the [workspace.package] or [package] table of %s" % MANIFEST)


def build_library():
    """Runs `cargo build --release --lib` and returns the shared library's path."""
    cargo = os.environ.get("CARGO", "cargo")
    command = [
        cargo, "build", "--release", "--lib", "--locked",
        "--manifest-path", MANIFEST,
        "--message-format=json-render-diagnostics",
    ]
    sys.stderr.write("jsonrpc-envelope build: %s\n" % " ".join(command))
    try:
        process = subprocess.run(command, stdout=subprocess.PIPE, cwd=CRATE, check=False)
    except FileNotFoundError:
        fail("%r is not on PATH: building the package needs a Rust toolchain (1.85 or newer)" % cargo)
    if process.returncode != 0:
        fail("cargo build failed (exit status %d)" % process.returncode)
    found = None
    for line in process.stdout.decode("utf-8", "replace").splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("reason") != "compiler-artifact":
            continue
        if "cdylib" not in message.get("target", {}).get("kind", []):
            continue
        for path in message.get("filenames", []):
            if os.path.basename(path) == LIB_NAME:
                found = path
    if not found or not os.path.isfile(found):
        fail("cargo built no %s" % LIB_NAME)
    return found


def build_cli():
    """The command-line tool to bundle: JSONRPC_ENVELOPE_BUNDLE_CLI's, or
    in a checkout `cargo build --release --bin jsonrpc-envelope`'s; None
    where there is no CLI crate (an sdist)."""
    if os.environ.get("JSONRPC_ENVELOPE_BUNDLE_CLI"):
        return os.environ["JSONRPC_ENVELOPE_BUNDLE_CLI"]
    cli_manifest = os.path.join(CRATE, "cli", "Cargo.toml")
    if not os.path.isfile(cli_manifest):
        return None
    cargo = os.environ.get("CARGO", "cargo")
    command = [
        cargo, "build", "--release", "--locked", "--manifest-path", cli_manifest,
        "--bin", "jsonrpc-envelope", "--message-format=json-render-diagnostics",
    ]
    sys.stderr.write("jsonrpc-envelope build: %s\n" % " ".join(command))
    process = subprocess.run(command, stdout=subprocess.PIPE, cwd=CRATE, check=False)
    if process.returncode != 0:
        fail("cargo build of the command-line tool failed (exit status %d)" % process.returncode)
    for line in process.stdout.decode("utf-8", "replace").splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if message.get("reason") == "compiler-artifact" and message.get("executable"):
            return message["executable"]
    fail("cargo built no jsonrpc-envelope command")


class BuildPyWithLibrary(build_py):
    """build_py, plus the Rust library copied into the package."""

    def run(self):
        super().run()
        library = os.environ.get("JSONRPC_ENVELOPE_BUNDLE_LIB") or build_library()
        if not os.path.isfile(library):
            fail("JSONRPC_ENVELOPE_BUNDLE_LIB=%r names no file" % library)
        if getattr(self, "editable_mode", False):
            # `pip install -e`: the package is imported from src/.
            target = os.path.join(HERE, "src", "jsonrpc_envelope", LIB_NAME)
        else:
            target = os.path.join(self.build_lib, "jsonrpc_envelope", LIB_NAME)
        self.mkpath(os.path.dirname(target))
        shutil.copyfile(library, target)
        os.chmod(target, 0o755)
        if getattr(self, "editable_mode", False):
            return
        cli = build_cli()
        if cli is None:
            return
        if not os.path.isfile(cli):
            fail("the command-line tool %r is no file" % cli)
        command = os.path.join(self.build_lib, "jsonrpc_envelope", "_bin", "jsonrpc-envelope")
        self.mkpath(os.path.dirname(command))
        shutil.copyfile(cli, command)
        os.chmod(command, 0o755)


class SdistWithCrate(sdist):
    """sdist, plus the crate in rust/: the files `cargo package` puts in the
    crate's package (its `include` list in Cargo.toml), with a Cargo.toml
    that stands alone (no workspace) and the Cargo.lock."""

    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        cargo = os.environ.get("CARGO", "cargo")
        target = os.path.join(self.get_finalized_command("build").build_base, "cargo-package")
        command = [
            cargo, "package", "--no-verify", "--allow-dirty", "--quiet",
            "--manifest-path", MANIFEST, "--package", "jsonrpc-envelope",
            "--target-dir", os.path.abspath(target),
        ]
        sys.stderr.write("jsonrpc-envelope sdist: %s\n" % " ".join(command))
        try:
            subprocess.run(command, cwd=CRATE, check=True)
        except (OSError, subprocess.CalledProcessError) as error:
            fail("cargo package failed: %s" % error)
        crate = os.path.join(target, "package", "jsonrpc-envelope-%s.crate" % crate_version())
        prefix = "jsonrpc-envelope-%s/" % crate_version()
        destination = os.path.join(base_dir, SDIST_CRATE)
        with tarfile.open(crate) as archive:
            for member in archive.getmembers():
                name = member.name
                if not member.isfile() or not name.startswith(prefix) or ".." in name.split("/"):
                    fail("unexpected entry %r in %s" % (name, crate))
                path = os.path.join(destination, name[len(prefix):])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with archive.extractfile(member) as source, open(path, "wb") as out:
                    shutil.copyfileobj(source, out)


class BinaryDistribution(Distribution):
    """The package holds a native library: a platform wheel, in platlib."""

    def has_ext_modules(self):
        return True


class BdistWheelAnyPython3(bdist_wheel):
    """A py3-none-<platform> wheel (wasmtime-py does the same)."""

    def finalize_options(self):
        super().finalize_options()
        self.root_is_pure = False

    def get_tag(self):
        _, _, platform = super().get_tag()
        return "py3", "none", platform


setup(
    version=crate_version(),
    distclass=BinaryDistribution,
    cmdclass={"build_py": BuildPyWithLibrary, "sdist": SdistWithCrate, "bdist_wheel": BdistWheelAnyPython3},
)
