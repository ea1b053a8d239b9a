// An MCP server on the official Go SDK, with one tool, echo, served over
// stdio by mcpstdio.StdioTransport in place of the SDK's own: the only
// change from the SDK's way is the transport value given to server.Run.
//
//	cargo build --release   # the library the binding links
//	go run . [-sdk-transport]
//
// -sdk-transport serves the same server on the SDK's own transport, for
// comparison (the tests' control, the benchmark's other half).
//
// A line the library says is owed a reply (not JSON, a batch, a bare value,
// a broken request) is answered with it and never reaches the SDK; an empty
// line or a JSON log line is dropped; each of them is logged on stderr
// (slog's default logger).
package main

import (
	"context"
	"flag"
	"log"

	"github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go/mcpstdio"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to echo back"`
}

func echo(ctx context.Context, req *mcp.CallToolRequest, args echoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: args.Text}}}, nil, nil
}

func main() {
	sdkTransport := flag.Bool("sdk-transport", false, "serve on the SDK's own transport, for comparison")
	flag.Parse()
	server := mcp.NewServer(&mcp.Implementation{Name: "sdk-go-echo", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Returns the text it is given."}, echo)
	var transport mcp.Transport = &mcpstdio.StdioTransport{}
	if *sdkTransport {
		transport = &mcp.StdioTransport{} // the SDK's own
	}
	if err := server.Run(context.Background(), transport); err != nil {
		log.Fatalf("sdk-go-echo: %v", err)
	}
}
