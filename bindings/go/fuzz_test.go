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
// what Classify gives for each of its lines. Seeded from the vectors.
func FuzzClassify(f *testing.F) {
	for _, in := range envelopeInputs(f) {
		f.Add(in)
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
		if c.IDKind > IDBoolean {
			t.Fatalf("id kind %v", c.IDKind)
		}
		for i, s := range spansOf(&c) {
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
				checkReply(t, &c, reply)
			}
			again, ok := InvalidReply(line, role)
			if ok != (reply != nil) || !bytes.Equal(again, reply) {
				t.Fatalf("InvalidReply(%v) = %q, %v; the classification has %q", role, again, ok, reply)
			}
		}
		checkLogValue(t, LogValue(line))

		want := expected(line, 64)
		got, _ := readAll(t, bytes.NewReader(line), WithMaxLine(64), WithReadSize(16))
		if len(got) != len(want) {
			t.Fatalf("Reader: %d lines, want %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("Reader line %d: %v, want %v", i+1, got[i], want[i])
			}
		}
	})
}

// checkReply checks that reply is one JSON-RPC error response, on one line,
// whose id is c's id text (a string or number id) or null.
func checkReply(t *testing.T, c *Classification, reply []byte) {
	t.Helper()
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
