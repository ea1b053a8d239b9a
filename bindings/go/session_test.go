package envelope

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// The texts below are written by hand from SPEC.md: the substitute of
// section 10.3, the parse error reply of section 4, the refused request's
// reply of section 10.4.
const (
	substitute7 = `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}`
	substituteA = `{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}`
	parseError  = `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`
	refused5    = `{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}}`
)

func newSession(t *testing.T, role Role, p Profile, maxLine int) *Session {
	t.Helper()
	s, err := NewSession(role, p, maxLine)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// feedAll feeds data in one piece and ends the stream.
func feedAll(t *testing.T, s *Session, data string) []Line {
	t.Helper()
	lines, err := s.Feed([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	last, err := s.End()
	if err != nil {
		t.Fatal(err)
	}
	return append(lines, last...)
}

// one feeds one line and returns its decision.
func one(t *testing.T, s *Session, line string) Line {
	t.Helper()
	lines := feedAll(t, s, line+"\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines for %q", len(lines), line)
	}
	if string(lines[0].Bytes) != line {
		t.Errorf("line bytes %q, want %q", lines[0].Bytes, line)
	}
	return lines[0]
}

func sent(t *testing.T, s *Session, line string) {
	t.Helper()
	if err := s.Sent([]byte(line)); err != nil {
		t.Fatal(err)
	}
}

// wantAction checks ln against action and text in the MCP profile.
func wantAction(t *testing.T, what string, ln Line, action Action, text string) {
	t.Helper()
	wantActionIn(t, ProfileMCP, what, ln, action, text)
}

// wantActionIn checks ln's action and its text, read by profile p. A
// forwarded line has a text exactly when p is MCP and the line needs its
// normal form (SPEC 10.5); that text must be compact and read as the line's
// members jsonrpc, id, method, params, result and error, each with its last
// value and its numbers' exact text.
func wantActionIn(t *testing.T, p Profile, what string, ln Line, action Action, text string) {
	t.Helper()
	if ln.Action != action {
		t.Errorf("%s: action %v, want %v (note %q)", what, ln.Action, action, ln.Note)
	}
	switch {
	case action == ActionForward:
		want := p == ProfileMCP && needsNormalForm(t, ln.Bytes)
		switch {
		case !want && ln.ActionText != nil:
			t.Errorf("%s: action text %q, want none", what, ln.ActionText)
		case want && ln.ActionText == nil:
			t.Errorf("%s: no action text, want the normal form of %q", what, ln.Bytes)
		case want:
			got, line := decodeObject(ln.ActionText), decodeObject(bytes.TrimPrefix(ln.Bytes, bom))
			for k := range line {
				if !normalMembers[k] {
					delete(line, k)
				}
			}
			if got == nil || line == nil || !reflect.DeepEqual(got, line) || !compactJSON(ln.ActionText) {
				t.Errorf("%s: normal form %q of %q", what, ln.ActionText, ln.Bytes)
			}
		}
	case text == "" && ln.ActionText != nil:
		t.Errorf("%s: action text %q, want none", what, ln.ActionText)
	case text != "" && string(ln.ActionText) != text:
		t.Errorf("%s: action text %q, want %q", what, ln.ActionText, text)
	}
	if (ln.Note == "") != (action == ActionForward) {
		t.Errorf("%s: note %q with %v", what, ln.Note, action)
	}
}

// normalMembers are the members a normal form keeps (SPEC 10.5).
var normalMembers = map[string]bool{"jsonrpc": true, "id": true, "method": true, "params": true, "result": true, "error": true}

// decodeObject decodes text as one JSON object, numbers as json.Number, the
// last value of a member given twice counting; nil if it is none.
func decodeObject(text []byte) map[string]any {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	if d.Decode(&m) != nil {
		return nil
	}
	return m
}

// bom is the UTF-8 byte order mark, which an MCP line may begin with
// (SPEC 10.6 (a)).
var bom = []byte("\xEF\xBB\xBF")

// needsNormalForm reports whether an MCP line, a JSON object, goes on in
// its normal form: a byte order mark before it (SPEC 10.6 (a)), a raw CR
// anywhere, whitespace before or after the object, or a top-level member
// given twice (found by a token walk).
func needsNormalForm(t *testing.T, line []byte) bool {
	t.Helper()
	if bytes.HasPrefix(line, bom) || bytes.IndexByte(line, '\r') >= 0 || len(line) == 0 {
		return true
	}
	if ws := " \t\n\r"; strings.IndexByte(ws, line[0]) >= 0 || strings.IndexByte(ws, line[len(line)-1]) >= 0 {
		return true
	}
	d := json.NewDecoder(bytes.NewReader(line))
	if tok, err := d.Token(); err != nil || tok != json.Delim('{') {
		t.Fatalf("a forwarded line that is no object: %q", line)
	}
	seen := map[string]bool{}
	for d.More() {
		tok, err := d.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			t.Fatalf("a forwarded line's member name: %q, %v", line, err)
		}
		if seen[key] {
			return true
		}
		seen[key] = true
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			t.Fatalf("a forwarded line's member %q: %q, %v", key, line, err)
		}
	}
	return false
}

// compactJSON reports whether text has no whitespace outside its strings.
func compactJSON(text []byte) bool {
	inString := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\r' || c == '\n'):
			return false
		}
	}
	return true
}

func TestSessionSubstitute(t *testing.T) {
	s := newSession(t, RoleClient, ProfileMCP, 0)
	bad := `{"jsonrpc":"2.0","id":7,"result":[]}` // a result that is no object
	// No request with id 7 was sent: nobody waits on it.
	ln := one(t, s, bad)
	if ln.Kind != KindInvalidResponse || string(ln.Substitute) != substitute7 {
		t.Errorf("kind %v, substitute %q", ln.Kind, ln.Substitute)
	}
	wantAction(t, "without the request", ln, ActionDrop, "")

	sent(t, s, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`)
	if n := s.Outstanding(); n != 1 {
		t.Fatalf("outstanding %d after one request", n)
	}
	wantAction(t, "request 7 outstanding", one(t, s, bad), ActionSubstitute, substitute7)
	if n := s.Outstanding(); n != 0 {
		t.Errorf("outstanding %d after its answer", n)
	}
	// Answered once: a second one waits on nothing.
	wantAction(t, "answered already", one(t, s, bad), ActionDrop, "")

	// A string id, compared after decoding its escapes.
	sent(t, s, `{"jsonrpc":"2.0","id":"a","method":"ping"}`)
	wantAction(t, "string id", one(t, s, `{"jsonrpc":"2.0","id":"\u0061","result":{},"extra":1}`), ActionSubstitute,
		strings.Replace(substituteA, `"a"`, `"\u0061"`, 1))
}

func TestSessionHandshakeRule(t *testing.T) {
	for _, role := range []Role{RoleClient, RoleServer} {
		t.Run(role.String(), func(t *testing.T) {
			s := newSession(t, role, ProfileMCP, 0)
			nameless := `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"boom"}}`
			wantAction(t, "none outstanding", one(t, s, nameless), ActionDrop, "")

			sent(t, s, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
			wantAction(t, "one outstanding", one(t, s, nameless), ActionAttribute,
				`{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"boom"}}`)
			if n := s.Outstanding(); n != 0 {
				t.Errorf("outstanding %d after the attributed error", n)
			}

			// No id member: the id is put in; the rest is the line's.
			sent(t, s, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}`)
			ln := one(t, s, `{"jsonrpc":"2.0","error":{"code":-32001,"message":"no"}}`)
			var got map[string]json.RawMessage
			if ln.Action != ActionAttribute || json.Unmarshal(ln.ActionText, &got) != nil || len(got) != 3 ||
				string(got["id"]) != `"init"` || string(got["jsonrpc"]) != `"2.0"` ||
				string(got["error"]) != `{"code":-32001,"message":"no"}` {
				t.Errorf("no id member: %v %q", ln.Action, ln.ActionText)
			}

			// Two outstanding: nobody to give it to.
			sent(t, s, `{"jsonrpc":"2.0","id":4,"method":"ping"}`)
			sent(t, s, `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
			wantAction(t, "two outstanding", one(t, s, nameless), ActionDrop, "")
			if n := s.Outstanding(); n != 2 {
				t.Errorf("outstanding %d, want 2", n)
			}
			// Their answers are forwarded, and end their wait.
			lines := feedAll(t, s, `{"jsonrpc":"2.0","id":4,"result":{}}`+"\n"+`{"jsonrpc":"2.0","id":5,"result":{}}`)
			if len(lines) != 2 {
				t.Fatalf("%d lines", len(lines))
			}
			for _, ln := range lines {
				wantAction(t, "an answer", ln, ActionForward, "")
			}
			if n := s.Outstanding(); n != 0 {
				t.Errorf("outstanding %d after both answers", n)
			}
		})
	}
}

func TestSessionUnreadable(t *testing.T) {
	server := newSession(t, RoleServer, ProfileMCP, 0)
	wantAction(t, "parse error, server", one(t, server, `{"jsonrpc":"2.0","id":1,"method":"ping"`), ActionAnswer, parseError)
	client := newSession(t, RoleClient, ProfileMCP, 0)
	wantAction(t, "parse error, client", one(t, client, `Server listening on port 3000`), ActionDivert, "")
	// A request: forwarded, with nothing else.
	wantAction(t, "request", one(t, server, `{"jsonrpc":"2.0","id":1,"method":"ping"}`), ActionForward, "")
	// Written lines that are no request change nothing.
	sent(t, client, parseError)
	sent(t, client, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	sent(t, client, "")
	if n := client.Outstanding(); n != 0 {
		t.Errorf("outstanding %d", n)
	}
}

func TestSessionJSONRPCProfileTracksNothing(t *testing.T) {
	s := newSession(t, RoleClient, ProfileJSONRPC, 0)
	sent(t, s, `{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	if n := s.Outstanding(); n != 0 {
		t.Errorf("outstanding %d", n)
	}
	// SPEC §8: every response is forwarded.
	wantActionIn(t, ProfileJSONRPC, "nameless error", one(t, s, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"boom"}}`),
		ActionForward, "")
	wantActionIn(t, ProfileJSONRPC, "result [] by JSON-RPC", one(t, s, `{"jsonrpc":"2.0","id":3,"result":[]}`), ActionForward, "")
}

func TestSessionRefused(t *testing.T) {
	s := newSession(t, RoleServer, ProfileMCP, 0)
	d, err := s.Refused([]byte(`{"jsonrpc":"2.0","id":5,"method":"ping"}`))
	if err != nil || d.Action != ActionAnswer || string(d.Text) != refused5 || d.Note == "" {
		t.Errorf("a request: %+v, %v", d, err)
	}
	sent(t, s, `{"jsonrpc":"2.0","id":"a","method":"roots/list"}`)
	d, err = s.Refused([]byte(`{"jsonrpc":"2.0","id":"a","result":{}}`))
	if err != nil || d.Action != ActionSubstitute || string(d.Text) != substituteA || d.Note == "" {
		t.Errorf("a response: %+v, %v", d, err)
	}
	if n := s.Outstanding(); n != 0 {
		t.Errorf("the refused response left its request outstanding (%d)", n)
	}
	d, err = s.Refused([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	if err != nil || d.Action != ActionDrop || d.Text != nil || d.Note == "" {
		t.Errorf("a notification: %+v, %v", d, err)
	}
	// A long id: the reply is larger than the Go buffer.
	long := `"` + strings.Repeat("i", 5000) + `"`
	d, err = s.Refused([]byte(`{"jsonrpc":"2.0","id":` + long + `,"method":"ping"}`))
	if err != nil || d.Action != ActionAnswer || string(d.Text) != strings.Replace(refused5, "5", long, 1) {
		t.Errorf("a long id: %v %.80q, %v", d.Action, d.Text, err)
	}
}

// expectedAction is what SPEC §8, §10.4, §10.6 and §10.8 say a session does with
// a line c, read in role by profile p while no request is outstanding, and
// whether the text it hands on or sends is the line's reply for the role.
func expectedAction(p Profile, role Role, c *Classification) (Action, bool) {
	k, nameless := c.Kind, c.NamesNoRequest
	if k == KindParseError && c.Substitute != nil {
		// A damaged response (SPEC 10.6 (c)): never answered, and with
		// nobody waiting on its id, kept as any parse error that is owed
		// nothing.
		if role == RoleServer {
			return ActionDrop, false
		}
		return ActionDivert, false
	}
	switch k {
	case KindRequest, KindNotification:
		return ActionForward, false
	case KindResponse:
		if p == ProfileMCP && nameless {
			return ActionDrop, false // the handshake rule, with none outstanding
		}
		if p == ProfileMCP && role == RoleServer {
			return ActionDrop, false // SPEC 10.8 (a): nobody waits for it
		}
		return ActionForward, false
	case KindInvalidResponse:
		return ActionDrop, false // nobody waits on it
	case KindInvalidRequest:
		return ActionAnswer, true
	case KindParseError, KindBatch, KindNotObject:
		if role == RoleServer {
			return ActionAnswer, true
		}
		return ActionDivert, false
	case KindEmpty, KindNotJSONRPC:
		if role == RoleServer {
			return ActionDrop, false
		}
		return ActionDivert, false
	case KindTooLong:
		if role == RoleServer && c.Reply(RoleServer) != nil {
			return ActionAnswer, true // a too-long request (SPEC 10.6 (d))
		}
		return ActionDrop, false
	}
	return ActionNone, false
}

// TestSessionVectors reads each vector file as one stream, in both roles,
// in pieces of 1 to 70 bytes: each line comes with the classification
// its profile gives and the action the SPEC's tables give its kind.
func TestSessionVectors(t *testing.T) {
	forEachFile(t, func(t *testing.T, f vectorFile, _ Option) {
		data := vectorStreamOf(t, f)
		want := expectedBy(f.profile, data, f.profile.DefaultMaxLine())
		for _, role := range []Role{RoleServer, RoleClient} {
			actions := map[Action]int{}
			for n := 1; n <= 70; n++ {
				s := newSession(t, role, f.profile, 0)
				var got []Line
				for rest := data; len(rest) > 0; {
					k := min(n, len(rest))
					lines, err := s.Feed(rest[:k])
					if err != nil {
						t.Fatal(err)
					}
					for _, ln := range lines {
						ln.Bytes = bytes.Clone(ln.Bytes)
						got = append(got, ln)
					}
					rest = rest[k:]
				}
				last, err := s.End()
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, last...)
				if len(got) != len(want) {
					t.Fatalf("%v, %d at a time: %d lines, want %d", role, n, len(got), len(want))
				}
				for i, ln := range got {
					e := event{number: ln.Number, line: string(ln.Bytes), len: ln.Len, tooLong: ln.TooLong,
						class: describe(&ln.Classification)}
					if e != want[i] {
						t.Fatalf("%v, %d at a time, line %d:\n got %v\nwant %v", role, n, i+1, e, want[i])
					}
					action, replied := expectedAction(f.profile, role, &ln.Classification)
					text := ""
					if replied {
						text = string(ln.Reply(role))
					}
					wantActionIn(t, f.profile, fmt.Sprintf("%v, %d at a time, line %d (%v)", role, n, i+1, ln.Kind), ln, action, text)
					if t.Failed() {
						return
					}
					actions[ln.Action]++
				}
			}
			t.Logf("%v: %v", role, actions)
		}
	})
}

func TestSessionTooLongAndEnd(t *testing.T) {
	s := newSession(t, RoleServer, ProfileMCP, 40)
	long := `{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("x", 100) + `"}`
	lines, err := s.Feed([]byte(long + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}`))
	if err != nil || len(lines) != 1 || !lines[0].TooLong || lines[0].Len != len(long) {
		t.Fatalf("%+v, %v", lines, err)
	}
	wantAction(t, "too long", lines[0], ActionDrop, "")
	lines, err = s.End()
	if err != nil || len(lines) != 1 || lines[0].Number != 2 || lines[0].Kind != KindRequest {
		t.Fatalf("the last line without LF: %+v, %v", lines, err)
	}
	wantAction(t, "last line", lines[0], ActionForward, "")
	// The stream starts again, numbered from 1.
	if ln := one(t, s, `{}`); ln.Number != 1 {
		t.Errorf("after End: line %d", ln.Number)
	}
}

func TestSessionErrors(t *testing.T) {
	for _, tc := range []struct {
		role Role
		p    Profile
	}{{0, ProfileMCP}, {3, ProfileMCP}, {RoleServer, 0}, {RoleClient, 3}} {
		if s, err := NewSession(tc.role, tc.p, 0); err == nil || s != nil {
			t.Errorf("NewSession(%v, %v): %v, %v", tc.role, tc.p, s, err)
		}
	}
	s, err := NewSession(RoleServer, ProfileMCP, -1)
	if err != nil {
		t.Fatal(err)
	}
	sent(t, s, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := s.Feed([]byte("{}\n")); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Feed after Close: %v", err)
	}
	if _, err := s.End(); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("End after Close: %v", err)
	}
	if err := s.Sent([]byte("{}")); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Sent after Close: %v", err)
	}
	if _, err := s.Refused([]byte("{}")); !errors.Is(err, ErrSessionClosed) {
		t.Errorf("Refused after Close: %v", err)
	}
	if n := s.Outstanding(); n != 0 {
		t.Errorf("Outstanding after Close: %d", n)
	}
}

// TestSessionCleanup drops Sessions, closed or not, and runs the garbage
// collector: the cleanup frees those not freed yet, and never one freed
// already.
func TestSessionCleanup(t *testing.T) {
	for i := range 200 {
		s, err := NewSession(RoleClient, ProfileMCP, 0)
		if err != nil {
			t.Fatal(err)
		}
		sent(t, s, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		if _, err := s.Feed([]byte(`{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}` + "\n")); err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			s.Close()
		}
		if i%50 == 49 {
			runtime.GC()
		}
	}
	runtime.GC()
	runtime.GC()
}
