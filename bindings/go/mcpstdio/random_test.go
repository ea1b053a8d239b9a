package mcpstdio_test

// SPEC §10: what the MCP profile calls a message, every official SDK reads.
// Here, for the Go SDK: random lines, built from the pieces MCP's rules are
// about and from the vectors' lines cut and patched at random, are
// classified by the MCP profile; each it calls a request, a notification
// or a response, each substitute it makes, and each error it attributes to
// the one request outstanding must pass the SDK's own decoder
// (jsonrpc.DecodeMessage, what its stdio transport uses), so that the
// transport's fallback for a refused line (SPEC §10.4) is never taken.

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	envelope "github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// gen makes random lines of JSON-RPC traffic.
type gen struct{ r *rand.Rand }

func (g gen) pick(options ...string) string { return options[g.r.IntN(len(options))] }

// mostly is usual, three times in four, else one of the others: most
// lines break no rule or one, so that every kind is well represented.
func (g gen) mostly(usual string, others ...string) string {
	if g.r.IntN(4) > 0 {
		return usual
	}
	return g.pick(others...)
}

func (g gen) ws() string {
	if g.r.IntN(6) > 0 {
		return ""
	}
	return g.pick(" ", "\t", "\r", "  ")
}

// str is a JSON string, sometimes with escapes, a surrogate pair, a lone
// surrogate or a NUL.
func (g gen) str() string {
	if g.r.IntN(3) > 0 {
		return g.pick(`"a"`, `""`, `"ping"`, `"\u0041"`, `"工具"`, `"x y"`)
	}
	return g.pick(`"a"`, `""`, `"ping"`, `"\u0041"`, `"\ud83d\ude00"`, `"\ud800"`, `"a\udc00b"`, `"x\u0000y"`,
		`"工具"`, `"tools\/call"`, `"\n\t"`, `"\\ud800"`, `"2.0"`)
}

func (g gen) number() string {
	return g.pick("0", "-0", "1", "-1", "42", "9007199254740991", "-9007199254740991", "9007199254740992",
		"12345678901234567890", "1.5", "1.0", "-0.0", "1e3", "1E+2", "2e-1", "1e400")
}

// value is a random JSON value at most depth levels deep.
func (g gen) value(depth int) string {
	if depth <= 0 {
		return g.pick(g.str(), g.number(), "null", "true", "false")
	}
	switch g.r.IntN(12) {
	case 0:
		return g.object(depth - 1)
	case 1:
		n := g.r.IntN(3)
		items := make([]string, n)
		for i := range items {
			items[i] = g.value(depth - 1)
		}
		return "[" + g.ws() + strings.Join(items, ","+g.ws()) + "]"
	case 2, 3, 4, 5:
		return g.object(depth - 1)
	case 6:
		// Deep, near the profile's limit of 127 levels.
		n := 120 + g.r.IntN(12)
		return strings.Repeat("[", n) + g.value(0) + strings.Repeat("]", n)
	}
	return g.value(0)
}

func (g gen) object(depth int) string {
	n := g.r.IntN(4)
	members := make([]string, n)
	for i := range members {
		key := g.pick(`"a"`, `"_meta"`, `"progressToken"`, `"\u0061"`, `"\ud800"`, `"x"`, `"a"`)
		members[i] = key + g.ws() + ":" + g.ws() + g.value(depth)
	}
	return "{" + strings.Join(members, ",") + "}"
}

// message is a random line made of the members JSON-RPC and MCP have
// rules about, some of them broken, duplicated or escaped.
func (g gen) message() string {
	var members []string
	add := func(key, value string) {
		members = append(members, g.ws()+key+g.ws()+":"+g.ws()+value+g.ws())
	}
	if g.r.IntN(20) > 0 {
		add(g.mostly(`"jsonrpc"`, `"json\u0072pc"`), g.mostly(`"2.0"`, `"\u0032.0"`, `"1.0"`, "2", "null"))
	}
	if g.r.IntN(3) > 0 {
		add(g.mostly(`"id"`, `"\u0069d"`), g.mostly(g.pick("1", "0", `"req-1"`, "9007199254740991", `"a"`),
			g.number(), g.str(), "null", "true", "{}", "[]"))
	}
	kind := g.r.IntN(3)
	switch kind {
	case 0: // a request or a notification
		add(g.mostly(`"method"`, `"\u006dethod"`), g.mostly(g.pick(`"tools/call"`, `"ping"`, `"notifications/progress"`, g.str()),
			"7", "null", "{}"))
		if g.r.IntN(3) > 0 {
			params := g.mostly(g.pick("{}", `{"_meta":{}}`, g.object(3), `{"name":"echo","arguments":`+g.object(3)+`}`), "{}", `{"_meta":{}}`, `{"_meta":{"progressToken":`+g.pick(g.number(), g.str(), "null", "{}")+`}}`,
				`{"_meta":[]}`, "[]", `"x"`, "null", g.object(3), `{"name":"echo","arguments":`+g.value(3)+`}`)
			add(`"params"`, params)
		}
	case 1: // a result
		add(g.mostly(`"result"`, `"r\u0065sult"`), g.mostly(g.pick("{}", g.object(3)), "[]", "null", "1", g.value(4)))
	case 2: // an error
		code := g.mostly(`"code":-32601`, "", `"code":`+g.number(), `"code":"1"`, `"code":null`)
		message := g.mostly(`"message":`+g.str(), "", `"message":2`, `"message":"Method not found"`)
		data := g.pick("", "", `"data":`+g.value(3))
		var parts []string
		for _, p := range []string{code, message, data} {
			if p != "" {
				parts = append(parts, p)
			}
		}
		add(`"error"`, g.mostly("{"+strings.Join(parts, ",")+"}", "null", "[]", `"oops"`))
	}
	if g.r.IntN(8) == 0 {
		add(g.pick(`"extra"`, `"Method"`, `"ID"`, `"result"`, `"id"`, `"params"`), g.value(2))
	}
	if g.r.IntN(8) == 0 && len(members) > 0 {
		members = append(members, members[g.r.IntN(len(members))]) // a duplicate
	}
	g.r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	return g.ws() + "{" + strings.Join(members, ",") + "}" + g.ws()
}

// mutate cuts and patches a line at random.
func (g gen) mutate(line string) string {
	b := []byte(line)
	for range 1 + g.r.IntN(3) {
		if len(b) == 0 {
			break
		}
		i := g.r.IntN(len(b))
		switch g.r.IntN(3) {
		case 0:
			b = append(b[:i], b[i+1:]...)
		case 1:
			patch := g.pick(`"`, "{", "}", "[", "]", ",", ":", `\`, "0", "null", `"id":1,`, `"x":{},`, `\u0000`, `\ud800`)
			b = append(b[:i], append([]byte(patch), b[i:]...)...)
		case 2:
			b[i] = "{}[]\",:0a \\"[g.r.IntN(11)]
		}
	}
	return string(b)
}

func TestRandomMCPMessagesPassTheSDKsDecoder(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(2025, 11))}
	var seeds []string
	for _, v := range mcpVectors(t) {
		if !strings.Contains(v.Line, "\n") {
			seeds = append(seeds, v.Line)
		}
	}
	sort.Strings(seeds) // the map's order is random; the lines must not be
	const n = 40000
	counts := map[string]int{}
	// Role client: it forwards every message (a server drops a response
	// nobody waits for, SPEC 10.8), in the same normal form.
	session, err := envelope.NewSession(envelope.RoleClient, envelope.ProfileMCP, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()
	for i := range n {
		line := g.message()
		if i%2 == 1 {
			line = g.mutate(seeds[g.r.IntN(len(seeds))])
		}
		c := envelope.ProfileMCP.Classify([]byte(line))
		counts[c.Kind.String()]++
		// An error that names no request is never handed on as it is
		// (SPEC §9: attributed or dropped), so it is checked attributed.
		if c.Kind.IsMessage() && !c.NamesNoRequest {
			// What the transport hands on: the session's normal form where
			// it gives one (SPEC 10.5), always after a byte order mark
			// (10.6 (a)); and the line as it is, where it has no mark.
			handed := handedOn(t, session, line)
			if _, err := jsonrpc.DecodeMessage(handed); err != nil {
				t.Errorf("the MCP profile calls %s a %v, handed on as %s; the SDK's decoder: %v", line, c.Kind,
					handed, err)
			}
			if !strings.HasPrefix(line, "\xEF\xBB\xBF") {
				if _, err := jsonrpc.DecodeMessage([]byte(line)); err != nil {
					t.Errorf("the MCP profile calls %s a %v; the SDK's decoder: %v", line, c.Kind, err)
				}
			}
		}
		if c.Substitute != nil {
			if _, err := jsonrpc.DecodeMessage(c.Substitute); err != nil {
				t.Errorf("the substitute %s of %s: the SDK's decoder: %v", c.Substitute, line, err)
			}
		}
		if c.Kind == envelope.KindResponse && c.NamesNoRequest {
			checkAttributed(t, line)
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d lines: %v", n, counts)
	for _, kind := range []string{"request", "notification", "response", "invalid_request", "invalid_response"} {
		if counts[kind] < n/100 {
			t.Errorf("only %d lines of kind %s: the generator misses it", counts[kind], kind)
		}
	}
}

// handedOn is what a transport hands the SDK for line, a message read by
// session (role client, nothing outstanding): the session's text where it
// gives one, else the line's bytes.
func handedOn(t *testing.T, session *envelope.Session, line string) []byte {
	t.Helper()
	lines, err := session.Feed([]byte(line + "\n"))
	if err != nil || len(lines) != 1 || lines[0].Action != envelope.ActionForward {
		t.Fatalf("%s: %v", line, describeLines(lines, err))
	}
	if lines[0].ActionText != nil {
		return lines[0].ActionText
	}
	return []byte(line)
}

// checkAttributed checks that an error that names no request, given to the
// one request outstanding, passes the SDK's decoder.
func checkAttributed(t *testing.T, line string) {
	t.Helper()
	s, err := envelope.NewSession(envelope.RoleClient, envelope.ProfileMCP, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Sent([]byte(`{"jsonrpc":"2.0","id":"waiting","method":"initialize","params":{}}`)); err != nil {
		t.Fatal(err)
	}
	lines, err := s.Feed([]byte(line + "\n"))
	if err != nil || len(lines) != 1 || lines[0].Action != envelope.ActionAttribute {
		t.Fatalf("%s with one request outstanding: %v", line, describeLines(lines, err))
	}
	msg, err := jsonrpc.DecodeMessage(lines[0].ActionText)
	if err != nil {
		t.Errorf("the attributed %s: the SDK's decoder: %v", lines[0].ActionText, err)
		return
	}
	if resp, ok := msg.(*jsonrpc.Response); !ok || resp.ID.Raw() != "waiting" || resp.Error == nil {
		t.Errorf("the attributed %s decodes as %#v", lines[0].ActionText, msg)
	}
}

func describeLines(lines []envelope.Line, err error) string {
	var parts []string
	for _, ln := range lines {
		parts = append(parts, fmt.Sprintf("%v %v %q", ln.Kind, ln.Action, ln.ActionText))
	}
	return fmt.Sprintf("%v, %v", parts, err)
}
