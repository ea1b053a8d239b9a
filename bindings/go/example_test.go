package envelope_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
)

func ExampleClassify() {
	line := []byte(`{"jsonrpc":"2.0","id":12345678901234567890,"method":"tools/call","params":{"name":"echo"}}`)
	c := envelope.Classify(line)
	fmt.Println(c.Kind, c.IDKind, string(c.ID), c.Method)
	fmt.Println(string(c.ParamsSpan.In(line)))
	// Output:
	// request number 12345678901234567890 tools/call
	// {"name":"echo"}
}

func ExampleClassify_idNull() {
	// "id": null makes a request, not a notification: it is answered, with
	// "id": null.
	c := envelope.Classify([]byte(`{"jsonrpc":"2.0","id":null,"method":"ping"}`))
	fmt.Println(c.Kind, string(c.ID))
	// Output: request null
}

func ExampleClassification_Reply() {
	c := envelope.Classify([]byte(`{"jsonrpc":"2.0","id":7,"method":{"name":"ping"}}`))
	fmt.Println(c.Kind)
	fmt.Println(c.Reason)
	fmt.Printf("%s\n", c.Reply(envelope.RoleServer))
	// Output:
	// invalid_request
	// Invalid Request: the method must be a string, not an object
	// {"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: the method must be a string, not an object"}}
}

func ExampleClassification_namesNoRequest() {
	// A host waiting on its one request can fail at once with this error.
	line := []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`)
	c := envelope.Classify(line)
	fmt.Println(c.Kind, c.NamesNoRequest, string(c.ErrorSpan.In(line)))
	// Output: response true {"code":-32700,"message":"Parse error"}
}

func ExampleInvalidReply() {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"`,
		`Server listening on port 3000`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
	} {
		// A server answers what it cannot read; a client (reading a server's
		// stdout, where log lines may appear) does not.
		server, ok := envelope.InvalidReply([]byte(line), envelope.RoleServer)
		if !ok {
			server = []byte("(none)")
		}
		_, clientOwes := envelope.InvalidReply([]byte(line), envelope.RoleClient)
		fmt.Printf("server: %s; client: %v\n", server, clientOwes)
	}
	// Output:
	// server: {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}; client: false
	// server: {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}; client: false
	// server: (none); client: false
}

func ExampleLogValue() {
	// A peer's text, made safe for one log line.
	fmt.Println(envelope.LogValue([]byte("tools/call\nlevel=error msg=forged")))
	fmt.Println(envelope.LogValue([]byte("{ \"message\" : \"a\u202eb\" }")))
	// Output:
	// tools/call\u000alevel=error msg=forged
	// {"message":"a\u202eb"}
}

func ExampleNewReader() {
	// What a server reads on its stdin, and what it owes for each line.
	stdin := strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}
{"jsonrpc":"2.0","method":"notifications/initialized"}
[{"jsonrpc":"2.0","id":2,"method":"ping"}]
{"jsonrpc":"2.0","id":3,"method":"tools/list"`)
	rd := envelope.NewReader(stdin, envelope.WithMaxLine(1<<20))
	for {
		ln, err := rd.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return
		}
		fmt.Printf("%-12s id=%-4s %q\n", ln.Kind, ln.ID, ln.Reply(envelope.RoleServer))
	}
	// Output:
	// request      id=1    ""
	// notification id=     ""
	// batch        id=     "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Invalid Request: this server doesn't accept batches\"}}"
	// parse_error  id=     "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}"
}

func ExampleSpan_In() {
	line := []byte(`{"jsonrpc":"2.0","id":"a1","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	c := envelope.Classify(line)
	// Parse params from the line itself: no second scan of the rest.
	var params struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(c.ParamsSpan.In(line), &params); err != nil {
		panic(err)
	}
	fmt.Println(params.Name, string(params.Arguments), c.ResultSpan.In(line) == nil)
	// Output: echo {"text":"hi"} true
}

func ExampleReader_Next_tooLong() {
	long := `{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("x", 200) + `"}`
	rd := envelope.NewReader(strings.NewReader(long+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`), envelope.WithMaxLine(100))
	for {
		ln, err := rd.Next()
		if err != nil {
			break
		}
		if ln.TooLong {
			fmt.Printf("line %d: %s, %d bytes, skipped; owes %q\n", ln.Number, ln.Kind, ln.Len, ln.Reply(envelope.RoleServer))
			continue
		}
		fmt.Printf("line %d: %s %s %v\n", ln.Number, ln.Kind, ln.ID, bytes.Equal(ln.IDSpan.In(ln.Bytes), ln.ID))
	}
	// Output:
	// line 1: too_long, 236 bytes, skipped; owes ""
	// line 2: request 2 true
}

func ExampleProfile_Classify() {
	// The MCP profile narrows JSON-RPC 2.0: a result must be an object.
	line := []byte(`{"jsonrpc":"2.0","id":7,"result":[]}`)
	c := envelope.ProfileMCP.Classify(line)
	fmt.Println(envelope.Classify(line).Kind, c.Kind)
	fmt.Println(c.Reason)
	fmt.Printf("%s\n", c.Substitute)
	// Output:
	// response invalid_response
	// Invalid Response: the result must be an object, not an array
	// {"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}
}

func ExampleSession() {
	// A host reading its server's stdout (role client), by the MCP profile.
	s, err := envelope.NewSession(envelope.RoleClient, envelope.ProfileMCP, 0)
	if err != nil {
		panic(err)
	}
	defer s.Close()
	// Every line written to the server is told to the session.
	if err := s.Sent([]byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{}}`)); err != nil {
		panic(err)
	}
	lines, err := s.Feed([]byte("Server listening on port 3000\n" +
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"read-only"}}` + "\n"))
	if err != nil {
		panic(err)
	}
	for _, ln := range lines {
		switch ln.Action {
		case envelope.ActionForward:
			fmt.Printf("hand on %s\n", ln.Bytes)
		case envelope.ActionSubstitute, envelope.ActionAttribute:
			fmt.Printf("%v: hand on %s\n", ln.Action, ln.ActionText)
		case envelope.ActionAnswer:
			fmt.Printf("%v: write back %s\n", ln.Action, ln.ActionText)
		default: // dropped or diverted: log it, with ln.Note, the library's why
			fmt.Printf("%v line %d: %s\n", ln.Action, ln.Number, envelope.LogValue(ln.Bytes))
		}
	}
	// Output:
	// diverted line 1: Server listening on port 3000
	// attributed: hand on {"jsonrpc":"2.0","id":"init","error":{"code":-32000,"message":"read-only"}}
}
