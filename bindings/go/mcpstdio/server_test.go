package mcpstdio_test

// The Go SDK's server (one echo tool: examples/go/sdk_server) fed issue
// #16's abuse lines through a real pipe, each followed by a ping: on the
// SDK's own StdioTransport (-sdk-transport; the control, asserted as
// observed with go-sdk v1.8.0), and on ours, where every line gets the reply of SPEC section
// 4 by the MCP profile (section 10), byte for byte as tests/vectors/mcp.jsonl
// writes it, and a normal request is still answered after them all.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const patience = 20 * time.Second

// server is a server program on pipes, initialized, started again whenever
// a line ends it.
type server struct {
	t       *testing.T
	command []string
	starts  int
	nextID  int

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // closed at the end of stdout
	last   map[string]json.RawMessage
	stderr *logBuffer
	done   sync.WaitGroup
}

func newServer(t *testing.T, command []string) *server {
	return &server{t: t, command: command, stderr: &logBuffer{}}
}

func (s *server) start() {
	s.t.Helper()
	s.starts++
	s.cmd = exec.Command(s.command[0], s.command[1:]...)
	s.cmd.Stderr = s.stderr
	stdin, err := s.cmd.StdinPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	s.stdin = stdin
	lines := make(chan []byte, 16)
	s.lines = lines
	s.done.Add(1)
	go func() {
		defer s.done.Done()
		r := bufio.NewReaderSize(stdout, 1<<16)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				lines <- bytes.TrimSuffix(line, []byte("\n"))
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"abuse","version":"1"}}}`)
	if replies, state := s.until(`"init"`); state != "alive" || len(replies) > 0 {
		s.t.Fatalf("%v did not initialize: %s %q; stderr: %s", s.command, state, replies, s.stderr)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

func (s *server) send(line string) bool {
	_, err := io.WriteString(s.stdin, line+"\n")
	return err == nil
}

// until returns the lines before the response whose id is the JSON text id,
// and the server's state: alive, exited (its stdout ended) or silent.
func (s *server) until(id string) ([]string, string) {
	var replies []string
	timeout := time.After(patience)
	for {
		select {
		case line, ok := <-s.lines:
			if !ok {
				return replies, "exited"
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(line, &m) == nil && string(m["id"]) == id && m["method"] == nil {
				s.last = m
				return replies, "alive"
			}
			replies = append(replies, string(line))
		case <-timeout:
			return replies, "silent"
		}
	}
}

// probe sends line and a ping: what came back before the ping's answer,
// and whether the server answered it.
func (s *server) probe(line string) ([]string, string) {
	if s.cmd == nil {
		s.start()
	}
	s.nextID++
	id := fmt.Sprintf(`"ping-%d"`, s.nextID)
	sent := s.send(line) && s.send(`{"jsonrpc":"2.0","id":`+id+`,"method":"ping"}`)
	replies, state := s.until(id)
	if !sent && state == "alive" {
		state = "exited"
	}
	if state != "alive" {
		s.close()
	}
	return replies, state
}

// echo calls the echo tool; it returns the result's content.
func (s *server) echo(text string) string {
	s.t.Helper()
	if s.cmd == nil {
		s.start()
	}
	s.send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"echo","arguments":{"text":"` + text + `"}}}`)
	if replies, state := s.until(`"call"`); state != "alive" || len(replies) > 0 {
		s.t.Fatalf("tools/call: %s %q", state, replies)
	}
	var result struct {
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(s.last["result"], &result); err != nil {
		s.t.Fatalf("tools/call: %v in %s", err, s.last["result"])
	}
	return string(result.Content)
}

// close closes stdin and waits; it returns the exit code (-1 when the
// server had to be killed).
func (s *server) close() int {
	if s.cmd == nil {
		return -1
	}
	cmd := s.cmd
	s.cmd = nil
	s.stdin.Close()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-waited
		return -1
	}
	s.done.Wait()
	return cmd.ProcessState.ExitCode()
}

// outcome is what a probe gave: the replies, and "alive" or "exited".
type outcome struct {
	replies []string
	state   string
}

func (o outcome) String() string { return fmt.Sprintf("%q, %s", o.replies, o.state) }

// extra lines beyond issue #16's: the transport drops them, with a record.
var dropped = []struct{ label, line string }{
	{"empty line", ""},
	{"JSON log line", `{"level":"info","msg":"server started","port":8080}`},
	{"17 MiB line", `{"jsonrpc":"2.0","method":"x","params":"` + strings.Repeat("x", 17<<20) + `"}`},
}

func feed(t *testing.T, command []string) (map[string]outcome, string, *server, int) {
	v := vectors(t)
	s := newServer(t, command)
	got := map[string]outcome{}
	for _, a := range abuse {
		replies, state := s.probe(v[a.vector].Line)
		got[a.label] = outcome{replies, state}
	}
	for _, d := range dropped {
		replies, state := s.probe(d.line)
		got[d.label] = outcome{replies, state}
	}
	echo := s.echo("still here")
	return got, echo, s, s.close()
}

const stillHere = `[{"type":"text","text":"still here"}]`

func TestControlTheSDKTransportAnswersNoneAndExitsOnMost(t *testing.T) {
	got, echo, s, status := feed(t, append(slices.Clone(goOurServer), "-sdk-transport"))
	none := outcome{nil, "alive"}
	exited := outcome{nil, "exited"}
	want := map[string]outcome{
		"id null":        none,
		"object id":      exited,
		"numeric method": exited,
		"boolean method": exited,
		"batch":          exited,
		"not JSON":       exited,
		"bare string":    exited,
		"empty line":     none,
		"JSON log line":  exited,
		"17 MiB line":    exited,
	}
	for label, w := range want {
		if g := got[label]; g.String() != w.String() {
			t.Errorf("%s: got %v, want %v", label, g, w)
		}
	}
	if s.starts != 9 {
		t.Errorf("started %d times, want 9 (once, then after each of the 8 lines that ended it)", s.starts)
	}
	if echo != stillHere || status != 0 {
		t.Errorf("echo %s, status %d", echo, status)
	}
}

func TestOursAnswersEachLineAsTheSpecSaysAndKeepsServing(t *testing.T) {
	got, echo, s, status := feed(t, goOurServer)
	v := mcpVectors(t)
	for _, a := range abuse {
		want := outcome{nil, "alive"}
		if reply := v["envelope: "+a.vector].ReplyServer; reply != nil {
			// The library's reply by the MCP profile, exactly the vector's
			// bytes; id null too, which is no MCP id (the SDK's own
			// transport reads that request as a notification).
			want.replies = []string{*reply}
		}
		if g := got[a.label]; g.String() != want.String() {
			t.Errorf("%s: got %v, want %v", a.label, g, want)
		}
	}
	for _, d := range dropped {
		if g := got[d.label]; g.String() != (outcome{nil, "alive"}).String() {
			t.Errorf("%s: got %v", d.label, g)
		}
	}
	if s.starts != 1 || status != 0 {
		t.Errorf("started %d times, exit status %d", s.starts, status)
	}
	if echo != stillHere {
		t.Errorf("echo: %s", echo)
	}
	// What never reached the SDK is on stderr, one record per line.
	log := s.stderr.String()
	for _, want := range []string{
		"kind=invalid_request action=answered",
		"kind=batch action=answered",
		"kind=parse_error action=answered",
		"kind=not_object action=answered",
		"kind=empty action=dropped",
		"kind=not_jsonrpc action=dropped",
		fmt.Sprintf("kind=too_long bytes=%d action=dropped", len(dropped[2].line)),
	} {
		if !strings.Contains(log, want) {
			t.Errorf("no %q in the server's log:\n%s", want, log)
		}
	}
}

func TestTheAbuseLinesAreWhatTheIssueSays(t *testing.T) {
	v := vectors(t)
	want := map[string]string{
		"id null":        "request",
		"object id":      "invalid_request",
		"numeric method": "invalid_request",
		"boolean method": "invalid_request",
		"batch":          "batch",
		"not JSON":       "parse_error",
		"bare string":    "not_object",
	}
	for _, a := range abuse {
		if got := v[a.vector].Kind; got != want[a.label] {
			t.Errorf("%s: vector %q is %s", a.label, a.vector, got)
		}
	}
	// By the MCP profile, the transports', the same but id null: no MCP id
	// (SPEC §10.1), so the request is invalid, and answered.
	want["id null"] = "invalid_request"
	m := mcpVectors(t)
	for _, a := range abuse {
		if got := m["envelope: "+a.vector]; got.Line != v[a.vector].Line || got.Kind != want[a.label] {
			t.Errorf("%s: MCP vector %q is %s (line %q)", a.label, a.vector, got.Kind, got.Line)
		}
	}
}
