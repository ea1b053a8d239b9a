'use strict';
// The JavaScript values of the library's results: the addon writes each
// classification as a record of numbers (slots named by its `layout`) and
// its strings as one string (each followed by a NUL), and a session's
// action texts and notes as another; this module builds the frozen objects
// the API returns. Names (kinds, id kinds, actions) are the library's,
// read from the addon.
//
// Written for V8's optimizing compiler: slots and names are module
// constants, numbers read from a record are made integers (`| 0`) before
// they index an array, and the name arrays are packed (no hole), so that
// building an object costs little more than its allocation.

const { inspect } = require('node:util');
const native = require('./native.cjs');

const L = native.layout;
const WIDTH = L.width | 0;
const KIND = L.kind | 0;
const ID_KIND = L.idKind | 0;
const JSONRPC_2_0 = L.jsonrpc20 | 0;
const HAS_RESULT = L.hasResult | 0;
const HAS_ERROR = L.hasError | 0;
const NAMES_NO_REQUEST = L.namesNoRequest | 0;
const SPANS = L.spans | 0;
const TEXTS = L.texts | 0;
const NUMBER = L.number | 0;
const OFFSET = L.offset | 0;
const LENGTH = L.length | 0;
const ACTION = L.action | 0;
const ACTION_TEXT = L.actionText | 0;
const NOTE = L.note | 0;

// The library's names at each value, packed (a value with no name is null).
const KIND_NAMES = Array.from(native.kindNames, (name) => name ?? null);
const ID_KIND_NAMES = Array.from(native.idKindNames, (name) => name ?? null);
// A plain reader's lines have the action NONE (0), which has no name: null.
const ACTION_NAMES = Array.from(native.actionNames, (name) => name ?? null);
const TOO_LONG = native.kinds.TOO_LONG;

// Where the next string starts in the texts being read (one string per
// classify call, or per batch of a reader), and in a batch's extras.
let cursor = 0;
let extrasCursor = 0;

function text(texts, units) {
  if (units < 0) return null;
  const start = cursor;
  const end = start + (units | 0);
  cursor = end + 1;
  return texts.slice(start, end);
}

function extra(extras, units) {
  if (units < 0) return null;
  const start = extrasCursor;
  const end = start + (units | 0);
  extrasCursor = end + 1;
  return extras.slice(start, end);
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

function spanNumbers(record, at) {
  return [
    record[at], record[at + 1], record[at + 2], record[at + 3], record[at + 4],
    record[at + 5], record[at + 6], record[at + 7], record[at + 8], record[at + 9],
  ];
}

// SPEC §3's fields of the record at `base`, set on `target` (a
// Classification or a Message being built, always in this order).
function setFields(target, record, base, texts) {
  const t = base + TEXTS;
  target.kind = KIND_NAMES[record[base + KIND] | 0];
  target.idKind = ID_KIND_NAMES[record[base + ID_KIND] | 0];
  target.id = text(texts, record[t]);
  target.method = text(texts, record[t + 1]);
  target.jsonrpc20 = record[base + JSONRPC_2_0] === 1;
  target.hasResult = record[base + HAS_RESULT] === 1;
  target.hasError = record[base + HAS_ERROR] === 1;
  target.namesNoRequest = record[base + NAMES_NO_REQUEST] === 1;
  target.reason = text(texts, record[t + 2]);
  target.replyServer = text(texts, record[t + 3]);
  target.replyClient = text(texts, record[t + 4]);
  target.substitute = text(texts, record[t + 5]);
}

// What classify() returns: SPEC §3's fields, frozen.
class Classification {
  #spans;

  constructor(record, base, texts) {
    setFields(this, record, base, texts);
    this.#spans = spanNumbers(record, base + SPANS);
    Object.freeze(this);
  }

  get spans() {
    return spans(this.#spans);
  }

  // The fields, spans included (they are built when asked for, so they are
  // no own property).
  toJSON() {
    return { ...this, spans: this.spans };
  }

  [inspect.custom](depth, options, show) {
    return `Classification ${show(this.toJSON(), options)}`;
  }
}

// What a reader gives for each line: the line's number in its stream, its
// length in bytes (LF excluded), its bytes (null for a too_long line, which
// is never held), its classification's fields, and what a session decided
// for it (its action, the action's text, the note; null for a plain
// reader's line), frozen.
class Message {
  #spans;
  #bytes;
  #offset;

  constructor(record, base, texts, bytes, extras) {
    this.number = record[base + NUMBER];
    this.length = record[base + LENGTH];
    setFields(this, record, base, texts);
    this.action = ACTION_NAMES[record[base + ACTION] | 0];
    this.actionText = extra(extras, record[base + ACTION_TEXT]);
    this.note = extra(extras, record[base + NOTE]);
    this.#spans = spanNumbers(record, base + SPANS);
    this.#bytes = this.kind === TOO_LONG ? null : bytes;
    this.#offset = record[base + OFFSET];
    Object.freeze(this);
  }

  get spans() {
    return spans(this.#spans);
  }

  // A view of the line's bytes in the copy of its batch (made when asked
  // for: holding a message holds that batch's bytes).
  get line() {
    const bytes = this.#bytes;
    return bytes === null ? null : bytes.subarray(this.#offset, this.#offset + this.length);
  }

  // The fields, spans included; not the line's bytes.
  toJSON() {
    return { ...this, spans: this.spans };
  }

  [inspect.custom](depth, options, show) {
    return `Message ${show({ ...this.toJSON(), line: this.line }, options)}`;
  }
}

const record = native.record;

function classification(texts) {
  cursor = 0;
  return new Classification(record, 0, texts);
}

// The messages of one batch of a reader or a session, in order: `count`
// records (each with where its line stands in `bytes`), their strings, and
// their action texts and notes (`extras`, undefined when none has one).
function messages(records, bytes, texts, count, extras) {
  const out = new Array(count);
  cursor = 0;
  extrasCursor = 0;
  for (let i = 0, base = 0; i < count; i++, base += WIDTH) {
    out[i] = new Message(records, base, texts, bytes, extras);
  }
  return out;
}

module.exports = { classification, messages };
