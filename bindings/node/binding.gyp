# The addon: src/*.c against the library's header, with the library's
# static archive linked in (so the package carries one file and no loader
# path), its symbols kept out of the addon's exports. Built by `npm run build` (node-gyp, against the Node headers of
# the running node; see scripts/build.mjs). `jsonrpc_lib` may name another
# archive: node-gyp rebuild -- -Djsonrpc_lib=/path/libjsonrpc_envelope.a
# `jsonrpc_hide` is the linker flag that keeps them out: a linker without
# --exclude-libs (zig's, for `make dist-node`) is given a version script,
# -Djsonrpc_hide=-Wl,--version-script=scripts/addon.map
{
  "variables": {
    "jsonrpc_root%": "<(module_root_dir)/../..",
    "jsonrpc_lib%": "<(module_root_dir)/../../target/release/libjsonrpc_envelope.a",
    "jsonrpc_hide%": "-Wl,--exclude-libs,ALL"
  },
  "targets": [
    {
      "target_name": "jsonrpc_envelope",
      "sources": [
        "src/addon.c", "src/line.c", "src/reader.c", "src/session.c",
        "src/handle.c", "src/arguments.c", "src/convert.c", "src/errors.c"
      ],
      "include_dirs": ["<(jsonrpc_root)/include"],
      "defines": ["NAPI_VERSION=8"],
      "cflags": ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O2", "-fvisibility=hidden"],
      "libraries": [
        "<(jsonrpc_lib)",
        "-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"
      ],
      "ldflags": [
        "<(jsonrpc_hide)",
        "-Wl,--gc-sections"
      ]
    }
  ]
}
