// Command vectors is a Go user's program, built against the released module
// alone (tests/dist/test_go.sh fetches it from dist/goproxy): it classifies
// every vector of the copy beside it and compares each field, byte for byte:
// envelope.jsonl by the JSON-RPC profile, and mcp.jsonl, when DIR has it,
// by the MCP profile (substitute included).
//
// usage: vectors DIR VERSION; prints "N passed, M failed", exits 1 on a failure.
package main

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
)

// record is a line of a vectors file as encoding/json decodes it into an
// any: its fields by name, null as nil, a number as a float64.
type record map[string]any

func read(path string) ([]record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []record
	dec := json.NewDecoder(f)
	for dec.More() {
		var r record
		if err := dec.Decode(&r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// input is the bytes of the record's field name, or of name+"_hex".
func (r record) input(name string) []byte {
	if h, ok := r[name+"_hex"].(string); ok {
		b, err := hex.DecodeString(h)
		if err != nil {
			panic(err)
		}
		return b
	}
	return []byte(r[name].(string))
}

// nullable is s, or nil (JSON's null) when present is false.
func nullable(s string, present bool) any {
	if !present {
		return nil
	}
	return s
}

// check returns what in c differs from r: c is put in the record's terms
// (a JSON value per field) and compared field by field.
func check(r record, c *envelope.Classification) []string {
	spans := map[string]any{}
	for name, s := range map[string]envelope.Span{"id": c.IDSpan, "method": c.MethodSpan,
		"params": c.ParamsSpan, "result": c.ResultSpan, "error": c.ErrorSpan} {
		if s.Present() {
			spans[name] = []any{float64(s.Offset), float64(s.Len)}
		}
	}
	if r["spans"] == nil {
		r["spans"] = map[string]any{}
	}
	got := record{
		"kind":             c.Kind.String(),
		"id_kind":          c.IDKind.String(),
		"id":               nullable(string(c.ID), c.ID != nil),
		"method":           nullable(c.Method, c.HasMethod),
		"jsonrpc_2_0":      c.JSONRPC20,
		"has_result":       c.HasResult,
		"has_error":        c.HasError,
		"names_no_request": c.NamesNoRequest,
		"spans":            spans,
		"reason":           nullable(c.Reason, c.Reason != ""),
		"reply_server":     nullable(string(c.Reply(envelope.RoleServer)), c.Reply(envelope.RoleServer) != nil),
		"reply_client":     nullable(string(c.Reply(envelope.RoleClient)), c.Reply(envelope.RoleClient) != nil),
		"substitute":       nullable(string(c.Substitute), c.Substitute != nil),
	}
	var wrong []string
	for _, field := range []string{"kind", "id_kind", "id", "method", "jsonrpc_2_0", "has_result", "has_error",
		"names_no_request", "spans", "reason", "reply_server", "reply_client", "substitute"} {
		switch {
		case field == "reason" && r["kind"] == "parse_error":
			if c.Reason == "" {
				wrong = append(wrong, "parse_error without a reason")
			}
		case !reflect.DeepEqual(got[field], r[field]):
			wrong = append(wrong, fmt.Sprintf("%s = %v, want %v", field, got[field], r[field]))
		}
	}
	return wrong
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: vectors DIR VERSION")
		os.Exit(2)
	}
	dir, version := os.Args[1], os.Args[2]
	passed, failed := 0, 0
	report := func(name string, wrong []string) {
		if len(wrong) == 0 {
			passed++
			return
		}
		failed++
		fmt.Printf("FAIL %s: %v\n", name, wrong)
	}

	if got := envelope.Version(); got != version {
		report("library version", []string{fmt.Sprintf("%s, want %s", got, version)})
	}
	envelopes, err := read(filepath.Join(dir, "envelope.jsonl"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, r := range envelopes {
		c := envelope.Classify(r.input("line"))
		report(fmt.Sprint("classify: ", r["name"]), check(r, &c))
	}
	mcpPath := filepath.Join(dir, "mcp.jsonl")
	if _, err := os.Stat(mcpPath); err == nil {
		mcp, err := read(mcpPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for _, r := range mcp {
			c := envelope.ProfileMCP.Classify(r.input("line"))
			report(fmt.Sprint("classify by MCP: ", r["name"]), check(r, &c))
		}
		fmt.Printf("mcp.jsonl: %d vectors by the MCP profile\n", len(mcp))
	} else {
		fmt.Fprintln(os.Stderr, "mcp.jsonl: not in", dir)
		os.Exit(1)
	}
	logValues, err := read(filepath.Join(dir, "log_value.jsonl"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, r := range logValues {
		var wrong []string
		if got := envelope.LogValue(r.input("input")); got != r["output"] {
			wrong = []string{fmt.Sprintf("%q, want %q", got, r["output"])}
		}
		report(fmt.Sprint("log_value: ", r["name"]), wrong)
	}

	fmt.Printf("envelope %s, ABI %d\n", envelope.Version(), envelope.ABIVersion())
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 || passed < 100 {
		os.Exit(1)
	}
}
