package main

import (
	"bufio"
	"bytes"
	"debug/elf"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
)

// The test binary doubles as the server: started with this variable set,
// it runs the server's run() on its own stdio instead of the tests.
const asServer = "ECHO_SERVER_TEST_AS_SERVER"

func TestMain(m *testing.M) {
	if os.Getenv(asServer) == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// serverCmd is the server as a subprocess.
func serverCmd(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Env = append(os.Environ(), asServer+"=1")
	return cmd
}

// libraryReply is the reply the library says line is owed by a server.
func libraryReply(line string) string {
	reply, ok := envelope.InvalidReply([]byte(line), envelope.RoleServer)
	if !ok {
		panic("no reply owed for " + line)
	}
	return string(reply)
}

const (
	initialize = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	initResult = `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"jsonrpc-envelope-echo","version":"0.1.0"}}}`
)

// session is a conversation: each line the client sends, and the line the
// server must answer with ("" for none).
var session = []struct{ send, want string }{
	{initialize, initResult},
	{`{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
	{`{"jsonrpc":"2.0","id":"p-1","method":"ping"}`, `{"jsonrpc":"2.0","id":"p-1","result":{}}`},
	{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"echo","description":"Returns its text unchanged.","inputSchema":{"type":"object","properties":{"text":{"type":"string","description":"The text to return."}},"required":["text"]}}]}}`},
	{`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"h\u00e9llo <b>&\n"}}}`,
		`{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"h\u00e9llo <b>&\n"}],"isError":false}}`},
	// "id": null is a request, answered with "id": null.
	{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":null,"result":{}}`},
	// Ids are echoed as their exact text.
	{`{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}`, `{"jsonrpc":"2.0","id":12345678901234567890,"result":{}}`},
	{`{"jsonrpc":"2.0","id":"a\u0062<","method":"ping"}`, `{"jsonrpc":"2.0","id":"a\u0062<","result":{}}`},
	{`{"jsonrpc":"2.0","id":1.50,"method":"resources/list"}`, `{"jsonrpc":"2.0","id":1.50,"error":{"code":-32601,"message":"Method not found"}}`},
	{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"rm","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"Unknown tool: rm"}}`},
	{`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"TEXT":"x"}}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"Invalid params: echo needs arguments {\"text\": string}"}}`},
	{`{"jsonrpc":"2.0","id":5,"method":"tools/call"}`,
		`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"Invalid params: tools/call needs an object with a name"}}`},
	// Broken lines get the library's reply.
	{`{"jsonrpc":"2.0","id":6,"method":"ping"`, libraryReply(`{"jsonrpc":"2.0","id":6,"method":"ping"`)},
	{`Server listening on port 3000`, libraryReply(`x`)},
	{`[{"jsonrpc":"2.0","id":7,"method":"ping"}]`, libraryReply(`[]`)},
	{`"ping"`, libraryReply(`"ping"`)},
	{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, libraryReply(`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`)},
	{`{"jsonrpc":"2.0","id":8,"method":7}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32600,"message":"Invalid Request: the method must be a string, not a number"}}`},
	{"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"pi\xffng\"}", `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`},
	// Case matters: "Method" is not "method".
	{`{"jsonrpc":"2.0","id":10,"Method":"evil","method":"ping"}`, `{"jsonrpc":"2.0","id":10,"result":{}}`},
	// Owed nothing: responses, log lines, empty lines.
	{`{"jsonrpc":"2.0","id":11,"result":{}}`, ""},
	{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, ""},
	{"{\"level\":\"info\",\"msg\":\"hello \u202eevil\u2028forged\"}", ""},
	{``, ""},
	{"{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"ping\"}\r", `{"jsonrpc":"2.0","id":12,"result":{}}`},
}

// TestSession sends the whole session at once and checks every line of
// stdout, in order, and that stdout holds nothing else.
func TestSession(t *testing.T) {
	var in, want strings.Builder
	for _, step := range session {
		in.WriteString(step.send + "\n")
		if step.want != "" {
			want.WriteString(step.want + "\n")
		}
	}
	// A last line without LF is answered too.
	in.WriteString(`{"jsonrpc":"2.0","id":"last","method":"ping"}`)
	want.WriteString(`{"jsonrpc":"2.0","id":"last","result":{}}` + "\n")

	cmd := serverCmd(t)
	cmd.Stdin = strings.NewReader(in.String())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("server: %v\n%s", err, stderr.String())
	}
	gotLines := strings.Split(stdout.String(), "\n")
	wantLines := strings.Split(want.String(), "\n")
	for i := range max(len(gotLines), len(wantLines)) {
		var g, w string
		if i < len(gotLines) {
			g = gotLines[i]
		}
		if i < len(wantLines) {
			w = wantLines[i]
		}
		if g != w {
			t.Errorf("stdout line %d:\n got %s\nwant %s", i+1, g, w)
		}
		if g != "" && !json.Valid([]byte(g)) {
			t.Errorf("stdout line %d is not JSON: %q", i+1, g)
		}
	}
	logs := stderr.String()
	for _, want := range []string{"request tools/call, id 2", "parse_error", "not JSON-RPC", "the client reports an error", "end of input"} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, logs)
		}
	}
	// Peer text in the logs is escaped: no bidi override, no forged lines.
	if strings.ContainsAny(logs, "\u202e\u2028") || !strings.Contains(logs, `hello \u202eevil\u2028forged`) {
		t.Errorf("stderr has unescaped peer text:\n%s", logs)
	}
}

// TestInteractive talks to the server as a host does: one request, then
// wait for its answer before the next, so a server that buffers its
// output or reads ahead would hang here.
func TestInteractive(t *testing.T) {
	cmd := serverCmd(t)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdoutPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	stdout := bufio.NewReader(stdoutPipe)
	for _, step := range session {
		if _, err := io.WriteString(stdin, step.send+"\n"); err != nil {
			t.Fatal(err)
		}
		if step.want == "" {
			continue
		}
		got := make(chan string, 1)
		go func() {
			line, _ := stdout.ReadString('\n')
			got <- line
		}()
		select {
		case line := <-got:
			if line != step.want+"\n" {
				t.Errorf("after %.60s:\n got %q\nwant %q", step.send, line, step.want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("no answer to %s", step.send)
		}
	}
	stdin.Close()
	if rest, _ := io.ReadAll(stdout); len(rest) != 0 {
		t.Errorf("unexpected output at the end: %q", rest)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("server: %v\n%s", err, stderr.String())
	}
}

// TestTooLong: a line over -max-line is skipped, unanswered, and the server
// goes on.
func TestTooLong(t *testing.T) {
	cmd := serverCmd(t, "-max-line", "100")
	cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("x", 5000) + "\"}\n" +
		`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if string(out) != `{"jsonrpc":"2.0","id":2,"result":{}}`+"\n" {
		t.Errorf("stdout %q", out)
	}
	if !strings.Contains(stderr.String(), "line 1: 5036 bytes, over the limit: skipped") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

func TestBadFlag(t *testing.T) {
	cmd := serverCmd(t, "-no-such-flag")
	cmd.Stdin = strings.NewReader("")
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Errorf("exit: %v", err)
	}
}

// TestBuiltBinary builds the real command and checks that it runs with no
// libjsonrpc_envelope.so: the library is linked statically.
func TestBuiltBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	exe := filepath.Join(t.TempDir(), "echo-server")
	build := exec.Command(goTool, "build", "-o", exe, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	libs, err := f.ImportedLibraries()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range libs {
		if strings.Contains(lib, "jsonrpc_envelope") {
			t.Errorf("the server needs %s at run time", lib)
		}
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH=")
	cmd.Stdin = strings.NewReader(initialize + "\n")
	out, err := cmd.Output()
	if err != nil || string(out) != initResult+"\n" {
		t.Errorf("built server: %q, %v", out, err)
	}
}
