// The official Go SDK's client (mcp.Client) on this project's
// mcpstdio.CommandTransport, for one session against a server command:
// initialize, list the tools, call echo once for each -text. Prints one JSON
// line, {"tools": [...], "echo": [[texts of call 1], ...],
// "transport_errors": 0, "error_records": N}, and exits 0; or says what
// failed on stderr and exits 1. error_records counts the transport's log
// records at level error (a line the SDK's own decoder refused, SPEC 10.4);
// the Go SDK ends a session on any error its transport hands it, so there
// is no count of those to give but 0.
//
//	go_client [-timeout SECONDS] -text TEXT [-text TEXT ...] -- COMMAND [ARGS...]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go/mcpstdio"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type report struct {
	Tools        []string   `json:"tools"`
	Echo         [][]string `json:"echo"`
	Errors       int        `json:"transport_errors"`
	ErrorRecords int64      `json:"error_records"`
}

// counting passes records on to stderr and counts those at level error.
type counting struct {
	slog.Handler
	errors *atomic.Int64
}

func (h counting) Handle(ctx context.Context, r slog.Record) error {
	if r.Level >= slog.LevelError {
		h.errors.Add(1)
	}
	return h.Handler.Handle(ctx, r)
}

func (h counting) WithAttrs(attrs []slog.Attr) slog.Handler {
	return counting{h.Handler.WithAttrs(attrs), h.errors}
}

func (h counting) WithGroup(name string) slog.Handler {
	return counting{h.Handler.WithGroup(name), h.errors}
}

type texts []string

func (t *texts) String() string     { return strings.Join(*t, ",") }
func (t *texts) Set(s string) error { *t = append(*t, s); return nil }

func session(ctx context.Context, command []string, calls []string, logger *slog.Logger) (*report, error) {
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Stderr = os.Stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "sessions-go-client", Version: "1.0.0"}, nil)
	cs, err := client.Connect(ctx, &mcpstdio.CommandTransport{Command: cmd, Logger: logger}, nil)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	r := &report{Tools: []string{}, Echo: [][]string{}}
	for _, t := range tools.Tools {
		r.Tools = append(r.Tools, t.Name)
	}
	for _, text := range calls {
		result, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": text}})
		if err != nil {
			return nil, fmt.Errorf("tools/call %q: %w", text, err)
		}
		got := []string{}
		for _, c := range result.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				got = append(got, tc.Text)
			}
		}
		r.Echo = append(r.Echo, got)
	}
	return r, nil
}

func main() {
	timeout := flag.Float64("timeout", 20, "seconds the whole session may take")
	var calls texts
	flag.Var(&calls, "text", "a text to echo (one call each)")
	flag.Parse()
	command := flag.Args()
	if len(command) == 0 {
		fmt.Fprintln(os.Stderr, "go_client: no server command")
		os.Exit(2)
	}
	errors := &atomic.Int64{}
	logger := slog.New(counting{slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}), errors})
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*timeout*float64(time.Second)))
	defer cancel()
	r, err := session(ctx, command, calls, logger)
	if err != nil {
		fmt.Fprintf(os.Stderr, "go_client: session failed: %v\n", err)
		os.Exit(1)
	}
	r.ErrorRecords = errors.Load()
	line, _ := json.Marshal(r)
	fmt.Println(string(line))
}
