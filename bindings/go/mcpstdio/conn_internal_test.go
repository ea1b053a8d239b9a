package mcpstdio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// pipes is a connection's far end: what the test writes is the conn's
// input; what the conn writes is collected.
type pipes struct {
	in  *io.PipeWriter
	r   *io.PipeReader
	out SyncBuffer
}

func (p *pipes) Read(b []byte) (int, error)  { return p.r.Read(b) }
func (p *pipes) Write(b []byte) (int, error) { return p.out.Write(b) }
func (p *pipes) Close() error                { return p.r.Close() }

func newPipes() *pipes {
	r, w := io.Pipe()
	return &pipes{in: w, r: r}
}

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestMaxLineLengthAsTheSDKs(t *testing.T) {
	ctx := context.Background()
	// params is an object: the MCP profile answers any other.
	long := `{"jsonrpc":"2.0","method":"big","params":{"x":"` + strings.Repeat("x", 100) + `"}}`
	short := `{"jsonrpc":"2.0","method":"small"}`
	for _, tc := range []struct {
		limit int
		want  []string
	}{
		{limit: 50, want: []string{"small"}},        // the long line is skipped
		{limit: 0, want: []string{"big", "small"}},  // the library's default
		{limit: -1, want: []string{"big", "small"}}, // no cap, as in the SDK
	} {
		p := newPipes()
		var log bytes.Buffer
		c, err := newConn(p, envelope.RoleServer, "stdin", tc.limit, slog.New(slog.NewTextHandler(&log, nil)))
		if err != nil {
			t.Fatal(err)
		}
		go io.WriteString(p.in, long+"\n"+short+"\n")
		var got []string
		for range tc.want {
			msg, err := c.Read(ctx)
			if err != nil {
				t.Fatalf("limit %d: %v", tc.limit, err)
			}
			got = append(got, msg.(*jsonrpc.Request).Method)
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("limit %d: got %q", tc.limit, got)
		}
		if tc.limit == 50 && !strings.Contains(log.String(), fmt.Sprintf("kind=too_long bytes=%d action=dropped", len(long))) {
			t.Errorf("limit 50: log %s", log.String())
		}
		c.Close()
	}
}

func TestCloseUnblocksRead(t *testing.T) {
	p := newPipes()
	c, err := newConn(p, envelope.RoleServer, "stdin", 0, quiet())
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := c.Read(context.Background())
		done <- err
	}()
	time.Sleep(10 * time.Millisecond)
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		// io.EOF, or the closed pipe's error when the read loop saw it
		// first: either ends the session, as with the SDK's connection.
		if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("Read after Close: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not unblock Read")
	}
	if err := c.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}
