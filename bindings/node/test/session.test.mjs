// The library's session through Session: hand-written sequences of lines,
// each with the action SPEC §8, §9, §10.4 and §10.8 give it, written out here by
// hand (texts byte for byte from SPEC §4 and §10.3); the same at every chunk
// size; refused(); the JSON-RPC profile's session; errors and freeing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Action, Profile, Role, Session } from 'jsonrpc-envelope';
import native from '../lib/native.cjs';
import { mcpVector } from './helpers.mjs';

const MCP = { profile: Profile.MCP };
// SPEC §10.3's substitute, with the id's exact text.
const substitute = (id) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}`;
// SPEC §4's parse error reply.
const PARSE_ERROR_REPLY = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}';
// SPEC §10.4's reply to a request the SDK's decoder refused.
const refusedReply = (id) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}`;

// The lines `session` gives for `text` fed whole, then ended, as
// [action, actionText] pairs; each note checked: a text for every action
// but forwarded, which has none.
function decide(session, text) {
  const lines = [...session.feed(text), ...session.end()];
  for (const line of lines) {
    assert.ok(Object.isFrozen(line));
    if (line.action === Action.FORWARD) assert.equal(line.note, null);
    else assert.ok(typeof line.note === 'string' && line.note.length > 0, `a note for ${line.action}`);
  }
  return lines.map((line) => [line.action, line.actionText]);
}

function session(role, options, body) {
  const s = new Session(role, options);
  try {
    body(s);
  } finally {
    s.close();
  }
}

test('an invalid_response to the request sent is substituted, with SPEC §10.3\'s text', () => {
  session(Role.CLIENT, MCP, (s) => {
    assert.equal(s.outstanding, 0);
    s.sent('{"jsonrpc":"2.0","id":7,"method":"tools/list"}');
    assert.equal(s.outstanding, 1);
    const [line] = s.feed('{"jsonrpc":"2.0","id":7,"result":[]}\n');
    assert.equal(line.kind, 'invalid_response');
    assert.equal(line.action, 'substituted');
    assert.equal(line.actionText, substitute('7'));
    assert.equal(s.outstanding, 0, 'the request is answered by its substitute');
    // Answered once: another one waits on nothing.
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":7,"result":[]}\n'), [['dropped', null]]);
  });
});

test('an invalid_response whose request was never sent is dropped', () => {
  session(Role.CLIENT, MCP, (s) => {
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":7,"result":[]}\n'), [['dropped', null]]);
    // A string id, sent: substituted with the id's exact text.
    s.sent('{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{}}');
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":"a-1","error":{"code":"x","message":"m"}}\n'), [
      ['substituted', substitute('"a-1"')],
    ]);
  });
});

test('a server\'s session substitutes too: a server sends requests (SPEC §10.4)', () => {
  session(Role.SERVER, MCP, (s) => {
    s.sent('{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}');
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":"s1","result":{},"extra":1}\n'), [['substituted', substitute('"s1"')]]);
  });
});

test('a server drops a response nobody waits for; one to its own request, or read by a client, is forwarded (SPEC §10.8 (a))', () => {
  const response = '{"jsonrpc":"2.0","id":"s1","result":{}}\n';
  session(Role.SERVER, MCP, (s) => {
    assert.deepEqual(decide(s, response), [['dropped', null]]);
    s.sent('{"jsonrpc":"2.0","id":"s1","method":"roots/list"}');
    assert.deepEqual(decide(s, response), [['forwarded', null]]);
    assert.equal(s.outstanding, 0);
    // Answered once: the same response again waits on nothing.
    assert.deepEqual(decide(s, response), [['dropped', null]]);
    // A late answer to a cancelled request still finds it.
    s.sent('{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage","params":{}}');
    s.sent('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}');
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"late"}}\n'), [['forwarded', null]]);
  });
  // A client forwards it; the JSON-RPC profile too, in either role.
  session(Role.CLIENT, MCP, (s) => assert.deepEqual(decide(s, response), [['forwarded', null]]));
  for (const role of [Role.SERVER, Role.CLIENT]) {
    session(role, { profile: Profile.JSONRPC }, (s) => assert.deepEqual(decide(s, response), [['forwarded', null]]));
  }
  // Past SPEC §10.5's bound of 4,096 outstanding requests a request goes
  // untracked: from then on the server forwards every response.
  session(Role.SERVER, MCP, (s) => {
    for (let id = 0; id < 4096; id++) s.sent(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
    assert.equal(s.outstanding, 4096);
    assert.deepEqual(decide(s, response), [['dropped', null]]);
    s.sent('{"jsonrpc":"2.0","id":4096,"method":"ping"}');
    assert.equal(s.outstanding, 4096, 'the 4,097th request is not tracked');
    assert.deepEqual(decide(s, response), [['forwarded', null]]);
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":0,"result":{}}\n{"jsonrpc":"2.0","id":0,"result":{}}\n'), [
      ['forwarded', null],
      ['forwarded', null],
    ]);
  });
});

test('an error that names no request, with one request outstanding, is attributed to it (the handshake rule)', () => {
  session(Role.CLIENT, MCP, (s) => {
    s.sent('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}');
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"Unsupported"}}\n'), [
      ['attributed', '{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported"}}'],
    ]);
    assert.equal(s.outstanding, 0);
  });
  // No id member at all: the id is put in.
  session(Role.CLIENT, MCP, (s) => {
    s.sent('{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}');
    const [[action, text]] = decide(s, '{"jsonrpc":"2.0","error":{"code":-32602,"message":"Unsupported"}}\n');
    assert.equal(action, 'attributed');
    assert.deepEqual(JSON.parse(text), { jsonrpc: '2.0', id: 'init', error: { code: -32602, message: 'Unsupported' } });
  });
  // A request stays outstanding after it was cancelled (SPEC §9).
  session(Role.CLIENT, MCP, (s) => {
    s.sent('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{}}');
    s.sent('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5}}');
    assert.equal(s.outstanding, 1);
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":"late"}}\n'), [
      ['attributed', '{"jsonrpc":"2.0","id":5,"error":{"code":-1,"message":"late"}}'],
    ]);
  });
});

test('an error that names no request, with none or two outstanding, is dropped', () => {
  const stray = '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"stray"}}\n';
  session(Role.CLIENT, MCP, (s) => {
    assert.deepEqual(decide(s, stray), [['dropped', null]]);
    s.sent('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
    s.sent('{"jsonrpc":"2.0","id":2,"method":"ping"}');
    assert.equal(s.outstanding, 2);
    assert.deepEqual(decide(s, stray), [['dropped', null]]);
    assert.equal(s.outstanding, 2);
    // Their responses are forwarded, and each ends its request's wait.
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":2,"result":{}}\n{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n'), [
      ['forwarded', null],
      ['forwarded', null],
    ]);
    assert.equal(s.outstanding, 0);
  });
});

test('a parse error is answered in role server and diverted in role client', () => {
  session(Role.SERVER, MCP, (s) => {
    assert.deepEqual(decide(s, '{"jsonrpc":"2.0","id":1,"method":\n'), [['answered', PARSE_ERROR_REPLY]]);
  });
  session(Role.CLIENT, MCP, (s) => {
    assert.deepEqual(decide(s, 'Server listening on port 3000\n'), [['diverted', null]]);
  });
});

// Whether an MCP line (a JSON object) goes on in its normal form (SPEC
// 10.5), worked out here: a raw CR anywhere, JSON whitespace before or
// after the object, or a top-level member given twice.
const JSON_WS = new Set([' ', '\t', '\n', '\r']);
function needsNormalForm(line) {
  if (line.includes('\r') || JSON_WS.has(line[0]) || JSON_WS.has(line[line.length - 1])) return true;
  return new Set(topLevelKeys(line)).size !== topLevelKeys(line).length;
}

// The top-level member names of a JSON object's text, decoded, in order:
// a string at depth 1 followed by ':' is a name.
function topLevelKeys(text) {
  const keys = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      let k = j + 1;
      while (JSON_WS.has(text[k])) k++;
      if (depth === 1 && text[k] === ':') keys.push(JSON.parse(text.slice(i, j + 1)));
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return keys;
}

// Whether text has no JSON whitespace outside its strings.
function compact(text) {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    if (inString && text[i] === '\\') i++;
    else if (text[i] === '"') inString = !inString;
    else if (!inString && JSON_WS.has(text[i])) return false;
  }
  return true;
}

// A forwarded MCP line's text: none exactly when the line needs no normal
// form; else compact, and the line's value (JSON.parse keeps a member's last
// value) in SPEC 10.5's members only.
function checkForwarded(line, what) {
  const text = line.line.toString('utf8');
  if (!needsNormalForm(text)) {
    assert.equal(line.actionText, null, `${what}: no text for ${JSON.stringify(text)}`);
    return;
  }
  assert.equal(typeof line.actionText, 'string', `${what}: a normal form for ${JSON.stringify(text)}`);
  assert.ok(compact(line.actionText), `${what}: ${line.actionText} is compact`);
  const value = JSON.parse(text);
  const kept = Object.fromEntries(
    ['jsonrpc', 'id', 'method', 'params', 'result', 'error'].filter((k) => k in value).map((k) => [k, value[k]]),
  );
  assert.deepStrictEqual(JSON.parse(line.actionText), kept, what);
}

test('a whole sequence in each role, at every chunk size', () => {
  const broken = mcpVector('envelope: object id is an invalid request');
  const lines = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}', // a request: forwarded
    '{"jsonrpc":"2.0","method":"notifications/initialized"}', // a notification: forwarded
    'a banner', // a parse error
    '', // empty
    '[1]', // a batch
    '{"level":"info"}', // not JSON-RPC
    broken.line, // an invalid request: answered in both roles
    '{"jsonrpc":"2.0","id":9,"result":{}}', // a response: dropped by a server nobody told of request 9, else forwarded
    '{"jsonrpc":"2.0","id":1,"method":"ping"}\r', // CRLF: forwarded without the CR
    `{"jsonrpc":"2.0","id":2,"method":"x","params":"${'x'.repeat(300)}"}`, // too long for 256
    ' {"jsonrpc":"2.0","method":"a", "params":{"k": "v w"}}\t', // whitespace around: its normal form
    '{"jsonrpc":"2.0","id":4,"method":"a","id":"b"}', // a member twice: its normal form, the last id
    '{"jsonrpc":"2.0","id":3,"method":"ping"}', // the last line, without LF
  ];
  const stream = Buffer.from(lines.join('\n'));
  // A raw CR: the line goes on in its normal form (SPEC 10.5).
  const CRLF_NORMAL = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
  const SPACED_NORMAL = '{"jsonrpc":"2.0","method":"a","params":{"k":"v w"}}';
  const TWICE_NORMAL = '{"jsonrpc":"2.0","id":"b","method":"a"}';
  const expectedFor = {
    server: [
      ['forwarded', null],
      ['forwarded', null],
      ['answered', PARSE_ERROR_REPLY],
      ['dropped', null],
      ['answered', '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: this server doesn\'t accept batches"}}'],
      ['dropped', null],
      ['answered', broken.reply_server],
      // A response to no request the server was told of (SPEC 10.8 (a)).
      ['dropped', null],
      ['forwarded', CRLF_NORMAL],
      // Too long, its id and method in its first bytes (SPEC 10.6 (d)).
      ['answered', '{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}}'],
      ['forwarded', SPACED_NORMAL],
      ['forwarded', TWICE_NORMAL],
      ['forwarded', null],
    ],
    client: [
      ['forwarded', null],
      ['forwarded', null],
      ['diverted', null],
      ['diverted', null],
      ['diverted', null],
      ['diverted', null],
      ['answered', broken.reply_client],
      ['forwarded', null],
      ['forwarded', CRLF_NORMAL],
      ['dropped', null],
      ['forwarded', SPACED_NORMAL],
      ['forwarded', TWICE_NORMAL],
      ['forwarded', null],
    ],
  };
  // Told first (`sent`) of a request with id 9 written the other way, the
  // response answers it: forwarded in either role (SPEC 10.8 (a)), and
  // nothing else in the sequence changes (no other line is a response or
  // an error that names no request).
  const RESPONSE = 7;
  const toldOf9 = {
    server: expectedFor.server.map((e, i) => (i === RESPONSE ? ['forwarded', null] : e)),
    client: expectedFor.client.map((e, i) => (i === RESPONSE ? ['forwarded', null] : e)),
  };
  const REQUEST_9 = {
    server: '{"jsonrpc":"2.0","id":9,"method":"roots/list"}',
    client: '{"jsonrpc":"2.0","id":9,"method":"tools/list"}',
  };
  assert.notEqual(broken.reply_client, null);
  for (const role of [Role.SERVER, Role.CLIENT]) for (const told of [false, true]) {
    for (let size = 1; size <= 70; size++) {
      session(role, { ...MCP, maxLine: 256 }, (s) => {
        const what = `${role}${told ? ', told of request 9' : ''}, chunks of ${size}`;
        if (told) {
          s.sent(REQUEST_9[role]);
          assert.equal(s.outstanding, 1);
        }
        const got = [];
        for (let at = 0; at < stream.length; at += size) got.push(...s.feed(stream.subarray(at, at + size)));
        got.push(...s.end());
        assert.deepEqual(got.map((line) => [line.action, line.actionText]), (told ? toldOf9 : expectedFor)[role], what);
        assert.equal(s.outstanding, 0, `${what}: request 9 answered`);
        assert.deepEqual(got.map((line) => line.number), lines.map((_, i) => i + 1));
        assert.equal(got[9].kind, 'too_long');
        assert.equal(got[9].line, null);
        assert.deepEqual(got[8].line, Buffer.from(lines[8]));
        got.forEach((line, i) => {
          if (line.action === Action.FORWARD) checkForwarded(line, `${what}, line ${i + 1}`);
        });
      });
    }
  }
});

test('the JSON-RPC profile\'s session forwards every message and keeps no requests (SPEC §8)', () => {
  for (const options of [undefined, { profile: Profile.JSONRPC }]) {
    session(Role.CLIENT, options, (s) => {
      s.sent('{"jsonrpc":"2.0","id":7,"method":"tools/list"}');
      assert.equal(s.outstanding, 0);
      assert.deepEqual(
        decide(s, '{"jsonrpc":"2.0","id":7,"result":[]}\n{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}\n{"jsonrpc":"2.0","id":null,"method":"ping"}\n'),
        [
          ['forwarded', null],
          ['forwarded', null],
          ['forwarded', null],
        ],
      );
    });
  }
});

test('refused(): what to do when the SDK\'s own decoder refused a line (SPEC §10.4)', () => {
  session(Role.SERVER, MCP, (s) => {
    const request = s.refused('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{}}');
    assert.ok(Object.isFrozen(request));
    assert.equal(request.action, 'answered');
    assert.equal(request.text, refusedReply('9'));
    assert.equal(typeof request.note, 'string');
    const response = s.refused(Buffer.from('{"jsonrpc":"2.0","id":"r","result":{}}'));
    assert.deepEqual({ ...response, note: null }, { action: 'substituted', text: substitute('"r"'), note: null });
    const notification = s.refused('{"jsonrpc":"2.0","method":"notifications/progress","params":{}}');
    assert.deepEqual([notification.action, notification.text], ['dropped', null]);
  });
});

test('bad arguments, a closed session, and sessions freed', () => {
  const before = native.liveSessions();
  assert.throws(() => new Session('host'), { name: 'RangeError', message: "role must be 'server' or 'client'" });
  assert.throws(() => new Session(), { name: 'TypeError', message: "role must be 'server' or 'client'" });
  assert.throws(() => new Session('server', { profile: 'xml' }), { name: 'RangeError', message: "profile must be 'jsonrpc' or 'mcp'" });
  assert.throws(() => new Session('server', { profile: 2 }), { name: 'TypeError', message: "profile must be 'jsonrpc' or 'mcp'" });
  assert.throws(() => new Session('server', { maxLine: -1 }), RangeError);
  assert.throws(() => new Session('server', 'mcp'), { name: 'TypeError', message: 'options must be an object, not a string' });
  const s = new Session('server', MCP);
  assert.equal(native.liveSessions(), before + 1);
  assert.throws(() => s.feed(5), { name: 'TypeError', message: 'chunk must be a string, a Buffer or a Uint8Array, not a number' });
  assert.throws(() => s.sent(null), { name: 'TypeError', message: 'line must be a string, a Buffer or a Uint8Array, not null' });
  assert.throws(() => s.refused({}), { name: 'TypeError' });
  s.close();
  assert.ok(s.closed);
  assert.equal(native.liveSessions(), before);
  for (const call of [() => s.feed('x'), () => s.end(), () => s.sent('{}'), () => s.refused('{}'), () => s.outstanding]) {
    assert.throws(call, /the session is closed/);
  }
  s.close(); // twice is harmless
  // A reader's handle is no session's, and the other way round.
  const reader = native.readerNew(0);
  assert.throws(() => native.sessionFeed(reader, 'x'), { name: 'TypeError', message: 'not a session handle' });
  assert.throws(() => native.sessionOutstanding({}), { name: 'TypeError', message: 'not a session handle' });
  const handle = native.sessionNew('client', 'mcp', 0);
  assert.throws(() => native.readerFeed(handle, 'x'), { name: 'TypeError', message: 'not a reader handle' });
  native.sessionFree(handle);
  assert.throws(() => native.sessionSent(handle, '{}'), { name: 'Error', message: 'the session has been freed' });
  native.readerFree(reader);
  assert.equal(native.liveSessions(), before);
});
