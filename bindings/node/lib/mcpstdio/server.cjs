'use strict';
// jsonrpc-envelope/mcpstdio/server (CommonJS): StdioServerTransport for the
// official TypeScript SDK's CommonJS build. In place of
//   require('@modelcontextprotocol/sdk/server/stdio.js')
const { deserializeMessage } = require('@modelcontextprotocol/sdk/shared/stdio.js');
const { makeServerTransport } = require('./server-transport.cjs');

module.exports = { StdioServerTransport: makeServerTransport(deserializeMessage) };
