package envelope

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// FuzzClassify checks what must hold for any input: nothing panics; a line
// gets a real kind; spans lie inside the line and the id is the line's text
// at its span; a reply, when there is one, is valid JSON whose id is the
// line's id text or null; InvalidReply agrees with the classification;
// LogValue is one safe line; and a Reader over the input as a stream gives
// what Classify gives for each of its lines. The same by the MCP profile,
// whose substitute, when there is one, is the error response of SPEC
// §10.3 with the line's id; and a Session in either role decides every
// line of the input. Seeded from the vectors.
func FuzzClassify(f *testing.F) {
	for _, file := range vectorFiles {
		for _, in := range vectorInputs(f, file.name) {
			f.Add(in)
		}
	}
	for _, v := range readJSONL[logValueVector](f, "log_value.jsonl") {
		if v.Input != nil {
			f.Add([]byte(*v.Input))
		}
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		orig := bytes.Clone(line)
		c := Classify(line)
		if !bytes.Equal(line, orig) {
			t.Fatalf("Classify changed its input")
		}
		if c.Kind < KindEmpty || c.Kind > KindNotJSONRPC {
			t.Fatalf("kind %v (reason %q)", c.Kind, c.Reason)
		}
		if c.Substitute != nil {
			t.Fatalf("a substitute by the JSON-RPC profile: %q", c.Substitute)
		}
		checkProfile(t, ProfileJSONRPC, line, &c)
		m := ProfileMCP.Classify(line)
		if m.Kind < KindEmpty || m.Kind > KindInvalidResponse || m.Kind == KindTooLong {
			t.Fatalf("MCP kind %v (reason %q)", m.Kind, m.Reason)
		}
		// The MCP profile only narrows: what it calls a message, the
		// JSON-RPC profile calls the same, once a byte order mark before
		// it is gone (SPEC 10.6 (a)).
		if m.Kind.IsMessage() {
			plain := c
			if rest, ok := bytes.CutPrefix(line, bom); ok {
				plain = Classify(rest)
			}
			if m.Kind != plain.Kind {
				t.Fatalf("MCP kind %v, JSON-RPC kind %v", m.Kind, plain.Kind)
			}
		}
		if m.Substitute != nil {
			checkSubstitute(t, &m)
		}
		checkProfile(t, ProfileMCP, line, &m)
		checkLogValue(t, LogValue(line))
		checkSessions(t, line)
	})
}

// checkProfile checks what must hold for c, the classification of line by
// p.
func checkProfile(t *testing.T, p Profile, line []byte, c *Classification) {
	t.Helper()
	if c.IDKind > IDBoolean {
		t.Fatalf("id kind %v", c.IDKind)
	}
	for i, s := range spansOf(c) {
		if s.Len < 0 || s.Offset < 0 || s.Offset+s.Len > len(line) {
			t.Fatalf("span %s %v outside a line of %d bytes", spanNames[i], s, len(line))
		}
		if s.Present() != (s.In(line) != nil) {
			t.Fatalf("span %s %v: In gives %q", spanNames[i], s, s.In(line))
		}
	}
	if (c.ID != nil) != (c.IDKind != IDAbsent) || (c.ID != nil && !bytes.Equal(c.ID, c.IDSpan.In(line))) {
		t.Fatalf("id %q (%v) is not the line's text at %v", c.ID, c.IDKind, c.IDSpan)
	}
	if c.HasMethod && !c.MethodSpan.Present() {
		t.Fatalf("a method %q without a span", c.Method)
	}
	for _, role := range []Role{RoleServer, RoleClient} {
		reply := c.Reply(role)
		if reply != nil {
			checkReply(t, p, line, c, reply)
		}
		again, ok := p.InvalidReply(line, role)
		if ok != (reply != nil) || !bytes.Equal(again, reply) {
			t.Fatalf("InvalidReply(%v) = %q, %v; the classification has %q", role, again, ok, reply)
		}
	}
	want := expectedBy(p, line, 64)
	got, _ := readAll(t, bytes.NewReader(line), WithMaxLine(64), WithReadSize(16), WithProfile(p))
	if len(got) != len(want) {
		t.Fatalf("Reader: %d lines, want %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("Reader line %d: %v, want %v", i+1, got[i], want[i])
		}
	}
}

// checkSubstitute checks that an MCP classification's substitute is the
// error response of SPEC §10.3 for its id, which is a string or a number:
// an invalid_response's, or a damaged response's (a parse error whose
// readable id it names, and no method: SPEC 10.6 (c)).
func checkSubstitute(t *testing.T, c *Classification) {
	t.Helper()
	want := `{"jsonrpc":"2.0","id":` + string(c.ID) +
		`,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}`
	damaged := c.Kind == KindParseError && !c.HasMethod && c.Reply(RoleServer) == nil
	if (c.Kind != KindInvalidResponse && !damaged) || (c.IDKind != IDString && c.IDKind != IDNumber) || string(c.Substitute) != want {
		t.Fatalf("%v with id %q (%v) has the substitute %q", c.Kind, c.ID, c.IDKind, c.Substitute)
	}
}

// checkSessions feeds line, as a stream, to a session of each role and
// profile, 16 bytes at a time: every line gets an action, and the text of
// an answer is the line's reply.
func checkSessions(t *testing.T, line []byte) {
	t.Helper()
	for _, p := range []Profile{ProfileJSONRPC, ProfileMCP} {
		for _, role := range []Role{RoleServer, RoleClient} {
			s, err := NewSession(role, p, 64)
			if err != nil {
				t.Fatal(err)
			}
			var got []Line
			for rest := line; len(rest) > 0; rest = rest[min(16, len(rest)):] {
				lines, err := s.Feed(rest[:min(16, len(rest))])
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, lines...)
			}
			last, err := s.End()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, last...)
			s.Close()
			if want := expectedBy(p, line, 64); len(got) != len(want) {
				t.Fatalf("%v %v session: %d lines, want %d", p, role, len(got), len(want))
			}
			for _, ln := range got {
				switch {
				case ln.Action < ActionForward || ln.Action > ActionDivert:
					t.Fatalf("%v %v session: action %v for %v", p, role, ln.Action, ln.Kind)
				case ln.Action == ActionForward && !ln.Kind.IsMessage():
					t.Fatalf("%v %v session: forwarded a line of kind %v", p, role, ln.Kind)
				case ln.Action == ActionAnswer && !bytes.Equal(ln.ActionText, ln.Reply(role)):
					t.Fatalf("%v %v session: answered %q, the line's reply is %q", p, role, ln.ActionText, ln.Reply(role))
				case ln.Action == ActionSubstitute || ln.Action == ActionAttribute:
					t.Fatalf("%v %v session: %v with nothing outstanding", p, role, ln.Action)
				}
			}
		}
	}
}

// checkReply checks that reply is one JSON-RPC error response, on one line,
// whose id is c's id text (a string or number id) or null; or, for a batch
// by the MCP profile (SPEC 10.6 (b)), one such line per request of the
// batch, joined by LF, each with its request's id, in the batch's order.
func checkReply(t *testing.T, p Profile, line []byte, c *Classification, reply []byte) {
	t.Helper()
	if p == ProfileMCP && c.Kind == KindBatch {
		checkBatchReply(t, line, reply)
		return
	}
	if !json.Valid(reply) || bytes.ContainsAny(reply, "\r\n") {
		t.Fatalf("reply is not one line of JSON: %q", reply)
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(reply, &members); err != nil {
		t.Fatalf("reply %q: %v", reply, err)
	}
	id, ok := members["id"]
	if !ok || string(members["jsonrpc"]) != `"2.0"` || members["error"] == nil {
		t.Fatalf("reply %q is not a JSON-RPC error response", reply)
	}
	want := "null"
	if c.IDKind == IDString || c.IDKind == IDNumber {
		want = string(c.ID)
	}
	if string(id) != want {
		t.Fatalf("reply %q has id %s, want %s (the line's id is %q)", reply, id, want, c.ID)
	}
}

// checkBatchReply checks an MCP batch's reply: section 4's one reply (id
// null), or one -32600 reply a line whose ids are, in order, ids of the
// batch's elements (an element's last id member, as Go's decoder reads
// it, its text as written).
func checkBatchReply(t *testing.T, line, reply []byte) {
	t.Helper()
	var elements []json.RawMessage
	if err := json.Unmarshal(bytes.TrimPrefix(line, bom), &elements); err != nil {
		t.Fatalf("a batch Go cannot read: %q: %v", line, err)
	}
	var ids []string
	for _, e := range elements {
		var m map[string]json.RawMessage
		if json.Unmarshal(e, &m) == nil && m["id"] != nil {
			ids = append(ids, string(m["id"]))
		}
	}
	lines := bytes.Split(reply, []byte("\n"))
	for i, r := range lines {
		var members map[string]json.RawMessage
		if !json.Valid(r) || bytes.IndexByte(r, '\r') >= 0 || json.Unmarshal(r, &members) != nil ||
			string(members["jsonrpc"]) != `"2.0"` || members["error"] == nil {
			t.Fatalf("line %d of the batch's reply is not a JSON-RPC error response: %q", i+1, r)
		}
		id := string(members["id"])
		if id == "null" && len(lines) == 1 {
			return // no request in it: section 4's reply
		}
		for len(ids) > 0 && ids[0] != id {
			ids = ids[1:]
		}
		if len(ids) == 0 || !bytes.Contains(r, []byte(batchNote)) {
			t.Fatalf("line %d of the batch's reply, %q, answers no element of %q, in order", i+1, r, line)
		}
		ids = ids[1:]
	}
}

// checkLogValue checks that s is one safe line of UTF-8: no control, line
// separator or bidi characters, at most 256 UTF-16 units before an ending
// ellipsis.
func checkLogValue(t *testing.T, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("log value is not UTF-8: %q", s)
	}
	body := strings.TrimSuffix(s, "…")
	if n := len(utf16.Encode([]rune(body))); n > 256 {
		t.Fatalf("log value of %d UTF-16 units: %q", n, s)
	}
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x2028 || r == 0x2029 || r == 0x200e || r == 0x200f ||
			(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			t.Fatalf("log value holds %U: %q", r, s)
		}
	}
}
