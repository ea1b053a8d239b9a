'use strict';
// The log records of the SDK transports (SPEC §9): one per line that the
// transport answers, drops, skips or hands on in place of another, with the
// line rendered by the library's logValue. They go to the `log` option, a
// function; without one, to stderr, one line each (never to stdout, which
// carries the protocol).

const { Kind, Role, logValue } = require('../index.cjs');
const { describe } = require('../arguments.cjs');

const ACTIONS = {
  answered: 'answered with the library\'s reply',
  dropped: 'dropped',
  skipped: 'skipped (longer than the line limit, never held)',
  matched: 'handed on as the error of the one request outstanding',
};

function record(role, message, action, extra) {
  const text = message.kind === Kind.TOO_LONG ? '' : logValue(message.line);
  const base = {
    role,
    number: message.number,
    kind: message.kind,
    action,
    reply: null,
    text,
    length: message.length,
    ...extra,
  };
  let summary = `${role === Role.SERVER ? 'stdin' : 'server stdout'} line ${base.number}: ${base.kind}, ${ACTIONS[action]}`;
  if (base.requestId !== undefined) summary += ` (request id ${logValue(base.requestId)})`;
  summary += base.kind === Kind.TOO_LONG ? `: ${base.length} bytes` : `: ${text}`;
  if (base.reply !== null) summary += ` -> ${base.reply}`;
  base.message = summary;
  return Object.freeze(base);
}

function defaultLog(entry) {
  process.stderr.write(`jsonrpc-envelope: ${entry.message}\n`);
}

// The `log` option: a function, or undefined for stderr.
function logOption(log) {
  if (log === undefined) return defaultLog;
  if (typeof log !== 'function') throw new TypeError(`log must be a function, not ${describe(log)}`);
  return log;
}

module.exports = { record, logOption };
