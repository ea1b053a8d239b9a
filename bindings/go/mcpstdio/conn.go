package mcpstdio

import (
	"bytes"
	"context"
	"errors"
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
// read loop is replaced by one over the library's relay (SPEC §9, §10.4),
// which decides what to do with every line read, in the MCP profile; conn
// only does it.
type conn struct {
	rwc    io.ReadWriteCloser
	stream string // the name of what is read, in log records
	logger *slog.Logger

	// dir is the direction conn reads, the one its role reads: toward the
	// SDK. back is the other, toward the peer: where an answer to a line
	// read goes, and the SDK's own lines.
	dir, back envelope.Direction

	// mu guards relay, which the read loop feeds and Write tells of the
	// SDK's own lines.
	mu    sync.Mutex
	relay *envelope.Relay

	// decode is the SDK's own decoder (jsonrpc.DecodeMessage, what its
	// stdio transport uses); a test may replace it before the read loop
	// starts.
	decode func([]byte) (jsonrpc.Message, error)

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

// maxLine is the relay's limit for an SDK MaxLineLength: 0 is the
// library's default, and a negative value lifts the cap, as in the SDK.
func maxLine(maxLineLength int) int {
	if maxLineLength < 0 {
		return math.MaxInt
	}
	return maxLineLength // 0: the library's default
}

// newConn starts the read loop over rwc, read in role by the MCP profile.
// As in the SDK, reads run on a goroutine of their own, so that Close
// unblocks a Read at once; that goroutine leaks if rwc.Read does not
// return after rwc is closed (stdin).
func newConn(rwc io.ReadWriteCloser, role envelope.Role, stream string, maxLineLength int, logger *slog.Logger) (*conn, error) {
	c, err := makeConn(rwc, role, stream, maxLineLength, logger)
	if err != nil {
		return nil, err
	}
	c.start()
	return c, nil
}

// makeConn is newConn without the read loop.
func makeConn(rwc io.ReadWriteCloser, role envelope.Role, stream string, maxLineLength int, logger *slog.Logger) (*conn, error) {
	dir := envelope.DirectionReadBy(role)
	back := envelope.ActionAnswer.Goes(dir)
	if dir == 0 || back == 0 {
		return nil, fmt.Errorf("mcpstdio: unknown role %v", role)
	}
	relay, err := envelope.NewRelay(envelope.ProfileMCP, maxLine(maxLineLength))
	if err != nil {
		return nil, err
	}
	if logger == nil {
		logger = slog.Default()
	}
	return &conn{
		rwc:    rwc,
		stream: stream,
		logger: logger,
		dir:    dir,
		back:   back,
		relay:  relay,
		decode: jsonrpc.DecodeMessage,
		closed: make(chan struct{}),
	}, nil
}

func (c *conn) start() {
	incoming := make(chan msgOrErr)
	c.incoming = incoming
	go c.readLoop(incoming)
}

// maxEmptyReads is how many reads in a row may return nothing before the
// read loop gives up with io.ErrNoProgress, as bufio does.
const maxEmptyReads = 100

// readLoop hands the SDK the messages of each chunk read, until the stream
// ends or a read fails; the SDK never gets a decoding error.
func (c *conn) readLoop(incoming chan<- msgOrErr) {
	buf := make([]byte, envelope.DefaultReadSize)
	empties := 0
	for {
		n, err := c.rwc.Read(buf)
		switch {
		case n < 0 || n > len(buf):
			n, err = 0, errors.New("mcpstdio: io.Reader returned an invalid count")
		case n > 0:
			empties = 0
		case err == nil:
			if empties++; empties >= maxEmptyReads {
				err = io.ErrNoProgress
			}
		}
		if n > 0 {
			if !c.deliver(incoming, c.feed(buf[:n], false)) {
				return
			}
		}
		if err == io.EOF {
			// A last line without LF.
			if !c.deliver(incoming, c.feed(nil, true)) {
				return
			}
		}
		if err != nil {
			c.send(incoming, msgOrErr{err: err})
			return
		}
	}
}

// feed hands the relay a chunk (or ends its stream) and does what each
// line it completes is owed; it returns the messages for the SDK, and
// last an error when the relay failed.
func (c *conn) feed(chunk []byte, end bool) []msgOrErr {
	c.mu.Lock()
	var lines []envelope.Line
	var err error
	if end {
		lines, err = c.relay.End(c.dir)
	} else {
		lines, err = c.relay.Feed(c.dir, chunk)
	}
	c.mu.Unlock()
	if err != nil {
		return []msgOrErr{{err: err}}
	}
	// The lines' bytes stay valid until this goroutine feeds the relay
	// again.
	var out []msgOrErr
	for i := range lines {
		if msg := c.do(&lines[i]); msg != nil {
			out = append(out, msgOrErr{msg: msg})
		}
	}
	return out
}

// deliver sends each of ms to Read; false when the loop must stop (an
// error was sent, or the connection is closed).
func (c *conn) deliver(incoming chan<- msgOrErr, ms []msgOrErr) bool {
	for _, m := range ms {
		if !c.send(incoming, m) || m.err != nil {
			return false
		}
	}
	return true
}

func (c *conn) send(incoming chan<- msgOrErr, m msgOrErr) bool {
	select {
	case incoming <- m:
		return true
	case <-c.closed:
		return false
	}
}

// do does what the relay decided for one line: the message to hand to the
// SDK, or nil. Its text (the line itself for a forward without one) goes
// where the library says.
func (c *conn) do(ln *envelope.Line) jsonrpc.Message {
	text := ln.ActionText
	if text == nil && ln.Action == envelope.ActionForward {
		// A copy: the line's bytes are the relay's only until its next
		// chunk, and the message may keep some of them (params).
		text = bytes.Clone(ln.Bytes)
	}
	to := ln.Action.Goes(c.dir)
	if text == nil {
		// Only a forward stands for the line itself: an action of the
		// library's with no text goes nowhere but the log.
		to = 0
	}
	switch to {
	case c.dir:
		if ln.Action != envelope.ActionForward {
			c.record(ln, "jsonrpc-envelope: line replaced before the SDK")
		}
		return c.handOn(ln, text)
	case c.back:
		err := c.writeLine(text)
		c.record(ln, "jsonrpc-envelope: line kept from the SDK")
		if err != nil {
			c.logger.Warn("jsonrpc-envelope: the reply could not be written", "stream", c.stream, "line", ln.Number,
				"error", err)
		}
	default: // dropped, diverted
		c.record(ln, "jsonrpc-envelope: line kept from the SDK")
	}
	return nil
}

// handOn decodes data, which the relay hands on for ln, with the SDK's own
// decoder. Where the decoder refuses it (SPEC §10.4: a fault of the
// profile, never the SDK's problem, which would end its session), the
// relay says what to do instead, and the SDK's complaint is logged at
// error level: an answer goes back to the peer, a text handed on instead
// is decoded in its turn, and the library settles a second refusal (a
// drop).
func (c *conn) handOn(ln *envelope.Line, data []byte) jsonrpc.Message {
	what := "jsonrpc-envelope: the SDK's decoder refused a line"
	for {
		msg, err := c.decode(data)
		if err == nil {
			return msg
		}
		c.mu.Lock()
		d, rerr := c.relay.Refused(c.dir, data)
		c.mu.Unlock()
		args := []any{"stream", c.stream, "line", ln.Number, "kind", ln.Kind.String(), "action", d.Action.String(),
			"note", d.Note, "error", envelope.LogValue([]byte(err.Error())), "text", envelope.LogValue(data)}
		if d.Text != nil {
			args = append(args, "reply", envelope.LogValue(d.Text))
		}
		if rerr != nil {
			args = append(args, "session_error", rerr.Error())
		}
		c.logger.Error(what, args...)
		to := d.Action.Goes(c.dir)
		if d.Text == nil {
			// An action of the library's with no text goes nowhere.
			to = 0
		}
		switch to {
		case c.back:
			if err := c.writeLine(d.Text); err != nil {
				c.logger.Warn("jsonrpc-envelope: the reply could not be written", "stream", c.stream,
					"line", ln.Number, "error", err)
			}
			return nil
		case c.dir:
			data = d.Text
			what = "jsonrpc-envelope: the SDK's decoder refused a substitute"
		default:
			return nil
		}
	}
}

// record logs a line that did not reach the SDK as it was read, with the
// library's action and note, and the peer's text as envelope.LogValue
// renders it.
func (c *conn) record(ln *envelope.Line, msg string) {
	args := []any{"stream", c.stream, "line", ln.Number, "kind", ln.Kind.String()}
	if ln.TooLong {
		args = append(args, "bytes", ln.Len)
	}
	args = append(args, "action", ln.Action.String(), "note", ln.Note)
	if !ln.TooLong {
		args = append(args, "text", envelope.LogValue(ln.Bytes))
	}
	if ln.ActionText != nil {
		args = append(args, "reply", envelope.LogValue(ln.ActionText))
	}
	c.logger.Warn(msg, args...)
}

// writeLine writes data and its LF in one Write, never inside another
// line: an answer of the relay's (which notes it itself; an MCP batch's
// is several lines, SPEC §10.6 (b), written whole) or a line of the SDK's
// (Write).
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
	// The relay learns of a request before it leaves, so that its answer
	// always finds it outstanding.
	c.mu.Lock()
	err = c.relay.Wrote(c.back, data)
	c.mu.Unlock()
	if err != nil && !errors.Is(err, envelope.ErrRelayClosed) {
		return err
	}
	return c.writeLine(data)
}

// Close implements mcp.Connection; it may be called more than once. It
// frees the library's relay once the read loop can no longer use it.
func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		c.closeErr = c.rwc.Close()
		close(c.closed)
		c.mu.Lock()
		c.relay.Close()
		c.mu.Unlock()
	})
	return c.closeErr
}
