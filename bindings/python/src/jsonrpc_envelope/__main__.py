"""`python -m jsonrpc_envelope` and the `jsonrpc-envelope` console script:
the command-line tool the wheel carries (classify, lint, guard, probe), run
in this process's place, with its arguments, stdio, exit status and signals
as they are."""

from __future__ import annotations

import os
import sys

#: Where the wheel puts the command.
COMMAND = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "jsonrpc-envelope")


def main() -> None:
    if not os.access(COMMAND, os.X_OK):
        sys.stderr.write(
            "jsonrpc-envelope: this installation has no command-line tool (%s): it comes with the\n"
            "wheel (pip install jsonrpc-envelope, uvx jsonrpc-envelope) and with pip install ./bindings/python\n"
            "from a checkout; or: cargo install jsonrpc-envelope-cli\n" % COMMAND
        )
        raise SystemExit(2)
    # The tool replaces this process: a guard in an MCP config is then the
    # process the client started, its signals and exit status its own.
    os.execv(COMMAND, [COMMAND, *sys.argv[1:]])


if __name__ == "__main__":
    main()
