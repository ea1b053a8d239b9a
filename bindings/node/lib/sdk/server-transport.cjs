'use strict';
// The server side of SPEC §9 for the official TypeScript SDK: a stdio
// transport with the contract of its StdioServerTransport, reading stdin
// with the library's reader as role `server` (lines.cjs). A line owed a
// reply is answered at once with the library's reply and never reaches the
// SDK; `empty` and `not_jsonrpc` lines are dropped, and `too_long` ones
// skipped, each with a log record; requests, notifications and responses
// are handed to the SDK as its own transport hands them (its
// JSONRPCMessageSchema over JSON.parse of the line).

const process = require('node:process');
const { Role } = require('../index.cjs');
const { checkOptions, describe } = require('../arguments.cjs');
const { logOption } = require('./records.cjs');
const { Lines } = require('./lines.cjs');

// `schema` is the SDK's JSONRPCMessageSchema, from its ESM or its CommonJS
// build (whichever the program uses).
function makeServerTransport(schema) {
  class StdioServerTransport {
    #stdin;
    #stdout;
    #lines;
    #started = false;

    // As the SDK's: (stdin = process.stdin, stdout = process.stdout,
    // options). options.maxLine (or the SDK's maxBufferSize) is the line
    // limit; options.log receives the log records.
    constructor(stdin = process.stdin, stdout = process.stdout, options) {
      const { maxLine, maxBufferSize, log } = checkOptions(options);
      if (stdin === null || typeof stdin !== 'object' || typeof stdin.on !== 'function') {
        throw new TypeError(`stdin must be a Readable, not ${describe(stdin)}`);
      }
      if (stdout === null || typeof stdout !== 'object' || typeof stdout.write !== 'function') {
        throw new TypeError(`stdout must be a Writable, not ${describe(stdout)}`);
      }
      this.#stdin = stdin;
      this.#stdout = stdout;
      // Made here so that a bad option fails at once.
      this.#lines = new Lines({
        role: Role.SERVER,
        maxLine: maxLine ?? maxBufferSize,
        log: logOption(log),
        answer: (line) => this.#stdout.write(line),
        handOn: (message) => this.#handOn(message),
        fail: (error) => {
          this.onerror?.(error);
          this.close().catch(() => {});
        },
      });
    }

    #ondata = (chunk) => this.#lines.feed(chunk);
    #onend = () => this.#lines.end();
    #onerror = (error) => this.onerror?.(error);

    async start() {
      if (this.#started) {
        throw new Error(
          'StdioServerTransport already started! If using Server class, note that connect() calls start() automatically.',
        );
      }
      this.#started = true;
      this.#stdin.on('data', this.#ondata);
      this.#stdin.on('end', this.#onend);
      this.#stdin.on('error', this.#onerror);
    }

    #handOn(message) {
      let parsed;
      try {
        parsed = schema.parse(JSON.parse(message.line.toString('utf8')));
      } catch (error) {
        this.onerror?.(error);
        return;
      }
      this.onmessage?.(parsed);
    }

    async close() {
      this.#stdin.off('data', this.#ondata);
      this.#stdin.off('end', this.#onend);
      this.#stdin.off('error', this.#onerror);
      // Pause stdin only if no one else listens to it, as the SDK does.
      if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
      this.#lines.close();
      this.onclose?.();
    }

    send(message) {
      return new Promise((resolve) => {
        if (this.#stdout.write(`${JSON.stringify(message)}\n`)) {
          resolve();
        } else {
          this.#stdout.once('drain', resolve);
        }
      });
    }
  }
  return StdioServerTransport;
}

module.exports = { makeServerTransport };
