// What the tests share: the repository's paths, the vectors (the expected
// values: never computed by the code under test), and process helpers.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = path.resolve(PACKAGE, '..', '..');
export const VECTORS = path.join(ROOT, 'tests', 'vectors');
export const FIXTURES = path.join(PACKAGE, 'test', 'fixtures');

function jsonl(file) {
  return readFileSync(path.join(VECTORS, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

function bytesOf(vector, text, hex) {
  return vector[hex] !== undefined ? Buffer.from(vector[hex], 'hex') : Buffer.from(vector[text], 'utf8');
}

// envelope.jsonl (the JSON-RPC profile) and mcp.jsonl (the MCP profile),
// each vector with its input as bytes.
export const envelopeVectors = jsonl('envelope.jsonl').map((v) => ({ ...v, bytes: bytesOf(v, 'line', 'line_hex') }));
export const mcpVectors = jsonl('mcp.jsonl').map((v) => ({ ...v, bytes: bytesOf(v, 'line', 'line_hex') }));
// Each file of vectors with the profile it is read by.
export const vectorSets = [
  { profile: 'jsonrpc', file: 'envelope.jsonl', vectors: envelopeVectors },
  { profile: 'mcp', file: 'mcp.jsonl', vectors: mcpVectors },
];
// log_value.jsonl, likewise.
export const logValueVectors = jsonl('log_value.jsonl').map((v) => ({ ...v, bytes: bytesOf(v, 'input', 'input_hex') }));

// The vector whose name is `name` (throws when there is none, so a renamed
// vector fails the test that needs it); of mcp.jsonl with `mcpVector`.
export function vector(name, vectors = envelopeVectors) {
  const found = vectors.find((v) => v.name === name);
  if (!found) throw new Error(`no vector named ${JSON.stringify(name)}`);
  return found;
}

export function mcpVector(name) {
  return vector(name, mcpVectors);
}

// A classification's fields in the vectors' own terms, to compare whole.
export function asVector(c) {
  const spans = {};
  for (const name of ['id', 'method', 'params', 'result', 'error']) {
    const span = c.spans[name];
    if (span !== null) spans[name] = [span.offset, span.length];
  }
  return {
    kind: c.kind,
    id_kind: c.idKind,
    id: c.id,
    method: c.method,
    jsonrpc_2_0: c.jsonrpc20,
    has_result: c.hasResult,
    has_error: c.hasError,
    names_no_request: c.namesNoRequest,
    spans,
    reason: c.reason,
    reply_server: c.replyServer,
    reply_client: c.replyClient,
    substitute: c.substitute,
  };
}

// What a vector says a classification is: for a parse error the reason is
// the implementation's own text (the vectors' README: check only that there
// is one), so it is taken from `actual` when `actual` has one. envelope.jsonl
// has no `substitute` field: the JSON-RPC profile never gives one (SPEC §10.3,
// only the MCP profile's invalid_response carries it).
export function expected(v, actual) {
  return {
    kind: v.kind,
    id_kind: v.id_kind,
    id: v.id,
    method: v.method,
    jsonrpc_2_0: v.jsonrpc_2_0,
    has_result: v.has_result,
    has_error: v.has_error,
    names_no_request: v.names_no_request,
    spans: v.spans,
    reason: v.kind === 'parse_error' && typeof actual.reason === 'string' && actual.reason !== '' ? actual.reason : v.reason,
    reply_server: v.reply_server,
    reply_client: v.reply_client,
    substitute: v.substitute === undefined ? null : v.substitute,
  };
}

// Runs a program to its end: { status, signal, stdout (Buffer), stderr }.
export function run(command, args, { input, env, cwd, timeout = 60_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: env ?? process.env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), timeout);
    child.stdout.on('data', (chunk) => out.push(chunk));
    child.stderr.on('data', (chunk) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.on('error', () => {}); // a program may exit before reading all of it
    child.stdin.end(input);
  });
}
