package envelope

import (
	"bytes"
	"debug/elf"
	"os"
	"runtime"
	"strings"
	"testing"
)

func TestVersions(t *testing.T) {
	if got := ABIVersion(); got != abiVersion {
		t.Errorf("ABIVersion() = %d, want %d", got, abiVersion)
	}
	if v := Version(); v == "" || strings.ContainsAny(v, " \n") {
		t.Errorf("Version() = %q", v)
	}
}

// TestStaticLink checks that the test binary, like any program using the
// package, needs no libjsonrpc_envelope.so at run time.
func TestStaticLink(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("ELF only")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatal(err)
	}
	for _, lib := range libs {
		if strings.Contains(lib, "jsonrpc_envelope") {
			t.Errorf("the binary needs %s at run time", lib)
		}
	}
	if ABIVersion() != abiVersion {
		t.Errorf("the linked library has ABI %d", ABIVersion())
	}
}

func TestEmptyInput(t *testing.T) {
	for _, in := range [][]byte{nil, {}, make([]byte, 0, 10)} {
		if c := Classify(in); c.Kind != KindEmpty || c.ID != nil || c.HasMethod {
			t.Errorf("Classify(%#v) = %+v", in, c)
		}
		if r, ok := InvalidReply(in, RoleServer); ok || r != nil {
			t.Errorf("InvalidReply(%#v) = %q, %v", in, r, ok)
		}
		if s := LogValue(in); s != "" {
			t.Errorf("LogValue(%#v) = %q", in, s)
		}
	}
}

func TestZeroClassification(t *testing.T) {
	var c Classification
	if c.Kind != KindNone || c.Kind.String() != "Kind(0)" || c.IDKind.String() != "absent" ||
		c.Reply(RoleServer) != nil || c.Reply(RoleClient) != nil || c.IDSpan.Present() {
		t.Errorf("zero classification: %+v", c)
	}
}

func TestNames(t *testing.T) {
	kinds := map[Kind]string{KindEmpty: "empty", KindParseError: "parse_error", KindBatch: "batch",
		KindNotObject: "not_object", KindInvalidRequest: "invalid_request", KindRequest: "request",
		KindNotification: "notification", KindResponse: "response", KindNotJSONRPC: "not_jsonrpc",
		KindTooLong: "too_long", KindInvalidResponse: "invalid_response", KindNone: "Kind(0)", Kind(12): "Kind(12)",
		Kind(1 << 31): "Kind(2147483648)"}
	for k, want := range kinds {
		if k.String() != want {
			t.Errorf("Kind %d: %q, want %q", uint32(k), k.String(), want)
		}
	}
	ids := map[IDKind]string{IDAbsent: "absent", IDNull: "null", IDString: "string", IDNumber: "number",
		IDObject: "object", IDArray: "array", IDBoolean: "boolean", IDKind(7): "IDKind(7)"}
	for k, want := range ids {
		if k.String() != want {
			t.Errorf("IDKind %d: %q, want %q", uint32(k), k.String(), want)
		}
	}
	if RoleServer.String() != "server" || RoleClient.String() != "client" || Role(0).String() != "Role(0)" {
		t.Errorf("role names")
	}
	if ProfileJSONRPC.String() != "jsonrpc" || ProfileMCP.String() != "mcp" || Profile(0).String() != "Profile(0)" ||
		Profile(3).String() != "Profile(3)" {
		t.Errorf("profile names")
	}
	actions := map[Action]string{ActionForward: "forwarded", ActionAnswer: "answered", ActionSubstitute: "substituted",
		ActionAttribute: "attributed", ActionDrop: "dropped", ActionDivert: "diverted", ActionNone: "Action(0)",
		Action(7): "Action(7)"}
	for a, want := range actions {
		if a.String() != want {
			t.Errorf("Action %d: %q, want %q", uint32(a), a.String(), want)
		}
	}
	// Only requests, notifications and responses are messages.
	for k := KindNone; k <= KindInvalidResponse+1; k++ {
		want := k == KindRequest || k == KindNotification || k == KindResponse
		if k.IsMessage() != want {
			t.Errorf("%v.IsMessage() = %v", k, k.IsMessage())
		}
	}
}

func TestUnknownProfile(t *testing.T) {
	for _, p := range []Profile{0, 3, 1 << 31} {
		c := p.Classify([]byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		if c.Kind != KindNone || c.Reason == "" || c.ID != nil || c.Reply(RoleServer) != nil {
			t.Errorf("%v.Classify: %s", p, describe(&c))
		}
		mustPanic(t, p.String()+".InvalidReply", func() { p.InvalidReply([]byte("x"), RoleServer) })
		rd := NewReader(strings.NewReader("{}\n"), WithProfile(p))
		if _, err := rd.Next(); err == nil || !strings.Contains(err.Error(), "unknown profile") {
			t.Errorf("Reader with %v: %v", p, err)
		}
		rd.Close()
	}
}

func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", what)
		}
	}()
	f()
}

func TestUnknownRole(t *testing.T) {
	c := Classify([]byte("x"))
	mustPanic(t, "Reply(0)", func() { c.Reply(0) })
	mustPanic(t, "Reply(3)", func() { c.Reply(3) })
	mustPanic(t, "InvalidReply(0)", func() { InvalidReply([]byte("x"), 0) })
	mustPanic(t, "InvalidReply(3)", func() { InvalidReply([]byte("x"), 3) })
}

func TestSpanIn(t *testing.T) {
	line := []byte(`{"id":1}`)
	for _, s := range []Span{{0, 0}, {7, 2}, {9, 1}, {-1, 2}, {2, -1}, {1 << 62, 1 << 62}} {
		if got := s.In(line); got != nil {
			t.Errorf("%v.In = %q, want nil", s, got)
		}
	}
	got := Span{6, 1}.In(line)
	if string(got) != "1" || cap(got) != 1 {
		t.Errorf("In = %q (cap %d)", got, cap(got))
	}
	got = append(got, 'x')
	if string(line) != `{"id":1}` {
		t.Errorf("append through In changed the line: %q", line)
	}
}

// TestLargeResults takes the path where a result's texts exceed the stack
// buffers: long ids and methods, long replies.
func TestLargeResults(t *testing.T) {
	longID := `"` + strings.Repeat("i", 3000) + `"`
	longMethod := strings.Repeat("m", 5000)
	lines := []string{
		`{"jsonrpc":"2.0","id":` + longID + `,"method":7}`,
		`{"jsonrpc":"2.0","id":` + longID + `,"method":"` + longMethod + `"}`,
		`{"jsonrpc":"2.0","id":` + longID + `,"result":{}}`,
		strings.Repeat("[", 4000) + strings.Repeat("]", 4000),
	}
	for _, line := range lines {
		c := Classify([]byte(line))
		if c.Kind == KindNone {
			t.Fatalf("none: %s", c.Reason)
		}
		if c.IDKind == IDString && string(c.ID) != longID {
			t.Errorf("id of %d bytes, want %d", len(c.ID), len(longID))
		}
		if c.HasMethod && c.Method != longMethod {
			t.Errorf("method of %d bytes", len(c.Method))
		}
		for _, role := range []Role{RoleServer, RoleClient} {
			reply, ok := InvalidReply([]byte(line), role)
			if ok != (c.Reply(role) != nil) || !bytes.Equal(reply, c.Reply(role)) {
				t.Errorf("InvalidReply(%v) = %.60q; classification has %.60q", role, reply, c.Reply(role))
			}
		}
		if c.Kind == KindInvalidRequest && !bytes.Contains(c.Reply(RoleServer), []byte(longID)) {
			t.Errorf("the reply does not echo the long id")
		}
	}
	// The same lines through a Reader, many at a time and one at a time.
	data := []byte(strings.Join(lines, "\n") + "\n" + strings.Repeat("{\"id\":1,\"method\":\"x\"}\n", 300))
	want := expected(data, DefaultMaxLine)
	got, _ := readAll(t, bytes.NewReader(data))
	sameEvents(t, "large results", got, want)
	got, _ = readAll(t, fixed(data, 4096), WithReadSize(4096))
	sameEvents(t, "large results 4096", got, want)
	if s := LogValue([]byte(longID)); len([]rune(s)) != 257 || !strings.HasSuffix(s, "…") {
		t.Errorf("LogValue of a long id: %q", s)
	}
}

// TestScratchBoundary sweeps results whose texts take from a few bytes to
// well past the 512-byte Go scratch that Classify gives
// jsonrpc_classify_into (where the library allocates instead, and the shim
// takes its second, copying call): every field must come out the same on both sides of it,
// and as the Reader (jsonrpc_reader_feed) and InvalidReply give it.
func TestScratchBoundary(t *testing.T) {
	var data []byte
	for n := 1; n <= 1100; n++ {
		id := `"` + strings.Repeat("i", n) + `"`
		method := strings.Repeat("m", 500)
		lines := []string{
			// The id, the reason and two replies that echo the id: past
			// 512 bytes from n = 70 or so on.
			`{"jsonrpc":"2.0","id":` + id + `,"method":7}`,
			// The id and the method: past 512 bytes from n = 10 or so on.
			`{"jsonrpc":"2.0","id":` + id + `,"method":"` + method + `"}`,
			// By the MCP profile, the reason and a substitute that echoes
			// the id: past 512 bytes from n = 270 or so on.
			`{"jsonrpc":"2.0","id":` + id + `,"result":[]}`,
		}
		for i, line := range lines {
			p := ProfileJSONRPC
			if i == 2 {
				p = ProfileMCP
			}
			c := p.Classify([]byte(line))
			switch {
			case string(c.ID) != id || !bytes.Equal(c.ID, c.IDSpan.In([]byte(line))):
				t.Fatalf("n=%d line %d: id of %d bytes, want %d", n, i, len(c.ID), len(id))
			case i == 0 && (c.Kind != KindInvalidRequest || c.HasMethod || c.Reason == "" ||
				!bytes.Contains(c.Reply(RoleServer), []byte(id)) || !bytes.Contains(c.Reply(RoleClient), []byte(id))):
				t.Fatalf("n=%d: %s", n, describe(&c))
			case i == 1 && (c.Kind != KindRequest || !c.HasMethod || c.Method != method || c.Reason != "" ||
				c.Reply(RoleServer) != nil):
				t.Fatalf("n=%d: %.200s", n, describe(&c))
			case i == 2 && (c.Kind != KindInvalidResponse || c.Reason == "" || c.Reply(RoleServer) != nil ||
				c.Reply(RoleClient) != nil || !bytes.Contains(c.Substitute, []byte(`"id":`+id+`,`))):
				t.Fatalf("n=%d: %.200s", n, describe(&c))
			}
			for _, role := range []Role{RoleServer, RoleClient} {
				if reply, _ := p.InvalidReply([]byte(line), role); !bytes.Equal(reply, c.Reply(role)) {
					t.Fatalf("n=%d line %d: InvalidReply(%v) differs from the classification's", n, i, role)
				}
			}
			data = append(append(data, line...), '\n')
		}
	}
	got, _ := readAll(t, bytes.NewReader(data))
	sameEvents(t, "scratch boundary", got, expected(data, DefaultMaxLine))
	got, _ = readAll(t, bytes.NewReader(data), WithProfile(ProfileMCP))
	sameEvents(t, "scratch boundary, MCP", got, expectedBy(ProfileMCP, data, ProfileMCP.DefaultMaxLine()))
}

// TestInputNotKept checks that results do not alias the input: changing the
// line after the call changes nothing in the classification.
func TestInputNotKept(t *testing.T) {
	line := []byte(`{"jsonrpc":"2.0","id":"abc","method":"tools/call"}`)
	c := Classify(line)
	for i := range line {
		line[i] = 'z'
	}
	if string(c.ID) != `"abc"` || c.Method != "tools/call" {
		t.Errorf("classification changed with its input: %q %q", c.ID, c.Method)
	}
}
