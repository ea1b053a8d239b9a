#!/usr/bin/env python3
"""Writes the Go binding as one module version in a module proxy directory,
the layout that GOPROXY=file://DIR reads:

    DIR/<module path>/@v/list
    DIR/<module path>/@v/<version>.info   {"Version": ..., "Time": ...}
    DIR/<module path>/@v/<version>.mod    the module's go.mod
    DIR/<module path>/@v/<version>.zip    the module's files under <module>@<version>/

The module's files are the binding's tracked files that a user builds with
(its go.mod, README.md and non-test .go files), less the checkout's link
(link_static.go, which points into the repository's target/), plus the files
only a release carries: the link to the prebuilt library and the refusal on
other platforms (bindings/go/_dist/), the C header and the static library
for linux/amd64. The tests stay out: they read the repository's vectors.

usage: go_module.py --binding bindings/go --version v0.1.0 --time RFC3339
                    --header include/jsonrpc_envelope.h
                    --static-lib target/dist-lib/libjsonrpc_envelope.a
                    --proxy dist/goproxy
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import zipfile

OVERLAY = "_dist"
CHECKOUT_ONLY = {"link_static.go"}
STATIC_LIB_NAME = "libjsonrpc_envelope_linux_amd64.a"
HEADER_NAME = "jsonrpc_envelope.h"


def fail(message: str) -> None:
    sys.stderr.write("go_module.py: %s\n" % message)
    raise SystemExit(1)


def tracked_files(directory: str) -> list[str]:
    """The files git tracks in directory, relative to it."""
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z", "--", "."], cwd=directory, check=True, stdout=subprocess.PIPE
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        fail("git ls-files in %s: %s (make dist runs in a git checkout)" % (directory, error))
    return sorted(name for name in out.decode("utf-8").split("\0") if name)


def module_files(binding: str) -> dict[str, str]:
    """{path in the module: path on disk} for the binding's own files."""
    files = {}
    for name in tracked_files(binding):
        if "/" in name:
            continue  # _dist/ is handled below; the module has no packages below its root
        if name in ("go.mod", "README.md") or (
            name.endswith(".go") and not name.endswith("_test.go") and name not in CHECKOUT_ONLY
        ):
            files[name] = os.path.join(binding, name)
    for name in tracked_files(os.path.join(binding, OVERLAY)):
        if "/" in name or not name.endswith(".go"):
            fail("unexpected file %s/%s/%s" % (binding, OVERLAY, name))
        if name in files:
            fail("%s/%s/%s would replace the checkout's %s" % (binding, OVERLAY, name, name))
        files[name] = os.path.join(binding, OVERLAY, name)
    return files


def module_path(go_mod: str) -> str:
    with open(go_mod, encoding="utf-8") as file:
        found = re.search(r"^module\s+(\S+)\s*$", file.read(), re.M)
    if not found:
        fail("no module line in %s" % go_mod)
    return found.group(1)


def escape(path: str) -> str:
    """A module path as the proxy protocol spells it (capitals as !lower)."""
    return re.sub(r"[A-Z]", lambda m: "!" + m.group(0).lower(), path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binding", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--time", required=True, help="the version's time, RFC 3339")
    parser.add_argument("--header", required=True)
    parser.add_argument("--static-lib", required=True)
    parser.add_argument("--proxy", required=True)
    parser.add_argument("--license", action="append", default=[], help="a license file for the module's root")
    args = parser.parse_args()

    if not re.fullmatch(r"v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?", args.version):
        fail("%r is not a semantic version with a v" % args.version)
    when = datetime.datetime.fromisoformat(args.time).astimezone(datetime.timezone.utc)
    module = module_path(os.path.join(args.binding, "go.mod"))

    files = module_files(args.binding)
    files[HEADER_NAME] = args.header
    files[STATIC_LIB_NAME] = args.static_lib
    for license_file in args.license:
        files[os.path.basename(license_file)] = license_file
    for source in files.values():
        if not os.path.isfile(source):
            fail("missing %s" % source)

    out = os.path.join(args.proxy, escape(module), "@v")
    os.makedirs(out, exist_ok=True)
    prefix = "%s@%s/" % (module, args.version)
    stamp = when.timetuple()[:6]
    with zipfile.ZipFile(os.path.join(out, args.version + ".zip"), "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            entry = zipfile.ZipInfo(prefix + name, date_time=stamp)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            with open(files[name], "rb") as source:
                archive.writestr(entry, source.read())
    with open(os.path.join(args.binding, "go.mod"), "rb") as source, open(
        os.path.join(out, args.version + ".mod"), "wb"
    ) as target:
        target.write(source.read())
    with open(os.path.join(out, args.version + ".info"), "w", encoding="utf-8") as info:
        json.dump({"Version": args.version, "Time": when.strftime("%Y-%m-%dT%H:%M:%SZ")}, info)
        info.write("\n")
    with open(os.path.join(out, "list"), "w", encoding="utf-8") as listing:
        listing.write(args.version + "\n")
    print("go module %s@%s: %d files in %s" % (module, args.version, len(files), out))


if __name__ == "__main__":
    main()
