package mcpstdio

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The texts below are written by hand from SPEC.md: the reply of section
// 10.2 to a request whose jsonrpc is not "2.0", the reply of section 10.4
// to a request the SDK's decoder refused, and the substitute of section
// 10.3.
const (
	wrongVersion1 = `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: MCP requires the member jsonrpc to be the string 2.0"}}`
	refused1      = `{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}`
	substituteMsg = "Internal error: the peer's response to this request is not valid MCP"
)

// testConn is a conn on pipes, read in role, with its log, its decoder
// replaced when decode is not nil.
func testConn(t *testing.T, role envelope.Role, decode func([]byte) (jsonrpc.Message, error)) (*conn, *pipes, *SyncBuffer) {
	t.Helper()
	p := newPipes()
	log := &SyncBuffer{}
	c, err := makeConn(p, role, "test", 0, slog.New(slog.NewTextHandler(log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if decode != nil {
		c.decode = decode
	}
	c.start()
	t.Cleanup(func() { c.Close() })
	return c, p, log
}

func readWithin(t *testing.T, c *conn) (jsonrpc.Message, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return c.Read(ctx)
}

// wantPing reads the next message, which must be a ping request.
func wantPing(t *testing.T, c *conn, id int64) {
	t.Helper()
	msg, err := readWithin(t, c)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok || req.Method != "ping" || req.ID.Raw() != id {
		t.Fatalf("Read: %#v, want ping %d", msg, id)
	}
}

func mustID(n float64) jsonrpc.ID {
	id, err := jsonrpc.MakeID(n)
	if err != nil {
		panic(err)
	}
	return id
}

func ping(id string) string { return `{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}` + "\n" }

func TestALineTheSDKsOwnTransportWouldEndItsSessionOnIsAnswered(t *testing.T) {
	// The SDK's decoder refuses its version tag, and its own connection
	// ends there; the MCP profile answers the line and the session goes on.
	line := `{"jsonrpc":"1.0","id":1,"method":"ping"}`
	if _, err := jsonrpc.DecodeMessage([]byte(line)); err == nil {
		t.Fatalf("the SDK's decoder reads %s", line)
	}
	c, p, log := testConn(t, envelope.RoleServer, nil)
	go io.WriteString(p.in, line+"\n"+ping("2"))
	wantPing(t, c, 2)
	if got := p.out.String(); got != wrongVersion1+"\n" {
		t.Errorf("written back: %q", got)
	}
	if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), "kind=invalid_request action=answered") ||
		strings.Contains(log.String(), "level=ERROR") {
		t.Errorf("log:\n%s", log)
	}
}

// refusing is the SDK's decoder, but for the lines that hold "refuse":
// what it does with lines the MCP profile calls messages and it still
// refuses (none are known: the profile's rules 7 and 8 exist so that the
// SDKs' parsers refuse none).
func refusing(data []byte) (jsonrpc.Message, error) {
	if bytes.Contains(data, []byte(`"refuse"`)) {
		return nil, errors.New("this SDK refuses it")
	}
	return jsonrpc.DecodeMessage(data)
}

// TestLinesTheSDKsDecoderRefuses: the SDK never sees a line its decoder
// refuses, nor an error: a request is answered with -32600, a response to
// a request outstanding is replaced by its substitute, a notification is
// dropped, each with a record at error level.
func TestLinesTheSDKsDecoderRefuses(t *testing.T) {
	request := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"refuse":true}}`
	response := `{"jsonrpc":"2.0","id":9,"result":{"refuse":true}}`
	notification := `{"jsonrpc":"2.0","method":"notifications/message","params":{"refuse":true}}`
	for _, line := range []string{request, response, notification} {
		if k := envelope.ProfileMCP.Classify([]byte(line)).Kind; !k.IsMessage() {
			t.Fatalf("the MCP profile calls %s %v", line, k)
		}
	}
	for _, role := range []envelope.Role{envelope.RoleServer, envelope.RoleClient} {
		t.Run(role.String(), func(t *testing.T) {
			c, p, log := testConn(t, role, refusing)
			if err := c.Write(context.Background(), &jsonrpc.Request{ID: mustID(9), Method: "roots/list"}); err != nil {
				t.Fatal(err)
			}
			go io.WriteString(p.in, request+"\n"+response+"\n"+notification+"\n"+ping("2"))
			msg, err := readWithin(t, c)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			resp, ok := msg.(*jsonrpc.Response)
			var wire *jsonrpc.Error
			if !ok || resp.ID.Raw() != int64(9) || !errors.As(resp.Error, &wire) || wire.Code != -32603 ||
				wire.Message != substituteMsg {
				t.Fatalf("in the response's place: %#v", msg)
			}
			wantPing(t, c, 2)
			if got := p.out.String(); got != `{"jsonrpc":"2.0","id":9,"method":"roots/list"}`+"\n"+refused1+"\n" {
				t.Errorf("written: %q", got)
			}
			records := strings.Split(strings.TrimSpace(log.String()), "\n")
			if len(records) != 3 {
				t.Fatalf("%d records:\n%s", len(records), log)
			}
			for i, action := range []string{"answered", "substituted", "dropped"} {
				if !strings.Contains(records[i], " level=ERROR ") || !strings.Contains(records[i], "action="+action) ||
					!strings.Contains(records[i], `error="this SDK refuses it"`) {
					t.Errorf("record %d: %s", i+1, records[i])
				}
			}
			if n := c.relay.Outstanding(c.dir); n != 0 {
				t.Errorf("outstanding %d after the substitute", n)
			}
		})
	}
}

// TestTheSDKNeverGetsADecodingError: with a decoder that refuses every
// line, nothing reaches the SDK, not even an error, until the stream ends;
// the substitute refused in its turn is settled by the library (dropped,
// with its note), not by a rule of the transport's.
func TestTheSDKNeverGetsADecodingError(t *testing.T) {
	refuse := func([]byte) (jsonrpc.Message, error) { return nil, errors.New("refused\nforged=1") }
	for _, role := range []envelope.Role{envelope.RoleServer, envelope.RoleClient} {
		t.Run(role.String(), func(t *testing.T) {
			c, p, log := testConn(t, role, refuse)
			if err := c.Write(context.Background(), &jsonrpc.Request{ID: mustID(9), Method: "ping"}); err != nil {
				t.Fatal(err)
			}
			go func() {
				io.WriteString(p.in, ping("1")+`{"jsonrpc":"2.0","id":9,"result":{}}`+"\n"+
					`{"jsonrpc":"2.0","method":"notifications/progress"}`+"\n")
				p.in.Close()
			}()
			if msg, err := readWithin(t, c); msg != nil || err != io.EOF {
				t.Fatalf("Read: %#v, %v; want io.EOF", msg, err)
			}
			if got := p.out.String(); got != ping("9")+refused1+"\n" {
				t.Errorf("written: %q", got)
			}
			text := log.String()
			// Four refusals, each at error level: the request (answered),
			// the response (substituted), its substitute (the library's
			// second refusal: dropped), the notification (dropped). The
			// decoder's complaint is rendered by LogValue.
			if n := strings.Count(text, "level=ERROR"); n != 4 || strings.Contains(text, "\nforged=1") ||
				!strings.Contains(text, `refused\\u000aforged=1`) {
				t.Errorf("%d error records:\n%s", n, text)
			}
			records := strings.Split(strings.TrimSpace(text), "\n")
			if len(records) != 4 {
				t.Fatalf("%d records:\n%s", len(records), text)
			}
			for i, want := range []string{
				`msg="jsonrpc-envelope: the SDK's decoder refused a line" stream=test line=1 kind=request action=answered`,
				`msg="jsonrpc-envelope: the SDK's decoder refused a line" stream=test line=2 kind=response action=substituted`,
				`msg="jsonrpc-envelope: the SDK's decoder refused a substitute" stream=test line=2 kind=response ` +
					`action=dropped note="the receiving SDK's decoder refused the substitute too"`,
				`msg="jsonrpc-envelope: the SDK's decoder refused a line" stream=test line=3 kind=notification action=dropped`,
			} {
				if !strings.Contains(records[i], " level=ERROR "+want) {
					t.Errorf("record %d: %s\nwant %s", i+1, records[i], want)
				}
			}
			if n := c.relay.Outstanding(c.dir); n != 0 {
				t.Errorf("outstanding %d after the substitute", n)
			}
		})
	}
}

// TestTheMCPVectorsReachTheSDK: every line of tests/vectors/mcp.jsonl, in
// each role, on the SDK's own decoder: each that the vectors call a
// message that names a request (nothing is outstanding) reaches the SDK,
// but a response on the server side, which nobody waits for (SPEC 10.8
// (a)), and the decoder refuses none.
func TestTheMCPVectorsReachTheSDK(t *testing.T) {
	var stream strings.Builder
	want := map[envelope.Role]int{}
	for _, v := range mcpVectors(t) {
		if strings.ContainsAny(v.input, "\n") {
			continue // several lines
		}
		stream.WriteString(v.input + "\n")
		if v.Kind == "request" || v.Kind == "notification" {
			want[envelope.RoleServer]++
			want[envelope.RoleClient]++
		}
		if v.Kind == "response" && !v.NamesNoRequest {
			want[envelope.RoleClient]++
		}
	}
	if want[envelope.RoleServer] < 20 || want[envelope.RoleClient] <= want[envelope.RoleServer] {
		t.Fatalf("only %v messages among the vectors", want)
	}
	stream.WriteString(`{"jsonrpc":"2.0","method":"end of the vectors"}` + "\n")
	for _, role := range []envelope.Role{envelope.RoleServer, envelope.RoleClient} {
		t.Run(role.String(), func(t *testing.T) {
			c, p, log := testConn(t, role, nil)
			go io.WriteString(p.in, stream.String())
			got := 0
			for {
				msg, err := readWithin(t, c)
				if err != nil {
					t.Fatalf("Read after %d messages: %v", got, err)
				}
				if req, ok := msg.(*jsonrpc.Request); ok && req.Method == "end of the vectors" {
					break
				}
				got++
			}
			if got != want[role] {
				t.Errorf("%d messages reached the SDK, want %d", got, want[role])
			}
			if strings.Contains(log.String(), "level=ERROR") {
				t.Errorf("the SDK's decoder refused a line:\n%s", log)
			}
		})
	}
}

// mcpVector is the part of a record of tests/vectors/mcp.jsonl these
// tests use; input is its line's bytes.
type mcpVector struct {
	Name           string  `json:"name"`
	Line           *string `json:"line"`
	LineHex        *string `json:"line_hex"`
	Kind           string  `json:"kind"`
	NamesNoRequest bool    `json:"names_no_request"`
	input          string
}

func mcpVectors(t *testing.T) []mcpVector {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "tests", "vectors", "mcp.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []mcpVector
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var v mcpVector
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		switch {
		case v.Line != nil:
			v.input = *v.Line
		case v.LineHex != nil:
			b, err := hex.DecodeString(*v.LineHex)
			if err != nil {
				t.Fatal(err)
			}
			v.input = string(b)
		default:
			t.Fatalf("%s: no line", v.Name)
		}
		out = append(out, v)
	}
	return out
}
