#!/usr/bin/env node
'use strict';
// `jsonrpc-envelope` (npx jsonrpc-envelope, npm install -g jsonrpc-envelope):
// the command-line tool the package carries (classify, lint, guard, probe),
// bin/<platform>-<arch>/jsonrpc-envelope, put there by `make dist-node`.
//
// Node has no exec(2), so the tool runs as this process's child, with its
// arguments and with this process's own stdin, stdout and stderr (the same
// file descriptors: nothing in between reads, buffers or copies a byte,
// which guard, a stdio proxy, needs). This process only waits: SIGINT,
// SIGTERM and SIGHUP sent to it go on to the tool (as guard passes them to
// its COMMAND), and it ends as the tool ended: with its exit status, or by
// the same signal. Should the process that started it end first, the tool
// is sent SIGTERM: `npx jsonrpc-envelope` runs this under npm and a shell,
// and npm passes a SIGTERM only to the shell, which ends without passing it
// on: a host stopping npx would leave the guard and its server running.

const { spawn } = require('node:child_process');
const { accessSync, constants } = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const tool = path.join(__dirname, `${process.platform}-${process.arch}`, 'jsonrpc-envelope');
try {
  accessSync(tool, constants.X_OK);
} catch {
  process.stderr.write(
    `jsonrpc-envelope: this installation has no command-line tool for ${process.platform}-${process.arch} (${tool}):\n` +
      'the npm package carries it for Linux x86-64; or: cargo install jsonrpc-envelope-cli\n',
  );
  process.exit(2);
}

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'];
// Signals whose default action ends a process without a core dump: the tool
// ended by one of them ends this process by it too. Any other (a crash) is
// reported as a shell reports it, 128 + N.
const RAISED = new Set([...FORWARDED, 'SIGKILL', 'SIGALRM', 'SIGUSR2']);

let child = null;
const forward = (signal) => {
  if (child !== null) child.kill(signal);
};
// Listening before the spawn: a signal that comes now is not this process's
// death (the tool, not yet waited for, would go on alone). The listeners run
// from the event loop, after the spawn below has returned.
for (const signal of FORWARDED) process.on(signal, forward);

child = spawn(tool, process.argv.slice(2), { stdio: 'inherit' });

const parent = process.ppid;
const orphaned = setInterval(() => {
  if (process.ppid !== parent) {
    clearInterval(orphaned);
    forward('SIGTERM');
  }
}, 200);
orphaned.unref();

child.on('error', (error) => {
  process.stderr.write(`jsonrpc-envelope: cannot run ${tool}: ${error.message}\n`);
  process.exit(error.code === 'ENOENT' ? 127 : 126);
});

child.on('exit', (code, signal) => {
  clearInterval(orphaned);
  for (const s of FORWARDED) process.removeListener(s, forward);
  if (signal === null) process.exit(code);
  const status = 128 + (os.constants.signals[signal] || 0);
  if (RAISED.has(signal)) {
    // Without a listener the signal's default action is back: this ends
    // the process. The timer is for a signal that somehow does not.
    process.kill(process.pid, signal);
    setTimeout(() => process.exit(status), 1000);
  } else {
    process.exit(status);
  }
});
