package mcpstdio_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go/mcpstdio"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkToolCallInTurns is the same MCP tool-call round trip over
// mcpstdio and over the Go SDK's own stdio transports, in one run, in
// turns. Two sessions stay open side by side: the SDK's client on our
// CommandTransport with examples/go/sdk_server (the SDK's server on our
// StdioTransport), and the SDK's client on its own CommandTransport with
// the same server on its own StdioTransport (-sdk-transport). Each
// iteration calls the echo tool once on each (ours first on even
// iterations), each call timed alone, so that both see the same machine
// load. It reports the median of each as ours-ns/call and sdk-ns/call
// (a call is two messages, the request and its response), and their
// ratio.
func BenchmarkToolCallInTurns(b *testing.B) {
	ctx := context.Background()
	client := mcp.NewClient(&mcp.Implementation{Name: "mcpstdio-bench", Version: "1.0.0"}, nil)
	ours, err := client.Connect(ctx, &mcpstdio.CommandTransport{Command: command(goOurServer)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ours.Close()
	sdk, err := client.Connect(ctx, &mcp.CommandTransport{Command: command(append(slices.Clone(goOurServer), "-sdk-transport"))}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer sdk.Close()
	params := &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": hello}}
	call := func(cs *mcp.ClientSession) time.Duration {
		start := time.Now()
		result, err := cs.CallTool(ctx, params)
		elapsed := time.Since(start)
		if err != nil || len(result.Content) != 1 || result.Content[0].(*mcp.TextContent).Text != hello {
			b.Fatalf("tools/call: %v, %v", result, err)
		}
		return elapsed
	}
	for range 200 { // warm up both
		call(ours)
		call(sdk)
	}
	var oursTimes, sdkTimes []time.Duration
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			oursTimes = append(oursTimes, call(ours))
			sdkTimes = append(sdkTimes, call(sdk))
		} else {
			sdkTimes = append(sdkTimes, call(sdk))
			oursTimes = append(oursTimes, call(ours))
		}
	}
	b.StopTimer()
	o, s := median(oursTimes), median(sdkTimes)
	b.ReportMetric(float64(o.Nanoseconds()), "ours-ns/call")
	b.ReportMetric(float64(s.Nanoseconds()), "sdk-ns/call")
	b.ReportMetric(float64(o)/float64(s), "ours/sdk")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
