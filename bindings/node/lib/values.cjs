'use strict';
// The JavaScript values of the library's results: the addon writes each
// classification as a record of numbers (slots named by its `layout`) and
// its strings as one string (each followed by a NUL); this module builds
// the frozen objects the API returns. Names (kinds, id kinds) are the
// library's, read from the addon.

const native = require('./native.cjs');

const L = native.layout;
const WIDTH = L.width;
const KIND_NAMES = native.kindNames;
const ID_KIND_NAMES = native.idKindNames;
const TOO_LONG = native.kinds.TOO_LONG;

// Where the next string starts in the texts being read (one string per
// classify call, or per batch of a reader).
let cursor = 0;

function text(texts, units) {
  if (units < 0) return null;
  const start = cursor;
  cursor = start + units + 1;
  return texts.slice(start, start + units);
}

function span(offset, length) {
  return length === 0 ? null : Object.freeze({ offset, length });
}

// The five spans, built when asked for (most hosts never look at them).
function spans(s) {
  return Object.freeze({
    id: span(s[0], s[1]),
    method: span(s[2], s[3]),
    params: span(s[4], s[5]),
    result: span(s[6], s[7]),
    error: span(s[8], s[9]),
  });
}

function spanNumbers(record, base) {
  const at = base + L.spans;
  return [
    record[at], record[at + 1], record[at + 2], record[at + 3], record[at + 4],
    record[at + 5], record[at + 6], record[at + 7], record[at + 8], record[at + 9],
  ];
}

// What classify() returns: SPEC §3's fields, frozen.
class Classification {
  #spans;

  constructor(record, base, texts) {
    const t = base + L.texts;
    this.kind = KIND_NAMES[record[base + L.kind]];
    this.idKind = ID_KIND_NAMES[record[base + L.idKind]];
    this.id = text(texts, record[t]);
    this.method = text(texts, record[t + 1]);
    this.jsonrpc20 = record[base + L.jsonrpc20] === 1;
    this.hasResult = record[base + L.hasResult] === 1;
    this.hasError = record[base + L.hasError] === 1;
    this.namesNoRequest = record[base + L.namesNoRequest] === 1;
    this.reason = text(texts, record[t + 2]);
    this.replyServer = text(texts, record[t + 3]);
    this.replyClient = text(texts, record[t + 4]);
    this.#spans = spanNumbers(record, base);
    Object.freeze(this);
  }

  get spans() {
    return spans(this.#spans);
  }
}

// What a reader gives for each line: the line's number in its stream, its
// length in bytes (LF excluded), its bytes (null for a too_long line, which
// is never held), and its classification's fields, frozen.
class Message {
  #spans;
  #bytes;
  #offset;

  constructor(record, base, texts, bytes) {
    const t = base + L.texts;
    this.number = record[base + L.number];
    this.length = record[base + L.length];
    this.kind = KIND_NAMES[record[base + L.kind]];
    this.idKind = ID_KIND_NAMES[record[base + L.idKind]];
    this.id = text(texts, record[t]);
    this.method = text(texts, record[t + 1]);
    this.jsonrpc20 = record[base + L.jsonrpc20] === 1;
    this.hasResult = record[base + L.hasResult] === 1;
    this.hasError = record[base + L.hasError] === 1;
    this.namesNoRequest = record[base + L.namesNoRequest] === 1;
    this.reason = text(texts, record[t + 2]);
    this.replyServer = text(texts, record[t + 3]);
    this.replyClient = text(texts, record[t + 4]);
    this.#spans = spanNumbers(record, base);
    this.#bytes = this.kind === TOO_LONG ? null : bytes;
    this.#offset = record[base + L.offset];
    Object.freeze(this);
  }

  get spans() {
    return spans(this.#spans);
  }

  get line() {
    const bytes = this.#bytes;
    return bytes === null ? null : bytes.subarray(this.#offset, this.#offset + this.length);
  }
}

const record = native.record;

function classification(texts) {
  cursor = 0;
  return new Classification(record, 0, texts);
}

// The messages of one batch of a reader ([records, bytes, texts, count]
// from the addon), in order.
function messages(batch) {
  const records = batch[0];
  const bytes = batch[1];
  const texts = batch[2];
  const count = batch[3];
  const out = new Array(count);
  cursor = 0;
  for (let i = 0, base = 0; i < count; i++, base += WIDTH) {
    out[i] = new Message(records, base, texts, bytes);
  }
  return out;
}

module.exports = { classification, messages };
