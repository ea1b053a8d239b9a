package envelope

import (
	"bytes"
	"errors"
	"io"
	"math"
)

// DefaultMaxLine is the line limit of a Reader made without WithMaxLine:
// 16 MiB, the library's default.
const DefaultMaxLine = 16 << 20

// DefaultReadSize is how many bytes a Reader asks its io.Reader for at
// once, unless WithReadSize says otherwise: 16 KiB, about 90 MCP lines of
// 180 bytes, all classified in one call. Larger chunks cost more per line,
// not less: the library allocates a call's working arrays and result afresh
// (one item array and one block of strings), and once a call holds about
// 64 KiB of such lines (a Reader passes up to twice its read size) those
// allocations take fresh pages on every call: with a read size of 32 KiB,
// a page fault every 23 lines or so, which costs more than the saved cgo
// calls (about 450 ns a line against 280 at 16 KiB).
const DefaultReadSize = 16 << 10

// An Option configures a Reader.
type Option func(*Reader)

// WithMaxLine sets the line limit: a line longer than n bytes (LF excluded)
// is never held whole; Next reports it once, as a Line that is TooLong,
// when its end is seen. n <= 0 means DefaultMaxLine.
func WithMaxLine(n int) Option {
	return func(r *Reader) {
		if n > 0 {
			r.maxLine = n
		}
	}
}

// WithReadSize sets how many bytes the Reader asks its io.Reader for at
// once (at least; it may ask for more when its buffer has room). n <= 0
// means DefaultReadSize.
func WithReadSize(n int) Option {
	return func(r *Reader) {
		if n > 0 {
			r.readSize = n
		}
	}
}

// Line is one line of a stream and what it is.
type Line struct {
	// Bytes is the line without its LF (a CR before the LF stays, as JSON
	// whitespace). It points into the Reader's buffer and is valid only
	// until the next call to Next: copy it to keep it. Nil when TooLong.
	Bytes []byte
	// Len is the line's length in bytes, LF excluded: len(Bytes), or the
	// whole length of a line that is TooLong.
	Len int
	// TooLong reports a line over the limit (see WithMaxLine). It was
	// skipped as it arrived, never held whole; its Classification is
	// KindNone, and it gets no reply in either role.
	TooLong bool
	// Classification is what the line is and carries, as Classify gives it;
	// its spans count from the line's first byte, and unlike Bytes it stays
	// valid after the next call to Next.
	Classification
}

// Reader reads lines from a stream and classifies them, many at a time: it
// reads large chunks and classifies every complete line of a chunk in one
// call to the library (jsonrpc_classify_lines, SPEC §6). Lines end at LF; a
// last line without LF is classified at the end of the stream. Memory stays
// bounded by the line limit plus the read size, whatever the input.
//
// A Reader does not read ahead of need: Next reads only when every line it
// has is returned, and returns a line as soon as its LF has arrived, so it
// suits a request/response pipe. It is not safe for concurrent use.
type Reader struct {
	r        io.Reader
	maxLine  int
	readSize int

	buf        []byte
	start, end int // the bytes the library has not consumed: buf[start:end]
	state      lineState
	scratch    linesScratch

	items  []lineItem // the items of the last call, and
	strs   []byte     // their strings, back to back
	base   int        // where the last call's bytes began in buf
	next   int        // the next item Next returns
	strOff int        // where its strings begin in strs

	eof     bool  // the io.Reader said io.EOF
	err     error // returned once the items are: io.EOF or a failure
	empties int   // reads in a row that returned nothing
}

// NewReader returns a Reader of the lines of r.
func NewReader(r io.Reader, opts ...Option) *Reader {
	rd := &Reader{r: r, maxLine: DefaultMaxLine, readSize: DefaultReadSize}
	for _, opt := range opts {
		opt(rd)
	}
	rd.state = newLineState(rd.maxLine)
	return rd
}

// errBadRead is the error when the io.Reader returns an impossible count.
var errBadRead = errors.New("envelope: io.Reader returned an invalid count")

// Next returns the next line and its classification. At the end of the
// stream it returns io.EOF; if reading fails it returns the lines completed
// before the failure, then the io.Reader's error. After an error, every
// call returns it again.
func (r *Reader) Next() (Line, error) {
	for r.next >= len(r.items) {
		if r.err != nil {
			return Line{}, r.err
		}
		r.fill()
	}
	var l Line
	r.strOff += l.set(&r.items[r.next], r.buf[r.base:], r.strs[r.strOff:])
	r.next++
	return l, nil
}

// fill reads until a line is complete (or the stream ends, or the bytes
// held pass the limit) and makes one library call over them. It leaves
// items to return, or sets r.err, or both.
func (r *Reader) fill() {
	r.items, r.next, r.strs, r.strOff = nil, 0, nil, 0
	for {
		if r.eof {
			r.call(true)
			if r.err == nil {
				r.err = io.EOF
			}
			return
		}
		r.makeRoom()
		n, err := r.r.Read(r.buf[r.end:])
		if n < 0 || n > len(r.buf)-r.end {
			r.err = errBadRead
			return
		}
		fresh := r.buf[r.end : r.end+n]
		r.end += n
		if err == io.EOF {
			r.eof = true
			continue
		}
		// A call only when it can return something: a line has ended, or
		// the bytes held exceed the limit (the library then consumes them).
		if bytes.IndexByte(fresh, '\n') >= 0 || r.end-r.start > r.maxLine {
			r.call(false)
		}
		if err != nil && r.err == nil {
			r.err = err
		}
		if len(r.items) > 0 || r.err != nil {
			return
		}
		if n > 0 {
			r.empties = 0
		} else if r.empties++; r.empties >= 100 {
			r.err = io.ErrNoProgress
			return
		}
	}
}

// call classifies the unconsumed bytes, in one library call.
func (r *Reader) call(endOfStream bool) {
	items, strs, consumed, err := classifyLines(r.buf[r.start:r.end], endOfStream, &r.state, &r.scratch)
	if err != nil {
		r.err = err
		return
	}
	r.items, r.strs, r.base = items, strs, r.start
	r.start += consumed
}

// makeRoom makes at least readSize bytes free after r.end, moving the
// unconsumed bytes to the front or growing the buffer. The library never
// leaves more than maxLine bytes unconsumed, so the buffer stays within
// maxLine + readSize.
func (r *Reader) makeRoom() {
	if r.start == r.end {
		r.start, r.end = 0, 0
	}
	if len(r.buf)-r.end >= r.readSize {
		return
	}
	held := r.end - r.start
	if len(r.buf)-held >= r.readSize {
		copy(r.buf, r.buf[r.start:r.end])
		r.start, r.end = 0, held
		return
	}
	limit := r.maxLine + r.readSize
	if limit < 0 { // a limit near math.MaxInt
		limit = math.MaxInt
	}
	size := max(min(max(2*len(r.buf), held+r.readSize), limit), held+r.readSize)
	buf := make([]byte, size)
	copy(buf, r.buf[r.start:r.end])
	r.buf, r.start, r.end = buf, 0, held
}
