package envelope

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/iotest"
)

// event is what a Reader returned for one line, in comparable form.
type event struct {
	number  uint64
	line    string
	len     int
	tooLong bool
	class   string
}

func (e event) String() string {
	if e.tooLong {
		return fmt.Sprintf("%d: too_long(%d)", e.number, e.len)
	}
	return fmt.Sprintf("%d: %q -> %s", e.number, e.line, e.class)
}

// describe renders every field of a classification, replies included.
func describe(c *Classification) string {
	return fmt.Sprintf("%v %v id=%q(%v) method=%q(%v) %v%v%v%v reason=%q spans=%v server=%q client=%q substitute=%q",
		c.Kind, c.IDKind, c.ID, c.ID == nil, c.Method, c.HasMethod,
		c.JSONRPC20, c.HasResult, c.HasError, c.NamesNoRequest, c.Reason, spansOf(c),
		c.Reply(RoleServer), c.Reply(RoleClient), c.Substitute)
}

// readAll returns every event a Reader gives for r, and its final error.
func readAll(t testing.TB, r io.Reader, opts ...Option) ([]event, error) {
	t.Helper()
	rd := NewReader(r, opts...)
	var out []event
	for {
		ln, err := rd.Next()
		if err != nil {
			// Errors are sticky.
			if _, again := rd.Next(); again != err {
				t.Errorf("second Next after %v returned %v", err, again)
			}
			return out, err
		}
		switch {
		case ln.TooLong != (ln.Kind == KindTooLong):
			t.Errorf("TooLong %v with kind %v", ln.TooLong, ln.Kind)
		case ln.TooLong && (ln.Bytes != nil || ln.Reply(RoleClient) != nil || ln.Reason != "" ||
			(ln.ID == nil && (ln.Reply(RoleServer) != nil || ln.Substitute != nil || ln.HasMethod))):
			// In ProfileMCP it may carry what its first bytes hold (SPEC
			// 10.6 (d)): an id, and a method and a reply or a substitute.
			t.Errorf("a too-long line carries more than its length: %+v", ln)
		case !ln.TooLong && ln.Len != len(ln.Bytes):
			t.Errorf("Len %d != len(Bytes) %d", ln.Len, len(ln.Bytes))
		case ln.Action != ActionNone || ln.ActionText != nil || ln.Note != "":
			t.Errorf("a Reader's line with an action: %v %q %q", ln.Action, ln.ActionText, ln.Note)
		}
		class := describe(&ln.Classification)
		if ln.TooLong {
			// What its first bytes hold (ProfileMCP) is checked here and
			// by TestReaderTooLongHeads; the events compare the rest.
			checkTooLongHead(t, &ln)
			class = describe(&Classification{Kind: KindTooLong})
		}
		out = append(out, event{number: ln.Number, line: string(ln.Bytes), len: ln.Len, tooLong: ln.TooLong,
			class: class})
	}
}

// expected is what a Reader must give for data with the line limit
// maxLine, by the JSON-RPC profile: every LF-separated piece (and a last
// one without LF, if not empty) classified alone, or reported too long,
// numbered from 1.
func expected(data []byte, maxLine int) []event {
	return expectedBy(ProfileJSONRPC, data, maxLine)
}

// expectedBy is expected by the profile p.
func expectedBy(p Profile, data []byte, maxLine int) []event {
	pieces := bytes.Split(data, []byte("\n"))
	if len(pieces[len(pieces)-1]) == 0 {
		pieces = pieces[:len(pieces)-1]
	}
	out := make([]event, 0, len(pieces))
	for i, piece := range pieces {
		number := uint64(i + 1)
		if len(piece) > maxLine {
			out = append(out, event{number: number, len: len(piece), tooLong: true, class: describe(&Classification{Kind: KindTooLong})})
			continue
		}
		c := p.Classify(piece)
		out = append(out, event{number: number, line: string(piece), len: len(piece), class: describe(&c)})
	}
	return out
}

func sameEvents(t *testing.T, what string, got, want []event) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d lines, want %d", what, len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Errorf("%s: line %d:\n got %v\nwant %v", what, i+1, got[i], want[i])
			return
		}
	}
}

// vectorStream is every envelope vector's input joined by LF (some inputs
// hold LFs of their own, and so become several lines).
func vectorStream(t testing.TB) []byte {
	return vectorStreamOf(t, vectorFiles[0])
}

// vectorStreamOf is the same for the vectors of f.
func vectorStreamOf(t testing.TB, f vectorFile) []byte {
	return bytes.Join(vectorInputs(t, f.name), []byte("\n"))
}

// forEachFile runs test for each vector file, with its profile's Reader
// option.
func forEachFile(t *testing.T, test func(t *testing.T, f vectorFile, opt Option)) {
	for _, f := range vectorFiles {
		t.Run(f.profile.String(), func(t *testing.T) { test(t, f, WithProfile(f.profile)) })
	}
}

// chunks returns data's bytes n at a time (the last read may be shorter).
type chunks struct {
	data []byte
	n    func() int
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := min(c.n(), len(p), len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

func fixed(data []byte, n int) io.Reader {
	return &chunks{data: data, n: func() int { return n }}
}

func TestReaderWhole(t *testing.T) {
	forEachFile(t, func(t *testing.T, f vectorFile, opt Option) {
		data := vectorStreamOf(t, f)
		want := expectedBy(f.profile, data, f.profile.DefaultMaxLine())
		got, err := readAll(t, bytes.NewReader(data), opt)
		if err != io.EOF {
			t.Fatalf("final error %v, want io.EOF", err)
		}
		sameEvents(t, "whole", got, want)
		// With a trailing LF: the same lines.
		got, _ = readAll(t, bytes.NewReader(append(bytes.Clone(data), '\n')), opt)
		sameEvents(t, "whole with LF", got, want)
	})
	// Without WithProfile: the JSON-RPC profile's.
	data := vectorStream(t)
	got, _ := readAll(t, bytes.NewReader(data))
	sameEvents(t, "default profile", got, expected(data, DefaultMaxLine))
}

// TestReaderChunks feeds the vector stream through readers that return 1
// to 70 bytes at a time, so that every line is cut at every place, and a
// Reader whose own read size is small.
func TestReaderChunks(t *testing.T) {
	forEachFile(t, func(t *testing.T, f vectorFile, opt Option) {
		data := vectorStreamOf(t, f)
		want := expectedBy(f.profile, data, f.profile.DefaultMaxLine())
		for n := 1; n <= 70; n++ {
			got, err := readAll(t, fixed(data, n), opt)
			if err != io.EOF {
				t.Fatalf("%d bytes at a time: final error %v", n, err)
			}
			sameEvents(t, fmt.Sprintf("%d bytes at a time", n), got, want)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		got, _ := readAll(t, &chunks{data: data, n: func() int { return 1 + rng.IntN(64) }}, opt)
		sameEvents(t, "1..64 bytes at random", got, want)
		got, _ = readAll(t, iotest.DataErrReader(fixed(data, 7)), opt)
		sameEvents(t, "EOF with the last data", got, want)
		got, _ = readAll(t, bytes.NewReader(data), WithReadSize(3), opt)
		sameEvents(t, "read size 3", got, want)
	})
}

// TestReaderEveryCut splits a capture in two reads at every byte.
func TestReaderEveryCut(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "captures", "client-to-server.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	want := expected(data, DefaultMaxLine)
	for cut := 0; cut <= len(data); cut++ {
		got, err := readAll(t, io.MultiReader(bytes.NewReader(data[:cut]), bytes.NewReader(data[cut:])))
		if err != io.EOF {
			t.Fatalf("cut at %d: %v", cut, err)
		}
		sameEvents(t, fmt.Sprintf("cut at %d", cut), got, want)
		if t.Failed() {
			return
		}
	}
}

func TestReaderTooLong(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":1,"method":"` + strings.Repeat("x", 100) + `"}`
	ok := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	exact := `{"id":3,"method":"` + strings.Repeat("y", 40-len(`{"id":3,"method":""}`)) + `"}`
	if len(exact) != 40 {
		t.Fatalf("exact is %d bytes", len(exact))
	}
	cases := []struct {
		name string
		data string
	}{
		{"between lines", ok + "\n" + long + "\n" + ok + "\n"},
		{"first", long + "\n" + ok},
		{"last without LF", ok + "\n" + long},
		{"last with LF", ok + "\n" + long + "\n"},
		{"exactly the limit", exact + "\n" + exact + "x\n" + exact},
		{"several in a row", long + "\n" + long + "\n" + long + "\n"},
		{"only", long},
		{"long whitespace", strings.Repeat(" ", 1000) + "\n" + ok},
		{"CRLF", ok + "\r\n" + long + "\r\n" + exact[:39] + "\r\n" + exact + "\r\n\r\n" + ok + "\r"},
		{"LF at the limit", exact + "\n" + "\n" + exact[:1]},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := []byte(tc.data)
			want := expected(data, 40)
			for n := 1; n <= 70; n++ {
				got, err := readAll(t, fixed(data, n), WithMaxLine(40))
				if err != io.EOF {
					t.Fatalf("%d at a time: %v", n, err)
				}
				sameEvents(t, fmt.Sprintf("%d at a time", n), got, want)
			}
			got, _ := readAll(t, bytes.NewReader(data), WithMaxLine(40), WithReadSize(16))
			sameEvents(t, "read size 16", got, want)
			got, _ = readAll(t, bytes.NewReader(data), WithMaxLine(40))
			sameEvents(t, "whole", got, want)
		})
	}
}

// endless is a line of x that never ends, then an LF and a request, up to
// n bytes in all.
type endless struct{ left, tail int }

func (e *endless) Read(p []byte) (int, error) {
	if e.left == 0 {
		return 0, io.EOF
	}
	n := min(len(p), e.left)
	for i := range n {
		p[i] = 'x'
		if e.left-i <= e.tail {
			p[i] = "\n{\"id\":1,\"method\":\"m\"}"[e.tail-(e.left-i)]
		}
	}
	e.left -= n
	return n, nil
}

// TestReaderBoundedMemory reads a 40 MiB line with the default limit: it is
// reported too long, and the Reader's Go buffers never held it (the
// library's bound on what it holds is the library's test).
func TestReaderBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("40 MiB")
	}
	const size = 40 << 20
	tail := len("\n{\"id\":1,\"method\":\"m\"}")
	rd := NewReader(&endless{left: size, tail: tail})
	ln, err := rd.Next()
	if err != nil || !ln.TooLong || ln.Len != size-tail {
		t.Fatalf("first line: %+v, %v; want too long, %d bytes", ln, err, size-tail)
	}
	if c := cap(rd.s.bytes); c > 2*DefaultReadSize {
		t.Errorf("the lines' buffer grew to %d bytes", c)
	}
	ln, err = rd.Next()
	if err != nil || ln.Kind != KindRequest || string(ln.Bytes) != `{"id":1,"method":"m"}` {
		t.Fatalf("second line: %q %v, %v", ln.Bytes, ln.Kind, err)
	}
	if _, err := rd.Next(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
}

// TestReaderSmallLimit: a 1 MiB line in reads of 50 bytes, with a limit of
// 100, is one too-long line, and the next line follows it.
func TestReaderSmallLimit(t *testing.T) {
	tail := len("\n{\"id\":1,\"method\":\"m\"}")
	rd := NewReader(&endless{left: 1 << 20, tail: tail}, WithMaxLine(100), WithReadSize(50))
	defer rd.Close()
	ln, err := rd.Next()
	if err != nil || !ln.TooLong || ln.Len != 1<<20-tail || ln.Number != 1 {
		t.Fatalf("%+v, %v", ln, err)
	}
	if c := cap(rd.s.bytes); c > 100 {
		t.Errorf("the lines' buffer grew to %d bytes", c)
	}
	ln, err = rd.Next()
	if err != nil || ln.Kind != KindRequest || ln.Number != 2 {
		t.Fatalf("second line: %+v, %v", ln, err)
	}
}

func TestReaderErrors(t *testing.T) {
	boom := errors.New("boom")
	data := "{\"id\":1,\"method\":\"a\"}\n{\"id\":2,\"method\":\"b\"}\n{\"id\":3,"
	// The lines completed before the failure come first, then the error; the
	// unfinished line is not classified.
	got, err := readAll(t, io.MultiReader(strings.NewReader(data), iotest.ErrReader(boom)))
	if err != boom {
		t.Fatalf("final error %v, want boom", err)
	}
	if len(got) != 2 || !strings.Contains(got[1].line, `"b"`) {
		t.Errorf("got %v", got)
	}
	// Data and an error from the same Read.
	got, err = readAll(t, &dataAndError{data: []byte(data), err: boom})
	if err != boom || len(got) != 2 {
		t.Errorf("data and error in one Read: %v, %v", got, err)
	}
	got, err = readAll(t, &dataAndError{data: []byte(data), err: io.EOF})
	if err != io.EOF || len(got) != 3 || got[2].line != `{"id":3,` {
		t.Errorf("data and EOF in one Read: %v, %v", got, err)
	}
	// An empty stream, and one of empty lines.
	if got, err := readAll(t, strings.NewReader("")); len(got) != 0 || err != io.EOF {
		t.Errorf("empty stream: %v, %v", got, err)
	}
	got, _ = readAll(t, strings.NewReader("\n\r\n"))
	if len(got) != 2 || !strings.HasPrefix(got[0].class, "empty") || !strings.HasPrefix(got[1].class, "empty") {
		t.Errorf("empty lines: %v", got)
	}
	// A reader that never makes progress.
	if _, err := readAll(t, &chunks{data: []byte("x"), n: func() int { return 0 }}); err != io.ErrNoProgress {
		t.Errorf("no progress: %v", err)
	}
}

// dataAndError returns all its data and its error from one Read.
type dataAndError struct {
	data []byte
	err  error
}

func (d *dataAndError) Read(p []byte) (int, error) {
	n := copy(p, d.data)
	d.data = d.data[n:]
	if len(d.data) == 0 {
		return n, d.err
	}
	return n, nil
}

// TestReaderLinesStayValid checks that a line's classification outlives
// the next call to Next, while its bytes are the buffer's.
func TestReaderLinesStayValid(t *testing.T) {
	forEachFile(t, func(t *testing.T, f vectorFile, opt Option) {
		data := vectorStreamOf(t, f)
		rd := NewReader(fixed(data, 13), WithReadSize(64), opt)
		var kept []Classification
		for {
			ln, err := rd.Next()
			if err != nil {
				break
			}
			kept = append(kept, ln.Classification)
		}
		want := expectedBy(f.profile, data, f.profile.DefaultMaxLine())
		if len(kept) != len(want) {
			t.Fatalf("%d lines, want %d", len(kept), len(want))
		}
		for i := range kept {
			if got := describe(&kept[i]); got != want[i].class {
				t.Fatalf("line %d after reading on: %s, want %s", i+1, got, want[i].class)
			}
		}
	})
}

// TestConcurrent runs Classify, InvalidReply, LogValue and Readers from
// many goroutines at once (run with -race).
func TestConcurrent(t *testing.T) {
	forEachFile(t, func(t *testing.T, f vectorFile, opt Option) {
		inputs := vectorInputs(t, f.name)
		want := make([]string, len(inputs))
		for i, in := range inputs {
			c := f.profile.Classify(in)
			want[i] = describe(&c)
		}
		data := vectorStreamOf(t, f)
		wantStream := expectedBy(f.profile, data, f.profile.DefaultMaxLine())
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for round := range 5 {
					for i, in := range inputs {
						c := f.profile.Classify(in)
						if got := describe(&c); got != want[i] {
							t.Errorf("goroutine %d: %s, want %s", g, got, want[i])
							return
						}
						reply, _ := f.profile.InvalidReply(in, RoleServer)
						if !bytes.Equal(reply, c.Reply(RoleServer)) {
							t.Errorf("goroutine %d: InvalidReply differs", g)
							return
						}
						_ = LogValue(in)
					}
					got, _ := readAll(t, fixed(data, 1+g*7+round), opt)
					if len(got) != len(wantStream) {
						t.Errorf("goroutine %d: reader gave %d lines", g, len(got))
						return
					}
				}
			}()
		}
		wg.Wait()
	})
}

// TestReaderHugeLimit: a limit of math.MaxInt reaches the library intact,
// and the copy of a line larger than the Reader's buffers is not kept after
// the next call.
func TestReaderHugeLimit(t *testing.T) {
	data := append(bytes.Repeat([]byte(" "), 1<<20), "{\"id\":1,\"method\":\"m\"}\n"...)
	// The next line ends two reads later, in a batch of its own.
	data = append(append(data, bytes.Repeat([]byte(" "), 4096)...), "{}\n"...)
	rd := NewReader(fixed(data, 4096), WithMaxLine(math.MaxInt), WithReadSize(4096))
	defer rd.Close()
	ln, err := rd.Next()
	if err != nil || ln.Kind != KindRequest || ln.Len != 1<<20+len(`{"id":1,"method":"m"}`) {
		t.Fatalf("%v %v %d", ln.Kind, err, ln.Len)
	}
	if ln, err := rd.Next(); err != nil || ln.Kind != KindNotJSONRPC {
		t.Fatalf("second line: %v %v", ln.Kind, err)
	}
	if c := cap(rd.s.bytes); c > 2*4096 {
		t.Errorf("the lines' buffer holds %d bytes after a short line", c)
	}
}

// TestReaderFree: the library reader is freed at the end of the stream, on
// an error and by Close, while the lines already read are still returned;
// Close twice is harmless, and Next after Close says so.
func TestReaderFree(t *testing.T) {
	data := "{\"id\":1,\"method\":\"a\"}\n{\"id\":2,\"method\":\"b\"}\n"
	rd := NewReader(strings.NewReader(data))
	if _, err := rd.Next(); err != nil || rd.s.c == nil {
		t.Fatalf("first line: %v (library reader %p)", err, rd.s.c)
	}
	if err := rd.Close(); err != nil {
		t.Fatal(err)
	}
	if rd.s.c != nil {
		t.Errorf("Close left the library reader")
	}
	if _, err := rd.Next(); err != ErrClosed {
		t.Errorf("Next after Close: %v", err)
	}
	if err := rd.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}

	// Freed when the stream ends, before its last lines are returned.
	rd = NewReader(&dataAndError{data: []byte(data + "{}"), err: io.EOF})
	var got []string
	for {
		ln, err := rd.Next()
		if err != nil {
			if err != io.EOF {
				t.Fatal(err)
			}
			break
		}
		got = append(got, ln.Kind.String())
	}
	if rd.s.c != nil || strings.Join(got, " ") != "request request not_jsonrpc" {
		t.Errorf("at the end: library reader %p, lines %v", rd.s.c, got)
	}

	// Freed on a read error.
	rd = NewReader(io.MultiReader(strings.NewReader(data), iotest.ErrReader(errors.New("boom"))))
	for {
		if _, err := rd.Next(); err != nil {
			break
		}
	}
	if rd.s.c != nil {
		t.Errorf("after an error: library reader %p", rd.s.c)
	}
}

// TestReaderCleanup drops Readers in every state, closed or not, and runs
// the garbage collector: the cleanup frees those not freed yet, and never
// one freed already (a double free would crash the test).
func TestReaderCleanup(t *testing.T) {
	data := vectorStream(t)
	mcp := vectorStreamOf(t, vectorFiles[1])
	for i := range 200 {
		rd := NewReader(fixed(data, 1+i%70))
		if i%2 == 1 {
			rd = NewReader(fixed(mcp, 1+i%70), WithProfile(ProfileMCP))
		}
		for range i % 5 {
			if _, err := rd.Next(); err != nil {
				break
			}
		}
		switch i % 3 {
		case 0:
			rd.Close()
		case 1:
			for {
				if _, err := rd.Next(); err != nil {
					break
				}
			}
		}
		if i%50 == 49 {
			runtime.GC()
		}
	}
	runtime.GC()
	runtime.GC()
}
