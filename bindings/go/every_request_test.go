package envelope

// SPEC §10.6 through the binding: a line after a byte order mark, an MCP
// batch, a damaged line, and a line too long to read whose first bytes hold
// a request's id and method or a response's id, through Classify,
// InvalidReply, a Reader and a Session, at every chunk size. The texts
// below are written by hand from SPEC.md.

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

const (
	tooLongBig1  = `{"jsonrpc":"2.0","id":"big-1","error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}}`
	substitute42 = `{"jsonrpc":"2.0","id":42,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"}}`
	damaged3     = `{"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"Parse error"}}`
	batchNote    = "Invalid Request: MCP has no batches; send each request on its own line"

	// Lines over a limit of headLimit whose first headLimit bytes hold a
	// request's id and method, or a response's id.
	headLimit    = 64
	longRequest  = `{"jsonrpc":"2.0","id":"big-1","method":"tools/call","params":{"arguments":{"text":"`
	longResponse = `{"jsonrpc":"2.0","id":42,"result":{"content":[{"type":"text","text":"`
	request42    = `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{}}`

	damagedRequest  = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"text\":\"a\xffb\"}}"
	damagedResponse = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"\xff\"}}"
	batchOfTwo      = `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"2","method":"tools/list"}]`
)

// checkTooLongHead checks what a too-long line holds of its first bytes
// (SPEC 10.6 (d)): nothing, or an MCP id (its span as long as its text)
// with a method, its span and the reply that says the line is too long,
// or without one and with the substitute for that id.
func checkTooLongHead(t testing.TB, ln *Line) {
	t.Helper()
	c := &ln.Classification
	id := string(c.ID)
	ok := true
	switch {
	case c.ID == nil:
		ok = c.IDKind == IDAbsent && !c.IDSpan.Present() && !c.HasMethod && !c.MethodSpan.Present() &&
			c.Reply(RoleServer) == nil && c.Substitute == nil
	case c.HasMethod:
		ok = c.MethodSpan.Present() && string(c.Reply(RoleServer)) == strings.Replace(tooLongBig1, `"big-1"`, id, 1) &&
			c.Substitute == nil
	default:
		ok = !c.MethodSpan.Present() && c.Reply(RoleServer) == nil &&
			string(c.Substitute) == strings.Replace(substitute42, "42", id, 1)
	}
	if !ok || (c.ID != nil && ((c.IDKind != IDString && c.IDKind != IDNumber) || c.IDSpan.Len != len(c.ID))) {
		t.Errorf("line %d, too long: what its first bytes hold is no damaged request or response: %s", ln.Number,
			describe(c))
	}
}

func batchReply(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-32600,"message":"` + batchNote + `"}}`
}

// tooLong is the head of a too-long line, then n bytes of its text, then its end.
func tooLong(head string, n int, end string) string {
	return head + strings.Repeat("x", n) + end
}

// headWant is what a Line must carry.
type headWant struct {
	tooLong    bool
	length     int
	id         string // "" for none
	idKind     IDKind
	idSpan     Span
	method     string // "" for none
	methodSpan Span
	server     string // Reply(RoleServer); "" for none
	substitute string // "" for none
}

func checkHead(t *testing.T, what string, ln Line, w headWant) {
	t.Helper()
	c := &ln.Classification
	switch {
	case ln.TooLong != w.tooLong || (ln.Kind == KindTooLong) != w.tooLong:
		t.Errorf("%s: TooLong %v, kind %v, want too long %v", what, ln.TooLong, ln.Kind, w.tooLong)
	case ln.Len != w.length:
		t.Errorf("%s: Len %d, want %d", what, ln.Len, w.length)
	case w.tooLong && (ln.Bytes != nil || c.Reason != "" || c.Reply(RoleClient) != nil || c.JSONRPC20 ||
		c.HasResult || c.HasError || c.NamesNoRequest || c.ParamsSpan.Present() || c.ResultSpan.Present() ||
		c.ErrorSpan.Present()):
		t.Errorf("%s: a too-long line carries more than its first bytes' id and method: %+v", what, ln)
	case string(c.ID) != w.id || (c.ID == nil) != (w.id == "") || c.IDSpan != w.idSpan ||
		(w.id != "" && c.IDKind != w.idKind) || (w.id == "" && c.IDKind != IDAbsent):
		t.Errorf("%s: id %q (%v) at %v, want %q (%v) at %v", what, c.ID, c.IDKind, c.IDSpan, w.id, w.idKind, w.idSpan)
	case c.Method != w.method || c.HasMethod != (w.method != "") || c.MethodSpan != w.methodSpan:
		t.Errorf("%s: method %q (%v) at %v, want %q at %v", what, c.Method, c.HasMethod, c.MethodSpan, w.method,
			w.methodSpan)
	case string(c.Reply(RoleServer)) != w.server || (c.Reply(RoleServer) == nil) != (w.server == ""):
		t.Errorf("%s: server reply %q, want %q", what, c.Reply(RoleServer), w.server)
	case string(c.Substitute) != w.substitute || (c.Substitute == nil) != (w.substitute == ""):
		t.Errorf("%s: substitute %q, want %q", what, c.Substitute, w.substitute)
	}
}

// readLines reads data n bytes at a time with opts.
func readLines(t *testing.T, data []byte, n int, opts ...Option) []Line {
	t.Helper()
	rd := NewReader(fixed(data, n), opts...)
	defer rd.Close()
	var out []Line
	for {
		ln, err := rd.Next()
		if err != nil {
			return out
		}
		ln.Bytes = bytes.Clone(ln.Bytes)
		out = append(out, ln)
	}
}

// TestReaderTooLongHeads: the header's promise, through the Reader: a line
// over the limit is TooLong; in ProfileMCP, where its first bytes (as many
// as the limit) hold a damaged request or response, it carries the readable
// id (its span a place in the line, whose bytes are not held) and, for a
// request, the method and the server's reply that says the line is too
// long; for a response, the substitute; otherwise nothing. The JSON-RPC
// profile reads no first bytes.
func TestReaderTooLongHeads(t *testing.T) {
	request := tooLong(longRequest, 200, `"}}}`)
	response := tooLong(longResponse, 200, `"}]}}`)
	notification := tooLong(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"`, 100, `"}}`)
	lateID := tooLong(`{"jsonrpc":"2.0","method":"tools/call","params":{"pad":"`, 100, `"},"id":5}`)
	ok := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	last := tooLong(longRequest, 150, `"}}}`)
	data := []byte(strings.Join([]string{request, ok, response, notification, lateID, strings.Repeat("w", 100), last}, "\n"))
	idSpan := func(id string) Span { return Span{len(`{"jsonrpc":"2.0","id":`), len(id)} }
	methodSpan := Span{len(`{"jsonrpc":"2.0","id":"big-1","method":`), len(`"tools/call"`)}
	bigRequest := headWant{true, len(request), `"big-1"`, IDString, idSpan(`"big-1"`), "tools/call", methodSpan, tooLongBig1, ""}
	lastRequest := bigRequest
	lastRequest.length = len(last)
	mcp := []headWant{
		bigRequest,
		{false, len(ok), "2", IDNumber, idSpan("2"), "ping", Span{len(`{"jsonrpc":"2.0","id":2,"method":`), 6}, "", ""},
		{true, len(response), "42", IDNumber, idSpan("42"), "", Span{}, "", substitute42},
		{tooLong: true, length: len(notification)},
		{tooLong: true, length: len(lateID)},
		{tooLong: true, length: 100},
		lastRequest,
	}
	for n := 1; n <= 71; n++ {
		if n == 71 {
			n = len(data)
		}
		for _, p := range []Profile{ProfileMCP, ProfileJSONRPC} {
			lines := readLines(t, data, n, WithProfile(p), WithMaxLine(headLimit))
			if len(lines) != len(mcp) {
				t.Fatalf("%v, %d at a time: %d lines, want %d", p, n, len(lines), len(mcp))
			}
			for i, ln := range lines {
				w := mcp[i]
				if p == ProfileJSONRPC && w.tooLong {
					w = headWant{tooLong: true, length: w.length}
				}
				checkHead(t, fmt.Sprintf("%v, %d at a time, line %d", p, n, i+1), ln, w)
			}
		}
		if t.Failed() {
			return
		}
	}
	// "As many as the limit": the method is readable when the , after it
	// is the last of the first bytes, and not when it is the next byte.
	line := []byte(request)
	head := len(`{"jsonrpc":"2.0","id":"big-1","method":"tools/call",`)
	for n := 1; n <= 70; n++ {
		lines := readLines(t, line, n, WithProfile(ProfileMCP), WithMaxLine(head))
		if len(lines) != 1 {
			t.Fatalf("%d lines", len(lines))
		}
		checkHead(t, fmt.Sprintf("limit %d, %d at a time", head, n), lines[0], bigRequest)
		lines = readLines(t, line, n, WithProfile(ProfileMCP), WithMaxLine(head-1))
		if len(lines) != 1 {
			t.Fatalf("%d lines", len(lines))
		}
		checkHead(t, fmt.Sprintf("limit %d, %d at a time", head-1, n), lines[0], headWant{tooLong: true, length: len(request)})
	}
}

// TestReaderByteOrderMark: in ProfileMCP a line that begins with the byte
// order mark is classified as the rest of the line, its spans counted from
// the line's first byte; the JSON-RPC profile calls it a parse error.
func TestReaderByteOrderMark(t *testing.T) {
	request := "\xEF\xBB\xBF" + `{"jsonrpc":"2.0","id":"b","method":"initialize","params":{}}`
	data := []byte(request + "\n" + request)
	for n := 1; n <= 70; n++ {
		for i, ln := range readLines(t, data, n, WithProfile(ProfileMCP)) {
			checkHead(t, fmt.Sprintf("%d at a time, line %d", n, i+1), ln, headWant{false, len(request), `"b"`, IDString,
				Span{3 + len(`{"jsonrpc":"2.0","id":`), 3}, "initialize", Span{3 + len(`{"jsonrpc":"2.0","id":"b","method":`), 12}, "", ""})
			if ln.Kind != KindRequest || string(ln.Bytes) != request || string(ln.ParamsSpan.In(ln.Bytes)) != "{}" {
				t.Errorf("%d at a time, line %d: %v %q", n, i+1, ln.Kind, ln.Bytes)
			}
		}
		for _, ln := range readLines(t, data, n) {
			if ln.Kind != KindParseError || string(ln.Reply(RoleServer)) != parseError {
				t.Errorf("JSON-RPC profile: %v %q", ln.Kind, ln.Reply(RoleServer))
			}
		}
	}
}

// TestClassifyDamagedAndBatch: Classify and InvalidReply by ProfileMCP: a
// damaged request's readable id and method, and the reply with its id; a
// damaged response's substitute and no reply; a batch's reply, one line
// per request.
func TestClassifyDamagedAndBatch(t *testing.T) {
	c := ProfileMCP.Classify([]byte(damagedRequest))
	if c.Kind != KindParseError || string(c.ID) != "3" || c.IDKind != IDNumber || c.Method != "tools/call" ||
		string(c.IDSpan.In([]byte(damagedRequest))) != "3" || c.JSONRPC20 || c.ParamsSpan.Present() ||
		string(c.Reply(RoleServer)) != damaged3 || c.Reply(RoleClient) != nil || c.Substitute != nil || c.Reason == "" {
		t.Errorf("a damaged request: %s", describe(&c))
	}
	c = ProfileMCP.Classify([]byte(damagedResponse))
	if c.Kind != KindParseError || string(c.ID) != "7" || c.HasMethod || c.HasResult ||
		c.Reply(RoleServer) != nil || c.Reply(RoleClient) != nil || string(c.Substitute) != substitute7 {
		t.Errorf("a damaged response: %s", describe(&c))
	}
	if c := ProfileJSONRPC.Classify([]byte(damagedRequest)); c.ID != nil || c.HasMethod || string(c.Reply(RoleServer)) != parseError {
		t.Errorf("a damaged request by the JSON-RPC profile: %s", describe(&c))
	}
	want := batchReply("1") + "\n" + batchReply(`"2"`)
	c = ProfileMCP.Classify([]byte(batchOfTwo))
	if c.Kind != KindBatch || string(c.Reply(RoleServer)) != want || c.Reply(RoleClient) != nil {
		t.Errorf("a batch: %s", describe(&c))
	}
	if reply, ok := ProfileMCP.InvalidReply([]byte(batchOfTwo), RoleServer); !ok || string(reply) != want {
		t.Errorf("InvalidReply of a batch: %q, %v", reply, ok)
	}
	if reply, ok := ProfileMCP.InvalidReply([]byte(damagedRequest), RoleServer); !ok || string(reply) != damaged3 {
		t.Errorf("InvalidReply of a damaged request: %q, %v", reply, ok)
	}
	if reply, ok := ProfileMCP.InvalidReply([]byte(damagedResponse), RoleServer); ok || reply != nil {
		t.Errorf("InvalidReply of a damaged response: %q, %v", reply, ok)
	}
}

// decideAll feeds data to s n bytes at a time, then ends the stream.
func decideAll(t *testing.T, s *Session, data string, n int) []Line {
	t.Helper()
	var got []Line
	for rest := []byte(data); len(rest) > 0; {
		k := min(n, len(rest))
		lines, err := s.Feed(rest[:k])
		if err != nil {
			t.Fatal(err)
		}
		for _, ln := range lines {
			ln.Bytes = bytes.Clone(ln.Bytes)
			got = append(got, ln)
		}
		rest = rest[k:]
	}
	last, err := s.End()
	if err != nil {
		t.Fatal(err)
	}
	return append(got, last...)
}

// decided is a line's kind, action and action text.
type decided struct {
	kind   Kind
	action Action
	text   string
}

func (d decided) String() string { return fmt.Sprintf("%v %v %q", d.kind, d.action, d.text) }

func checkDecided(t *testing.T, what string, got []Line, want ...decided) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines, want %d", what, len(got), len(want))
	}
	for i, ln := range got {
		if g := (decided{ln.Kind, ln.Action, string(ln.ActionText)}); g != want[i] || (ln.ActionText == nil) != (want[i].text == "") {
			t.Errorf("%s, line %d: %v, want %v", what, i+1, g, want[i])
		}
		if (ln.Note == "") != (ln.Action == ActionForward) {
			t.Errorf("%s, line %d: note %q with %v", what, i+1, ln.Note, ln.Action)
		}
	}
}

// TestSessionEveryRequestAnswered: a session decides SPEC §10.6's lines as
// 10.5 says, at every chunk size: a batch, a damaged request and a
// too-long request answered by their ids (role server); a damaged or
// too-long response substituted while its id is outstanding, else dropped
// (server) or diverted (client, a damaged one); a line after a byte order
// mark forwarded in its normal form, without the mark.
func TestSessionEveryRequestAnswered(t *testing.T) {
	// A limit the batch and the damaged lines are within.
	const limit = 200
	request := tooLong(longRequest, 2*limit, `"}}}`)
	response := tooLong(longResponse, 2*limit, `"}]}}`)
	bomRequest := "\xEF\xBB\xBF" + `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}} `
	for n := 1; n <= 71; n++ {
		if n == 71 {
			n = 1 << 20
		}
		what := fmt.Sprintf("%d at a time", n)
		server := newSession(t, RoleServer, ProfileMCP, limit)
		checkDecided(t, "server, "+what, decideAll(t, server, strings.Join([]string{
			bomRequest, batchOfTwo, damagedRequest, request, damagedResponse, response}, "\n"), n),
			decided{KindRequest, ActionForward, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}`},
			decided{KindBatch, ActionAnswer, batchReply("1") + "\n" + batchReply(`"2"`)},
			decided{KindParseError, ActionAnswer, damaged3},
			decided{KindTooLong, ActionAnswer, tooLongBig1},
			decided{KindParseError, ActionDrop, ""},
			decided{KindTooLong, ActionDrop, ""},
		)
		sent(t, server, `{"jsonrpc":"2.0","id":7,"method":"roots/list"}`)
		sent(t, server, `{"jsonrpc":"2.0","id":42,"method":"sampling/createMessage","params":{}}`)
		checkDecided(t, "server, its requests outstanding, "+what, decideAll(t, server, damagedResponse+"\n"+response, n),
			decided{KindParseError, ActionSubstitute, substitute7},
			decided{KindTooLong, ActionSubstitute, substitute42},
		)
		if o := server.Outstanding(); o != 0 {
			t.Errorf("server, %s: %d outstanding", what, o)
		}

		client := newSession(t, RoleClient, ProfileMCP, limit)
		checkDecided(t, "client, "+what, decideAll(t, client, strings.Join([]string{
			batchOfTwo, damagedRequest, request, damagedResponse, response}, "\n"), n),
			decided{KindBatch, ActionDivert, ""},
			decided{KindParseError, ActionDivert, ""},
			decided{KindTooLong, ActionDrop, ""},
			decided{KindParseError, ActionDivert, ""},
			decided{KindTooLong, ActionDrop, ""},
		)
		sent(t, client, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`)
		sent(t, client, request42)
		checkDecided(t, "client, its requests outstanding, "+what,
			decideAll(t, client, response+"\n"+damagedResponse+"\n"+response+"\n", n),
			decided{KindTooLong, ActionSubstitute, substitute42},
			decided{KindParseError, ActionSubstitute, substitute7},
			decided{KindTooLong, ActionDrop, ""}, // answered already
		)
		if t.Failed() {
			return
		}
	}
}

// TestProfileDefaultMaxLine: each profile's default line limit is the
// library's (read from it, never restated here); a Reader and a Session of
// ProfileMCP made without one keep a line of exactly that length, report
// one a byte longer too long, and answer a request too long by that limit.
func TestProfileDefaultMaxLine(t *testing.T) {
	if ProfileJSONRPC.DefaultMaxLine() != DefaultMaxLine || Profile(0).DefaultMaxLine() != 0 ||
		Profile(3).DefaultMaxLine() != 0 || ProfileMCP.DefaultMaxLine() <= 0 {
		t.Fatalf("default line limits: jsonrpc %d (DefaultMaxLine %d), mcp %d, 0: %d, 3: %d",
			ProfileJSONRPC.DefaultMaxLine(), DefaultMaxLine, ProfileMCP.DefaultMaxLine(), Profile(0).DefaultMaxLine(),
			Profile(3).DefaultMaxLine())
	}
	if testing.Short() {
		t.Skip("lines as long as the limit")
	}
	limit := ProfileMCP.DefaultMaxLine()
	for _, extra := range []int{0, 1} {
		data := append(bytes.Repeat([]byte(" "), limit+extra), '\n')
		lines := readLines(t, data, 1<<16, WithProfile(ProfileMCP))
		if len(lines) != 1 || lines[0].Len != limit+extra || lines[0].TooLong != (extra == 1) {
			t.Fatalf("a line of the limit and %d bytes: %d lines, %+v", extra, len(lines), lines)
		}
	}
	request := `{"jsonrpc":"2.0","id":"d","method":"tools/call","params":{"text":"`
	line := tooLong(request, limit, `"}}`)
	s := newSession(t, RoleServer, ProfileMCP, 0)
	got := decideAll(t, s, line+"\n", 1<<16)
	checkDecided(t, "a request too long by the default limit", got, decided{KindTooLong, ActionAnswer,
		strings.Replace(tooLongBig1, `"big-1"`, `"d"`, 1)})
}
