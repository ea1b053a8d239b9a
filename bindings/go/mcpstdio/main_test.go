package mcpstdio_test

// The programs the tests talk to, built or installed by `make test-go-mcp`
// (bindings/go/rules.mk), which names them in the environment:
//
//   - MCPSTDIO_GO_SERVER: examples/go/sdk_server, the Go SDK's server on
//     StdioTransport, and with -sdk-transport on the SDK's own (the
//     control);
//   - SDK_GO_ECHO_SERVER: peers/go/echo-server, whose --pollute makes it a
//     server that writes a banner, a JSON log line and fmt.Printf output
//     to stdout;
//   - MCPSTDIO_PYTHON: the Python of target/python-mcp, with the Python
//     SDK, for examples/python/sdk_server.py (cross-language) and the
//     Python SDK's own server; PYTHONPATH and JSONRPC_ENVELOPE_LIB point it
//     at the package's source and the library.
//
// Plain Python peers (the naive server, tests/transports/faulty_server.py) run
// with the same Python.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go/mcpstdio"
)

var (
	repo            string
	goOurServer     []string
	goSDKServer     []string
	python          string
	pyOurServer     []string
	pySDKServer     []string
	naiveServer     []string
	unattributed    []string
	twoRequestsPeer []string
)

func TestMain(m *testing.M) {
	root, err := filepath.Abs("../../..")
	if err != nil {
		panic(err)
	}
	repo = root
	env := map[string]string{}
	for _, name := range []string{"MCPSTDIO_GO_SERVER", "SDK_GO_ECHO_SERVER", "MCPSTDIO_PYTHON", "PYTHONPATH", "JSONRPC_ENVELOPE_LIB"} {
		env[name] = os.Getenv(name)
		if env[name] == "" {
			fmt.Fprintf(os.Stderr, "mcpstdio tests: %s is not set: run them with `make test-go-mcp`\n", name)
			os.Exit(2)
		}
	}
	goOurServer = []string{env["MCPSTDIO_GO_SERVER"]}
	goSDKServer = []string{env["SDK_GO_ECHO_SERVER"]}
	python = env["MCPSTDIO_PYTHON"]
	pyOurServer = []string{python, filepath.Join(repo, "examples/python/sdk_server.py")}
	pySDKServer = []string{python, filepath.Join(repo, "peers/python/echo_server.py")}
	naiveServer = []string{python, filepath.Join(repo, "examples/guard/naive_server.py")}
	unattributed = []string{python, filepath.Join(repo, "tests/transports/faulty_server.py"), "--unattributed-initialize-error"}
	twoRequestsPeer = []string{python, filepath.Join(repo, "tests/transports/two_requests_peer.py")}
	os.Exit(m.Run())
}

// vector is a record of tests/vectors/envelope.jsonl or mcp.jsonl.
type vector struct {
	Name        string  `json:"name"`
	Line        string  `json:"line"`
	Kind        string  `json:"kind"`
	ReplyServer *string `json:"reply_server"`
	ReplyClient *string `json:"reply_client"`
}

// vectors is envelope.jsonl by name: the lines, and what the JSON-RPC
// profile makes of them.
func vectors(t *testing.T) map[string]vector {
	return vectorsOf(t, "envelope.jsonl")
}

// mcpVectors is mcp.jsonl by name: what the MCP profile, the transports',
// makes of each line; a line of envelope.jsonl is there as "envelope: "
// and its name.
func mcpVectors(t *testing.T) map[string]vector {
	return vectorsOf(t, "mcp.jsonl")
}

func vectorsOf(t *testing.T, file string) map[string]vector {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repo, "tests/vectors", file))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]vector{}
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var v vector
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatal(err)
		}
		out[v.Name] = v
	}
	return out
}

// abuse is issue #16's list of lines, each with the vector it is.
var abuse = []struct{ label, vector string }{
	{"id null", "request with id null is a request, answered with id null"},
	{"object id", "object id is an invalid request"},
	{"numeric method", "number method with a string id echoes the id"},
	{"boolean method", "boolean method and null id"},
	{"batch", "batch of one request"},
	{"not JSON", "plain text"},
	{"bare string", "string"},
}

// logBuffer collects a transport's log records (written from its read
// goroutine), or a command's stderr, for a test to read.
type logBuffer = mcpstdio.SyncBuffer
