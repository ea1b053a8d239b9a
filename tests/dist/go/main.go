// Command vectors is a Go user's program, built against the released module
// alone (tests/dist/test_go.sh fetches it from dist/goproxy): it classifies
// every vector of the copy beside it and compares each field, byte for byte:
// envelope.jsonl by the JSON-RPC profile, and mcp.jsonl, when DIR has it,
// by the MCP profile (substitute included).
//
// usage: vectors DIR VERSION; prints "N passed, M failed", exits 1 on a failure.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
)

// vector is a line of envelope.jsonl or log_value.jsonl; null fields are nil.
type vector struct {
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
	Substitute     *string           `json:"substitute"`
	Input          *string           `json:"input"`
	InputHex       *string           `json:"input_hex"`
	Output         string            `json:"output"`
}

func read(path string) ([]vector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var v vector
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, v)
	}
	return out, sc.Err()
}

func input(text, hexText *string) []byte {
	if hexText != nil {
		b, err := hex.DecodeString(*hexText)
		if err != nil {
			panic(err)
		}
		return b
	}
	return []byte(*text)
}

// text is a nullable vector string as the classification spells it.
func text(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func bytesText(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

// check returns what in c differs from v.
func check(v *vector, c *envelope.Classification) []string {
	var wrong []string
	want := func(field string, got, expected any) {
		if !reflect.DeepEqual(got, expected) {
			wrong = append(wrong, fmt.Sprintf("%s = %v, want %v", field, got, expected))
		}
	}
	want("kind", c.Kind.String(), v.Kind)
	want("id_kind", c.IDKind.String(), v.IDKind)
	want("id", bytesText(c.ID), text(v.ID))
	method := any(nil)
	if c.HasMethod {
		method = c.Method
	}
	want("method", method, text(v.Method))
	want("flags", []bool{c.JSONRPC20, c.HasResult, c.HasError, c.NamesNoRequest},
		[]bool{v.JSONRPC20, v.HasResult, v.HasError, v.NamesNoRequest})
	spans := map[string][2]int{}
	for name, s := range map[string]envelope.Span{"id": c.IDSpan, "method": c.MethodSpan,
		"params": c.ParamsSpan, "result": c.ResultSpan, "error": c.ErrorSpan} {
		if s.Present() {
			spans[name] = [2]int{s.Offset, s.Len}
		}
	}
	if v.Spans == nil {
		v.Spans = map[string][2]int{}
	}
	want("spans", spans, v.Spans)
	if v.Kind == "parse_error" {
		if c.Reason == "" {
			wrong = append(wrong, "parse_error without a reason")
		}
	} else {
		reason := any(nil)
		if c.Reason != "" {
			reason = c.Reason
		}
		want("reason", reason, text(v.Reason))
	}
	want("reply_server", bytesText(c.Reply(envelope.RoleServer)), text(v.ReplyServer))
	want("reply_client", bytesText(c.Reply(envelope.RoleClient)), text(v.ReplyClient))
	want("substitute", bytesText(c.Substitute), text(v.Substitute))
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
	for i := range envelopes {
		v := &envelopes[i]
		c := envelope.Classify(input(v.Line, v.LineHex))
		report("classify: "+v.Name, check(v, &c))
	}
	mcpPath := filepath.Join(dir, "mcp.jsonl")
	if _, err := os.Stat(mcpPath); err == nil {
		mcp, err := read(mcpPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for i := range mcp {
			v := &mcp[i]
			c := envelope.ProfileMCP.Classify(input(v.Line, v.LineHex))
			report("classify by MCP: "+v.Name, check(v, &c))
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
	for _, v := range logValues {
		var wrong []string
		if got := envelope.LogValue(input(v.Input, v.InputHex)); got != v.Output {
			wrong = []string{fmt.Sprintf("%q, want %q", got, v.Output)}
		}
		report("log_value: "+v.Name, wrong)
	}

	fmt.Printf("envelope %s, ABI %d\n", envelope.Version(), envelope.ABIVersion())
	fmt.Printf("%d passed, %d failed\n", passed, failed)
	if failed > 0 || passed < 100 {
		os.Exit(1)
	}
}
