'use strict';
// The client side of SPEC §9 for the official TypeScript SDK: a stdio
// transport with the contract of its StdioClientTransport (it starts the
// server as a child process), reading the server's stdout with the
// library's relay in the MCP profile, in the direction a client reads,
// to_host (lines.cjs), which decides every line: a broken request from the
// server is answered with the library's `client` reply; banners, log lines
// and other lines that are no message are diverted to the log and never
// reach the SDK; an invalid
// response is replaced by its substitute while its request is outstanding;
// an error response that names no request, while exactly one request is
// outstanding, is handed on as that request's error (the handshake rule);
// requests, notifications and responses are handed on as the SDK's own
// transport hands them (through its own decoder, deserializeMessage). Every
// line the SDK writes to the server is told to the relay (to_server), which
// keeps the outstanding requests.

const { spawn } = require('node:child_process');
const process = require('node:process');
const { PassThrough } = require('node:stream');
const { Role } = require('../index.cjs');
const { checkOptions, describe } = require('../arguments.cjs');
const { logOption } = require('./records.cjs');
const { Lines } = require('./lines.cjs');

// `deserialize` is the SDK's deserializeMessage (shared/stdio.js) and
// `getDefaultEnvironment` its function of that name, from its ESM or its
// CommonJS build.
function makeClientTransport(deserialize, getDefaultEnvironment) {
  class StdioClientTransport {
    #server;
    #lines;
    #process = undefined;
    #stderr = null;

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
        write: (text) => this.#write(text),
        deliver: (message) => this.onmessage?.(message),
        deserialize,
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
      this.#lines.close();
    }

    send(message) {
      return new Promise((resolve) => {
        if (!this.#process?.stdin) {
          throw new Error('Not connected');
        }
        const line = JSON.stringify(message);
        this.#lines.wrote(line);
        if (this.#process.stdin.write(`${line}\n`)) {
          resolve();
        } else {
          this.#process.stdin.once('drain', resolve);
        }
      });
    }
  }
  return StdioClientTransport;
}

module.exports = { makeClientTransport };
