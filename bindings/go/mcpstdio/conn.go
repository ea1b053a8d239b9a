package mcpstdio

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"sync"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// conn is the mcp.Connection of both transports: newline-delimited JSON-RPC
// over an io.ReadWriteCloser, as the SDK's own (unexported) ioConn, whose
// read loop is replaced by one over the library's reader.
type conn struct {
	rwc    io.ReadWriteCloser
	role   envelope.Role
	stream string // the name of what is read, in log records
	logger *slog.Logger

	// pending is the client's handshake rule; nil on the server.
	pending *outstanding

	writeMu sync.Mutex // whole lines, one at a time

	// incoming receives the messages of the read loop (see newConn).
	incoming <-chan msgOrErr

	closeOnce sync.Once
	closed    chan struct{}
	closeErr  error
}

type msgOrErr struct {
	msg jsonrpc.Message
	err error
}

var _ mcp.Connection = (*conn)(nil)

// maxLine is the reader's limit for an SDK MaxLineLength: 0 is the
// library's default, and a negative value lifts the cap, as in the SDK.
func maxLine(maxLineLength int) int {
	if maxLineLength < 0 {
		return math.MaxInt
	}
	return maxLineLength // 0: the library's default
}

// newConn starts the read loop over rwc. As in the SDK, reads run on a
// goroutine of their own, so that Close unblocks a Read at once; that
// goroutine leaks if rwc.Read does not return after rwc is closed (stdin).
func newConn(rwc io.ReadWriteCloser, role envelope.Role, stream string, maxLineLength int, logger *slog.Logger, pending *outstanding) *conn {
	if logger == nil {
		logger = slog.Default()
	}
	incoming := make(chan msgOrErr)
	c := &conn{
		rwc:      rwc,
		role:     role,
		stream:   stream,
		logger:   logger,
		pending:  pending,
		incoming: incoming,
		closed:   make(chan struct{}),
	}
	go c.readLoop(envelope.NewReader(rwc, envelope.WithMaxLine(maxLine(maxLineLength))), incoming)
	return c
}

// readLoop hands each line's message to Read, until the stream ends, a
// read fails, or a line the library hands on fails the SDK's own decoding
// (which ends the SDK's session, as with its own transport).
func (c *conn) readLoop(r *envelope.Reader, incoming chan<- msgOrErr) {
	defer r.Close()
	for {
		line, err := r.Next()
		var m msgOrErr
		if err != nil {
			m.err = err
		} else if m.msg, m.err = c.decode(&line); m.msg == nil && m.err == nil {
			continue
		}
		select {
		case incoming <- m:
		case <-c.closed:
			return
		}
		if m.err != nil {
			return
		}
	}
}

// decode applies SPEC section 9 to one line: the message to hand to the
// SDK, or a decoding error for it, or neither when the line stops here.
func (c *conn) decode(line *envelope.Line) (jsonrpc.Message, error) {
	if line.TooLong {
		c.logger.Warn("jsonrpc-envelope: line kept from the SDK", "stream", c.stream, "line", line.Number,
			"kind", line.Kind.String(), "bytes", line.Len, "action", "dropped")
		return nil, nil
	}
	if reply := line.Reply(c.role); reply != nil {
		err := c.writeLine(reply)
		c.record(line, "answered")
		if err != nil {
			c.logger.Warn("jsonrpc-envelope: the reply could not be written", "stream", c.stream, "line", line.Number, "error", err)
		}
		return nil, nil
	}
	if !line.Kind.IsMessage() {
		// Only the library's messages go to the SDK, as its own transport
		// would hand them.
		c.record(line, "dropped")
		return nil, nil
	}
	var data []byte
	if line.NamesNoRequest && c.pending != nil {
		attributed, n := c.pending.attribute(line)
		if attributed == nil {
			c.record(line, "names no request, dropped", "outstanding", n)
			return nil, nil
		}
		data = attributed
	} else {
		// A copy: the line's bytes are the reader's only until its next
		// line, and the message may keep some of them (params) for longer.
		data = bytes.Clone(line.Bytes)
	}
	msg, err := jsonrpc.DecodeMessage(data)
	if err == nil && c.pending != nil {
		c.pending.answered(msg)
	}
	return msg, err
}

func (c *conn) record(line *envelope.Line, action string, more ...any) {
	args := append([]any{"stream", c.stream, "line", line.Number, "kind", line.Kind.String(), "action", action},
		more...)
	args = append(args, "text", envelope.LogValue(line.Bytes))
	c.logger.Warn("jsonrpc-envelope: line kept from the SDK", args...)
}

// writeLine writes data and its LF in one Write, never inside another line.
func (c *conn) writeLine(data []byte) error {
	buf := make([]byte, 0, len(data)+1)
	buf = append(append(buf, data...), '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	_, err := c.rwc.Write(buf)
	return err
}

// SessionID implements mcp.Connection: stdio has no session id.
func (c *conn) SessionID() string { return "" }

// Read implements mcp.Connection.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	// As the SDK's: a read on a done context is an error.
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case v := <-c.incoming:
		return v.msg, v.err
	case <-c.closed:
		return nil, io.EOF
	}
}

// Write implements mcp.Connection. It may be called concurrently.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %v", err)
	}
	if c.pending != nil {
		// Counted before it leaves, so that its answer always finds it.
		c.pending.written(msg)
	}
	return c.writeLine(data)
}

// Close implements mcp.Connection; it may be called more than once.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = c.rwc.Close()
		close(c.closed)
	})
	return c.closeErr
}
