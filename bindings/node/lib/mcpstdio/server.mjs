// jsonrpc-envelope/mcpstdio/server (ESM): StdioServerTransport for the official
// TypeScript SDK's ESM build. In place of
//   import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import transports from './server-transport.cjs';

export const StdioServerTransport = transports.makeServerTransport(deserializeMessage);
