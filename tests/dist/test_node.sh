#!/usr/bin/env bash
# The npm package, dist/jsonrpc-envelope-<v>.tgz, installed from the tarball
# alone as users install it, in an empty directory with its own HOME and npm
# cache (nothing of the checkout, the user's npm or a registry is found;
# npm runs --offline):
#   1. what the tarball holds: the addon, the CLI (executable) and its
#      launcher, package.json's bin;
#   2. npm install TGZ into an app: `npx jsonrpc-envelope` as MCP users
#      run it (tests/dist/cli_check.sh: --version, guard over a pipe, probe
#      of the guarded server), and require('jsonrpc-envelope'), the addon;
#   3. npm install -g --prefix: the global `jsonrpc-envelope`, --version and
#      probe --json of the guarded server;
#   4. signals: SIGINT, SIGTERM and SIGHUP sent to the launcher reach the
#      guard's server, and the launcher exits with the guard's status; the
#      tool killed, the launcher dies by the same signal; SIGTERM to npx
#      ends the server too.
#
# Environment: DIST, VERSION, PYTHON, NAIVE_SERVER; NODE, NPM.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PYTHON=${PYTHON:-python3}
NODE=${NODE:-node}
NPM=${NPM:-npm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# npm's settings from the environment (make run from npm sets them) and
# from the user's files are not the test's.
for name in $(compgen -e | grep -i '^npm_' || true); do unset "$name"; done
unset NODE_PATH NODE_OPTIONS || true
export HOME=$work/home npm_config_cache=$work/npm-cache npm_config_userconfig=$work/home/.npmrc \
    npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false npm_config_offline=true
mkdir "$HOME"

tgz_name=jsonrpc-envelope-$VERSION.tgz
tgz=$work/$tgz_name
cp "$DIST/$tgz_name" "$tgz"
cp "$NAIVE_SERVER" "$work/naive_server.py"
cd "$work"

step() { echo "test-dist node: $*"; }
fail() { echo "test-dist node: $*" >&2; exit 1; }

# 1. The tarball.
listing=$(tar -tvzf "$tgz")
for file in package/package.json package/build/Release/jsonrpc_envelope.node package/lib/index.cjs \
    package/bin/jsonrpc-envelope.cjs package/bin/linux-x64/jsonrpc-envelope; do
    grep -q " $file\$" <<< "$listing" || fail "$tgz_name has no $file"
done
grep -qE '^-rwxr-xr-x .* package/bin/linux-x64/jsonrpc-envelope$' <<< "$listing" ||
    fail "the CLI in $tgz_name is not executable: $(grep linux-x64 <<< "$listing")"
bin=$(tar -xzOf "$tgz" package/package.json | "$NODE" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify(JSON.parse(s).bin)))')
[ "$bin" = '{"jsonrpc-envelope":"bin/jsonrpc-envelope.cjs"}' ] || fail "package.json's bin is $bin"
step "$tgz_name: $(wc -l <<< "$listing") files, bin $bin"
grep -E 'bin/|\.node$' <<< "$listing" | while IFS= read -r line; do step "  $line"; done

# 2. Installed into an app.
start=$SECONDS
mkdir app
echo '{"name":"app","version":"1.0.0","private":true}' > app/package.json
(cd app && "$NPM" install "$tgz" > ../install.log 2>&1) || { cat install.log; fail "npm install failed"; }
step "\$ npm install $tgz_name"
while IFS= read -r line; do [ -n "$line" ] && step "  $line"; done < install.log
[ -L app/node_modules/.bin/jsonrpc-envelope ] || fail "npm install made no node_modules/.bin/jsonrpc-envelope"

(cd app && "$here/cli_check.sh" "node: npx" "$work/naive_server.py" npx jsonrpc-envelope)

addon=$(cd app && "$NODE" -e '
  const je = require("jsonrpc-envelope");
  const c = je.classify("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"");
  console.log(JSON.stringify({ kind: c.kind, replyServer: c.replyServer, from: require.resolve("jsonrpc-envelope") }));')
step "\$ node -e 'require(\"jsonrpc-envelope\").classify(\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,\\\"method\\\":\\\"ping\\\"\")'"
step "  $addon"
grep -qF '"kind":"parse_error","replyServer":"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"' <<< "$addon" ||
    fail "the addon's classification is not the parse error owed"
grep -qF "\"from\":\"$work/app/node_modules/jsonrpc-envelope/" <<< "$addon" || fail "require found the package elsewhere"
step "npm install and npx: ok ($((SECONDS - start)) s)"

# 3. Installed globally.
start=$SECONDS
"$NPM" install -g --prefix "$work/global" "$tgz" > install-g.log 2>&1 || { cat install-g.log; fail "npm install -g failed"; }
step "\$ npm install -g --prefix global $tgz_name"
while IFS= read -r line; do [ -n "$line" ] && step "  $line"; done < install-g.log
global=$work/global/bin/jsonrpc-envelope
version=$("$global" --version)
step "\$ global/bin/jsonrpc-envelope --version"
step "  $version"
[ "$version" = "jsonrpc-envelope $VERSION" ] || fail "the global command says '$version'"
set +e
"$global" probe --lines 20 --json -- "$global" guard --quiet -- "$PYTHON" naive_server.py > probe.json 2> probe.err
status=$?
set -e
step "\$ global/bin/jsonrpc-envelope probe --lines 20 --json -- global/bin/jsonrpc-envelope guard --quiet -- python3 naive_server.py"
summary=$("$PYTHON" -c '
import json, sys
r = json.load(open(sys.argv[1]))
groups = ", ".join("%s %d/%d" % (g, v["passed"], v["lines"]) for g, v in sorted(r["groups"].items()))
print("exit %s; failed %d; grades %s; passed: %s" % (sys.argv[2], r["failed"], json.dumps(r["grades"], sort_keys=True), groups))
' probe.json "$status") || { cat probe.json probe.err; fail "the probe's report is not JSON"; }
step "  $summary"
[ "$status" = 0 ] || { cat probe.err; fail "the probe exited $status"; }
step "npm install -g: ok ($((SECONDS - start)) s)"

# 4. Signals through the launcher.
start=$SECONDS
cat > pid_server.py <<'EOF'
# Writes its pid to argv[1], then reads stdin to its end.
import os, sys
with open(sys.argv[1] + ".tmp", "w") as f:
    f.write(str(os.getpid()))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
for _ in sys.stdin.buffer:
    pass
EOF
cat > signals.py <<'EOF'
"""signals.py NAME TO COMMAND...: runs COMMAND guard --quiet -- python3
pid_server.py, sends signal NAME to COMMAND (TO: command) or to the tool, the
server's parent (TO: tool), and prints what happened."""
import os, signal, subprocess, sys, time

name, to, command = sys.argv[1], sys.argv[2], sys.argv[3:]
pidfile = os.path.abspath("server.pid")
if os.path.exists(pidfile):
    os.unlink(pidfile)
process = subprocess.Popen(command + ["guard", "--quiet", "--", sys.executable, "pid_server.py", pidfile],
                           stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=open("signals.err", "ab"))
deadline = time.monotonic() + 30
while not os.path.exists(pidfile):
    if process.poll() is not None or time.monotonic() > deadline:
        sys.exit("the server did not start (status %s)" % process.poll())
    time.sleep(0.05)
server = int(open(pidfile).read())
tool = int(open("/proc/%d/stat" % server).read().rsplit(")", 1)[1].split()[1])
signo = getattr(signal, name)
os.kill(tool if to == "tool" else process.pid, signo)
try:
    status = process.wait(timeout=30)
except subprocess.TimeoutExpired:
    process.kill()
    sys.exit("%s: still running 30 s after %s" % (command[0], name))
deadline = time.monotonic() + 10
alive = True
while alive and time.monotonic() < deadline:
    try:
        os.kill(server, 0)
        # a zombie (not yet reaped by its dead parent's reaper) is ended
        alive = open("/proc/%d/stat" % server).read().rsplit(")", 1)[1].split()[0] != "Z"
    except ProcessLookupError:
        alive = False
    if alive:
        time.sleep(0.05)
if alive:
    os.kill(server, signal.SIGKILL)
how = "killed by %s" % signal.Signals(-status).name if status < 0 else "exit status %d" % status
print("%s to %s: the server %s; %s %s" % (
    name, "the tool" if to == "tool" else os.path.basename(command[0]),
    "still ran" if alive else "ended", os.path.basename(command[0]), how))
EOF
launcher=app/node_modules/.bin/jsonrpc-envelope
signals() { # NAME TO WANT COMMAND...
    local name=$1 to=$2 want=$3
    shift 3
    out=$("$PYTHON" signals.py "$name" "$to" "$@") || { cat signals.err; fail "$out"; }
    step "  $out"
    grep -qF "the server ended; $(basename "$1") $want" <<< "$out" || { cat signals.err; fail "wanted: $want"; }
}
step "\$ kill -SIGNAL <launcher>, running node_modules/.bin/jsonrpc-envelope guard --quiet -- python3 pid_server.py"
signals SIGTERM command "exit status 143" "$launcher"
signals SIGINT command "exit status 130" "$launcher"
signals SIGHUP command "exit status 129" "$launcher"
signals SIGKILL tool "killed by SIGKILL" "$launcher"
# npx runs the launcher under npm and a shell: npm passes SIGTERM to the
# shell alone, which ends without passing it on; the launcher, its parent
# gone, sends the tool SIGTERM. npx's own status is npm's.
step "\$ kill -TERM <npx>, running npx jsonrpc-envelope guard --quiet -- python3 pid_server.py"
(cd app && cp ../pid_server.py ../signals.py . && signals SIGTERM command "" npx jsonrpc-envelope)
step "signals: ok ($((SECONDS - start)) s)"
