package envelope

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// vectorsDir is the repository's shared test data, which every language's
// tests pass byte for byte.
var vectorsDir = filepath.Join("..", "..", "tests", "vectors")

// vectorFile is a file of classification vectors and the profile its
// records are classified by: envelope.jsonl by the JSON-RPC profile,
// mcp.jsonl (the same fields, and substitute) by the MCP profile.
type vectorFile struct {
	name    string
	profile Profile
}

var vectorFiles = []vectorFile{{"envelope.jsonl", ProfileJSONRPC}, {"mcp.jsonl", ProfileMCP}}

// envelopeVector is one line of tests/vectors/envelope.jsonl or mcp.jsonl
// (see their README): null fields decode as nil pointers.
type envelopeVector struct {
	Name           string            `json:"name"`
	Line           *string           `json:"line"`
	LineHex        *string           `json:"line_hex"`
	Kind           string            `json:"kind"`
	IDKind         string            `json:"id_kind"`
	ID             *string           `json:"id"`
	Method         *string           `json:"method"`
	JSONRPC20      bool              `json:"jsonrpc_2_0"`
	HasResult      bool              `json:"has_result"`
	HasError       bool              `json:"has_error"`
	NamesNoRequest bool              `json:"names_no_request"`
	Spans          map[string][2]int `json:"spans"`
	Reason         *string           `json:"reason"`
	ReplyServer    *string           `json:"reply_server"`
	ReplyClient    *string           `json:"reply_client"`
	Substitute     *string           `json:"substitute"` // mcp.jsonl only; never there by JSON-RPC
}

func (v *envelopeVector) input(t testing.TB) []byte {
	t.Helper()
	switch {
	case v.Line != nil:
		return []byte(*v.Line)
	case v.LineHex != nil:
		b, err := hex.DecodeString(*v.LineHex)
		if err != nil {
			t.Fatalf("%s: line_hex: %v", v.Name, err)
		}
		return b
	}
	t.Fatalf("%s: neither line nor line_hex", v.Name)
	return nil
}

type logValueVector struct {
	Name     string  `json:"name"`
	Input    *string `json:"input"`
	InputHex *string `json:"input_hex"`
	Output   string  `json:"output"`
}

// readJSONL decodes every line of a .jsonl file of the vectors, strictly.
func readJSONL[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join(vectorsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var v T
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: %v in %.80s", name, err, sc.Text())
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no vectors", name)
	}
	return out
}

// envelopeInputs is the input of every envelope vector.
func envelopeInputs(t testing.TB) [][]byte {
	return vectorInputs(t, "envelope.jsonl")
}

// vectorInputs is the input of every vector of a file.
func vectorInputs(t testing.TB, file string) [][]byte {
	var out [][]byte
	for _, v := range readJSONL[envelopeVector](t, file) {
		out = append(out, v.input(t))
	}
	return out
}

var spanNames = []string{"id", "method", "params", "result", "error"}

func spansOf(c *Classification) []Span {
	return []Span{c.IDSpan, c.MethodSpan, c.ParamsSpan, c.ResultSpan, c.ErrorSpan}
}

// checkVector compares c, the classification of v's input, with v, byte for
// byte.
func checkVector(t *testing.T, v *envelopeVector, line []byte, c *Classification) {
	t.Helper()
	if got := c.Kind.String(); got != v.Kind {
		t.Errorf("kind = %q, want %q", got, v.Kind)
	}
	if got := c.IDKind.String(); got != v.IDKind {
		t.Errorf("id_kind = %q, want %q", got, v.IDKind)
	}
	switch {
	case v.ID == nil && c.ID != nil:
		t.Errorf("id = %q, want none", c.ID)
	case v.ID != nil && (c.ID == nil || string(c.ID) != *v.ID):
		t.Errorf("id = %q (nil %v), want %q", c.ID, c.ID == nil, *v.ID)
	}
	switch {
	case v.Method == nil && (c.HasMethod || c.Method != ""):
		t.Errorf("method = %q (HasMethod %v), want none", c.Method, c.HasMethod)
	case v.Method != nil && (!c.HasMethod || c.Method != *v.Method):
		t.Errorf("method = %q (HasMethod %v), want %q", c.Method, c.HasMethod, *v.Method)
	}
	if c.JSONRPC20 != v.JSONRPC20 || c.HasResult != v.HasResult || c.HasError != v.HasError || c.NamesNoRequest != v.NamesNoRequest {
		t.Errorf("jsonrpc_2_0, has_result, has_error, names_no_request = %v %v %v %v, want %v %v %v %v",
			c.JSONRPC20, c.HasResult, c.HasError, c.NamesNoRequest, v.JSONRPC20, v.HasResult, v.HasError, v.NamesNoRequest)
	}
	for i, s := range spansOf(c) {
		want, ok := v.Spans[spanNames[i]]
		switch {
		case !ok && s.Present():
			t.Errorf("span %s = %v, want none", spanNames[i], s)
		case ok && (s.Offset != want[0] || s.Len != want[1]):
			t.Errorf("span %s = %v, want %v", spanNames[i], s, want)
		}
	}
	for name := range v.Spans {
		if !bytes.Contains([]byte(" id method params result error "), []byte(" "+name+" ")) {
			t.Errorf("vector has an unknown span %q", name)
		}
	}
	if c.ID != nil && !bytes.Equal(c.IDSpan.In(line), c.ID) {
		t.Errorf("id %q is not the line's bytes at its span %q", c.ID, c.IDSpan.In(line))
	}
	switch {
	case v.Kind == "parse_error":
		if c.Reason == "" {
			t.Errorf("parse_error without a reason")
		}
	case v.Reason == nil && c.Reason != "":
		t.Errorf("reason = %q, want none", c.Reason)
	case v.Reason != nil && c.Reason != *v.Reason:
		t.Errorf("reason = %q, want %q", c.Reason, *v.Reason)
	}
	for _, role := range []Role{RoleServer, RoleClient} {
		want := v.ReplyServer
		if role == RoleClient {
			want = v.ReplyClient
		}
		got := c.Reply(role)
		switch {
		case want == nil && got != nil:
			t.Errorf("reply_%v = %q, want none", role, got)
		case want != nil && (got == nil || string(got) != *want):
			t.Errorf("reply_%v = %q, want %q", role, got, *want)
		}
	}
	switch {
	case v.Substitute == nil && c.Substitute != nil:
		t.Errorf("substitute = %q, want none", c.Substitute)
	case v.Substitute != nil && (c.Substitute == nil || string(c.Substitute) != *v.Substitute):
		t.Errorf("substitute = %q, want %q", c.Substitute, *v.Substitute)
	}
}

// TestEnvelopeVectors checks envelope.jsonl by the JSON-RPC profile (the
// package-level functions, and a Reader without WithProfile).
func TestEnvelopeVectors(t *testing.T) {
	testVectors(t, vectorFiles[0], true)
}

// TestMCPVectors checks mcp.jsonl by the MCP profile.
func TestMCPVectors(t *testing.T) {
	testVectors(t, vectorFiles[1], false)
}

// testVectors checks every vector of f through Classify, InvalidReply and a
// Reader, by f's profile: through the package-level defaults when
// defaults is set (f is the JSON-RPC profile's), and through the
// profile's methods and WithProfile in any case.
func testVectors(t *testing.T, f vectorFile, defaults bool) {
	vectors := readJSONL[envelopeVector](t, f.name)
	substitutes := 0
	for i := range vectors {
		v := &vectors[i]
		if v.Substitute != nil {
			substitutes++
		}
		t.Run(v.Name, func(t *testing.T) {
			line := v.input(t)
			c := f.profile.Classify(line)
			checkVector(t, v, line, &c)
			if defaults {
				d := Classify(line)
				checkVector(t, v, line, &d)
			}
			for _, role := range []Role{RoleServer, RoleClient} {
				reply, ok := f.profile.InvalidReply(line, role)
				if want := c.Reply(role); ok != (want != nil) || !bytes.Equal(reply, want) {
					t.Errorf("InvalidReply(%v) = %q, %v; the classification's reply is %q", role, reply, ok, want)
				}
				if defaults {
					reply, ok := InvalidReply(line, role)
					if want := c.Reply(role); ok != (want != nil) || !bytes.Equal(reply, want) {
						t.Errorf("package InvalidReply(%v) = %q, %v; the classification's reply is %q", role, reply, ok, want)
					}
				}
			}
			// The same line through the Reader, alone in a stream.
			rd := NewReader(bytes.NewReader(line), WithProfile(f.profile))
			if defaults {
				rd = NewReader(bytes.NewReader(line))
			}
			if !bytes.Contains(line, []byte("\n")) && len(line) > 0 {
				ln, err := rd.Next()
				if err != nil {
					t.Fatalf("Reader: %v", err)
				}
				if !bytes.Equal(ln.Bytes, line) || ln.Len != len(line) || ln.TooLong {
					t.Errorf("Reader line = %q (len %d, too long %v), want the input", ln.Bytes, ln.Len, ln.TooLong)
				}
				checkVector(t, v, ln.Bytes, &ln.Classification)
				if _, err := rd.Next(); err == nil {
					t.Errorf("Reader: a second line")
				}
			}
		})
	}
	if f.profile == ProfileMCP && substitutes == 0 {
		t.Errorf("%s: no vector with a substitute", f.name)
	}
}

func TestLogValueVectors(t *testing.T) {
	for _, v := range readJSONL[logValueVector](t, "log_value.jsonl") {
		t.Run(v.Name, func(t *testing.T) {
			var in []byte
			switch {
			case v.Input != nil:
				in = []byte(*v.Input)
			case v.InputHex != nil:
				var err error
				if in, err = hex.DecodeString(*v.InputHex); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatal("neither input nor input_hex")
			}
			if got := LogValue(in); got != v.Output {
				t.Errorf("LogValue(%q) = %q, want %q", in, got, v.Output)
			}
		})
	}
}
