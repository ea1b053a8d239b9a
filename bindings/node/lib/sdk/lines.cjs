'use strict';
// What both SDK transports do with the lines of the pipe they read
// (SPEC §9): the library's reader in the transport's role; a too-long line
// skipped, a line owed a reply in that role answered, a line that is not a
// request, a notification or a response dropped, each with a log record;
// the rest handed on to the transport.

const { Kind, Reader, Role } = require('../index.cjs');
const native = require('../native.cjs');
const { record } = require('./records.cjs');

// The library's messages (requests, notifications, responses).
const HANDED_ON = new Set(native.messageKinds);

class Lines {
  #role;
  #reader;
  #log;
  #answer;
  #handOn;
  #fail;

  // role: Role.SERVER or Role.CLIENT; log: the log option; answer(line):
  // writes a reply line; handOn(message, value): the message (a request, a
  // notification or a response) and its JSON value; fail(error): a chunk
  // the reader refused (the transport reports it and closes).
  constructor({ role, maxLine, log, answer, handOn, fail }) {
    this.#role = role;
    this.#reader = new Reader({ maxLine });
    this.#log = log;
    this.#answer = answer;
    this.#handOn = handOn;
    this.#fail = fail;
  }

  feed(chunk) {
    if (this.#reader.closed) return;
    let messages;
    try {
      messages = this.#reader.feed(chunk);
    } catch (error) {
      this.#fail(error);
      return;
    }
    for (const message of messages) this.#take(message);
  }

  // The end of the pipe: its last line, if it had no LF.
  end() {
    if (this.#reader.closed) return;
    for (const message of this.#reader.end()) this.#take(message);
  }

  close() {
    this.#reader.close();
  }

  // A log record of the line, with `extra` fields.
  log(message, action, extra) {
    this.#log(record(this.#role, message, action, extra));
  }

  #take(message) {
    if (message.kind === Kind.TOO_LONG) {
      this.log(message, 'skipped');
      return;
    }
    const reply = this.#role === Role.SERVER ? message.replyServer : message.replyClient;
    if (reply !== null) {
      this.#answer(`${reply}\n`);
      this.log(message, 'answered', { reply });
      return;
    }
    if (!HANDED_ON.has(message.kind)) {
      this.log(message, 'dropped');
      return;
    }
    this.#handOn(message);
  }
}

module.exports = { Lines };
