'use strict';
// The server side of SPEC §9 for the official TypeScript SDK: a stdio
// transport with the contract of its StdioServerTransport, reading stdin
// with the library's relay in the MCP profile, in the direction a server
// reads, to_server (lines.cjs), which decides every line: a line owed a
// reply is answered at once with the library's reply and never reaches the
// SDK; lines that are no message are dropped with a log record; an invalid
// response to one of the server's own requests is replaced by its
// substitute; requests, notifications and responses are handed to the SDK
// as its own transport hands them (through the SDK's own decoder,
// deserializeMessage).

const process = require('node:process');
const { Role } = require('../index.cjs');
const { checkOptions, describe } = require('../arguments.cjs');
const { logOption } = require('./records.cjs');
const { Lines } = require('./lines.cjs');

// `deserialize` is the SDK's deserializeMessage (shared/stdio.js), from its
// ESM or its CommonJS build (whichever the program uses).
function makeServerTransport(deserialize) {
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
        write: (text) => this.#stdout.write(text),
        deliver: (message) => this.onmessage?.(message),
        deserialize,
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
        const line = JSON.stringify(message);
        // The SDK's own line to the host: told to the relay (to_host).
        this.#lines.wrote(line);
        if (this.#stdout.write(`${line}\n`)) {
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
