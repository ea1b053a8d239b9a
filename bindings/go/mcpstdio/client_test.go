package mcpstdio_test

// The Go SDK's client on our CommandTransport, against servers that pollute
// their stdout, against one that answers initialize with an error that
// names no request, and against the Python SDK's server on our Python
// transport (cross-language); each beside the same run on the SDK's own
// CommandTransport (the control, asserted as observed with go-sdk v1.8.0).

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go/mcpstdio"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const hello = "hello through stdio"

// report is what a session got.
type report struct {
	Tools []string
	Echo  []string
}

func command(argv []string) *exec.Cmd {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = os.Stderr
	return cmd
}

// session connects, lists the tools and calls echo with text.
func session(ctx context.Context, t mcp.Transport, text string) (*report, error) {
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpstdio-test", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	result, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": text}})
	if err != nil {
		return nil, err
	}
	r := &report{}
	for _, tool := range tools.Tools {
		r.Tools = append(r.Tools, tool.Name)
	}
	for _, c := range result.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			r.Echo = append(r.Echo, tc.Text)
		}
	}
	return r, nil
}

func withTimeout(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// Servers that write a banner, print output and JSON log lines to stdout.
var polluting = map[string]func() []string{
	"go-sdk":     func() []string { return append(slices.Clone(goSDKServer), "--pollute") }, // a banner, a JSON log line, fmt.Printf in the tool
	"naive":      func() []string { return naiveServer },                                    // a banner, a JSON log line, print(), plain log lines
	"python-sdk": func() []string { return append(slices.Clone(pySDKServer), "--pollute") }, // a banner and a JSON log line
}

func TestOursCompletesASessionWithAPollutingServer(t *testing.T) {
	for name, argv := range polluting {
		t.Run(name, func(t *testing.T) {
			var log logBuffer
			r, err := session(withTimeout(t, 30*time.Second),
				&mcpstdio.CommandTransport{Command: command(argv()), Logger: log.Logger()}, hello)
			if err != nil {
				t.Fatalf("session: %v\nlog:\n%s", err, log.String())
			}
			if !slices.Equal(r.Tools, []string{"echo"}) || !slices.Equal(r.Echo, []string{hello}) {
				t.Errorf("got %+v", r)
			}
			// The pollution is in the log, never in the session.
			records := strings.Split(strings.TrimSpace(log.String()), "\n")
			// Diverted: the library's word for what a server wrote to its
			// stdout that is no message (SPEC §8, §10.5).
			if !strings.Contains(records[0], "stream=stdout line=1 kind=parse_error action=diverted") {
				t.Errorf("first record: %s", records[0])
			}
			if !strings.Contains(log.String(), "kind=not_jsonrpc action=diverted") {
				t.Errorf("no JSON log line in the log:\n%s", log.String())
			}
		})
	}
}

func TestControlTheSDKTransportEndsTheSessionAtTheFirstPollutedLine(t *testing.T) {
	for name, argv := range polluting {
		t.Run(name, func(t *testing.T) {
			_, err := session(withTimeout(t, 30*time.Second), &mcp.CommandTransport{Command: command(argv())}, hello)
			if err == nil || !strings.Contains(err.Error(), "invalid character") {
				t.Errorf("got %v, want the SDK's JSON decoding error", err)
			}
		})
	}
}

func TestABrokenRequestFromTheServerIsAnsweredByOursOnly(t *testing.T) {
	reply := *mcpVectors(t)["envelope: number method with a string id echoes the id"].ReplyClient // what the naive server sends
	for _, ours := range []bool{true, false} {
		log := filepath.Join(t.TempDir(), "reached-the-server.jsonl")
		cmd := command(append(slices.Clone(naiveServer), "--log", log))
		var transport mcp.Transport = &mcp.CommandTransport{Command: cmd}
		if ours {
			transport = &mcpstdio.CommandTransport{Command: cmd, Logger: (&logBuffer{}).Logger()}
		}
		r, err := session(withTimeout(t, 30*time.Second), transport, "send a broken request")
		if ours && (err != nil || !slices.Equal(r.Echo, []string{"send a broken request"})) {
			t.Fatalf("ours: %+v, %v", r, err)
		}
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		reached := slices.Contains(strings.Split(string(data), "\n"), reply)
		if reached != ours {
			t.Errorf("ours=%v: the library's client reply reached the server: %v\n%s", ours, reached, data)
		}
	}
}

func TestOursFailsAtOnceWithTheErrorThatNamesNoRequest(t *testing.T) {
	for _, option := range [][]string{nil, {"--no-id"}} {
		start := time.Now()
		_, err := session(withTimeout(t, 30*time.Second),
			&mcpstdio.CommandTransport{Command: command(append(slices.Clone(unattributed), option...)), Logger: (&logBuffer{}).Logger()}, hello)
		elapsed := time.Since(start)
		var wire *jsonrpc.Error
		if !errors.As(err, &wire) || wire.Code != -32002 || wire.Message != "initialize refused: this server is read-only" {
			t.Fatalf("%v: got %v, want the server's error", option, err)
		}
		if elapsed >= time.Second {
			t.Errorf("%v: failed after %v", option, elapsed)
		}
		t.Logf("%v: failed after %v: %v", option, elapsed, err)
	}
}

func TestControlTheSDKTransportEndsTheSessionWithoutThePeersError(t *testing.T) {
	start := time.Now()
	_, err := session(withTimeout(t, 30*time.Second), &mcp.CommandTransport{Command: command(unattributed)}, hello)
	t.Logf("failed after %v: %v", time.Since(start), err)
	var wire *jsonrpc.Error
	if !errors.As(err, &wire) || wire.Code != -32600 || wire.Message != "invalid request" {
		t.Fatalf("got %v, want the SDK's own invalid request error", err)
	}
	if strings.Contains(err.Error(), "read-only") {
		t.Errorf("the server's error reached the caller: %v", err)
	}
}

func TestWithNoneOrTwoOutstandingAnErrorThatNamesNoRequestIsDropped(t *testing.T) {
	var log logBuffer
	ctx := withTimeout(t, 30*time.Second)
	conn, err := (&mcpstdio.CommandTransport{Command: command(twoRequestsPeer), Logger: log.Logger()}).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, n := range []float64{1, 2} {
		id, err := jsonrpc.MakeID(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := conn.Write(ctx, &jsonrpc.Request{ID: id, Method: "ping"}); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for len(got) < 3 {
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatalf("read: %v after %q", err, got)
		}
		data, _ := jsonrpc.EncodeMessage(msg)
		got = append(got, string(data))
	}
	want := []string{
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":2,"result":{}}`,
		`{"jsonrpc":"2.0","id":"marker","method":"ping"}`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got %q", got)
	}
	// Two records, the library's action and its note: two outstanding,
	// then none.
	records := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(records) != 2 ||
		!strings.Contains(records[0], "line=1 kind=response action=dropped note=") ||
		!strings.Contains(records[1], "line=4 kind=response action=dropped note=") {
		t.Errorf("records:\n%s", log.String())
	}
}

func TestOursAgainstTheSDKServersOnOurServerTransports(t *testing.T) {
	// Cross-language: the Python SDK's server on jsonrpc_envelope.mcpstdio; and
	// the Go SDK's, both ends ours.
	for name, argv := range map[string][]string{"python": pyOurServer, "go": goOurServer} {
		t.Run(name, func(t *testing.T) {
			var log logBuffer
			r, err := session(withTimeout(t, 30*time.Second),
				&mcpstdio.CommandTransport{Command: command(argv), Logger: log.Logger()}, hello)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(r.Tools, []string{"echo"}) || !slices.Equal(r.Echo, []string{hello}) {
				t.Errorf("got %+v", r)
			}
			if log.String() != "" {
				t.Errorf("records of a clean session:\n%s", log.String())
			}
		})
	}
}

// The JSON a session's report would print, for failure messages.
func (r *report) String() string {
	data, _ := json.Marshal(r)
	return string(data)
}
