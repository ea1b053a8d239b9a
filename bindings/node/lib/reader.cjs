'use strict';
// The library's stream reader, session and relay, for JavaScript: Reader
// (feed a chunk, get the messages it completed), readMessages (an async
// iterator over a stream), Session (a reader that also says what to do with
// each line, SPEC §8 to §10) and Relay (the sessions of both directions
// between two peers, and the bookkeeping between them). One call into the
// library per chunk; the library holds the buffering, drops a too-long line
// as it arrives and reports it once, and (for a session or a relay) decides
// every line's action.

const native = require('./native.cjs');
const { checkMaxLine, checkOptions, checkProfile, describe } = require('./arguments.cjs');
const { messages } = require('./values.cjs');

const NONE = Object.freeze([]);
const KEPT_RECORDS = 1 << 20;
// The batches' bytes go into slabs of this size while they fit (a message
// holds its slab, as a Buffer from Node's pool holds its pool), so that a
// read of a few lines allocates nothing; a bigger batch gets its own.
const SLAB = 16 * 1024;
// What the addon says of a reader's last batch.
const BATCH = native.batch;
const LINES = native.layout.batchLines;
const END = native.layout.batchEnd;

// A library reader, session or relay (its handle, freed by close()), and the memory
// its batches reuse: the messages made of what the addon gives for each call
// (see batch_value in src/addon.h).
class Stream {
  #handle;
  #free;
  #what;
  // Where the addon writes a batch's records, reused from one call to the
  // next (the messages copy what they keep); the addon makes a bigger one
  // when a batch needs it, which is kept instead unless it is large (a
  // chunk of many short lines).
  #records = new Float64Array(0);
  // Made at the first call, so that a reader made and closed unused costs
  // no slab.
  #slab = null;
  #used = 0;

  // `what` names it in the error of a call after close().
  constructor(handle, free, what) {
    this.#handle = handle;
    this.#free = free;
    this.#what = what;
  }

  feed(feed, chunk) {
    const handle = this.live();
    this.#slab ??= Buffer.alloc(SLAB);
    return this.#take(feed(handle, chunk, this.#records, this.#slab, this.#used));
  }

  end(end) {
    const handle = this.live();
    this.#slab ??= Buffer.alloc(SLAB);
    return this.#take(end(handle, this.#records, this.#slab, this.#used));
  }

  // A relay's feed and end, of one direction. The two directions share the
  // records and the slab: the messages copy what they keep of each batch.
  feedIn(feed, direction, chunk) {
    const handle = this.live();
    this.#slab ??= Buffer.alloc(SLAB);
    return this.#take(feed(handle, direction, chunk, this.#records, this.#slab, this.#used));
  }

  endIn(end, direction) {
    const handle = this.live();
    this.#slab ??= Buffer.alloc(SLAB);
    return this.#take(end(handle, direction, this.#records, this.#slab, this.#used));
  }

  live() {
    if (this.#handle === null) throw new Error(`the ${this.#what} is closed`);
    return this.#handle;
  }

  close() {
    if (this.#handle !== null) {
      this.#free(this.#handle);
      this.#handle = null;
    }
  }

  get closed() {
    return this.#handle === null;
  }

  #take(result) {
    const lines = BATCH[LINES];
    if (lines === 0) return NONE;
    let texts = result;
    let records = this.#records;
    let bytes = this.#slab;
    let extras;
    if (Array.isArray(result)) {
      [texts, records, bytes, extras] = result;
      if (records.byteLength <= KEPT_RECORDS) this.#records = records;
    }
    if (bytes === this.#slab) {
      this.#used = BATCH[END];
      // A slab nearly full is left to the messages that hold it.
      if (SLAB - this.#used < SLAB / 8) {
        this.#slab = Buffer.alloc(SLAB);
        this.#used = 0;
      }
    }
    return messages(records, bytes, texts, lines, extras);
  }
}

// A stream's reader: feed() it each chunk as read, end() it at the end of the
// stream; close() frees the library's reader (a finalizer frees it too, only
// as a safety net, if close() is never called). Its lines are classified by
// the profile option (default: Profile.JSONRPC).
class Reader {
  #stream;

  constructor(options) {
    const { maxLine, profile } = checkOptions(options);
    this.#stream = new Stream(native.readerNew(checkMaxLine(maxLine), profile), native.readerFree, 'reader');
  }

  // The messages the chunk (a Buffer, a Uint8Array or a string) completed.
  feed(chunk) {
    return this.#stream.feed(native.readerFeed, chunk);
  }

  // Ends the stream: its last line if it had no LF (or a too-long line being
  // dropped). The reader is then as new, for another stream.
  end() {
    return this.#stream.end(native.readerEnd);
  }

  close() {
    this.#stream.close();
  }

  get closed() {
    return this.#stream.closed;
  }
}

// One endpoint's session (SPEC §8 to §10): it reads the stream of the peer
// it faces in `role` ('server': a server reading its client; 'client': a
// host reading a server), by the profile option (default Profile.JSONRPC;
// the SDK transports use Profile.MCP), and gives each line with what to do
// with it (its action, actionText and note). sent() tells it of every line
// written to that peer; refused() asks what to do when the SDK's own decoder
// refused a line it handed on. close() frees the library's session (a
// finalizer frees it too, only as a safety net).
class Session {
  #stream;

  constructor(role, options) {
    const { maxLine, profile } = checkOptions(options);
    this.#stream = new Stream(native.sessionNew(role, profile, checkMaxLine(maxLine)), native.sessionFree, 'session');
  }

  // The lines the chunk completed, each with its action.
  feed(chunk) {
    return this.#stream.feed(native.sessionFeed, chunk);
  }

  // Ends the stream: its last line if it had no LF. The reader is then as
  // new; the outstanding requests are kept.
  end() {
    return this.#stream.end(native.sessionEnd);
  }

  // A line written the other way, to the peer whose lines this session reads.
  sent(line) {
    native.sessionSent(this.#stream.live(), line);
  }

  // What to do instead when the SDK's own decoder refused a line (or a text)
  // this session handed on: { action, text, note }, frozen.
  refused(line) {
    return native.sessionRefused(this.#stream.live(), line);
  }

  // How many requests written the other way still wait for a response.
  get outstanding() {
    return native.sessionOutstanding(this.#stream.live());
  }

  close() {
    this.#stream.close();
  }

  get closed() {
    return this.#stream.closed;
  }
}

// Both directions of one session between two peers (the library's relay):
// Direction.TO_SERVER (from the host to the server, read as a server reads
// it) and Direction.TO_HOST (from the server to the host, read as a host
// reads it), by the profile option (default Profile.JSONRPC). feed() and
// end() give each line of a direction with its action, as Session's do;
// the relay notes what each decision sends (a request handed on in one
// direction waits for its response in the other), so only the lines that
// reach a peer not through it are told to it (wrote()). close() frees the
// library's relay (a finalizer frees it too, only as a safety net).
class Relay {
  #stream;

  constructor(options) {
    const { maxLine, profile } = checkOptions(options);
    this.#stream = new Stream(native.relayNew(profile, checkMaxLine(maxLine)), native.relayFree, 'relay');
  }

  // The lines the chunk of `direction`'s stream completed, each with its
  // action.
  feed(direction, chunk) {
    return this.#stream.feedIn(native.relayFeed, direction, chunk);
  }

  // Ends `direction`'s stream: its last line if it had no LF. Its reader is
  // then as new; the outstanding requests are kept.
  end(direction) {
    return this.#stream.endIn(native.relayEnd, direction);
  }

  // A line that went in `direction` not through the relay (an SDK's own
  // message to the peer).
  wrote(direction, line) {
    native.relayWrote(this.#stream.live(), direction, line);
  }

  // What to do instead when the receiver of `direction` (the SDK's own
  // decoder) refused a line (or a text) this relay handed on: { action,
  // text, note }, frozen. A substitute refused in its turn is dropped.
  refused(direction, line) {
    return native.relayRefused(this.#stream.live(), direction, line);
  }

  // How many requests written toward the sender of `direction`'s lines
  // still wait for its response.
  outstanding(direction) {
    return native.relayOutstanding(this.#stream.live(), direction);
  }

  close() {
    this.#stream.close();
  }

  get closed() {
    return this.#stream.closed;
  }
}

// An async iterator of the messages of `stream` (a Readable, or any async
// iterable of Buffers, Uint8Arrays or strings). The reader is freed when the
// iteration ends, fails, or is left early (break, return, throw).
function readMessages(stream, options) {
  if (stream === null || typeof stream !== 'object' || typeof stream[Symbol.asyncIterator] !== 'function') {
    throw new TypeError(`stream must be a Readable or an async iterable of chunks, not ${describe(stream)}`);
  }
  const { maxLine, profile } = checkOptions(options);
  return new Messages(stream, { maxLine: checkMaxLine(maxLine), profile: checkProfile(profile) });
}

class Messages {
  #stream;
  #options;
  #reader = null; // made on the first read
  #chunks = undefined;
  #queue = NONE;
  #next = 0;
  #done = false;
  #reading = null;

  constructor(stream, options) {
    this.#stream = stream;
    this.#options = options;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  next() {
    if (this.#next < this.#queue.length) {
      return Promise.resolve({ value: this.#queue[this.#next++], done: false });
    }
    if (this.#reading !== null) {
      // A call made before the last one settled waits for it: chunks are
      // read one at a time, in order.
      const again = () => this.next();
      return this.#reading.then(again, again);
    }
    this.#reading = this.#read();
    return this.#reading;
  }

  async #read() {
    try {
      while (!this.#done) {
        this.#reader ??= new Reader(this.#options);
        this.#chunks ??= this.#stream[Symbol.asyncIterator]();
        const step = await this.#chunks.next();
        if (this.#done) break; // left early while this read was waiting
        this.#queue = step.done ? this.#end() : this.#reader.feed(step.value);
        this.#next = 0;
        if (this.#queue.length > 0) {
          return { value: this.#queue[this.#next++], done: false };
        }
      }
      return { value: undefined, done: true };
    } catch (error) {
      await this.#abandon();
      throw error;
    } finally {
      this.#reading = null;
    }
  }

  #end() {
    const last = this.#reader.end();
    this.#finish();
    return last;
  }

  #finish() {
    this.#done = true;
    this.#reader?.close();
  }

  // Frees the reader and lets go of the stream (a Readable's iterator
  // destroys it, as leaving a for await loop over it does).
  async #abandon() {
    this.#queue = NONE;
    if (this.#done) return;
    this.#finish();
    const chunks = this.#chunks;
    if (chunks !== undefined && typeof chunks.return === 'function') {
      try {
        await chunks.return();
      } catch {
        // The stream's own failure is not this iteration's.
      }
    }
  }

  async return(value) {
    await this.#abandon();
    return { value, done: true };
  }

  async throw(error) {
    await this.#abandon();
    throw error;
  }
}

module.exports = { Reader, Session, Relay, readMessages };
