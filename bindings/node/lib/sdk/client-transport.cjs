'use strict';
// The client side of SPEC §9 for the official TypeScript SDK: a stdio
// transport with the contract of its StdioClientTransport (it starts the
// server as a child process), reading the server's stdout with the
// library's reader as role `client` (lines.cjs). A broken request from the server is
// answered with the library's `client` reply; banners, log lines and other
// lines that are not JSON-RPC are logged and never reach the SDK; requests,
// notifications and responses are handed on as the SDK's own transport
// hands them.
//
// The handshake rule: the transport keeps the ids of the requests it has
// written and not yet seen answered (each written line is classified by
// the library). An error response that names no request, arriving while
// exactly one request is outstanding, is handed to the SDK as that
// request's error (its id put in place of the null or missing one), so the
// waiting call fails at once with the peer's error; with none or several
// outstanding it is logged and dropped.

const { spawn } = require('node:child_process');
const process = require('node:process');
const { PassThrough } = require('node:stream');
const { Kind, Role, classify } = require('../index.cjs');
const { checkOptions, describe } = require('../arguments.cjs');
const { logOption } = require('./records.cjs');
const { Lines } = require('./lines.cjs');

// Requests are matched to responses by the id's value, as the SDK matches
// them: the library's exact id text, read as JSON and written back compactly
// (so `1.0` answers `1`, and `"\u0041"` answers `"A"`).
function idKey(idText) {
  return JSON.stringify(JSON.parse(idText));
}

// `schema` is the SDK's JSONRPCMessageSchema and `getDefaultEnvironment`
// its function of that name, from its ESM or its CommonJS build.
function makeClientTransport(schema, getDefaultEnvironment) {
  class StdioClientTransport {
    #server;
    #lines;
    #process = undefined;
    #stderr = null;
    // The ids of the requests written and not yet answered: key -> id value.
    #outstanding = new Map();

    // As the SDK's: StdioServerParameters ({ command, args, env, stderr,
    // cwd }), plus maxLine (or the SDK's maxBufferSize), the line limit,
    // and log, which receives the log records.
    constructor(server) {
      if (server === null || typeof server !== 'object') {
        throw new TypeError(`the server parameters must be an object, not ${describe(server)}`);
      }
      if (typeof server.command !== 'string') {
        throw new TypeError(`command must be a string, not ${describe(server.command)}`);
      }
      const { maxLine, maxBufferSize, log } = checkOptions(server);
      this.#server = server;
      this.#lines = new Lines({
        role: Role.CLIENT,
        maxLine: maxLine ?? maxBufferSize,
        log: logOption(log),
        answer: (line) => this.#write(line),
        handOn: (message) => this.#handOn(message),
        fail: (error) => {
          this.onerror?.(error);
          this.close().catch(() => {});
        },
      });
      if (server.stderr === 'pipe' || server.stderr === 'overlapped') {
        this.#stderr = new PassThrough();
      }
    }

    async start() {
      if (this.#process) {
        throw new Error(
          'StdioClientTransport already started! If using Client class, note that connect() calls start() automatically.',
        );
      }
      return new Promise((resolve, reject) => {
        const child = spawn(this.#server.command, this.#server.args ?? [], {
          env: { ...getDefaultEnvironment(), ...this.#server.env },
          stdio: ['pipe', 'pipe', this.#server.stderr ?? 'inherit'],
          shell: false,
          windowsHide: process.platform === 'win32',
          cwd: this.#server.cwd,
        });
        this.#process = child;
        child.on('error', (error) => {
          reject(error);
          this.onerror?.(error);
        });
        child.on('spawn', () => resolve());
        child.on('close', () => {
          this.#process = undefined;
          this.#lines.close();
          this.onclose?.();
        });
        child.stdin?.on('error', (error) => this.onerror?.(error));
        child.stdout?.on('data', (chunk) => this.#lines.feed(chunk));
        child.stdout?.on('end', () => this.#lines.end());
        child.stdout?.on('error', (error) => this.onerror?.(error));
        if (this.#stderr && child.stderr) child.stderr.pipe(this.#stderr);
      });
    }

    // The child's stderr when the parameters asked for 'pipe' or
    // 'overlapped' (available before start(), as the SDK's), else its own.
    get stderr() {
      return this.#stderr ?? this.#process?.stderr ?? null;
    }

    get pid() {
      return this.#process?.pid ?? null;
    }

    // A request, a notification or a response: to the SDK, with the
    // handshake rule for an error that names no request.
    #handOn(message) {
      let value;
      try {
        value = JSON.parse(message.line.toString('utf8'));
      } catch (error) {
        this.onerror?.(error);
        return;
      }
      if (message.kind === Kind.RESPONSE) {
        if (message.namesNoRequest) {
          if (this.#outstanding.size !== 1) {
            this.#lines.log(message, 'dropped');
            return;
          }
          const [[key, id]] = this.#outstanding;
          this.#outstanding.delete(key);
          this.#lines.log(message, 'matched', { requestId: JSON.stringify(id) });
          value.id = id;
        } else if (message.id !== null) {
          this.#outstanding.delete(idKey(message.id));
        }
      }
      this.#deliver(value);
    }

    // To the SDK, as its own transport: the message through its schema, or
    // the schema's error to onerror.
    #deliver(value) {
      let parsed;
      try {
        parsed = schema.parse(value);
      } catch (error) {
        this.onerror?.(error);
        return;
      }
      this.onmessage?.(parsed);
    }

    // A reply to the server; none once the transport is closing.
    #write(line) {
      const stdin = this.#process?.stdin;
      return stdin && !stdin.writableEnded ? stdin.write(line) : false;
    }

    async close() {
      if (this.#process) {
        const child = this.#process;
        this.#process = undefined;
        const closed = new Promise((resolve) => child.once('close', resolve));
        try {
          child.stdin?.end();
        } catch {
          // ignore, as the SDK does
        }
        // As the SDK: two seconds to exit, then SIGTERM, then SIGKILL.
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
        if (child.exitCode === null) {
          try {
            child.kill('SIGTERM');
          } catch {
            // ignore
          }
          await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
        }
        if (child.exitCode === null) {
          try {
            child.kill('SIGKILL');
          } catch {
            // ignore
          }
        }
      }
      this.#outstanding.clear();
      this.#lines.close();
    }

    send(message) {
      return new Promise((resolve) => {
        if (!this.#process?.stdin) {
          throw new Error('Not connected');
        }
        const line = JSON.stringify(message);
        this.#track(line, message);
        if (this.#process.stdin.write(`${line}\n`)) {
          resolve();
        } else {
          this.#process.stdin.once('drain', resolve);
        }
      });
    }

    // Keeps the id of a request being written (the library says which
    // lines are requests); a cancellation ends the wait for its request.
    #track(line, message) {
      const written = classify(line);
      if (written.kind === Kind.REQUEST) {
        this.#outstanding.set(idKey(written.id), JSON.parse(written.id));
      } else if (written.kind === Kind.NOTIFICATION && written.method === 'notifications/cancelled') {
        const requestId = message.params?.requestId;
        if (requestId !== undefined) this.#outstanding.delete(JSON.stringify(requestId));
      }
    }
  }
  return StdioClientTransport;
}

module.exports = { makeClientTransport };
