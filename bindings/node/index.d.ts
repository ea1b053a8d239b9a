// Types of jsonrpc-envelope (lib/index.cjs). The names in the
// unions below are the library's (jsonrpc_kind_name, jsonrpc_id_kind_name,
// jsonrpc_role_name, jsonrpc_profile_name, jsonrpc_action_name,
// jsonrpc_direction_name);
// test/api.test.mjs holds them against the library.

/// <reference types="node" />

/**
 * What a line is (SPEC §2), `too_long` for a reader's over-long line, and
 * `invalid_response` for a response the MCP profile refuses (SPEC §10.3).
 */
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
  | 'too_long'
  | 'invalid_response';

/** What the `id` member holds (SPEC §3). */
export type IdKind = 'absent' | 'null' | 'string' | 'number' | 'object' | 'array' | 'boolean';

/** Which endpoint reads a line (SPEC §4): `server` reads its client's input, `client` a server's output. */
export type Role = 'server' | 'client';

/**
 * The rule set a line is read by (SPEC §10): `jsonrpc`, JSON-RPC 2.0 alone
 * (the default everywhere), or `mcp`, JSON-RPC 2.0 as MCP narrows it.
 */
export type Profile = 'jsonrpc' | 'mcp';

/**
 * What a session does with a line (SPEC §8 to §10), in the library's words:
 * `forwarded` (hand the line on), `answered` (write `actionText` back to its
 * sender), `substituted` and `attributed` (hand `actionText` on in its
 * place), `dropped` and `diverted` (nobody sees it but the log).
 */
export type Action = 'forwarded' | 'answered' | 'substituted' | 'attributed' | 'dropped' | 'diverted';

/**
 * Which way a line travels between a host and a server: `to_server` (from
 * the host, read as a server reads it) or `to_host` (from the server, read
 * as a host reads it).
 */
export type Direction = 'to_server' | 'to_host';

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
  /**
   * The id's exact JSON text as it stood in the line (`7`, `"a\u0062"`,
   * `1.50`, `null`); null without an `id` member. In the MCP profile a
   * `parse_error` that is a damaged request or response has its readable
   * id (SPEC §10.6 (c)), and a `too_long` line the one its first bytes
   * hold (§10.6 (d)).
   */
  readonly id: string | null;
  /**
   * The decoded method, where `method` is a string (a lone surrogate escape
   * becomes U+FFFD); else null. A damaged or too-long request's readable
   * method too (SPEC §10.6).
   */
  readonly method: string | null;
  /** A `jsonrpc` member is the string "2.0". */
  readonly jsonrpc20: boolean;
  readonly hasResult: boolean;
  readonly hasError: boolean;
  /** An error response that answers no request (SPEC §2): a host with one request out can fail it at once. */
  readonly namesNoRequest: boolean;
  readonly spans: Spans;
  /**
   * For `invalid_request` and `invalid_response`, the exact message (of the
   * reply, or of the first broken rule); for `parse_error`, what is wrong
   * and where; else null.
   */
  readonly reason: string | null;
  /**
   * The reply a server owes for this line, or null. For an MCP batch of
   * requests, one reply per request joined by LF (SPEC §10.6 (b)): write it
   * whole, as the batch's one answer. For a too-long request, the reply
   * that says so (§10.6 (d)).
   */
  readonly replyServer: string | null;
  /** The reply a client owes for this line, or null. */
  readonly replyClient: string | null;
  /**
   * For an `invalid_response` whose id is an MCP id, or a damaged or
   * too-long response whose id can be read (SPEC §10.6), the error response
   * to hand on in its place, so that the request it answers fails at once
   * (SPEC §10.3); else null.
   */
  readonly substitute: string | null;
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
   * which is never held (its `id`, `method` and spans, where the library
   * read them in its first bytes, are its classification's).
   */
  readonly line: Buffer | null;
  /** What a session decided for the line; null for a plain reader's line. */
  readonly action: Action | null;
  /**
   * For `answered`, the reply to write back to the line's sender; for
   * `substituted` and `attributed`, the line to hand on in this one's place;
   * else null.
   */
  readonly actionText: string | null;
  /** Why, for every action but `forwarded` (a fixed text of the library's, for a log record); else null. */
  readonly note: string | null;
}

/** A line read by a Session: a message with what to do with it. Frozen. */
export interface SessionLine extends Message {
  readonly action: Action;
}

/** What a session says to do when the SDK's own decoder refused a line it handed on (SPEC §10.4). Frozen. */
export interface Decision {
  /** `answered` (write `text` back to the sender), `substituted` (hand `text` on instead) or `dropped`. */
  readonly action: Action;
  readonly text: string | null;
  readonly note: string | null;
}

/** The profile of a one-line call. */
export interface ProfileOptions {
  /** The rule set (SPEC §10); absent: `jsonrpc`. */
  profile?: Profile;
}

export interface ReaderOptions extends ProfileOptions {
  /** The longest line, in bytes (LF excluded); a longer one is reported as `too_long`. 0 or absent: DEFAULT_MAX_LINE. */
  maxLine?: number;
}

/** Classifies one line (SPEC §2, §3; §10 in the MCP profile). */
export declare function classify(line: LineInput, options?: ProfileOptions): Classification;

/** The reply the endpoint in `role` owes for the line (SPEC §4; §10 in the MCP profile), or null. */
export declare function invalidReply(line: LineInput, role: Role, options?: ProfileOptions): string | null;

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

/**
 * One endpoint's session (SPEC §8 to §10): the library's reader of the
 * stream from the peer it faces in `role`, which also decides what to do
 * with each line (its `action`), and keeps the requests written to that peer
 * (`sent`) that still wait for a response. close() frees it; a finalizer
 * frees it too, only as a safety net.
 */
export declare class Session {
  constructor(role: Role, options?: ReaderOptions);
  /** The lines the chunk completed, in order, each with its action. */
  feed(chunk: LineInput): readonly SessionLine[];
  /** Ends the stream: its last line if it had no LF. The outstanding requests are kept. */
  end(): readonly SessionLine[];
  /** Tells the session of a line written to the peer whose lines it reads. */
  sent(line: LineInput): void;
  /** What to do when the SDK's own decoder refused a line (or a text) this session handed on. */
  refused(line: LineInput): Decision;
  /** How many requests written to the peer still wait for a response. */
  readonly outstanding: number;
  /** Frees the library's session; later calls throw. */
  close(): void;
  readonly closed: boolean;
}

/**
 * Both directions of one session between a host and a server (the
 * library's relay): each direction read in the role of its receiver, in one
 * profile, and the bookkeeping between them: a request handed on in one
 * direction is outstanding in the other until its response is read there;
 * the relay's answers need no telling. close() frees it; a finalizer frees
 * it too, only as a safety net.
 */
export declare class Relay {
  constructor(options?: ReaderOptions);
  /** The lines the chunk of `direction`'s stream completed, in order, each with its action. */
  feed(direction: Direction, chunk: LineInput): readonly SessionLine[];
  /** Ends `direction`'s stream: its last line if it had no LF. The outstanding requests are kept. */
  end(direction: Direction): readonly SessionLine[];
  /** Tells the relay of a line that went in `direction` not through it (an SDK's own message to the peer). */
  wrote(direction: Direction, line: LineInput): void;
  /**
   * What to do when the receiver of `direction` (the SDK's own decoder)
   * refused a line (or a text) this relay handed on; a substitute refused
   * in its turn is `dropped`.
   */
  refused(direction: Direction, line: LineInput): Decision;
  /** How many requests written toward the sender of `direction`'s lines still wait for its response. */
  outstanding(direction: Direction): number;
  /** Frees the library's relay; later calls throw. */
  close(): void;
  readonly closed: boolean;
}

/**
 * Where the text of a line read in `direction` with `action` goes (the
 * line itself for a `forwarded` line without a text): `direction` when the
 * action hands it on (`forwarded`, `substituted`, `attributed`), the other
 * direction for `answered` (back to the line's sender), null for `dropped`
 * and `diverted` (only the log).
 */
export declare function goes(action: Action, direction: Direction): Direction | null;

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
  readonly INVALID_RESPONSE: 'invalid_response';
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

/** The library's profile names: `Profile.MCP === 'mcp'`. */
export declare const Profile: {
  readonly JSONRPC: 'jsonrpc';
  readonly MCP: 'mcp';
};

/** The library's action names: `Action.ANSWER === 'answered'`. */
export declare const Action: {
  readonly FORWARD: 'forwarded';
  readonly ANSWER: 'answered';
  readonly SUBSTITUTE: 'substituted';
  readonly ATTRIBUTE: 'attributed';
  readonly DROP: 'dropped';
  readonly DIVERT: 'diverted';
};

/**
 * The library's direction names: `Direction.TO_HOST === 'to_host'`; and
 * `Direction.readBy(role)`, the direction an endpoint in `role` reads
 * (`server`: `to_server`; `client`: `to_host`).
 */
export declare const Direction: {
  readonly TO_SERVER: 'to_server';
  readonly TO_HOST: 'to_host';
  readBy(role: Role): Direction;
};

/** The line limit of a reader made without one (the library's `jsonrpc_default_max_line()`). */
export declare const DEFAULT_MAX_LINE: number;
/** The library's version (`jsonrpc_version()`). */
export declare const LIBRARY_VERSION: string;
/** The library's ABI version, which the addon checked when it loaded. */
export declare const ABI_VERSION: number;
