// jsonrpc-envelope/mcpstdio/client: a drop-in for the official TypeScript SDK's
// StdioClientTransport (@modelcontextprotocol/sdk/client/stdio.js).

import type { Stream } from 'node:stream';
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { EnvelopeTransportOptions } from './records.js';

export type { EnvelopeTransportOptions, LogAction, LogRecord } from './records.js';
export { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';

/**
 * Starts the server and reads its stdout with the library's relay in the MCP
 * profile, in the direction a client reads, `to_host` (SPEC §9, §10.4): a broken request is answered
 * with the library's `client` reply; lines that are no message (banners, log
 * lines) are diverted to the log and never reach the SDK; an invalid
 * response to an outstanding request becomes its substitute, and an error
 * response that names no request, while exactly one request is outstanding,
 * becomes that request's error, so the waiting call fails at once.
 */
export declare class StdioClientTransport {
  constructor(server: StdioServerParameters & EnvelopeTransportOptions);
  /** The server's stderr when `stderr` was 'pipe' or 'overlapped' (available before start()), else its own, or null. */
  readonly stderr: Stream | null;
  /** The server's process id once started, else null. */
  readonly pid: number | null;
}
/** The SDK's Transport: start, send, close and the callbacks, as its own. */
export interface StdioClientTransport extends Transport {}
