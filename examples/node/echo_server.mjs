#!/usr/bin/env node
// A minimal MCP server over stdio, on jsonrpc-envelope, with no MCP SDK.
//
// It reads newline-delimited JSON-RPC from stdin with a Session (the
// library's stream reader, which also says what to do with each line) in
// role `server`, and writes one line per reply to stdout; everything else
// (its log) goes to stderr, with peer text passed through logValue so that
// no peer can forge a log line. It offers one tool, echo.
//
// Every envelope decision is the library's: what each line is, whether it
// is handed on, answered with the error reply it is owed (a parse error, a
// batch, a broken request) or dropped. The server decides only its own
// application answers: the MCP methods it implements, and -32601 for the
// others. It reads by the library's default profile, JSON-RPC 2.0 (SPEC §1
// to §7), so ids are echoed as the exact text the library gives: "id": null
// is answered with "id": null and 1.50 with 1.50.
//
//   node examples/node/echo_server.mjs     (in a checkout, or with the package installed)

import process from 'node:process';

// The package when it is installed, else the one in this checkout.
const envelope = await import('jsonrpc-envelope').catch((error) => {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  return import(new URL('../../bindings/node/lib/index.cjs', import.meta.url));
});
const { Action, Kind, LIBRARY_VERSION, Role, Session, logValue } = envelope;

const PROTOCOL_VERSION = '2025-11-25';
const SERVER_INFO = { name: 'jsonrpc-envelope-echo', version: LIBRARY_VERSION };
const ECHO_TOOL = {
  name: 'echo',
  description: 'Returns the text it is given.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', description: 'The text to echo back.' } },
    required: ['text'],
  },
};

const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

// One log line on stderr; every peer value is rendered by logValue.
function log(event, fields = {}) {
  const parts = [event];
  for (const [name, value] of Object.entries(fields)) {
    if (value === null || value === undefined) continue;
    parts.push(`${name}=${logValue(typeof value === 'string' || value instanceof Uint8Array ? value : String(value))}`);
  }
  process.stderr.write(`echo_server: ${parts.join(' ')}\n`);
}

// Every line written to the client is told to the session (SPEC §9).
const session = new Session(Role.SERVER);

function send(text) {
  session.sent(text);
  process.stdout.write(`${text}\n`);
}

// The id is echoed exactly as it stood in the request.
function result(id, value) {
  send(`{"jsonrpc":"2.0","id":${id},"result":${JSON.stringify(value)}}`);
}

function error(id, code, message) {
  send(`{"jsonrpc":"2.0","id":${id},"error":${JSON.stringify({ code, message })}}`);
}

// The params as JavaScript values (the library has checked that the line
// is JSON), or undefined.
function params(message) {
  const span = message.spans.params;
  if (span === null) return undefined;
  try {
    return JSON.parse(message.line.toString('utf8', span.offset, span.offset + span.length));
  } catch {
    return undefined; // nested deeper than JSON.parse reads
  }
}

function callTool(id, args) {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    error(id, INVALID_PARAMS, 'Invalid params: tools/call needs an object');
    return;
  }
  if (args.name !== 'echo') {
    log('unknown tool', { name: typeof args.name === 'string' ? args.name : JSON.stringify(args.name), id });
    error(id, INVALID_PARAMS, `Unknown tool: ${args.name}`);
    return;
  }
  const text = args.arguments?.text;
  if (typeof text !== 'string') {
    error(id, INVALID_PARAMS, "Invalid params: echo needs a string 'text'");
    return;
  }
  result(id, { content: [{ type: 'text', text }], isError: false });
}

// Answers a request (the library said it is one, with an id).
function handle(message) {
  const { id, method } = message;
  switch (method) {
    case 'initialize':
      result(id, {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: false } },
        serverInfo: SERVER_INFO,
      });
      return;
    case 'ping':
      result(id, {});
      return;
    case 'tools/list':
      result(id, { tools: [ECHO_TOOL] });
      return;
    case 'tools/call':
      callTool(id, params(message));
      return;
    default:
      log('unknown method', { method, id });
      error(id, METHOD_NOT_FOUND, 'Method not found');
  }
}

// A line the session hands on: a request, a notification or a response.
function take(message) {
  if (message.kind === Kind.REQUEST) {
    handle(message);
  } else if (message.kind === Kind.NOTIFICATION) {
    if (message.method !== 'notifications/initialized') log('ignored a notification', { method: message.method });
  } else {
    log('ignored a response (this server sends no requests)', { id: message.id });
  }
}

async function serve() {
  const decide = (lines) => {
    for (const line of lines) {
      if (line.action === Action.FORWARD) {
        take(line);
        continue;
      }
      // What the library decided, in its own words (answered, dropped).
      log(`${line.action} a line: ${line.note}`, {
        kind: line.kind,
        reason: line.reason,
        line: line.line,
        length: line.line === null ? line.length : null,
      });
      if (line.action === Action.ANSWER) send(line.actionText);
    }
  };
  for await (const chunk of process.stdin) decide(session.feed(chunk));
  decide(session.end());
  session.close();
}

// The client went away: nothing more to say, and nothing to complain about.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

log('started', { version: LIBRARY_VERSION, protocol: PROTOCOL_VERSION });
await serve();
log('stdin closed, exiting');
