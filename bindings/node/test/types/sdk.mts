// The SDK transports' types: they are the SDK's Transport, and take the
// SDK's parameters plus this package's options.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { StdioClientTransport, getDefaultEnvironment, type LogRecord } from 'jsonrpc-envelope/mcpstdio/client';
import { StdioServerTransport } from 'jsonrpc-envelope/mcpstdio/server';

const records: LogRecord[] = [];
const server = new StdioServerTransport(process.stdin, process.stdout, { maxLine: 1 << 20, log: (r) => records.push(r) });
const serverTransport: Transport = server;
const client = new StdioClientTransport({
  command: 'node',
  args: ['server.mjs'],
  env: getDefaultEnvironment(),
  stderr: 'pipe',
  log: (r: LogRecord) => {
    const action: 'answered' | 'substituted' | 'attributed' | 'dropped' | 'diverted' = r.action;
    const level: 'warning' | 'error' = r.level;
    const about: [string | null, string | null, string | undefined] = [r.note, r.reply, r.error];
    void [action, level, about];
  },
});
const clientTransport: Transport = client;
const pid: number | null = client.pid;

async function connect(): Promise<void> {
  await new McpServer({ name: 's', version: '1' }).connect(server);
  await new Client({ name: 'c', version: '1' }).connect(client);
}

// The declarations resolved (an unresolved type would be any, and these
// assignments would then be accepted).
// @ts-expect-error: a transport is not a number
const serverIsTyped: number = server;
// @ts-expect-error: a transport is not a number
const clientIsTyped: number = client;
// @ts-expect-error: a record's action is one of the library's words, and not the old 'skipped'
const actionIsTyped: LogRecord['action'] = 'skipped';
// @ts-expect-error: a forwarded line gets no record
const forwardedIsNoRecord: LogRecord['action'] = 'forwarded';
// @ts-expect-error: send takes a JSON-RPC message
void server.send({ hello: 'world' });

// @ts-expect-error: the log option is a function
new StdioServerTransport(process.stdin, process.stdout, { log: 'stderr' });
// @ts-expect-error: a command is required
new StdioClientTransport({ args: [] });

void [serverTransport, clientTransport, pid, connect, records, serverIsTyped, clientIsTyped, actionIsTyped, forwardedIsNoRecord];
