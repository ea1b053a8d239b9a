'use strict';
// jsonrpc-envelope/mcpstdio/client (CommonJS): StdioClientTransport for the
// official TypeScript SDK's CommonJS build. In place of
//   require('@modelcontextprotocol/sdk/client/stdio.js')
const { deserializeMessage } = require('@modelcontextprotocol/sdk/shared/stdio.js');
const { getDefaultEnvironment } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { makeClientTransport } = require('./client-transport.cjs');

module.exports = {
  StdioClientTransport: makeClientTransport(deserializeMessage, getDefaultEnvironment),
  getDefaultEnvironment,
};
