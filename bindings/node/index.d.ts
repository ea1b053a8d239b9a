// Types of jsonrpc-envelope (lib/index.cjs, lib/index.mjs). The names in the
// unions below are the library's (jsonrpc_kind_name, jsonrpc_id_kind_name,
// jsonrpc_role_name); test/api.test.mjs holds them against the library.

/// <reference types="node" />

/** What a line is (SPEC §2), and `too_long` for a reader's over-long line. */
export type Kind =
  | 'empty'
  | 'parse_error'
  | 'batch'
  | 'not_object'
  | 'invalid_request'
  | 'request'
  | 'notification'
  | 'response'
  | 'not_jsonrpc'
  | 'too_long';

/** What the `id` member holds (SPEC §3). */
export type IdKind = 'absent' | 'null' | 'string' | 'number' | 'object' | 'array' | 'boolean';

/** Which endpoint reads a line (SPEC §4): `server` reads its client's input, `client` a server's output. */
export type Role = 'server' | 'client';

/** A line: its bytes, or a string, which is read as its UTF-8 encoding (a lone surrogate becomes U+FFFD). */
export type LineInput = Uint8Array | string;

/** Where a member's value stands in the line, in bytes (of the UTF-8 encoding, for a string). */
export interface Span {
  readonly offset: number;
  readonly length: number;
}

/** The spans of the top-level `id`, `method`, `params`, `result` and `error` values; null when absent. */
export interface Spans {
  readonly id: Span | null;
  readonly method: Span | null;
  readonly params: Span | null;
  readonly result: Span | null;
  readonly error: Span | null;
}

/** What a line is and what it carries (SPEC §3). Frozen. */
export interface Classification {
  readonly kind: Kind;
  readonly idKind: IdKind;
  /** The id's exact JSON text as it stood in the line (`7`, `"a\u0062"`, `1.50`, `null`); null without an `id` member. */
  readonly id: string | null;
  /** The decoded method, where `method` is a string (a lone surrogate escape becomes U+FFFD); else null. */
  readonly method: string | null;
  /** A `jsonrpc` member is the string "2.0". */
  readonly jsonrpc20: boolean;
  readonly hasResult: boolean;
  readonly hasError: boolean;
  /** An error response that answers no request (SPEC §2): a host with one request out can fail it at once. */
  readonly namesNoRequest: boolean;
  readonly spans: Spans;
  /** For `invalid_request`, the reply's exact message; for `parse_error`, what is wrong and where; else null. */
  readonly reason: string | null;
  /** The reply a server owes for this line, or null. */
  readonly replyServer: string | null;
  /** The reply a client owes for this line, or null. */
  readonly replyClient: string | null;
}

/** A line read from a stream: its classification, its number and its bytes. Frozen. */
export interface Message extends Classification {
  /** The line's number in its stream, from 1 (too-long lines counted). */
  readonly number: number;
  /** The line's length in bytes, LF excluded (a CR before it is part of the line). */
  readonly length: number;
  /**
   * The line's bytes, LF excluded, as a view of the copy of its chunk's
   * lines (holding a message holds those); null for a `too_long` line,
   * which is never held.
   */
  readonly line: Buffer | null;
}

export interface ReaderOptions {
  /** The longest line, in bytes (LF excluded); a longer one is reported as `too_long`. 0 or absent: DEFAULT_MAX_LINE. */
  maxLine?: number;
}

/** Classifies one line (SPEC §2, §3). */
export declare function classify(line: LineInput): Classification;

/** The reply the endpoint in `role` owes for the line (SPEC §4), or null. */
export declare function invalidReply(line: LineInput, role: Role): string | null;

/** A peer's bytes rendered for one log line (SPEC §5). */
export declare function logValue(bytes: LineInput): string;

/**
 * The messages of a stream, read with the library's reader (SPEC §6): one
 * call into the library per chunk; a line over the limit is dropped as it
 * arrives and reported once as `too_long`. The reader is freed when the
 * iteration ends, fails, or is left early (leaving early also ends the
 * stream's own iteration, which destroys a Readable).
 */
export declare function readMessages(
  stream: AsyncIterable<Uint8Array | string>,
  options?: ReaderOptions,
): AsyncIterableIterator<Message>;

/**
 * The library's reader for a stream whose chunks a host gets itself (from
 * 'data' events, say). close() frees it; a finalizer frees it too, only as a
 * safety net.
 */
export declare class Reader {
  constructor(options?: ReaderOptions);
  /** The messages the chunk completed, in order (often none). */
  feed(chunk: LineInput): readonly Message[];
  /** Ends the stream: its last line if it had no LF. The reader is then as new. */
  end(): readonly Message[];
  /** Frees the library's reader; later calls of feed() and end() throw. */
  close(): void;
  readonly closed: boolean;
}

/** The library's kind names, by the header's names: `Kind.REQUEST === 'request'`. */
export declare const Kind: {
  readonly EMPTY: 'empty';
  readonly PARSE_ERROR: 'parse_error';
  readonly BATCH: 'batch';
  readonly NOT_OBJECT: 'not_object';
  readonly INVALID_REQUEST: 'invalid_request';
  readonly REQUEST: 'request';
  readonly NOTIFICATION: 'notification';
  readonly RESPONSE: 'response';
  readonly NOT_JSONRPC: 'not_jsonrpc';
  readonly TOO_LONG: 'too_long';
};

/** The library's id kind names: `IdKind.NULL === 'null'`. */
export declare const IdKind: {
  readonly ABSENT: 'absent';
  readonly NULL: 'null';
  readonly STRING: 'string';
  readonly NUMBER: 'number';
  readonly OBJECT: 'object';
  readonly ARRAY: 'array';
  readonly BOOLEAN: 'boolean';
};

/** The library's role names: `Role.SERVER === 'server'`. */
export declare const Role: {
  readonly SERVER: 'server';
  readonly CLIENT: 'client';
};

/** The line limit of a reader made without one (the library's `jsonrpc_default_max_line()`). */
export declare const DEFAULT_MAX_LINE: number;
/** The library's version (`jsonrpc_version()`). */
export declare const LIBRARY_VERSION: string;
/** The library's ABI version, which the addon checked when it loaded. */
export declare const ABI_VERSION: number;
