// Compiled by tsc --noEmit (test/types.test.mjs): the package's types as an
// ESM program sees them. Lines marked @ts-expect-error must fail to type.
import { Readable } from 'node:stream';
import envelope, {
  ABI_VERSION,
  Action,
  DEFAULT_MAX_LINE,
  Direction,
  IdKind,
  Kind,
  LIBRARY_VERSION,
  Profile,
  Reader,
  Relay,
  Role,
  Session,
  classify,
  goes,
  invalidReply,
  logValue,
  readMessages,
  type Classification,
  type Decision,
  type Message,
  type SessionLine,
  type Span,
} from 'jsonrpc-envelope';

const c: Classification = classify('{"jsonrpc":"2.0","id":1,"method":"ping"}');
const fromBytes: Classification = envelope.classify(Buffer.from('[]'));
const kind: 'request' | 'notification' | 'response' | string = c.kind;
if (c.kind === Kind.REQUEST && c.idKind !== IdKind.ABSENT) {
  const id: string | null = c.id;
  const method: string | null = c.method;
  void [id, method];
}
const span: Span | null = c.spans.params;
const offset: number | undefined = span?.offset;
const flags: boolean[] = [c.jsonrpc20, c.hasResult, c.hasError, c.namesNoRequest];
const replies: (string | null)[] = [c.replyServer, c.replyClient, c.reason, c.substitute];
const mcp: Classification = classify('{"jsonrpc":"2.0","id":1,"result":[]}', { profile: Profile.MCP });
const invalidResponse: boolean = mcp.kind === Kind.INVALID_RESPONSE;
const mcpReply: string | null = invalidReply('[]', 'server', { profile: 'mcp' });
const reply: string | null = invalidReply(new Uint8Array([0x5b, 0x5d]), Role.SERVER);
const text: string = logValue('a\nb');
const constants: [number, string, number] = [DEFAULT_MAX_LINE, LIBRARY_VERSION, ABI_VERSION];

async function read(): Promise<number> {
  let count = 0;
  for await (const m of readMessages(Readable.from(['{"id":1,"result":2}\n']), { maxLine: 1024 })) {
    const message: Message = m;
    const line: Buffer | null = message.line;
    const numbers: number[] = [message.number, message.length];
    void [line, numbers];
    count++;
  }
  return count;
}

const reader = new Reader({ maxLine: 0 });
const fed: readonly Message[] = reader.feed('{"id":1,"result":2}\n');
const ended: readonly Message[] = reader.end();
reader.close();
const closed: boolean = reader.closed;
const mcpReader = new Reader({ profile: Profile.MCP, maxLine: 1024 });
const readerAction: string | null = mcpReader.feed('[]\n')[0]?.action ?? null;
mcpReader.close();

const session = new Session(Role.CLIENT, { profile: Profile.MCP, maxLine: 1 << 20 });
session.sent('{"jsonrpc":"2.0","id":7,"method":"tools/list"}');
const outstanding: number = session.outstanding;
const decided: readonly SessionLine[] = [...session.feed('{"jsonrpc":"2.0","id":7,"result":[]}\n'), ...session.end()];
for (const line of decided) {
  if (line.action === Action.SUBSTITUTE || line.action === Action.ATTRIBUTE) {
    const handed: string | null = line.actionText;
    void handed;
  }
  const note: string | null = line.note;
  const asMessage: Message = line;
  void [note, asMessage];
}
const decision: Decision = session.refused('{"jsonrpc":"2.0","id":1,"method":"m"}');
const decisionAction: 'answered' | 'substituted' | 'dropped' | string = decision.action;
session.close();
const sessionClosed: boolean = session.closed;

const relay = new Relay({ profile: Profile.MCP, maxLine: 1 << 20 });
const readDirection: Direction = Direction.readBy(Role.SERVER);
const back: Direction | null = goes(Action.ANSWER, readDirection);
const relayed: readonly SessionLine[] = [...relay.feed(Direction.TO_SERVER, '{"jsonrpc":"2.0","id":7,"method":"ping"}\n'), ...relay.end('to_server')];
relay.wrote(Direction.TO_HOST, Buffer.from('{"jsonrpc":"2.0","id":"s1","method":"roots/list"}'));
const relayDecision: Decision = relay.refused(Direction.TO_HOST, '{"jsonrpc":"2.0","id":1,"result":{}}');
const waiting: number = relay.outstanding(Direction.TO_HOST);
relay.close();
const relayClosed: boolean = relay.closed;

// @ts-expect-error: a classification is not a number (the types resolved: not any)
const typed: number = c;
// @ts-expect-error: a number is not a line
classify(42);
// @ts-expect-error: an ArrayBuffer is not a line
classify(new ArrayBuffer(2));
// @ts-expect-error: no such role
invalidReply('[]', 'host');
// @ts-expect-error: no such kind
const wrong: typeof c.kind = 'batched';
// @ts-expect-error: results are read-only
c.kind = 'request';
// @ts-expect-error: the limit is a number
new Reader({ maxLine: '1' });
// @ts-expect-error: no such profile
classify('[]', { profile: 'xml' });
// @ts-expect-error: the profile is an option, not an argument
classify('[]', 'mcp');
// @ts-expect-error: a session needs its role
new Session();
// @ts-expect-error: no such action
const wrongAction: Action = 'skipped';
// @ts-expect-error: no such direction
relay.feed('to_client', '{}\n');
// @ts-expect-error: a relay's calls name their direction
relay.outstanding();
// @ts-expect-error: goes() may give no direction
const always: Direction = goes(Action.DROP, Direction.TO_HOST);

void [typed, fromBytes, kind, offset, flags, replies, reply, text, constants, read, fed, ended, closed, wrong];
void [relayed, back, relayDecision, waiting, relayClosed, always];
void [mcp, invalidResponse, mcpReply, readerAction, outstanding, decision, decisionAction, sessionClosed, wrongAction];
