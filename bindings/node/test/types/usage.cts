// The package's types as a CommonJS program sees them.
import envelope = require('jsonrpc-envelope');

const c: envelope.Classification = envelope.classify('[1]');
const reply: string | null = envelope.invalidReply('[1]', 'client');
const mcpReply: string | null = envelope.invalidReply('[1]', 'client', { profile: envelope.Profile.MCP });
const session = new envelope.Session('client', { profile: 'mcp' });
const actions: envelope.Action[] = session.feed('[1]\n').map((line) => line.action);
const kinds: string[] = Object.values(envelope.Kind);
const relay = new envelope.Relay({ profile: 'mcp' });
const directions: envelope.Direction[] = [envelope.Direction.readBy('client'), envelope.Direction.TO_SERVER];
const relayActions: envelope.Action[] = relay.feed('to_host', '[1]\n').map((line) => line.action);
relay.close();
// @ts-expect-error: a role is a string
envelope.invalidReply('[1]', 2);

export { c, reply, kinds, mcpReply, actions, directions, relayActions };
