#!/usr/bin/env python3
"""What each artifact of dist/ holds and what it must not: the files a user
needs, the one version everywhere, no path of the machine that built it
(--forbid), nothing of the checkout that is not for users (test caches,
build output, the bench corpus, the CLI, the tests), and a size within its
bound. Prints each artifact's size; "N passed, M failed" at the end.

usage: check_artifacts.py --dist DIR --version V --abi N --changelog FILE
                          --go-module PATH [--forbid TEXT]...
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tarfile
import zipfile
from typing import Dict, List, Tuple

# A path (inside an archive) that no artifact may have.
FORBIDDEN_PATHS = re.compile(
    r"(^|/)(__pycache__|\.pytest_cache|\.mypy_cache|\.git|target|bench|fuzz|corpus|cli|tests?|vectors)(/|$)"
    r"|\.pyc$|\.test$|\.o$|(^|/)\.DS_Store$"
)
# Shipped on purpose: the vectors the library's `vectors` feature reads (the
# crate, and the sdist's copy of it).
SHIPPED_VECTORS = re.compile(r"(^|/)tests/vectors/(envelope|mcp)\.jsonl$")

KiB = 1024
MiB = 1024 * KiB


def zip_members(path: str) -> Dict[str, bytes]:
    with zipfile.ZipFile(path) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist() if not info.is_dir()}


def tar_members(path: str) -> Tuple[Dict[str, bytes], Dict[str, str]]:
    """Regular files, and symbolic links with their targets."""
    files, links = {}, {}
    with tarfile.open(path) as archive:
        for member in archive.getmembers():
            if member.isfile():
                extracted = archive.extractfile(member)
                assert extracted is not None
                files[member.name] = extracted.read()
            elif member.issym():
                links[member.name] = member.linkname
            elif not member.isdir():
                files[member.name] = b""  # reported by the type check below
    return files, links


class Checker:
    def __init__(self, forbid: List[str]) -> None:
        self.forbid = [text.encode() for text in forbid if text and text != "/"]
        self.passed = 0
        self.failed = 0

    def check(self, what: str, wrong: List[str]) -> None:
        if wrong:
            self.failed += 1
            for line in wrong:
                print("FAIL %s: %s" % (what, line))
        else:
            self.passed += 1

    def contents(self, artifact: str, files: Dict[str, bytes], prefix: str) -> None:
        """No member outside prefix, none on a forbidden path, and no
        forbidden text in any member's bytes."""
        wrong = []
        for name, data in sorted(files.items()):
            if not name.startswith(prefix):
                wrong.append("%s is outside %s" % (name, prefix))
            if FORBIDDEN_PATHS.search(name[len(prefix):]) and not SHIPPED_VECTORS.search(name):
                wrong.append("%s should not be shipped" % name)
            for text in self.forbid:
                if text in data:
                    wrong.append("%s holds the build machine's path %r" % (name, text.decode()))
        self.check(artifact + ": contents", wrong)

    def has(self, artifact: str, files: Dict[str, bytes], names: List[str]) -> None:
        self.check(artifact + ": required files", ["%s is missing" % n for n in names if n not in files])

    def equal(self, what: str, got: object, want: object) -> None:
        self.check(what, [] if got == want else ["%r, want %r" % (got, want)])

    def size(self, artifact: str, path: str, bound: int) -> None:
        size = os.path.getsize(path)
        print("  %-80s %9.1f KiB (bound %d KiB)" % (artifact, size / KiB, bound // KiB))
        self.check(artifact + ": size", [] if size <= bound else ["%d bytes, over %d" % (size, bound)])


def field(text: bytes, pattern: str) -> str:
    found = re.search(pattern, text.decode("utf-8"), re.M)
    return found.group(1) if found else ""


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dist", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--abi", required=True)
    parser.add_argument("--changelog", required=True)
    parser.add_argument("--go-module", required=True)
    parser.add_argument("--forbid", action="append", default=[])
    args = parser.parse_args()
    v, abi, dist = args.version, args.abi, args.dist
    c = Checker(args.forbid)
    found = sorted(os.listdir(dist))
    print("artifacts in %s (jsonrpc-envelope %s, ABI %s):" % (dist, v, abi))

    # The Python wheel.
    wheel = "jsonrpc_envelope-%s-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl" % v
    c.size(wheel, os.path.join(dist, wheel), 4 * MiB)
    files = zip_members(os.path.join(dist, wheel))
    c.contents(wheel, files, "")
    c.has(wheel, files, ["jsonrpc_envelope/" + n for n in (
        "__init__.py", "_ffi.py", "py.typed", "libjsonrpc_envelope.so", "__main__.py", "_bin/jsonrpc-envelope",
    )])
    c.equal(wheel + ": console script", field(files.get("jsonrpc_envelope-%s.dist-info/entry_points.txt" % v, b""),
                                              r"^jsonrpc-envelope = (\S+)$"), "jsonrpc_envelope.__main__:main")
    meta = "jsonrpc_envelope-%s.dist-info/" % v
    c.equal(wheel + ": version", field(files.get(meta + "METADATA", b""), r"^Version: (\S+)$"), v)
    c.equal(wheel + ": tags", re.findall(r"^Tag: (\S+)$", files.get(meta + "WHEEL", b"").decode(), re.M),
            ["py3-none-manylinux_2_17_x86_64", "py3-none-manylinux2014_x86_64"])

    # The Python sdist: the package, its build, and the crate it builds.
    sdist = "jsonrpc_envelope-%s.tar.gz" % v
    c.size(sdist, os.path.join(dist, sdist), 256 * KiB)
    files, links = tar_members(os.path.join(dist, sdist))
    top = "jsonrpc_envelope-%s/" % v
    c.contents(sdist, files, top)
    c.check(sdist + ": no links", ["%s -> %s" % item for item in links.items()])
    c.has(sdist, files, [top + n for n in (
        "PKG-INFO", "pyproject.toml", "setup.py", "src/jsonrpc_envelope/__init__.py",
        "rust/Cargo.toml", "rust/Cargo.lock", "rust/build.rs", "rust/src/lib.rs", "rust/src/ffi/version.rs",
    )])
    c.equal(sdist + ": version", field(files.get(top + "PKG-INFO", b""), r"^Version: (\S+)$"), v)
    c.equal(sdist + ": crate version", field(files.get(top + "rust/Cargo.toml", b""), r'^version = "([^"]+)"$'), v)
    c.equal(sdist + ": crate ABI", field(files.get(top + "rust/src/ffi/version.rs", b""),
                                         r"^pub const JSONRPC_ABI_VERSION: u32 = (\d+);"), abi)
    c.check(sdist + ": no workspace", ["rust/Cargo.toml has a [workspace]"]
            if b"[workspace" in files.get(top + "rust/Cargo.toml", b"") else [])

    # The C and C++ archive.
    name = "libjsonrpc_envelope-%s-x86_64-linux-gnu" % v
    archive = name + ".tar.gz"
    c.size(archive, os.path.join(dist, archive), 8 * MiB)
    files, links = tar_members(os.path.join(dist, archive))
    top = name + "/"
    c.contents(archive, files, top)
    c.has(archive, files, [top + n for n in (
        "include/jsonrpc_envelope.h", "include/jsonrpc_envelope.hpp",
        "lib/libjsonrpc_envelope.so.%s" % abi, "lib/libjsonrpc_envelope.a",
        "lib/pkgconfig/jsonrpc-envelope.pc",
        "lib/cmake/jsonrpc_envelope/jsonrpc_envelopeConfig.cmake",
        "lib/cmake/jsonrpc_envelope/jsonrpc_envelopeConfigVersion.cmake",
        "share/doc/jsonrpc-envelope/CHANGELOG.md", "bin/jsonrpc-envelope",
    )])
    c.equal(archive + ": links", links, {top + "lib/libjsonrpc_envelope.so": "libjsonrpc_envelope.so.%s" % abi})
    pc = files.get(top + "lib/pkgconfig/jsonrpc-envelope.pc", b"")
    c.equal(archive + ": .pc prefix", field(pc, r"^prefix=(.*)$"), "${pcfiledir}/../..")
    c.equal(archive + ": .pc version", field(pc, r"^Version: (\S+)$"), v)
    cmake = files.get(top + "lib/cmake/jsonrpc_envelope/jsonrpc_envelopeConfigVersion.cmake", b"")
    c.equal(archive + ": CMake version", field(cmake, r'^set\(PACKAGE_VERSION "([^"]+)"\)$'), v)
    c.equal(archive + ": header ABI", field(files.get(top + "include/jsonrpc_envelope.h", b""),
                                            r"^#define JSONRPC_ABI_VERSION (\d+)$"), abi)

    # The Go module in its proxy directory.
    escaped = re.sub(r"[A-Z]", lambda m: "!" + m.group(0).lower(), args.go_module)
    at_v = os.path.join(dist, "goproxy", escaped, "@v")
    go_zip = os.path.join(at_v, "v%s.zip" % v)
    c.size("goproxy/.../@v/v%s.zip" % v, go_zip, 8 * MiB)
    files = zip_members(go_zip)
    top = "%s@v%s/" % (args.go_module, v)
    c.contents("Go module zip", files, top)
    c.has("Go module zip", files, [top + n for n in (
        "go.mod", "cgo.go", "link_prebuilt.go", "link_unsupported.go", "link_external.go",
        "jsonrpc_envelope.h", "libjsonrpc_envelope_linux_amd64.a",
    )])
    c.check("Go module zip: no checkout link, no tests", [
        n for n in files if n.endswith(("/link_static.go", "_test.go", "/rules.mk", "/ci-setup.sh")) or "/_dist/" in n
    ])
    with open(os.path.join(at_v, "v%s.info" % v), encoding="utf-8") as info:
        c.equal("Go module .info version", json.load(info)["Version"], "v" + v)
    with open(os.path.join(at_v, "list"), encoding="utf-8") as listing:
        c.equal("Go module list", listing.read().split(), ["v" + v])
    with open(os.path.join(at_v, "v%s.mod" % v), "rb") as mod:
        c.equal("Go module .mod", mod.read(), files.get(top + "go.mod"))

    # The Maven repository (made where a JDK 22+ was found): the binding's
    # jar carries the library, the transports' jar its classes.
    maven = os.path.join(dist, "maven")
    extra = []
    if os.path.isdir(maven):
        extra = ["maven"]
        group = os.path.join(maven, "io", "github", "jsonrpc-envelope")
        for artifact, wanted in (
            ("jsonrpc-envelope", ["native/linux-x86_64/libjsonrpc_envelope.so",
                                  "io/github/jsonrpcenvelope/Envelope.class"]),
            ("jsonrpc-envelope-mcp", ["io/github/jsonrpcenvelope/mcp/EnvelopeStdioServerTransportProvider.class",
                                      "io/github/jsonrpcenvelope/mcp/EnvelopeStdioClientTransport.class"]),
        ):
            at = os.path.join(group, artifact, v)
            jar = "%s-%s.jar" % (artifact, v)
            c.size(jar, os.path.join(at, jar), 4 * MiB)
            members = zip_members(os.path.join(at, jar))
            c.contents(jar, members, "")
            c.has(jar, members, wanted)
            c.has(artifact + " " + v, sorted(os.listdir(at)), [jar, "%s-%s.pom" % (artifact, v)])
    # The crates, as `cargo package` makes them: the library (with the
    # vectors its `vectors` feature reads) and the CLI.
    crates = os.path.join(dist, "crates")
    for crate, wanted in (
        ("jsonrpc-envelope", ["src/lib.rs", "build.rs", "Cargo.lock", "tests/vectors/envelope.jsonl",
                              "tests/vectors/mcp.jsonl"]),
        ("jsonrpc-envelope-cli", ["src/main.rs", "src/probe/mod.rs", "README.md", "Cargo.lock"]),
    ):
        name = "%s-%s" % (crate, v)
        files, links = tar_members(os.path.join(crates, name + ".crate"))
        c.contents(name + ".crate", files, name + "/")
        c.has(name + ".crate", files, [name + "/" + n for n in wanted])
        c.equal(name + ".crate: version", field(files.get(name + "/Cargo.toml", b""), r'^version = "([^"]+)"$'), v)
    c.equal("dist/crates holds", sorted(os.listdir(crates)),
            ["jsonrpc-envelope-%s.crate" % v, "jsonrpc-envelope-cli-%s.crate" % v])

    # The npm package: the Node-API addon and the CLI.
    npm = "jsonrpc-envelope-%s.tgz" % v
    c.size(npm, os.path.join(dist, npm), 8 * MiB)
    files, links = tar_members(os.path.join(dist, npm))
    c.contents(npm, files, "package/")
    c.has(npm, files, ["package/package.json", "package/lib/index.cjs", "package/bin/jsonrpc-envelope.cjs"])
    c.equal(npm + ": bin", json.loads(files.get("package/package.json", b"{}")).get("bin"),
            {"jsonrpc-envelope": "bin/jsonrpc-envelope.cjs"})

    # Nothing else in dist/, and the checksums hold.
    c.equal("dist/ holds", found, sorted([wheel, sdist, archive, npm, "crates", "goproxy", "SHA256SUMS"] + extra))
    wrong = []
    with open(os.path.join(dist, "SHA256SUMS"), encoding="utf-8") as sums:
        for line in sums:
            digest, path = line.split(None, 1)
            with open(os.path.join(dist, path.strip()), "rb") as file:
                if hashlib.sha256(file.read()).hexdigest() != digest:
                    wrong.append(path.strip())
    c.check("SHA256SUMS", wrong)

    # The changelog's latest entry is this version, with this ABI beside it.
    with open(args.changelog, encoding="utf-8") as changelog:
        entry = re.search(r"^## (\S+) — C ABI version (\d+)$", changelog.read(), re.M)
    c.equal("CHANGELOG.md's latest entry", entry and entry.groups(), (v, abi))

    print("%d passed, %d failed" % (c.passed, c.failed))
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
