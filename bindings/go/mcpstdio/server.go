package mcpstdio

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A StdioTransport is an mcp.Transport that communicates over stdin/stdout
// using newline-delimited JSON, as the SDK's mcp.StdioTransport, reading
// stdin as role server (see the package documentation).
type StdioTransport struct {
	// MaxLineLength bounds the bytes of one inbound line (LF excluded),
	// as in the SDK. A value of 0 selects the library's default for the
	// MCP profile (envelope.ProfileMCP.DefaultMaxLine()); a negative value
	// disables the cap. A longer line is
	// skipped as it arrives, never held whole, with a log record; the
	// session goes on. When its first bytes hold a request's id and
	// method, the library's reply (the line is too long) is written back
	// with that id (SPEC §10.6 (d)).
	MaxLineLength int

	// Logger receives a record for each line that does not reach the
	// SDK; nil means slog.Default().
	Logger *slog.Logger
}

var _ mcp.Transport = (*StdioTransport)(nil)

// Connect implements the mcp.Transport interface.
func (t *StdioTransport) Connect(context.Context) (mcp.Connection, error) {
	return newConn(rwc{os.Stdin, nopCloserWriter{os.Stdout}}, envelope.RoleServer, "stdin", t.MaxLineLength, t.Logger)
}

// nopCloserWriter is an io.WriteCloser with a trivial Close method, as in
// the SDK: closing the connection closes stdin, never stdout.
type nopCloserWriter struct {
	io.Writer
}

func (nopCloserWriter) Close() error { return nil }

// rwc binds an io.ReadCloser and an io.WriteCloser together, as in the SDK.
type rwc struct {
	rc io.ReadCloser
	wc io.WriteCloser
}

func (r rwc) Read(p []byte) (int, error)  { return r.rc.Read(p) }
func (r rwc) Write(p []byte) (int, error) { return r.wc.Write(p) }

func (r rwc) Close() error {
	return errors.Join(r.rc.Close(), r.wc.Close())
}
