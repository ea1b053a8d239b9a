"""Builds libjsonrpc_envelope with cargo and bundles it inside the package.

The crate is ../.. from this file (override: JSONRPC_ENVELOPE_CRATE); cargo
comes from PATH (override: CARGO). The wheel holds the library beside the
package's modules, where jsonrpc_envelope/_ffi.py looks for it, and is tagged
py3-none-<platform>: the library is native, but ctypes does not depend on the
CPython ABI, so one wheel serves every Python 3 of a platform.
"""

import json
import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

try:
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # setuptools < 70.1
    from wheel.bdist_wheel import bdist_wheel

HERE = os.path.dirname(os.path.abspath(__file__))
CRATE = os.path.abspath(os.environ.get("JSONRPC_ENVELOPE_CRATE") or os.path.join(HERE, "..", ".."))
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
    """The version in the crate's [package] table (the package's version)."""
    if not os.path.isfile(MANIFEST):
        fail(
            "the Rust crate is not at %s: build the package from a checkout of "
            "jsonrpc-envelope (pip install ./bindings/python), or set "
            "JSONRPC_ENVELOPE_CRATE to the crate's directory" % CRATE
        )
    with open(MANIFEST, encoding="utf-8") as manifest:
        text = manifest.read()
    # The one version of the workspace (every package takes it from there).
    package = re.search(r"^\[workspace\.package\]\s*$(.*?)(?=^\[|\Z)", text, re.M | re.S)
    version = package and re.search(r'^version\s*=\s*"([^"]+)"', package.group(1), re.M)
    if not version:
        fail("no [workspace.package] version in %s" % MANIFEST)
    return version.group(1)


def build_library():
    """Runs `cargo build --release --lib` and returns the shared library's path."""
    cargo = os.environ.get("CARGO", "cargo")
    command = [
        cargo, "build", "--release", "--lib",
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


class BuildPyWithLibrary(build_py):
    """build_py, plus the Rust library copied into the package."""

    def run(self):
        super().run()
        library = build_library()
        if getattr(self, "editable_mode", False):
            # `pip install -e`: the package is imported from src/.
            target = os.path.join(HERE, "src", "jsonrpc_envelope", LIB_NAME)
        else:
            target = os.path.join(self.build_lib, "jsonrpc_envelope", LIB_NAME)
        self.mkpath(os.path.dirname(target))
        shutil.copyfile(library, target)
        os.chmod(target, 0o755)


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
    cmdclass={"build_py": BuildPyWithLibrary, "bdist_wheel": BdistWheelAnyPython3},
)
