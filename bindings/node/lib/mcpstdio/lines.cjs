'use strict';
// What both SDK transports do with the lines of the pipe they read
// (SPEC §9, §10.4): the library's session, in the transport's role and the
// MCP profile, decides each line's action, and this does it: a forwarded
// line, or the text handed on in a line's place, goes through the SDK's own
// decoder to the SDK; a reply goes back to the peer; every line not simply
// forwarded gets a log record. Every line the transport writes to the peer
// is told to the session (sent), which keeps the outstanding requests.
//
// Where the SDK's decoder still refuses what the session handed on (a fault
// of the profile, never expected), the session says what to do instead
// (refused), and the refusal is logged at error level; the decoder's error
// never reaches the SDK.

const { Action, Profile, Session } = require('../index.cjs');
const { record } = require('./records.cjs');

// A carriage return before the LF, which the SDK's ReadBuffer strips.
const CR = 13;

class Lines {
  #role;
  #session;
  #log;
  #write;
  #deliver;
  #deserialize;
  #fail;

  // role: Role.SERVER or Role.CLIENT; maxLine: the line limit; log: the log
  // option; write(text): writes a line (LF included) to the peer;
  // deliver(message): hands a message to the SDK; deserialize(line): the
  // SDK's own decoder (its shared/stdio.js deserializeMessage), which throws
  // on a line it refuses; fail(error): a chunk the library refused (the
  // transport reports it and closes).
  constructor({ role, maxLine, log, write, deliver, deserialize, fail }) {
    this.#role = role;
    this.#session = new Session(role, { profile: Profile.MCP, maxLine });
    this.#log = log;
    this.#write = write;
    this.#deliver = deliver;
    this.#deserialize = deserialize;
    this.#fail = fail;
  }

  feed(chunk) {
    if (this.#session.closed) return;
    let lines;
    try {
      lines = this.#session.feed(chunk);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#takeAll(lines);
  }

  // The end of the pipe: its last line, if it had no LF.
  end() {
    if (this.#session.closed) return;
    let lines;
    try {
      lines = this.#session.end();
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#takeAll(lines);
  }

  close() {
    this.#session.close();
  }

  // A line the transport writes to the peer (LF excluded), told to the
  // session before it is written.
  sent(line) {
    if (!this.#session.closed) this.#session.sent(line);
  }

  // Stops at a close (the SDK may close the transport from onmessage): the
  // rest of the batch is not read, as the SDK's own transport clears its
  // buffer on close.
  #takeAll(lines) {
    for (const line of lines) {
      if (this.#session.closed) return;
      this.#take(line);
    }
  }

  #take(line) {
    switch (line.action) {
      case Action.FORWARD:
        // The session's form of the line where it gives one (SPEC 10.5).
        this.#handOn(line, line.actionText ?? line.line);
        return;
      case Action.ANSWER:
        this.#log(record(this.#role, line));
        this.#answer(line.actionText);
        return;
      case Action.SUBSTITUTE:
      case Action.ATTRIBUTE:
        this.#log(record(this.#role, line));
        this.#handOn(line, line.actionText);
        return;
      default: // dropped or diverted: the record is all
        this.#log(record(this.#role, line));
    }
  }

  // A reply of the library's to the peer, written whole, in one write: the
  // answer to a batch is several replies joined by LF (SPEC 10.6 (b)), each
  // a line told to the session. A line too long to read is answered so too
  // (SPEC 10.6 (d)): its action and text are the library's, like any other.
  #answer(text) {
    for (const line of text.split('\n')) this.sent(line);
    this.#write(`${text}\n`);
  }

  // The line's bytes, or the text handed on in its place, through the SDK's
  // decoder (as its ReadBuffer hands it a line) to the SDK.
  #handOn(line, handed) {
    let text = typeof handed === 'string' ? handed : handed.toString('utf8');
    if (text.charCodeAt(text.length - 1) === CR) text = text.slice(0, -1);
    let message;
    try {
      message = this.#deserialize(text);
    } catch (error) {
      this.#refused(line, handed, error);
      return;
    }
    this.#deliver(message);
  }

  // SPEC §10.4: the SDK's decoder refused what the session handed on.
  #refused(line, handed, error) {
    const decision = this.#session.refused(handed);
    this.#log(record(this.#role, line, { decision, error }));
    if (decision.action === Action.ANSWER) {
      this.#answer(decision.text);
    } else if (decision.action === Action.SUBSTITUTE) {
      let message;
      try {
        message = this.#deserialize(decision.text);
      } catch (again) {
        // The substitute refused too: nothing is left to hand on.
        this.#log(record(this.#role, line, { decision: { ...decision, action: Action.DROP, text: null }, error: again }));
        return;
      }
      this.#deliver(message);
    }
  }
}

module.exports = { Lines };
