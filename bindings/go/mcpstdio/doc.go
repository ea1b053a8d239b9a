// Package mcpstdio is a drop-in for the stdio transports of the official Go
// MCP SDK (github.com/modelcontextprotocol/go-sdk/mcp) with the envelope
// rules of jsonrpc-envelope (SPEC section 9) where the SDK's own transports
// read their pipes.
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
// Lines are read with the library's stream reader (envelope.Reader), which
// decides what each one is and the reply it is owed:
//
//   - StdioTransport reads stdin as role server: a line owed a reply (not
//     JSON, a batch, a bare value, a broken request) is answered at once
//     with the library's reply and never reaches the SDK; an empty line, a
//     JSON object that is not JSON-RPC and a line over the limit are
//     dropped with a log record (the SDK's own transport ends the session
//     on most of them).
//   - CommandTransport reads the server's stdout as role client: a broken
//     request is answered with the library's client reply; a banner, a log
//     line, fmt.Println output and the like are logged and never reach the
//     SDK (the SDK's own transport ends the session at the first one); an
//     error that names no request ("id": null or none), arriving while
//     exactly one request is outstanding, is handed to the SDK as that
//     request's error, so the call fails at once with the server's error.
//
// Everything else reaches the SDK as its own transport hands it. Log
// records go to the transport's Logger (slog.Default() when nil), with the
// peer's text rendered by envelope.LogValue.
//
// This is a module of its own, so that the binding never requires the SDK.
package mcpstdio
