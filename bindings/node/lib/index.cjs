'use strict';
// jsonrpc-envelope for Node.js: what a line of JSON-RPC 2.0 traffic is and
// what reply it is owed, decided by the Rust library through its C ABI (a
// Node-API addon). This module converts values; it decides nothing.

const native = require('./native.cjs');
const values = require('./values.cjs');
const { Reader, readMessages } = require('./reader.cjs');

// SPEC §2, §3: the classification of one line (a Buffer, a Uint8Array or a
// string, which is read as its UTF-8 bytes: spans count those bytes).
function classify(line) {
  return values.classification(native.classify(line));
}

// SPEC §4: the reply the endpoint in `role` ('server' or 'client') owes for
// the line, or null.
function invalidReply(line, role) {
  return native.invalidReply(line, role);
}

// SPEC §5: a peer's bytes rendered safely for one log line.
function logValue(bytes) {
  return native.logValue(bytes);
}

module.exports = {
  classify,
  invalidReply,
  logValue,
  readMessages,
  Reader,
  // The library's names: Kind.REQUEST === 'request', Role.SERVER === 'server'.
  Kind: native.kinds,
  IdKind: native.idKinds,
  Role: native.roles,
  // The line limit a reader has unless given another.
  DEFAULT_MAX_LINE: native.defaultMaxLine,
  // The library's version and ABI version.
  LIBRARY_VERSION: native.version,
  ABI_VERSION: native.abiVersion,
};
