// The official Go MCP SDK's stdio client, driving one session against a
// server command: initialize, list the tools, call `echo`. Prints one JSON
// line with what it got and exits 0, or says what failed on stderr and
// exits 1. (The Go SDK ends the session on a line it cannot read, so its
// report's transport error count is always 0.)
//
//	client [--timeout SECONDS] -- COMMAND [ARGS...]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type report struct {
	SDK     string   `json:"sdk"`
	Tools   []string `json:"tools"`
	Echo    []string `json:"echo"`
	IsError bool     `json:"is_error"`
	Errors  int      `json:"transport_errors"`
}

func session(ctx context.Context, command []string) (*report, error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "sdk-go-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	result, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hello through stdio"}})
	if err != nil {
		return nil, fmt.Errorf("tools/call: %w", err)
	}
	r := &report{SDK: "go", Tools: []string{}, Echo: []string{}, IsError: result.IsError}
	for _, t := range tools.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
	for _, c := range result.Content {
		if text, ok := c.(*mcp.TextContent); ok {
			r.Echo = append(r.Echo, text.Text)
		}
	}
	return r, nil
}

func main() {
	timeout := flag.Float64("timeout", 20, "seconds the whole session may take")
	flag.Parse()
	command := flag.Args()
	if len(command) == 0 {
		fmt.Fprintln(os.Stderr, "client: no server command")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*timeout*float64(time.Second)))
	defer cancel()
	r, err := session(ctx, command)
	if err != nil {
		fmt.Fprintf(os.Stderr, "client: session failed: %v\n", err)
		os.Exit(1)
	}
	line, _ := json.Marshal(r)
	fmt.Println(string(line))
}
