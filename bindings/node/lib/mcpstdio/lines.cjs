'use strict';
// What both SDK transports do with the lines of the pipe they read
// (SPEC §9, §10.4): the library's relay, in the MCP profile, decides each
// line of the direction the transport reads (Direction.readBy its role),
// and this does it: the text of each line goes where the library says
// (goes): on to the SDK, through the SDK's own decoder, or back to the peer
// on the pipe, or nowhere; every line not simply forwarded gets a log
// record. The relay notes what its decisions send; the lines the SDK itself
// writes to the peer are told to it (wrote), so that it keeps the
// outstanding requests.
//
// Where the SDK's decoder still refuses what the relay handed on (a fault
// of the profile, never expected), the relay says what to do instead
// (refused), and the refusal is logged at error level; a substitute refused
// in its turn the relay settles (dropped). The decoder's error never
// reaches the SDK.

const { Action, Direction, Profile, Relay, goes } = require('../index.cjs');
const { record } = require('./records.cjs');

// A carriage return before the LF, which the SDK's ReadBuffer strips.
const CR = 13;

class Lines {
  #role;
  #relay;
  // The direction the transport reads (the pipe's lines, to the SDK), and
  // the way back to the pipe's writer: where an answer to one of its lines
  // goes, and where the SDK writes.
  #read;
  #back;
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
    this.#read = Direction.readBy(role);
    this.#back = goes(Action.ANSWER, this.#read);
    this.#relay = new Relay({ profile: Profile.MCP, maxLine });
    this.#log = log;
    this.#write = write;
    this.#deliver = deliver;
    this.#deserialize = deserialize;
    this.#fail = fail;
  }

  feed(chunk) {
    if (this.#relay.closed) return;
    let lines;
    try {
      lines = this.#relay.feed(this.#read, chunk);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#takeAll(lines);
  }

  // The end of the pipe: its last line, if it had no LF.
  end() {
    if (this.#relay.closed) return;
    let lines;
    try {
      lines = this.#relay.end(this.#read);
    } catch (error) {
      this.#fail(error);
      return;
    }
    this.#takeAll(lines);
  }

  close() {
    this.#relay.close();
  }

  // A line the SDK writes to the peer (LF excluded), told to the relay
  // before it is written.
  wrote(line) {
    if (!this.#relay.closed) this.#relay.wrote(this.#back, line);
  }

  // Stops at a close (the SDK may close the transport from onmessage): the
  // rest of the batch is not read, as the SDK's own transport clears its
  // buffer on close.
  #takeAll(lines) {
    for (const line of lines) {
      if (this.#relay.closed) return;
      this.#take(line);
    }
  }

  // The line's text (the relay's form of the line where it gives one, SPEC
  // 10.5; a reply; a substitute) where the library says it goes.
  #take(line) {
    if (line.action !== Action.FORWARD) this.#log(record(this.#role, line));
    const to = goes(line.action, this.#read);
    // Only a forward stands for the line itself; any other text is the
    // library's, and an action without one goes nowhere.
    const text = line.action === Action.FORWARD ? (line.actionText ?? line.line) : line.actionText;
    if (text == null) return;
    if (to === this.#read) this.#handOn(line, text);
    else if (to === this.#back) this.#answer(text);
    // else dropped or diverted: the record is all
  }

  // A reply of the library's to the peer, written whole, in one write: the
  // answer to a batch is several replies joined by LF (SPEC 10.6 (b)). A
  // line too long to read is answered so too (SPEC 10.6 (d)): its action
  // and text are the library's, like any other. The relay noted it.
  #answer(text) {
    this.#write(`${text}\n`);
  }

  // The line's bytes, or the text handed on in its place, through the SDK's
  // decoder (as its ReadBuffer hands it a line) to the SDK. When the decoder
  // refuses it (SPEC §10.4), the relay says what to do instead, until that
  // is delivered, written back, or nothing (by the second refusal).
  #handOn(line, handed) {
    let bytes = handed;
    for (;;) {
      let text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
      if (text.charCodeAt(text.length - 1) === CR) text = text.slice(0, -1);
      let message;
      try {
        message = this.#deserialize(text);
      } catch (error) {
        const decision = this.#relay.refused(this.#read, bytes);
        this.#log(record(this.#role, line, { decision, error }));
        const to = goes(decision.action, this.#read);
        if (decision.text == null) return;
        if (to === this.#read) {
          bytes = decision.text;
          continue;
        }
        if (to === this.#back) this.#answer(decision.text);
        return;
      }
      this.#deliver(message);
      return;
    }
  }
}

module.exports = { Lines };
