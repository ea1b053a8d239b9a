// The official Go MCP SDK's stdio server with one tool, `echo`, as a program
// written on the SDK would be: for tests that put the SDK's own transport in
// front of other peers (peers/README.md).
//
//	echo-server [--pollute]
//
// --pollute writes what real servers write to stdout: a banner and a JSON log
// line at start, and fmt.Println output from the tool (os.Stdout is the
// protocol's channel).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to echo back"`
}

func main() {
	pollute := len(os.Args) > 1 && os.Args[1] == "--pollute"
	server := mcp.NewServer(&mcp.Implementation{Name: "sdk-go-echo", Version: "1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "echo", Description: "Returns the text it is given."},
		func(ctx context.Context, req *mcp.CallToolRequest, args echoArgs) (*mcp.CallToolResult, any, error) {
			if pollute {
				fmt.Printf("echo called with %q\n", args.Text)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: args.Text}}}, nil, nil
		})
	if pollute {
		fmt.Println("sdk-go-echo 1.0 starting on stdio")
		line, _ := json.Marshal(map[string]any{"level": "info", "msg": "tools registered", "tools": []string{"echo"}})
		fmt.Println(string(line))
	}
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Printf("sdk-go-echo: %v", err)
		os.Exit(1)
	}
}
