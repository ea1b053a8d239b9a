// The library's relay through Relay, Direction and goes: both directions of
// one session, each line with the action SPEC §8 to §10 give it, and the
// bookkeeping between the directions; every expected value written out here
// by hand (texts byte for byte from SPEC §4, §10.3 and §10.4; the
// directions' names, roles and answers' way back from the relay's C API).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Action, Direction, Profile, Relay, Role, goes } from 'jsonrpc-envelope';
import native from '../lib/native.cjs';

const MCP = { profile: Profile.MCP };
const TO_SERVER = 'to_server';
const TO_HOST = 'to_host';
// SPEC §10.3's substitute, with the id's exact text.
const substitute = (id) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}`;
// SPEC §10.4's reply to a request the SDK's decoder refused.
const refusedReply = (id) =>
  `{"jsonrpc":"2.0","id":${id},"error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}`;
// SPEC §4's reply to a batch, by a server.
const BATCH_REPLY = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: this server doesn\'t accept batches"}}';
const PING_7 = '{"jsonrpc":"2.0","id":7,"method":"ping"}';

function relay(options, body) {
  const r = new Relay(options);
  try {
    body(r);
  } finally {
    r.close();
  }
}

// The lines of `direction` that `text` completes fed whole, then ended, as
// [action, actionText] pairs; each line frozen, with a note for every
// action but forwarded, which has none.
function decide(r, direction, text) {
  const lines = [...r.feed(direction, text), ...r.end(direction)];
  for (const line of lines) {
    assert.ok(Object.isFrozen(line));
    if (line.action === Action.FORWARD) assert.equal(line.note, null);
    else assert.ok(typeof line.note === 'string' && line.note.length > 0, `a note for ${line.action}`);
  }
  return lines.map((line) => [line.action, line.actionText]);
}

const outstanding = (r) => [r.outstanding(TO_SERVER), r.outstanding(TO_HOST)];

test('Direction: the library\'s names, and the direction each role reads', () => {
  assert.deepEqual({ ...Direction }, { TO_SERVER: 'to_server', TO_HOST: 'to_host' });
  assert.ok(Object.isFrozen(Direction));
  assert.equal(Direction.readBy(Role.SERVER), TO_SERVER);
  assert.equal(Direction.readBy(Role.CLIENT), TO_HOST);
  assert.deepEqual(Object.keys(Direction), ['TO_SERVER', 'TO_HOST'], 'readBy is no name');
  assert.throws(() => Direction.readBy('host'), { name: 'RangeError', message: "role must be 'server' or 'client'" });
  assert.throws(() => Direction.readBy(1), { name: 'TypeError', message: "role must be 'server' or 'client'" });
});

test('goes(): on in the line\'s direction, back for an answer, nowhere for a drop or a diversion', () => {
  const expected = [
    ['forwarded', TO_SERVER, TO_SERVER],
    ['forwarded', TO_HOST, TO_HOST],
    ['substituted', TO_SERVER, TO_SERVER],
    ['substituted', TO_HOST, TO_HOST],
    ['attributed', TO_SERVER, TO_SERVER],
    ['attributed', TO_HOST, TO_HOST],
    ['answered', TO_SERVER, TO_HOST],
    ['answered', TO_HOST, TO_SERVER],
    ['dropped', TO_SERVER, null],
    ['dropped', TO_HOST, null],
    ['diverted', TO_SERVER, null],
    ['diverted', TO_HOST, null],
  ];
  for (const [action, direction, to] of expected) assert.equal(goes(action, direction), to, `${action} ${direction}`);
  assert.throws(() => goes('answered', 'sideways'), { name: 'RangeError', message: "direction must be 'to_server' or 'to_host'" });
  assert.throws(() => goes('answered', 2), { name: 'TypeError', message: "direction must be 'to_server' or 'to_host'" });
  assert.throws(() => goes('skipped', TO_HOST), {
    name: 'RangeError',
    message: "action must be 'forwarded', 'answered', 'substituted', 'attributed', 'dropped' or 'diverted'",
  });
  assert.throws(() => goes(undefined, TO_HOST), { name: 'TypeError' });
});

test('a request forwarded to the server is outstanding for the host\'s direction until its response', () => {
  relay(MCP, (r) => {
    assert.deepEqual(outstanding(r), [0, 0]);
    const [line] = r.feed(TO_SERVER, `${PING_7}\n`);
    assert.equal(line.kind, 'request');
    assert.equal(line.action, 'forwarded');
    assert.equal(line.actionText, null);
    assert.equal(line.number, 1);
    assert.deepEqual(line.line, Buffer.from(PING_7));
    assert.deepEqual(outstanding(r), [0, 1]);
    // Its response, read the other way, answers it.
    assert.deepEqual(decide(r, TO_HOST, '{"jsonrpc":"2.0","id":7,"result":{}}\n'), [['forwarded', null]]);
    assert.deepEqual(outstanding(r), [0, 0]);
  });
});

test('an invalid response to the request forwarded is substituted once, then dropped', () => {
  relay(MCP, (r) => {
    r.feed(TO_SERVER, `${PING_7}\n`);
    assert.deepEqual(decide(r, TO_HOST, '{"jsonrpc":"2.0","id":7,"result":[]}\n'), [['substituted', substitute('7')]]);
    assert.deepEqual(outstanding(r), [0, 0]);
    assert.deepEqual(decide(r, TO_HOST, '{"jsonrpc":"2.0","id":7,"result":[]}\n'), [['dropped', null]]);
  });
});

test('wrote(): a request the server\'s SDK wrote to the host waits for the host\'s response', () => {
  relay(MCP, (r) => {
    r.wrote(TO_HOST, '{"jsonrpc":"2.0","id":"s1","method":"roots/list"}');
    assert.deepEqual(outstanding(r), [1, 0]);
    // An error that names no request, with that one outstanding: attributed.
    assert.deepEqual(decide(r, TO_SERVER, '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}\n'), [
      ['attributed', '{"jsonrpc":"2.0","id":"s1","error":{"code":-32600,"message":"x"}}'],
    ]);
    assert.deepEqual(outstanding(r), [0, 0]);
    // A client's SDK's request, told the same way (bytes this time).
    r.wrote(TO_SERVER, Buffer.from('{"jsonrpc":"2.0","id":3,"method":"tools/list"}'));
    assert.deepEqual(outstanding(r), [0, 1]);
    // A response or a notification written changes nothing.
    r.wrote(TO_HOST, '{"jsonrpc":"2.0","id":9,"result":{}}');
    r.wrote(TO_SERVER, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
    assert.deepEqual(outstanding(r), [0, 1]);
  });
});

test('each direction is read in its receiver\'s role; an answer changes neither side', () => {
  relay(MCP, (r) => {
    // A batch to the server is answered, as a server answers it; to the
    // host it is diverted, as a host reads it.
    assert.deepEqual(decide(r, TO_SERVER, '[1]\n'), [['answered', BATCH_REPLY]]);
    assert.deepEqual(decide(r, TO_HOST, '[1]\n'), [['diverted', null]]);
    assert.deepEqual(outstanding(r), [0, 0]);
    // A response nobody waits for: a server drops it, a host forwards it.
    assert.deepEqual(decide(r, TO_SERVER, '{"jsonrpc":"2.0","id":"x","result":{}}\n'), [['dropped', null]]);
    assert.deepEqual(decide(r, TO_HOST, '{"jsonrpc":"2.0","id":"x","result":{}}\n'), [['forwarded', null]]);
  });
});

test('the two directions\' streams are read apart: a line split across chunks, and end()', () => {
  relay(MCP, (r) => {
    assert.deepEqual(r.feed(TO_SERVER, '{"jsonrpc":"2.0","id":1,'), []);
    const [host] = r.feed(TO_HOST, '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n');
    assert.equal(host.kind, 'notification');
    assert.equal(host.number, 1);
    const [server] = r.feed(TO_SERVER, '"method":"tools/list"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}');
    assert.equal(server.method, 'tools/list');
    assert.equal(server.number, 1);
    assert.deepEqual(r.end(TO_HOST), []);
    const [last] = r.end(TO_SERVER);
    assert.equal(last.number, 2);
    assert.equal(last.id, '2');
    assert.deepEqual(outstanding(r), [0, 2]);
  });
});

test('the line limit, and the JSON-RPC profile, which tracks nothing', () => {
  relay({ ...MCP, maxLine: 64 }, (r) => {
    const long = `{"jsonrpc":"2.0","id":2,"method":"x","params":"${'x'.repeat(100)}"}\n`;
    const [line] = r.feed(TO_SERVER, long);
    assert.equal(line.kind, 'too_long');
    assert.equal(line.line, null);
    assert.deepEqual([line.action, line.actionText], [
      'answered',
      '{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}}',
    ]);
  });
  for (const options of [undefined, { profile: Profile.JSONRPC }]) {
    relay(options, (r) => {
      assert.deepEqual(decide(r, TO_SERVER, `${PING_7}\n`), [['forwarded', null]]);
      r.wrote(TO_HOST, '{"jsonrpc":"2.0","id":8,"method":"ping"}');
      assert.deepEqual(outstanding(r), [0, 0]);
      assert.deepEqual(decide(r, TO_HOST, '{"jsonrpc":"2.0","id":7,"result":[]}\n'), [['forwarded', null]]);
    });
  }
});

test('refused(): a request is answered, a response substituted, and a substitute refused again dropped', () => {
  relay(MCP, (r) => {
    const request = r.refused(TO_SERVER, '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{}}');
    assert.ok(Object.isFrozen(request));
    assert.equal(request.action, 'answered');
    assert.equal(request.text, refusedReply('9'));
    assert.equal(typeof request.note, 'string');
    // A response, refused: its substitute; that substitute, refused in its
    // turn: dropped, with no text and a note of its own.
    const first = r.refused(TO_SERVER, Buffer.from('{"jsonrpc":"2.0","id":4,"result":{}}'));
    assert.equal(first.action, 'substituted');
    assert.equal(first.text, substitute('4'));
    assert.equal(typeof first.note, 'string');
    const second = r.refused(TO_SERVER, first.text);
    assert.ok(Object.isFrozen(second));
    assert.equal(second.action, 'dropped');
    assert.equal(second.text, null);
    assert.ok(typeof second.note === 'string' && second.note.length > 0);
    assert.notEqual(second.note, first.note);
    // The same in the other direction, read as a host reads it.
    const hostFirst = r.refused(TO_HOST, '{"jsonrpc":"2.0","id":"h","result":{}}');
    assert.deepEqual([hostFirst.action, hostFirst.text], ['substituted', substitute('"h"')]);
    const hostSecond = r.refused(TO_HOST, hostFirst.text);
    assert.deepEqual([hostSecond.action, hostSecond.text], ['dropped', null]);
    // A notification: dropped at once.
    const notification = r.refused(TO_HOST, '{"jsonrpc":"2.0","method":"notifications/progress","params":{}}');
    assert.deepEqual([notification.action, notification.text], ['dropped', null]);
  });
});

test('a bad direction, bad arguments, a closed relay, and relays freed', () => {
  const before = native.liveRelays();
  const direction = "direction must be 'to_server' or 'to_host'";
  relay(MCP, (r) => {
    for (const call of [
      (d) => r.feed(d, '{}\n'),
      (d) => r.end(d),
      (d) => r.wrote(d, '{}'),
      (d) => r.refused(d, '{}'),
      (d) => r.outstanding(d),
    ]) {
      assert.throws(() => call('sideways'), { name: 'RangeError', message: direction });
      assert.throws(() => call('TO_SERVER'), { name: 'RangeError', message: direction });
      assert.throws(() => call('to_server\0'), { name: 'RangeError', message: direction });
      assert.throws(() => call(1), { name: 'TypeError', message: direction });
      assert.throws(() => call(undefined), { name: 'TypeError', message: direction });
    }
    assert.throws(() => r.feed(TO_SERVER, 5), { name: 'TypeError', message: 'chunk must be a string, a Buffer or a Uint8Array, not a number' });
    assert.throws(() => r.wrote(TO_HOST, null), { name: 'TypeError', message: 'line must be a string, a Buffer or a Uint8Array, not null' });
    assert.throws(() => r.refused(TO_HOST, {}), { name: 'TypeError' });
    // Nothing was read or noted by the calls that threw.
    assert.deepEqual(outstanding(r), [0, 0]);
    assert.deepEqual(decide(r, TO_SERVER, `${PING_7}\n`), [['forwarded', null]]);
  });
  assert.throws(() => new Relay({ profile: 'xml' }), { name: 'RangeError', message: "profile must be 'jsonrpc' or 'mcp'" });
  assert.throws(() => new Relay({ maxLine: -1 }), RangeError);
  assert.throws(() => new Relay('mcp'), { name: 'TypeError', message: 'options must be an object, not a string' });
  const r = new Relay(MCP);
  assert.equal(native.liveRelays(), before + 1);
  r.close();
  assert.ok(r.closed);
  assert.equal(native.liveRelays(), before);
  for (const call of [
    () => r.feed(TO_SERVER, 'x'),
    () => r.end(TO_HOST),
    () => r.wrote(TO_HOST, '{}'),
    () => r.refused(TO_SERVER, '{}'),
    () => r.outstanding(TO_SERVER),
  ]) {
    assert.throws(call, /the relay is closed/);
  }
  r.close(); // twice is harmless
  // A relay's handle is no session's, and the other way round.
  const handle = native.relayNew('mcp', 0);
  const session = native.sessionNew('server', 'mcp', 0);
  assert.throws(() => native.sessionFeed(handle, 'x'), { name: 'TypeError', message: 'not a session handle' });
  assert.throws(() => native.relayFeed(session, TO_SERVER, 'x'), { name: 'TypeError', message: 'not a relay handle' });
  assert.throws(() => native.relayOutstanding({}, TO_SERVER), { name: 'TypeError', message: 'not a relay handle' });
  native.sessionFree(session);
  native.relayFree(handle);
  assert.throws(() => native.relayWrote(handle, TO_HOST, '{}'), { name: 'Error', message: 'the relay has been freed' });
  assert.equal(native.liveRelays(), before);
});
