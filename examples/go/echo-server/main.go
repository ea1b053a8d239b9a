// Command echo-server is a minimal MCP server on stdio, built on the Go
// binding of jsonrpc-envelope: the library decides what every line of its
// stdin is and which error reply a broken line is owed; the server only adds
// its own answers to the requests it knows.
//
// It answers initialize (protocol version 2025-11-25, a tools capability),
// ping, tools/list (one tool, echo) and tools/call of echo; any other method
// gets -32601. Notifications, responses and stray output are logged and
// dropped. Ids are echoed as the exact text the library gives, so a request
// with "id": null is answered with "id": null. Stdout carries only JSON-RPC
// messages, one a line; logs go to stderr, with peer text passed through
// envelope.LogValue so that no peer can forge a log line.
//
// Usage:
//
//	echo-server [-max-line BYTES] < requests.jsonl
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
)

const (
	protocolVersion = "2025-11-25"
	serverName      = "jsonrpc-envelope-echo"
	serverVersion   = "0.1.0"
)

// The results this server gives, as JSON text.
var (
	initializeResult = `{"protocolVersion":"` + protocolVersion + `","capabilities":{"tools":{}},` +
		`"serverInfo":{"name":"` + serverName + `","version":"` + serverVersion + `"}}`
	toolsListResult = `{"tools":[{"name":"echo","description":"Returns its text unchanged.",` +
		`"inputSchema":{"type":"object","properties":{"text":{"type":"string","description":"The text to return."}},` +
		`"required":["text"]}}]}`
)

// JSON-RPC error codes this server uses for its own answers. Every error
// about the envelope itself (-32700, -32600) is the library's reply.
const (
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the server: it reads stdin to its end and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("echo-server", flag.ContinueOnError)
	flags.SetOutput(stderr)
	maxLine := flags.Int("max-line", envelope.DefaultMaxLine, "longest line accepted, in bytes; longer ones are skipped")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	s := &server{out: bufio.NewWriter(stdout), log: log.New(stderr, "echo-server: ", 0)}
	s.log.Printf("ready (library %s, MCP %s)", envelope.Version(), protocolVersion)
	rd := envelope.NewReader(stdin, envelope.WithMaxLine(*maxLine))
	defer rd.Close()
	var lines uint64
	for {
		ln, err := rd.Next()
		if err == io.EOF {
			s.log.Printf("end of input after %d lines", lines)
			return 0
		}
		if err != nil {
			s.log.Printf("reading stdin: %v", err)
			return 1
		}
		lines = ln.Number
		if err := s.handle(&ln); err != nil {
			s.log.Printf("writing stdout: %v", err)
			return 1
		}
	}
}

type server struct {
	out *bufio.Writer
	log *log.Logger
}

// safe renders peer text for a log line.
func safe(b []byte) string { return envelope.LogValue(b) }

// handle does what a line is owed.
func (s *server) handle(ln *envelope.Line) error {
	n := ln.Number
	if ln.TooLong {
		s.log.Printf("line %d: %d bytes, over the limit: skipped", n, ln.Len)
		return nil
	}
	// A line the library says is owed a reply gets exactly that reply.
	if reply := ln.Reply(envelope.RoleServer); reply != nil {
		s.log.Printf("line %d: %s (%s): %s", n, ln.Kind, safe([]byte(ln.Reason)), safe(ln.Bytes))
		return s.send(reply)
	}
	switch ln.Kind {
	case envelope.KindRequest:
		s.log.Printf("line %d: request %s, id %s", n, safe([]byte(ln.Method)), safe(ln.ID))
		return s.request(ln)
	case envelope.KindNotification:
		if ln.Method == "notifications/initialized" {
			s.log.Printf("line %d: the client is initialized", n)
		} else {
			s.log.Printf("line %d: notification %s ignored", n, safe([]byte(ln.Method)))
		}
	case envelope.KindResponse:
		if ln.NamesNoRequest {
			s.log.Printf("line %d: the client reports an error: %s", n, safe(ln.ErrorSpan.In(ln.Bytes)))
		} else {
			s.log.Printf("line %d: a response (id %s), but this server sends no requests: dropped", n, safe(ln.ID))
		}
	case envelope.KindNotJSONRPC:
		s.log.Printf("line %d: not JSON-RPC, dropped: %s", n, safe(ln.Bytes))
	case envelope.KindEmpty:
	default:
		// A kind the library added later, or a failed call: log it, owe nothing.
		s.log.Printf("line %d: %s (%s), dropped", n, ln.Kind, safe([]byte(ln.Reason)))
	}
	return nil
}

// request answers a request. The id is echoed as its exact text.
func (s *server) request(ln *envelope.Line) error {
	switch ln.Method {
	case "initialize":
		return s.result(ln.ID, initializeResult)
	case "ping":
		return s.result(ln.ID, `{}`)
	case "tools/list":
		return s.result(ln.ID, toolsListResult)
	case "tools/call":
		result, code, message := callTool(ln.ParamsSpan.In(ln.Bytes))
		if code != 0 {
			return s.error(ln.ID, code, message)
		}
		return s.result(ln.ID, result)
	}
	return s.error(ln.ID, codeMethodNotFound, "Method not found")
}

// callTool runs a tools/call with the raw params: the echo tool's result,
// or a JSON-RPC error code and message. Member names are matched exactly
// (encoding/json's struct decoding would fold their case).
func callTool(params json.RawMessage) (result string, code int, message string) {
	var call map[string]json.RawMessage
	if err := json.Unmarshal(params, &call); err != nil || call == nil {
		return "", codeInvalidParams, "Invalid params: tools/call needs an object with a name"
	}
	var name string
	if err := json.Unmarshal(call["name"], &name); err != nil || call["name"] == nil {
		return "", codeInvalidParams, "Invalid params: the tool name must be a string"
	}
	if name != "echo" {
		return "", codeInvalidParams, "Unknown tool: " + name
	}
	var args map[string]json.RawMessage
	if err := json.Unmarshal(call["arguments"], &args); err != nil || args == nil {
		return "", codeInvalidParams, "Invalid params: echo needs arguments {\"text\": string}"
	}
	text := args["text"]
	if len(text) == 0 || text[0] != '"' {
		return "", codeInvalidParams, "Invalid params: echo needs arguments {\"text\": string}"
	}
	// The text's JSON is returned exactly as the client wrote it (the
	// library has checked that the whole line is valid JSON).
	return `{"content":[{"type":"text","text":` + string(text) + `}],"isError":false}`, 0, ""
}

func (s *server) result(id json.RawMessage, result string) error {
	s.out.WriteString(`{"jsonrpc":"2.0","id":`)
	s.out.Write(id)
	s.out.WriteString(`,"result":`)
	s.out.WriteString(result)
	s.out.WriteString("}\n")
	return s.out.Flush()
}

func (s *server) error(id json.RawMessage, code int, message string) error {
	var msg bytes.Buffer
	enc := json.NewEncoder(&msg)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(message); err != nil {
		return err
	}
	fmt.Fprintf(s.out, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`+"\n",
		id, code, bytes.TrimSuffix(msg.Bytes(), []byte("\n")))
	return s.out.Flush()
}

// send writes a reply the library wrote, as one line.
func (s *server) send(reply []byte) error {
	s.out.Write(reply)
	s.out.WriteByte('\n')
	return s.out.Flush()
}
