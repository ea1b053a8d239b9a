// jsonrpc-envelope/mcpstdio/client (ESM): StdioClientTransport for the official
// TypeScript SDK's ESM build. In place of
//   import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import transports from './client-transport.cjs';

export const StdioClientTransport = transports.makeClientTransport(deserializeMessage, getDefaultEnvironment);
export { getDefaultEnvironment };
