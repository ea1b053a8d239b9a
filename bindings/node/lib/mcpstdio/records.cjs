'use strict';
// The log records of the SDK transports (SPEC §9, §10.4): one per line that
// the transport does not simply hand to the SDK, with the relay's action
// (the library's word for it: answered, substituted, attributed, dropped,
// diverted), its note, and the line rendered by the library's logValue.
// Level `error` for a line the SDK's own decoder refused (a fault of the
// profile), `warning` otherwise. They go to the `log` option, a function;
// without one, to stderr, one line each (never to stdout, which carries the
// protocol).

const { Kind, Role, logValue } = require('../index.cjs');
const { describe } = require('../arguments.cjs');

// The record of `line` (a relay's line), as the relay decided it, or, for
// a refusal, as `refusal.decision` (the relay's refused()) says, with
// the SDK's complaint (`refusal.error`).
function record(role, line, refusal) {
  const tooLong = line.kind === Kind.TOO_LONG;
  const decided = refusal === undefined ? line : refusal.decision;
  const base = {
    role,
    level: refusal === undefined ? 'warning' : 'error',
    number: line.number,
    kind: line.kind,
    action: decided.action,
    note: decided.note,
    reply: refusal === undefined ? line.actionText : decided.text,
    text: tooLong ? '' : logValue(line.line),
    length: line.length,
  };
  if (refusal !== undefined) base.error = logValue(String(refusal.error?.message ?? refusal.error));
  let summary = `${role === Role.SERVER ? 'stdin' : 'server stdout'} line ${base.number}: ${base.kind}, ${base.action}`;
  summary += base.error === undefined ? ` (${base.note})` : ` (${base.note}: ${base.error})`;
  // A too-long line is never held: its length, and the id the library read
  // in its first bytes, if any (SPEC 10.6 (d)).
  if (tooLong) summary += line.id === null ? `: ${base.length} bytes` : `: ${base.length} bytes, id ${logValue(line.id)}`;
  else summary += `: ${base.text}`;
  // A substitute or an attributed line carries the peer's text: rendered too.
  if (base.reply !== null) summary += ` -> ${logValue(base.reply)}`;
  base.message = summary;
  return Object.freeze(base);
}

function defaultLog(entry) {
  process.stderr.write(`jsonrpc-envelope: ${entry.level === 'error' ? 'error: ' : ''}${entry.message}\n`);
}

// The `log` option: a function, or undefined for stderr.
function logOption(log) {
  if (log === undefined) return defaultLog;
  if (typeof log !== 'function') throw new TypeError(`log must be a function, not ${describe(log)}`);
  return log;
}

module.exports = { record, logOption };
