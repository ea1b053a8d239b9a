// The log records of the SDK transports (lib/mcpstdio/records.cjs).

import type { Action, Kind, Role } from '../index.js';

/** What a transport did with a line that did not go to the SDK as it was: the library's action word. */
export type LogAction = Exclude<Action, 'forwarded'>;

/** One log record (SPEC §9, §10.4). Frozen. */
export interface LogRecord {
  /** The role the line was read in: `server` for a server's stdin, `client` for a server's stdout. */
  readonly role: Role;
  /** `error` for a line the SDK's own decoder refused (a fault of the MCP profile, never expected); `warning` otherwise. */
  readonly level: 'warning' | 'error';
  /** The line's number in its stream. */
  readonly number: number;
  readonly kind: Kind;
  /** What the relay decided for the line (for an `error`, what it said to do when the SDK refused it). */
  readonly action: LogAction;
  /** Why, in the library's words. */
  readonly note: string | null;
  /** The reply written back (`answered`), or the text handed on in the line's place (`substituted`, `attributed`); else null. */
  readonly reply: string | null;
  /** The line as the library's logValue renders it ('' for a too-long line, never held). */
  readonly text: string;
  /** The line's length in bytes. */
  readonly length: number;
  /** For an `error`: the SDK decoder's complaint, rendered by logValue. */
  readonly error?: string;
  /** The record as one line of text. */
  readonly message: string;
}

export interface EnvelopeTransportOptions {
  /** The longest line, in bytes (LF excluded); longer ones are dropped. Default: the library's DEFAULT_MAX_LINE. */
  maxLine?: number;
  /** The SDK's option of this name, taken as maxLine when maxLine is absent. */
  maxBufferSize?: number;
  /** Receives the log records; without it they go to stderr, one line each (never stdout). */
  log?: (record: LogRecord) => void;
}
