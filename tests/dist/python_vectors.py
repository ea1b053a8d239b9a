"""Run by an installed jsonrpc_envelope, from an empty directory: every
vector of the copy beside this script, byte for byte, through classify,
invalid_reply, log_value and read_messages (envelope.jsonl by the JSON-RPC
profile, mcp.jsonl by the MCP profile), and a Session of each profile; and
the package is the one installed in this interpreter's environment, with
its own library.

usage: python -I python_vectors.py VERSION
Prints "N passed, M failed" and exits 1 on a failure.
"""

from __future__ import annotations

import io
import json
import os
import sys
from typing import Any, Callable, Dict, List

import jsonrpc_envelope as je

HERE = os.path.dirname(os.path.abspath(__file__))
FIELDS = (
    "kind", "id_kind", "id", "method", "jsonrpc_2_0", "has_result", "has_error",
    "names_no_request", "spans", "reason", "reply_server", "reply_client", "substitute",
)


def read_jsonl(name: str) -> List[Dict[str, Any]]:
    with open(os.path.join(HERE, name), encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


def vector_bytes(vector: Dict[str, Any], key: str) -> bytes:
    if key + "_hex" in vector:
        return bytes.fromhex(vector[key + "_hex"])
    text: str = vector[key]
    return text.encode("utf-8", "surrogatepass")


def classification_matches(vector: Dict[str, Any], got: Dict[str, Any]) -> List[str]:
    wrong = []
    for field in FIELDS:
        # envelope.jsonl has no substitute: the JSON-RPC profile gives none.
        want = vector.get(field)
        if field == "reason" and vector["kind"] == "parse_error":
            # The text is the implementation's own: there must be one.
            if not (isinstance(got["reason"], str) and got["reason"]):
                wrong.append("reason: none for a parse_error")
        elif got[field] != want:
            wrong.append("%s: %r, want %r" % (field, got[field], want))
    return wrong


def main() -> int:
    version = sys.argv[1]
    results: List[bool] = []

    def check(name: str, test: Callable[[], List[str]]) -> None:
        try:
            wrong = test()
        except Exception as error:  # a failure to report, not to stop on
            wrong = ["raised %r" % error]
        if wrong:
            print("FAIL %s: %s" % (name, "; ".join(wrong)))
        results.append(not wrong)

    def installed() -> List[str]:
        wrong = []
        prefix = os.path.realpath(sys.prefix)
        for path in (je.__file__, je.lib_path):
            if not os.path.realpath(path).startswith(prefix + os.sep):
                wrong.append("%s is not inside this environment (%s)" % (path, prefix))
        if os.path.dirname(je.lib_path) != os.path.dirname(je.__file__):
            wrong.append("library %s is not the package's own" % je.lib_path)
        if je.__version__ != version:
            wrong.append("version %s, want %s" % (je.__version__, version))
        return wrong

    check("the installed package", installed)

    for profile, name in ((je.Profile.JSONRPC, "envelope.jsonl"), (je.Profile.MCP, "mcp.jsonl")):
        vectors = read_jsonl(name)
        for vector in vectors:
            line = vector_bytes(vector, "line")

            def classify_one(vector: Dict[str, Any] = vector, line: bytes = line, profile: Any = profile) -> List[str]:
                c = je.classify(line, profile=profile)
                wrong = classification_matches(vector, c.to_dict())
                for role in ("server", "client"):
                    if je.invalid_reply(line, role, profile=profile) != vector["reply_" + role]:
                        wrong.append("invalid_reply(%s) disagrees" % role)
                return wrong

            check("classify (%s): %s" % (profile, vector["name"]), classify_one)

        lines = [vector_bytes(v, "line") for v in vectors]
        stream = [(line, v) for line, v in zip(lines, vectors) if b"\n" not in line]

        def read_stream(stream: List[Any] = stream, profile: Any = profile) -> List[str]:
            data = b"\n".join(line for line, _ in stream)
            got = list(je.read_messages(io.BytesIO(data), role="server", profile=profile))
            if [line for line, _ in got] != [line for line, _ in stream]:
                return ["the lines read are not the vectors' lines"]
            wrong = []
            for (_, c), (_, vector) in zip(got, stream):
                wrong += ["%s: %s" % (vector["name"], w) for w in classification_matches(vector, c.to_dict())]
            return wrong

        check("read_messages (%s) over %d vectors" % (profile, len(stream)), read_stream)

        def session(stream: List[Any] = stream, profile: Any = profile) -> List[str]:
            # In role server, a line owed a reply is answered with exactly it.
            with je.Session("server", profile=profile) as s:
                got = s.feed(b"\n".join(line for line, _ in stream) + b"\n")
            if [d.line for d in got] != [line for line, _ in stream]:
                return ["the lines the session read are not the vectors' lines"]
            wrong = []
            for d, (_, vector) in zip(got, stream):
                answered = d.action_text if d.action is je.Action.ANSWER else None
                if answered != vector["reply_server"]:
                    wrong.append("%s: %s %r, want the reply %r" % (vector["name"], d.action, answered, vector["reply_server"]))
            return wrong

        check("Session (%s) over %d vectors" % (profile, len(stream)), session)

    for vector in read_jsonl("log_value.jsonl"):

        def log_one(vector: Dict[str, Any] = vector) -> List[str]:
            got = je.log_value(vector_bytes(vector, "input"))
            return [] if got == vector["output"] else ["%r, want %r" % (got, vector["output"])]

        check("log_value: " + vector["name"], log_one)

    failed = results.count(False)
    print("jsonrpc_envelope %s from %s" % (je.__version__, je.lib_path))
    print("%d passed, %d failed" % (len(results) - failed, failed))
    return 1 if failed or len(results) < 100 else 0


if __name__ == "__main__":
    sys.exit(main())
