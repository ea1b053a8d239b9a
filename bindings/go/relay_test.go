package envelope

import (
	"errors"
	"strings"
	"testing"
)

// The expected values below are written by hand from the relay's C API
// (jsonrpc_relay_*, jsonrpc_direction_*, jsonrpc_action_goes) and SPEC.md;
// the texts (substitute7, parseError, refused5) are session_test.go's.

// The library's notes of a refusal and of a settled second one.
const (
	noteRefused           = "the receiving SDK's decoder refused it"
	noteRefusedSubstitute = "the receiving SDK's decoder refused the substitute too"
)

func newRelay(t *testing.T, p Profile, maxLine int) *Relay {
	t.Helper()
	r, err := NewRelay(p, maxLine)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// relayLines feeds data in dir in one piece and ends dir's stream.
func relayLines(t *testing.T, r *Relay, dir Direction, data string) []Line {
	t.Helper()
	lines, err := r.Feed(dir, []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	last, err := r.End(dir)
	if err != nil {
		t.Fatal(err)
	}
	return append(lines, last...)
}

// relayOne feeds one line in dir and returns its decision.
func relayOne(t *testing.T, r *Relay, dir Direction, line string) Line {
	t.Helper()
	lines := relayLines(t, r, dir, line+"\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines for %q", len(lines), line)
	}
	if string(lines[0].Bytes) != line {
		t.Errorf("line bytes %q, want %q", lines[0].Bytes, line)
	}
	return lines[0]
}

// wantOutstanding checks the relay's outstanding requests, to the server's
// lines' sender (toServer) and to the host's (toHost).
func wantOutstanding(t *testing.T, r *Relay, what string, toServer, toHost int) {
	t.Helper()
	if s, h := r.Outstanding(DirectionToServer), r.Outstanding(DirectionToHost); s != toServer || h != toHost {
		t.Errorf("%s: outstanding (to_server %d, to_host %d), want (%d, %d)", what, s, h, toServer, toHost)
	}
}

func TestDirectionValuesAndNames(t *testing.T) {
	// The header's values, fixed, and the library's names.
	if DirectionToServer != 1 || DirectionToHost != 2 {
		t.Errorf("values: to_server %d, to_host %d", uint32(DirectionToServer), uint32(DirectionToHost))
	}
	for d, want := range map[Direction]string{DirectionToServer: "to_server", DirectionToHost: "to_host",
		Direction(0): "Direction(0)", Direction(3): "Direction(3)", Direction(1 << 31): "Direction(2147483648)"} {
		if d.String() != want {
			t.Errorf("Direction %d: %q, want %q", uint32(d), d.String(), want)
		}
	}
}

func TestDirectionReadBy(t *testing.T) {
	for role, want := range map[Role]Direction{RoleServer: DirectionToServer, RoleClient: DirectionToHost, Role(0): 0,
		Role(3): 0} {
		if got := DirectionReadBy(role); got != want {
			t.Errorf("DirectionReadBy(%v) = %v, want %v", role, got, want)
		}
	}
}

func TestActionGoes(t *testing.T) {
	type goes struct{ toServer, toHost Direction }
	for a, want := range map[Action]goes{
		ActionForward:    {DirectionToServer, DirectionToHost},
		ActionSubstitute: {DirectionToServer, DirectionToHost},
		ActionAttribute:  {DirectionToServer, DirectionToHost},
		ActionAnswer:     {DirectionToHost, DirectionToServer},
		ActionDrop:       {0, 0},
		ActionDivert:     {0, 0},
		ActionNone:       {0, 0},
		Action(7):        {0, 0},
	} {
		if got := (goes{a.Goes(DirectionToServer), a.Goes(DirectionToHost)}); got != want {
			t.Errorf("%v goes %v, want %v", a, got, want)
		}
		for _, bad := range []Direction{0, 3} {
			if got := a.Goes(bad); got != 0 {
				t.Errorf("%v.Goes(%v) = %v, want 0", a, bad, got)
			}
		}
	}
}

func TestNewRelay(t *testing.T) {
	for _, p := range []Profile{0, 3} {
		if r, err := NewRelay(p, 0); r != nil || err == nil || !strings.Contains(err.Error(), "unknown profile") {
			t.Errorf("NewRelay(%v): %v, %v", p, r, err)
		}
	}
	// A limit of 64 bytes: a notification of 100 is too long, and dropped.
	r := newRelay(t, ProfileMCP, 64)
	long := `{"jsonrpc":"2.0","method":"x","params":{"x":"` + strings.Repeat("x", 100-48) + `"}}`
	if len(long) != 100 {
		t.Fatalf("len %d", len(long))
	}
	lines := relayLines(t, r, DirectionToServer, long+"\n")
	if len(lines) != 1 || !lines[0].TooLong || lines[0].Len != 100 || lines[0].Action != ActionDrop {
		t.Errorf("a line over the limit: %+v", lines)
	}
	// The default limit takes it.
	r = newRelay(t, ProfileMCP, 0)
	if ln := relayOne(t, r, DirectionToServer, long); ln.TooLong || ln.Action != ActionForward {
		t.Errorf("with the default limit: %+v", ln)
	}
}

func TestRelayRequestForwardedIsOutstandingForTheOtherDirection(t *testing.T) {
	r := newRelay(t, ProfileMCP, 0)
	ln := relayOne(t, r, DirectionToServer, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if ln.Action != ActionForward || ln.ActionText != nil || ln.Note != "" || ln.Kind != KindRequest {
		t.Errorf("the request: %v %q %q", ln.Action, ln.ActionText, ln.Note)
	}
	wantOutstanding(t, r, "after the request", 0, 1)
	ln = relayOne(t, r, DirectionToHost, `{"jsonrpc":"2.0","id":7,"result":{}}`)
	if ln.Action != ActionForward || ln.ActionText != nil {
		t.Errorf("the answer: %v %q", ln.Action, ln.ActionText)
	}
	wantOutstanding(t, r, "after the answer", 0, 0)
}

func TestRelayInvalidResponseIsSubstitutedOnce(t *testing.T) {
	r := newRelay(t, ProfileMCP, 0)
	relayOne(t, r, DirectionToServer, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	bad := `{"jsonrpc":"2.0","id":7,"result":[]}`
	if ln := relayOne(t, r, DirectionToHost, bad); ln.Action != ActionSubstitute || string(ln.ActionText) != substitute7 ||
		ln.Note == "" {
		t.Errorf("the invalid response: %v %q %q", ln.Action, ln.ActionText, ln.Note)
	}
	wantOutstanding(t, r, "after the substitute", 0, 0)
	if ln := relayOne(t, r, DirectionToHost, bad); ln.Action != ActionDrop || ln.ActionText != nil {
		t.Errorf("the same again: %v %q", ln.Action, ln.ActionText)
	}
}

func TestRelayAnswerGoesBackAndChangesNothing(t *testing.T) {
	r := newRelay(t, ProfileMCP, 0)
	ln := relayOne(t, r, DirectionToServer, `{"jsonrpc":"2.0","id":1,"method":"ping"`)
	if ln.Action != ActionAnswer || string(ln.ActionText) != parseError {
		t.Errorf("a parse error: %v %q", ln.Action, ln.ActionText)
	}
	if ln.Action.Goes(DirectionToServer) != DirectionToHost {
		t.Errorf("the answer goes %v", ln.Action.Goes(DirectionToServer))
	}
	wantOutstanding(t, r, "after the answer", 0, 0)
}

func TestRelayWrote(t *testing.T) {
	r := newRelay(t, ProfileMCP, 0)
	// A server transport: the SDK writes a request to the host.
	if err := r.Wrote(DirectionToHost, []byte(`{"jsonrpc":"2.0","id":"s1","method":"roots/list"}`)); err != nil {
		t.Fatal(err)
	}
	wantOutstanding(t, r, "after the SDK's request", 1, 0)
	// A response or a notification written changes nothing.
	for _, line := range []string{`{"jsonrpc":"2.0","id":3,"result":{}}`, `{"jsonrpc":"2.0","method":"x"}`} {
		if err := r.Wrote(DirectionToHost, []byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	wantOutstanding(t, r, "after the SDK's response", 1, 0)
	// The host's error that names no request goes to the one outstanding.
	ln := relayOne(t, r, DirectionToServer, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}`)
	if ln.Action != ActionAttribute ||
		string(ln.ActionText) != `{"jsonrpc":"2.0","id":"s1","error":{"code":-32600,"message":"x"}}` {
		t.Errorf("the error: %v %q", ln.Action, ln.ActionText)
	}
	wantOutstanding(t, r, "after the error", 0, 0)
}

func TestRelayRefusedTwiceIsDropped(t *testing.T) {
	r := newRelay(t, ProfileMCP, 0)
	relayOne(t, r, DirectionToServer, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	line := `{"jsonrpc":"2.0","id":7,"result":{"refuse":true}}`
	if ln := relayOne(t, r, DirectionToHost, line); ln.Action != ActionForward {
		t.Fatalf("the response: %v", ln.Action)
	}
	// The host's SDK refused it: its substitute goes on instead.
	d, err := r.Refused(DirectionToHost, []byte(line))
	if err != nil || d.Action != ActionSubstitute || string(d.Text) != substitute7 || d.Note != noteRefused {
		t.Fatalf("first refusal: %+v, %v", d, err)
	}
	if d.Action.Goes(DirectionToHost) != DirectionToHost {
		t.Errorf("the substitute goes %v", d.Action.Goes(DirectionToHost))
	}
	// And refused the substitute too: settled.
	d, err = r.Refused(DirectionToHost, []byte(substitute7))
	if err != nil || d.Action != ActionDrop || d.Text != nil || d.Note != noteRefusedSubstitute {
		t.Errorf("second refusal: %+v, %v", d, err)
	}
	if d.Action.Goes(DirectionToHost) != 0 {
		t.Errorf("the drop goes %v", d.Action.Goes(DirectionToHost))
	}
	// A request the server's SDK refused is answered, back to the host.
	d, err = r.Refused(DirectionToServer, []byte(`{"jsonrpc":"2.0","id":5,"method":"ping"}`))
	if err != nil || d.Action != ActionAnswer || string(d.Text) != refused5 || d.Note != noteRefused {
		t.Errorf("a refused request: %+v, %v", d, err)
	}
	wantOutstanding(t, r, "after the refusals", 0, 0)
}

func TestRelayEndAndBatchesByDirection(t *testing.T) {
	r := newRelay(t, ProfileMCP, 0)
	a := `{"jsonrpc":"2.0","method":"a"}`
	b := `{"jsonrpc":"2.0","method":"b"}`
	toServer, err := r.Feed(DirectionToServer, []byte(a+"\n"+b))
	if err != nil || len(toServer) != 1 {
		t.Fatalf("Feed: %d lines, %v", len(toServer), err)
	}
	// The other direction's calls leave a direction's lines be.
	toHost, err := r.Feed(DirectionToHost, []byte(b+"\n"))
	if err != nil || len(toHost) != 1 || string(toHost[0].Bytes) != b {
		t.Fatalf("Feed to_host: %+v, %v", toHost, err)
	}
	if _, err := r.End(DirectionToHost); err != nil {
		t.Fatal(err)
	}
	if string(toServer[0].Bytes) != a || toServer[0].Number != 1 {
		t.Errorf("the first line: %d %q", toServer[0].Number, toServer[0].Bytes)
	}
	// The last line, with no LF.
	last, err := r.End(DirectionToServer)
	if err != nil || len(last) != 1 || string(last[0].Bytes) != b || last[0].Number != 2 ||
		last[0].Action != ActionForward {
		t.Errorf("End: %+v, %v", last, err)
	}
	// Nothing more.
	if last, err := r.End(DirectionToServer); err != nil || len(last) != 0 {
		t.Errorf("End again: %+v, %v", last, err)
	}
}

func TestRelayUnknownDirection(t *testing.T) {
	r := newRelay(t, ProfileMCP, 0)
	for _, dir := range []Direction{0, 3, 1 << 31} {
		if lines, err := r.Feed(dir, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")); lines != nil ||
			!errors.Is(err, ErrUnknownDirection) {
			t.Errorf("Feed(%v): %v, %v", dir, lines, err)
		}
		if lines, err := r.End(dir); lines != nil || !errors.Is(err, ErrUnknownDirection) {
			t.Errorf("End(%v): %v, %v", dir, lines, err)
		}
		if err := r.Wrote(dir, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)); !errors.Is(err, ErrUnknownDirection) {
			t.Errorf("Wrote(%v): %v", dir, err)
		}
		if d, err := r.Refused(dir, []byte(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)); d.Action != ActionNone ||
			d.Text != nil || !errors.Is(err, ErrUnknownDirection) {
			t.Errorf("Refused(%v): %+v, %v", dir, d, err)
		}
		if n := r.Outstanding(dir); n != 0 {
			t.Errorf("Outstanding(%v) = %d", dir, n)
		}
	}
	// Nothing was noted.
	wantOutstanding(t, r, "after the unknown directions", 0, 0)
}

func TestRelayJSONRPCProfileTracksNothing(t *testing.T) {
	r := newRelay(t, ProfileJSONRPC, 0)
	if ln := relayOne(t, r, DirectionToServer, `{"jsonrpc":"2.0","id":7,"method":"ping"}`); ln.Action != ActionForward {
		t.Errorf("the request: %v", ln.Action)
	}
	if err := r.Wrote(DirectionToHost, []byte(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	wantOutstanding(t, r, "in the JSON-RPC profile", 0, 0)
}

func TestRelayClose(t *testing.T) {
	r, err := NewRelay(ProfileMCP, 0)
	if err != nil {
		t.Fatal(err)
	}
	relayOne(t, r, DirectionToServer, `{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if _, err := r.Feed(DirectionToServer, []byte("{}\n")); !errors.Is(err, ErrRelayClosed) {
		t.Errorf("Feed: %v", err)
	}
	if _, err := r.End(DirectionToServer); !errors.Is(err, ErrRelayClosed) {
		t.Errorf("End: %v", err)
	}
	if err := r.Wrote(DirectionToHost, []byte("{}")); !errors.Is(err, ErrRelayClosed) {
		t.Errorf("Wrote: %v", err)
	}
	if _, err := r.Refused(DirectionToServer, []byte("{}")); !errors.Is(err, ErrRelayClosed) {
		t.Errorf("Refused: %v", err)
	}
	if n := r.Outstanding(DirectionToHost); n != 0 {
		t.Errorf("Outstanding after Close: %d", n)
	}
}
