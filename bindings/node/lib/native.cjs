'use strict';
// The addon (src/*.c, with the library linked in). It checks the library's
// ABI version as it loads, and throws if it does not match.

const path = require('node:path');

const file = path.join(__dirname, '..', 'build', 'Release', 'jsonrpc_envelope.node');

function load() {
  try {
    return require(file);
  } catch (error) {
    if (error && error.code === 'MODULE_NOT_FOUND') {
      throw new Error(
        `jsonrpc-envelope: the addon ${file} is missing; in a checkout, build the library ` +
          '(cargo build --release) and then the addon (npm run build in bindings/node)',
        { cause: error },
      );
    }
    throw error;
  }
}

module.exports = load();
