package envelope

import (
	"encoding/json"
	"io"
	"testing"
	"time"
)

// benchLines are MCP lines of the usual size (about 180 bytes): a tool call,
// its result, a progress notification and an initialize request.
var benchLines = [][]byte{
	[]byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello from the benchmark: a tool call of the size that MCP hosts send to servers"}}}`),
	[]byte(`{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"hello from the benchmark: a tool result of the size that servers send back to their hosts"}],"isError":false}}`),
	[]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"tok-0042","progress":50,"total":100,"message":"halfway there: still reading the files, please wait"}}`),
	[]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"bench-host","version":"1.0.0-beta.3"}}}`),
}

// rawEnvelope is what a Go host decodes with encoding/json instead.
type rawEnvelope struct {
	JSONRPC json.RawMessage `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  json.RawMessage `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

var sinkClassification Classification

// reportLineSize sets the bytes per op to the mean line size, for MB/s.
func reportLineSize(b *testing.B) {
	n := 0
	for _, l := range benchLines {
		n += len(l)
	}
	b.SetBytes(int64(n / len(benchLines)))
}

// BenchmarkClassify: one line per op, through Classify.
func BenchmarkClassify(b *testing.B) {
	reportLineSize(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		sinkClassification = Classify(benchLines[i%len(benchLines)])
		i++
	}
}

// cycle is an endless stream of the bench lines.
type cycle struct {
	data []byte
	pos  int
}

func (c *cycle) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		k := copy(p[n:], c.data[c.pos:])
		n += k
		c.pos = (c.pos + k) % len(c.data)
	}
	return n, nil
}

func newCycle() io.Reader {
	var data []byte
	for _, l := range benchLines {
		data = append(data, l...)
		data = append(data, '\n')
	}
	return &cycle{data: data}
}

// BenchmarkReader: one line per op, through a Reader reading 64 KiB chunks.
func BenchmarkReader(b *testing.B) {
	reportLineSize(b)
	b.ReportAllocs()
	rd := NewReader(newCycle())
	for b.Loop() {
		ln, err := rd.Next()
		if err != nil {
			b.Fatal(err)
		}
		sinkClassification = ln.Classification
	}
}

var sinkRaw rawEnvelope

// BenchmarkEncodingJSON: one line per op, decoded by encoding/json into a
// struct of json.RawMessage fields, the usual Go host's first step (which
// decides nothing yet: no kind, no reply).
func BenchmarkEncodingJSON(b *testing.B) {
	reportLineSize(b)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		var m rawEnvelope
		if err := json.Unmarshal(benchLines[i%len(benchLines)], &m); err != nil {
			b.Fatal(err)
		}
		sinkRaw = m
		i++
	}
}

// BenchmarkClassifyParallel: Classify from every P at once (ns/op is wall
// time per line over all of them; it shows whether calls scale with cores).
func BenchmarkClassifyParallel(b *testing.B) {
	reportLineSize(b)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		i := 0
		for pb.Next() {
			c := Classify(benchLines[i%len(benchLines)])
			if c.Kind == KindNone {
				panic("none")
			}
			i++
		}
	})
}

// BenchmarkInterleaved: Classify, the Reader and encoding/json in turns,
// each over a batch of the same lines, so that all three see the same
// moments of a shared machine's load (the benchmarks above run one after
// another, and such a machine's speed drifts between them). It reports the
// mean ns per line of each, and how many times faster than encoding/json
// Classify and the Reader are, from the same run.
func BenchmarkInterleaved(b *testing.B) {
	const batch = 256
	var classify, reader, decode time.Duration
	rd := NewReader(newCycle())
	lines := 0
	for b.Loop() {
		start := time.Now()
		for i := range batch {
			sinkClassification = Classify(benchLines[i%len(benchLines)])
		}
		classify += time.Since(start)
		start = time.Now()
		for range batch {
			ln, err := rd.Next()
			if err != nil {
				b.Fatal(err)
			}
			sinkClassification = ln.Classification
		}
		reader += time.Since(start)
		start = time.Now()
		for i := range batch {
			var m rawEnvelope
			if err := json.Unmarshal(benchLines[i%len(benchLines)], &m); err != nil {
				b.Fatal(err)
			}
			sinkRaw = m
		}
		decode += time.Since(start)
		lines += batch
	}
	perLine := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(lines) }
	b.ReportMetric(perLine(classify), "Classify-ns/line")
	b.ReportMetric(perLine(reader), "Reader-ns/line")
	b.ReportMetric(perLine(decode), "encoding/json-ns/line")
	b.ReportMetric(float64(decode)/float64(classify), "Classify-x-faster")
	b.ReportMetric(float64(decode)/float64(reader), "Reader-x-faster")
	b.ReportMetric(0, "ns/op")
}
