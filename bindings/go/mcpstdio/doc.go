// Package mcpstdio is a drop-in for the stdio transports of the official Go
// MCP SDK (github.com/modelcontextprotocol/go-sdk/mcp) with the envelope
// rules of jsonrpc-envelope (SPEC sections 9 and 10) where the SDK's own
// transports read their pipes.
//
// StdioTransport and CommandTransport implement mcp.Transport, with the
// fields and the behaviour of the SDK's types of those names; a server or a
// client switches by changing the transport value:
//
//	server.Run(ctx, &mcp.StdioTransport{})      // the SDK's
//	server.Run(ctx, &mcpstdio.StdioTransport{}) // with the envelope rules
//
//	client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
//	client.Connect(ctx, &mcpstdio.CommandTransport{Command: cmd}, nil)
//
// Lines are read with the library's relay (envelope.Relay), in the
// direction the transport's role reads, always in the MCP profile, which
// decides what each line is and what to do with it; the relay is told of
// every line the SDK writes (Relay.Wrote), and the transport does what it
// says, deciding nothing itself:
//
//   - StdioTransport reads stdin as role server: a line owed a reply (not
//     JSON, a batch, a bare value, a request MCP refuses, such as one with
//     "id": null or "jsonrpc": "1.0") is answered at once with the
//     library's reply and never reaches the SDK: a batch's requests each
//     with their own id, one line each, a damaged request or one too long
//     to read with the id its readable part holds (SPEC §10.6); an empty
//     line, a JSON object that is not JSON-RPC, a response nobody waits for
//     (SPEC §10.8) and a line over the limit that holds no request's id are
//     dropped with a log record (the SDK's own transport ends the session
//     on most of them). A line after a
//     byte order mark reaches the SDK without the mark.
//   - CommandTransport reads the server's stdout as role client: a broken
//     request is answered with the library's client reply; a banner, a log
//     line, fmt.Println output and the like are diverted to the log and
//     never reach the SDK (the SDK's own transport ends the session at the
//     first one).
//   - Both: a response MCP refuses, or a damaged one, or one too long to
//     read, is replaced by its substitute, an error that fails the request
//     it answers at once, while that request is outstanding, and dropped
//     otherwise (diverted, on the client side, when damaged); an error that names no request
//     ("id": null or none), arriving while exactly one request is
//     outstanding, is handed to the SDK as that request's error, so the
//     call fails at once with the peer's error.
//
// Everything else reaches the SDK as its own transport hands it, decoded by
// the SDK's own jsonrpc.DecodeMessage. The SDK never gets a decoding error
// (its session would end on one): should the decoder refuse a line the
// relay handed on (SPEC §10.4; a fault of the profile, which tests never
// see), the relay says what to do instead (Relay.Refused), the conn does
// it, and the decoder's complaint is logged at error level; a substitute
// refused in its turn the library settles (dropped). Log records go to the transport's Logger
// (slog.Default() when nil), with the library's action word and note and
// the peer's text rendered by envelope.LogValue.
//
// This is a module of its own, so that the binding never requires the SDK.
package mcpstdio
