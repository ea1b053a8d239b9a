'use strict';
// jsonrpc-envelope for Node.js: what a line of JSON-RPC 2.0 traffic is and
// what reply it is owed, and what an endpoint does with it, decided by the
// Rust library through its C ABI (a Node-API addon). This module converts
// values; it decides nothing.

const native = require('./native.cjs');
const values = require('./values.cjs');
const { checkOptions } = require('./arguments.cjs');
const { Reader, Relay, Session, readMessages } = require('./reader.cjs');

// The profile option of a one-line call (undefined: the library's default).
function profileOf(options) {
  return options === undefined ? undefined : checkOptions(options).profile;
}

// SPEC §2, §3 (and §10 with { profile: Profile.MCP }): the classification of
// one line (a Buffer, a Uint8Array or a string, which is read as its UTF-8
// bytes: spans count those bytes).
function classify(line, options) {
  return values.classification(native.classify(line, profileOf(options)));
}

// SPEC §4: the reply the endpoint in `role` ('server' or 'client') owes for
// the line, by the profile option, or null.
function invalidReply(line, role, options) {
  return native.invalidReply(line, role, profileOf(options));
}

// SPEC §5: a peer's bytes rendered safely for one log line.
function logValue(bytes) {
  return native.logValue(bytes);
}

// Where the text of a line read in `direction` with `action` goes (the line
// itself for a forwarded line without a text): `direction` when the action
// hands it on, the other direction for an answer (back to the line's
// sender), null when only the log sees it.
function goes(action, direction) {
  return native.actionGoes(action, direction);
}

// The library's direction names (Direction.TO_SERVER === 'to_server'), and
// Direction.readBy(role), the direction an endpoint in `role` reads (not
// enumerable: the names alone are the enum's).
const Direction = Object.freeze(
  Object.defineProperty({ ...native.directions }, 'readBy', {
    value: function readBy(role) {
      return native.directionReadBy(role);
    },
  }),
);

// One assignment a name: so Node's ESM loader finds every named export in
// this one module (import { classify } from 'jsonrpc-envelope'), with no
// second list of them in an .mjs wrapper.
exports.classify = classify;
exports.invalidReply = invalidReply;
exports.logValue = logValue;
exports.goes = goes;
exports.readMessages = readMessages;
exports.Reader = Reader;
exports.Session = Session;
exports.Relay = Relay;
// The library's names: Kind.REQUEST === 'request', Role.SERVER === 'server',
// Profile.MCP === 'mcp', Action.ANSWER === 'answered',
// Direction.TO_HOST === 'to_host'.
exports.Kind = native.kinds;
exports.IdKind = native.idKinds;
exports.Role = native.roles;
exports.Profile = native.profiles;
exports.Action = native.actions;
exports.Direction = Direction;
// The line limit a reader has unless given another.
exports.DEFAULT_MAX_LINE = native.defaultMaxLine;
// The library's version and ABI version.
exports.LIBRARY_VERSION = native.version;
exports.ABI_VERSION = native.abiVersion;
