// The log records of the SDK transports (lib/sdk/records.cjs).

import type { Kind, Role } from '../index.js';

/** What a transport did with a line that did not go to the SDK as it was. */
export type LogAction =
  /** Answered at once with the library's reply (in `reply`). */
  | 'answered'
  /** Not JSON-RPC, or (client side) an error naming no request with none or several outstanding. */
  | 'dropped'
  /** Longer than the line limit: never held, never answered. */
  | 'skipped'
  /** An error naming no request, handed to the SDK as the error of the one request outstanding (`requestId`). */
  | 'matched';

/** One log record (SPEC §9). Frozen. */
export interface LogRecord {
  /** The role the line was read in: `server` for a server's stdin, `client` for a server's stdout. */
  readonly role: Role;
  /** The line's number in its stream. */
  readonly number: number;
  readonly kind: Kind;
  readonly action: LogAction;
  /** The reply written, for `answered`; else null. */
  readonly reply: string | null;
  /** The line as the library's logValue renders it ('' for a too-long line, never held). */
  readonly text: string;
  /** The line's length in bytes. */
  readonly length: number;
  /** For `matched`: the id (as JSON) of the request whose error the line became. */
  readonly requestId?: string;
  /** The record as one line of text. */
  readonly message: string;
}

export interface EnvelopeTransportOptions {
  /** The longest line, in bytes (LF excluded); longer ones are skipped. Default: the library's DEFAULT_MAX_LINE. */
  maxLine?: number;
  /** The SDK's option of this name, taken as maxLine when maxLine is absent. */
  maxBufferSize?: number;
  /** Receives the log records; without it they go to stderr, one line each (never stdout). */
  log?: (record: LogRecord) => void;
}
