// SPEC §10.6 through Reader and Session: every request whose id is in the
// line is answered by it. A line too long to read whose first bytes hold a
// request's id and method (answered in role server) or a response's id
// (substituted while that id is outstanding), a request after a byte order
// mark (forwarded in its normal form), a batch (answered with one text of
// several lines), a damaged line; each at several chunk sizes. The texts
// are written out from the SPEC; the limits are the tests' own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Action, IdKind, Kind, Profile, Reader, Role, Session, classify, invalidReply } from 'jsonrpc-envelope';

const MCP = { profile: Profile.MCP };
const CHUNKS = [1, 5, 64, 4096];
const LIMIT = 64;

// SPEC §10.6 (d): a too-long request's reply, role server.
const tooLongReply = (id) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}}`;
// SPEC §10.3: the substitute.
const substitute = (id) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}`;
// SPEC §10.6 (b): each request of a batch.
const batchReply = (id) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32600,"message":"Invalid Request: MCP has no batches; send each request on its own line"}}`;
// SPEC §10.6 (c): a damaged request.
const damagedReply = (id) => `{"jsonrpc":"2.0","id":${id},"error":{"code":-32700,"message":"Parse error"}}`;
const PARSE_ERROR = '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}';
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const LF = Buffer.from('\n');

const LONG_REQUEST = Buffer.from(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"arguments":{"text":"${'x'.repeat(200)}"}}}`);
const LONG_RESPONSE = Buffer.from(`{"jsonrpc":"2.0","id":"r","result":{"content":[{"type":"text","text":"${'y'.repeat(200)}"}]}}`);
// Its id after its first LIMIT bytes: nothing to answer.
const LONG_REQUEST_ID_LATE = Buffer.from(`{"jsonrpc":"2.0","method":"tools/call","params":{"text":"${'z'.repeat(200)}"},"id":5}`);
const PING = Buffer.from('{"jsonrpc":"2.0","id":9,"method":"ping"}');

const lines = (...parts) => Buffer.concat(parts.flatMap((part) => [part, LF]));
const span = (line, text) => ({ offset: line.indexOf(text), length: Buffer.byteLength(text) });

function read(data, chunk, options) {
  const reader = new Reader(options);
  const got = [];
  try {
    for (let at = 0; at < data.length; at += chunk) got.push(...reader.feed(data.subarray(at, at + chunk)));
    got.push(...reader.end());
  } finally {
    reader.close();
  }
  return got;
}

function decide(session, data, chunk) {
  const got = [];
  for (let at = 0; at < data.length; at += chunk) got.push(...session.feed(data.subarray(at, at + chunk)));
  return got;
}

const actions = (got) => got.map((line) => [line.action, line.actionText]);

function withSession(role, options, body) {
  const s = new Session(role, options);
  try {
    body(s);
  } finally {
    s.close();
  }
}

// ---- (d) a line too long to read ---------------------------------------------

test('a too-long MCP request carries its id and method, and the reply that says it is too long', () => {
  for (const chunk of CHUNKS) {
    const [long, ping] = read(lines(LONG_REQUEST, PING), chunk, { ...MCP, maxLine: LIMIT });
    assert.equal(long.kind, Kind.TOO_LONG);
    assert.equal(long.length, LONG_REQUEST.length);
    assert.equal(long.line, null);
    assert.deepEqual([long.id, long.idKind, long.method], ['4', IdKind.NUMBER, 'tools/call']);
    // Spans count from the line's first byte, whose bytes are not held.
    assert.deepEqual(long.spans.id, span(LONG_REQUEST, '4'));
    assert.deepEqual(long.spans.method, span(LONG_REQUEST, '"tools/call"'));
    assert.equal(long.replyServer, tooLongReply('4'));
    assert.deepEqual([long.replyClient, long.substitute], [null, null]);
    assert.equal(ping.kind, Kind.REQUEST);
  }
});

test('a too-long request is answered in role server, dropped in role client', () => {
  for (const chunk of CHUNKS) {
    withSession(Role.SERVER, { ...MCP, maxLine: LIMIT }, (s) => {
      const got = decide(s, lines(LONG_REQUEST, PING), chunk);
      assert.deepEqual(got.map((l) => [l.number, l.kind]), [[1, 'too_long'], [2, 'request']]);
      assert.deepEqual(actions(got), [[Action.ANSWER, tooLongReply('4')], [Action.FORWARD, null]]);
      assert.equal(typeof got[0].note, 'string');
      assert.equal(got[0].id, '4');
    });
    withSession(Role.CLIENT, { ...MCP, maxLine: LIMIT }, (s) => {
      assert.deepEqual(actions(decide(s, lines(LONG_REQUEST, PING), chunk)), [[Action.DROP, null], [Action.FORWARD, null]]);
    });
  }
});

test('a too-long response whose id is outstanding is substituted, in both roles', () => {
  for (const chunk of CHUNKS) {
    const [long] = read(lines(LONG_RESPONSE), chunk, { ...MCP, maxLine: LIMIT });
    assert.deepEqual([long.kind, long.id, long.idKind, long.method], ['too_long', '"r"', IdKind.STRING, null]);
    assert.deepEqual(long.spans.id, span(LONG_RESPONSE, '"r"'));
    assert.equal(long.substitute, substitute('"r"'));
    assert.deepEqual([long.replyServer, long.replyClient], [null, null]);
    for (const role of [Role.SERVER, Role.CLIENT]) {
      withSession(role, { ...MCP, maxLine: LIMIT }, (s) => {
        // Nobody waits on "r": dropped.
        assert.deepEqual(actions(decide(s, lines(LONG_RESPONSE), chunk)), [[Action.DROP, null]]);
        s.sent('{"jsonrpc":"2.0","id":"r","method":"tools/call"}');
        assert.equal(s.outstanding, 1);
        const [d] = decide(s, lines(LONG_RESPONSE), chunk);
        assert.deepEqual([d.kind, d.line, d.action, d.actionText], ['too_long', null, Action.SUBSTITUTE, substitute('"r"')]);
        assert.equal(typeof d.note, 'string');
        assert.equal(s.outstanding, 0, 'answered, by its substitute');
        assert.deepEqual(actions(decide(s, lines(LONG_RESPONSE), chunk)), [[Action.DROP, null]]);
      });
    }
  }
});

test('a too-long line whose id is past its first bytes is dropped; the JSON-RPC profile reads none', () => {
  for (const chunk of CHUNKS) {
    const [late] = read(lines(LONG_REQUEST_ID_LATE), chunk, { ...MCP, maxLine: LIMIT });
    assert.deepEqual([late.kind, late.id, late.idKind, late.replyServer, late.spans.id], ['too_long', null, 'absent', null, null]);
    withSession(Role.SERVER, { ...MCP, maxLine: LIMIT }, (s) => {
      assert.deepEqual(actions(decide(s, lines(LONG_REQUEST_ID_LATE), chunk)), [[Action.DROP, null]]);
    });
  }
  const [plain] = read(lines(LONG_REQUEST), 4096, { maxLine: LIMIT });
  assert.deepEqual([plain.kind, plain.id, plain.method, plain.replyServer], ['too_long', null, null, null]);
  withSession(Role.SERVER, { maxLine: LIMIT }, (s) => {
    assert.deepEqual(actions(s.feed(lines(LONG_REQUEST))), [[Action.DROP, null]]);
  });
});

// ---- (a) a byte order mark ---------------------------------------------------

test('a request after a byte order mark is forwarded in its normal form, without the mark', () => {
  const body = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}');
  const spaced = Buffer.from(' { "method" : "ping" , "id" : 2 , "jsonrpc" : "2.0" } ');
  const data = lines(Buffer.concat([BOM, body]), Buffer.concat([BOM, spaced]));
  for (const chunk of CHUNKS) {
    const [first, second] = read(data, chunk, MCP);
    assert.deepEqual([first.kind, first.id, first.method], ['request', '1', 'initialize']);
    // Spans count from the line's first byte, the mark's.
    assert.deepEqual(first.spans.id, { offset: BOM.length + body.indexOf('1'), length: 1 });
    assert.deepEqual([second.kind, second.id], ['request', '2']);
    for (const role of [Role.SERVER, Role.CLIENT]) {
      withSession(role, MCP, (s) => {
        const got = decide(s, data, chunk);
        assert.deepEqual(got[0].line, Buffer.concat([BOM, body]));
        assert.deepEqual(actions(got), [
          [Action.FORWARD, body.toString()],
          [Action.FORWARD, '{"jsonrpc":"2.0","id":2,"method":"ping"}'],
        ]);
      });
    }
  }
  // SPEC §1: the JSON-RPC profile reads no mark.
  assert.equal(classify(Buffer.concat([BOM, PING])).kind, 'parse_error');
  withSession(Role.SERVER, undefined, (s) => {
    assert.deepEqual(actions(s.feed(lines(Buffer.concat([BOM, PING])))), [[Action.ANSWER, PARSE_ERROR]]);
  });
});

// ---- (b) a batch -------------------------------------------------------------

test('a batch is answered with one text of several lines, one reply per request', () => {
  const batch = Buffer.from(
    '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},' +
      '{"jsonrpc":"2.0","id":"two","method":"tools/list"},{"jsonrpc":"2.0","id":3,"result":{}}]',
  );
  const answer = `${batchReply('1')}\n${batchReply('"two"')}`;
  assert.equal(classify(batch, MCP).replyServer, answer);
  assert.equal(invalidReply(batch, Role.SERVER, MCP), answer);
  assert.equal(invalidReply(batch, Role.CLIENT, MCP), null);
  for (const chunk of CHUNKS) {
    const [m] = read(lines(batch), chunk, MCP);
    assert.deepEqual([m.kind, m.replyServer, m.replyClient], ['batch', answer, null]);
    withSession(Role.SERVER, MCP, (s) => {
      const got = decide(s, lines(batch, PING), chunk);
      assert.deepEqual(actions(got), [[Action.ANSWER, answer], [Action.FORWARD, null]]);
      assert.deepEqual(got[0].actionText.split('\n'), [batchReply('1'), batchReply('"two"')]);
    });
    withSession(Role.CLIENT, MCP, (s) => {
      assert.deepEqual(actions(decide(s, lines(batch), chunk)), [[Action.DIVERT, null]]);
    });
  }
});

// ---- (c) a damaged line ------------------------------------------------------

test('a damaged request is answered by its id; a damaged response substituted while its id waits', () => {
  const request = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"text":"a'), Buffer.from([0xff]), Buffer.from('b"}}')]);
  const response = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":7,"result":{"text":"'), Buffer.from([0xff]), Buffer.from('"}}')]);
  const c = classify(request, MCP);
  assert.deepEqual([c.kind, c.id, c.idKind, c.method], ['parse_error', '3', 'number', 'tools/call']);
  assert.deepEqual(c.spans.id, span(request, '3'));
  assert.deepEqual([c.replyServer, c.replyClient, c.substitute], [damagedReply('3'), null, null]);
  const r = classify(response, MCP);
  assert.deepEqual([r.kind, r.id, r.method, r.replyServer, r.replyClient, r.substitute], ['parse_error', '7', null, null, null, substitute('7')]);
  for (const chunk of CHUNKS) {
    withSession(Role.SERVER, MCP, (s) => {
      assert.deepEqual(actions(decide(s, lines(request, response), chunk)), [[Action.ANSWER, damagedReply('3')], [Action.DROP, null]]);
    });
    withSession(Role.CLIENT, MCP, (s) => {
      assert.deepEqual(actions(decide(s, lines(request, response), chunk)), [[Action.DIVERT, null], [Action.DIVERT, null]]);
      s.sent('{"jsonrpc":"2.0","id":7,"method":"tools/call"}');
      assert.deepEqual(actions(decide(s, lines(response), chunk)), [[Action.SUBSTITUTE, substitute('7')]]);
      assert.equal(s.outstanding, 0);
    });
  }
});

// ---- all of them, one session ------------------------------------------------

test('every request of a host\'s stream is answered, and each ping after it forwarded', () => {
  const requests = [
    Buffer.from('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]'),
    Buffer.concat([BOM, Buffer.from('{"jsonrpc":"2.0","id":3,"method":"ping"}')]),
    Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"'), Buffer.from([0xff]), Buffer.from('"}}')]),
    Buffer.from('{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":'),
    Buffer.from(`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":"${'x'.repeat(200)}"}}`),
  ];
  // A limit the batch fits in, and the last request does not.
  const limit = 2 * LIMIT;
  assert.ok(requests.slice(0, -1).every((line) => line.length <= limit) && requests.at(-1).length > limit);
  const data = Buffer.concat(requests.flatMap((line, n) => [line, LF, Buffer.from(`{"jsonrpc":"2.0","id":${100 + n},"method":"ping"}\n`)]));
  const ping = [Action.FORWARD, null];
  for (const chunk of CHUNKS) {
    withSession(Role.SERVER, { ...MCP, maxLine: limit }, (s) => {
      const got = decide(s, data, chunk);
      assert.deepEqual(actions(got), [
        [Action.ANSWER, `${batchReply('1')}\n${batchReply('2')}`], ping,
        [Action.FORWARD, '{"jsonrpc":"2.0","id":3,"method":"ping"}'], ping,
        [Action.ANSWER, damagedReply('4')], ping,
        [Action.ANSWER, damagedReply('5')], ping,
        [Action.ANSWER, tooLongReply('6')], ping,
      ]);
      assert.deepEqual(got.map((l) => l.number), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });
  }
});
