// jsonrpc-envelope/mcpstdio/server: a drop-in for the official TypeScript SDK's
// StdioServerTransport (@modelcontextprotocol/sdk/server/stdio.js).

import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { EnvelopeTransportOptions } from './records.js';

export type { EnvelopeTransportOptions, LogAction, LogRecord } from './records.js';

/**
 * Reads stdin with the library's relay in the MCP profile, in the direction
 * a server reads, `to_server` (SPEC §9, §10.4): a line owed a reply is answered at once with the
 * library's reply and never reaches the SDK; lines that are no message
 * (`empty`, `not_jsonrpc`, `too_long`) are dropped with a log record; an
 * invalid response to one of the server's requests becomes its substitute;
 * requests, notifications and responses reach the SDK as its own transport
 * hands them.
 */
export declare class StdioServerTransport {
  constructor(stdin?: Readable, stdout?: Writable, options?: EnvelopeTransportOptions);
}
/** The SDK's Transport: start, send, close and the callbacks, as its own. */
export interface StdioServerTransport extends Transport {}
