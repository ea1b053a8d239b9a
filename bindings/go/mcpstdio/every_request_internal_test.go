package mcpstdio

// SPEC §10.6 through the transports: every request whose id is in a line
// gets an answer with that id, though the line is no message the SDK can
// read (a batch, a damaged line, a line too long to read), and a line
// after a byte order mark reaches the SDK. The transport decides nothing:
// it does what the library's session says (conn.do). The texts below are
// written by hand from SPEC.md.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	bom       = "\xEF\xBB\xBF"
	batchNote = "Invalid Request: MCP has no batches; send each request on its own line"
	// A limit the too-long lines below are over, their ids and methods
	// within it.
	smallLimit = 256
)

func batchReply(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"` + batchNote + `"}}`
}

func tooLongReply(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}}`
}

func parseErrorReply(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32700,"message":"Parse error"}}`
}

// pipeTransport is the server transport on pipes: StdioTransport's conn,
// read as role server, with a line limit of its own.
type pipeTransport struct {
	p      *pipes
	limit  int
	logger *slog.Logger
}

func (tr pipeTransport) Connect(context.Context) (mcp.Connection, error) {
	return newConn(tr.p, envelope.RoleServer, "stdin", tr.limit, tr.logger)
}

// answers reads what the server wrote, line by line, until it has
// answered the request whose id is the JSON text last; it returns every
// line by its id's text, in order.
func answers(t *testing.T, p *pipes, last string) (map[string][]string, []string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		written := p.out.String()
		lines := strings.Split(strings.TrimSuffix(written, "\n"), "\n")
		byID := map[string][]string{}
		for _, line := range lines {
			var m map[string]json.RawMessage
			if json.Unmarshal([]byte(line), &m) == nil {
				byID[string(m["id"])] = append(byID[string(m["id"])], line)
			}
		}
		if byID[last] != nil && strings.HasSuffix(written, "\n") {
			return byID, lines
		}
		if time.Now().After(deadline) {
			t.Fatalf("no answer to %s; the server wrote %q", last, written)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestServerTransportAnswersEveryRequestInALine: a host writes, to the Go
// SDK's server on our transport, an initialize after a byte order mark
// (as some Windows hosts do), a batch of two requests, a damaged request,
// a request too long to read, and a ping after a byte order mark: each
// request gets one answer with its id, the SDK's own where the line
// reached it and the library's where it could not, and the session goes on.
func TestServerTransportAnswersEveryRequestInALine(t *testing.T) {
	ctx := context.Background()
	p := newPipes()
	log := &SyncBuffer{}
	server := mcp.NewServer(&mcp.Implementation{Name: "every-request", Version: "1"}, nil)
	session, err := server.Connect(ctx, pipeTransport{p, smallLimit, log.Logger()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	long := `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"echo","arguments":{"text":"` +
		strings.Repeat("x", 4*smallLimit) + `"}}}`
	damaged := "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"text\":\"a\xffb\"}}}"
	host := []string{
		bom + `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"host","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"2","method":"tools/list"}]`,
		damaged,
		long,
		bom + `{"jsonrpc":"2.0","id":5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"last","method":"ping"}`,
	}
	go io.WriteString(p.in, strings.Join(host, "\n")+"\n")
	byID, lines := answers(t, p, `"last"`)
	// The library's answers, exactly; the two of the batch written
	// together, one line each.
	for id, want := range map[string]string{
		`1`:     batchReply("1"),
		`"2"`:   batchReply(`"2"`),
		`3`:     parseErrorReply("3"),
		`"big"`: tooLongReply(`"big"`),
	} {
		if got := byID[id]; len(got) != 1 || got[0] != want {
			t.Errorf("answers to %s: %q, want %q", id, got, want)
		}
	}
	if !strings.Contains(p.out.String(), batchReply("1")+"\n"+batchReply(`"2"`)+"\n") {
		t.Errorf("the batch's answers are not two lines in a row:\n%s", p.out.String())
	}
	// The SDK's own: the requests after a byte order mark reached it.
	for _, id := range []string{`"init"`, `5`, `"last"`} {
		var m map[string]json.RawMessage
		if got := byID[id]; len(got) != 1 || json.Unmarshal([]byte(got[0]), &m) != nil || m["result"] == nil {
			t.Errorf("the SDK's answer to %s: %q", id, got)
		}
	}
	if len(lines) != 7 {
		t.Errorf("%d lines written, want 7 (one answer per request):\n%s", len(lines), p.out.String())
	}
	records := log.String()
	for _, want := range []string{
		"kind=batch action=answered",
		"kind=parse_error action=answered",
		fmt.Sprintf("kind=too_long bytes=%d action=answered", len(long)),
	} {
		if !strings.Contains(records, want) {
			t.Errorf("no %q in the log:\n%s", want, records)
		}
	}
	if strings.Contains(records, "level=ERROR") {
		t.Errorf("an error record:\n%s", records)
	}
}

// TestClientTransportSubstitutesDamagedAndTooLongResponses: on the client
// side, a response to a request of ours that is damaged or too long to
// read reaches the SDK as the substitute for its id, so the call fails at
// once; one nobody waits on, and a request too long to read, are dropped.
func TestClientTransportSubstitutesDamagedAndTooLongResponses(t *testing.T) {
	p := newPipes()
	log := &SyncBuffer{}
	c, err := makeConn(p, envelope.RoleClient, "stdout", smallLimit, log.Logger())
	if err != nil {
		t.Fatal(err)
	}
	c.start()
	t.Cleanup(func() { c.Close() })
	for _, id := range []float64{9, 10} {
		if err := c.Write(context.Background(), &jsonrpc.Request{ID: mustID(id), Method: "tools/call"}); err != nil {
			t.Fatal(err)
		}
	}
	longResponse := `{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"` + strings.Repeat("y", 4*smallLimit) + `"}]}}`
	longRequest := `{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{"messages":"` +
		strings.Repeat("z", 4*smallLimit) + `"}}`
	damaged := "{\"jsonrpc\":\"2.0\",\"id\":10,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"\xff\"}]}}"
	go io.WriteString(p.in, strings.Join([]string{longResponse, longRequest, damaged, damaged, ping("2")}, "\n"))
	for _, id := range []int64{9, 10} {
		msg, err := readWithin(t, c)
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		resp, ok := msg.(*jsonrpc.Response)
		var wire *jsonrpc.Error
		if !ok || resp.ID.Raw() != id || !errors.As(resp.Error, &wire) || wire.Code != -32603 || wire.Message != substituteMsg {
			t.Fatalf("in the place of the response to %d: %#v", id, msg)
		}
	}
	wantPing(t, c, 2)
	records := log.String()
	for _, want := range []string{
		fmt.Sprintf("kind=too_long bytes=%d action=substituted", len(longResponse)),
		fmt.Sprintf("kind=too_long bytes=%d action=dropped", len(longRequest)),
		"kind=parse_error action=substituted",
		"kind=parse_error action=diverted",
	} {
		if !strings.Contains(records, want) {
			t.Errorf("no %q in the log:\n%s", want, records)
		}
	}
	if got := p.out.String(); strings.Count(got, "\n") != 2 {
		t.Errorf("written: %q, want our two requests only", got)
	}
}
