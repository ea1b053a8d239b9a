package envelope

import (
	"errors"
	"io"
)

// DefaultMaxLine is the line limit of a Reader of ProfileJSONRPC made
// without WithMaxLine: the library's default (jsonrpc_default_max_line),
// 16 MiB (SPEC §6). Profile.DefaultMaxLine gives each profile's.
var DefaultMaxLine = defaultMaxLine()

// DefaultMaxLine returns the line limit of a Reader or a Session of the
// profile p made without one of its own (jsonrpc_profile_max_line): the
// package's DefaultMaxLine for ProfileJSONRPC; for ProfileMCP, the longest
// line every official MCP SDK's own stdio reader takes (SPEC §10.7). It
// returns 0 for a profile the library does not know.
func (p Profile) DefaultMaxLine() int { return profileMaxLine(p) }

// DefaultReadSize is how many bytes a Reader asks its io.Reader for at
// once, unless WithReadSize says otherwise.
const DefaultReadSize = 16 << 10

// An Option configures a Reader.
type Option func(*Reader)

// WithMaxLine sets the line limit: a line longer than n bytes (LF excluded)
// is never held whole; Next reports it once, as a Line that is TooLong,
// when its end is seen. n <= 0 means the profile's default
// (Profile.DefaultMaxLine).
func WithMaxLine(n int) Option {
	return func(r *Reader) {
		r.maxLine = max(n, 0)
	}
}

// WithReadSize sets how many bytes the Reader asks its io.Reader for at
// once. n <= 0 means DefaultReadSize.
func WithReadSize(n int) Option {
	return func(r *Reader) {
		if n > 0 {
			r.readSize = n
		}
	}
}

// WithProfile sets the profile the Reader classifies lines by (SPEC §10);
// without it, ProfileJSONRPC. A profile the library does not know makes
// Next return an error.
func WithProfile(p Profile) Option {
	return func(r *Reader) {
		r.profile = p
	}
}

// Line is one line of a stream and what it is; a Session's lines also
// carry what to do with it.
type Line struct {
	// Number counts the stream's lines from 1, too-long lines included.
	Number uint64
	// Bytes is the line without its LF (a CR before the LF stays, as JSON
	// whitespace). It points into the Reader's buffer and is valid only
	// until the next call to Next: copy it to keep it. Nil when TooLong.
	Bytes []byte
	// Len is the line's length in bytes, LF excluded: len(Bytes), or the
	// whole length of a line that is TooLong.
	Len int
	// TooLong reports a line over the limit (see WithMaxLine): its Kind is
	// KindTooLong. It was skipped as it arrived, never held whole; it
	// carries nothing else but, in ProfileMCP, what its first bytes hold
	// (see KindTooLong), so that a Session answers a too-long request
	// (RoleServer) and substitutes a too-long response whose id is
	// outstanding (SPEC §10.6 (d)).
	TooLong bool
	// Action is what to do with the line, for a Session's line (SPEC §8 to
	// §10); ActionNone for a Reader's.
	Action Action
	// ActionText is, for ActionAnswer, the reply to write back to the
	// line's sender (several lines for an MCP batch: SPEC §10.6 (b)); for
	// ActionSubstitute and ActionAttribute, the line to hand on in this
	// one's place; for ActionForward in ProfileMCP, the line's normal form
	// to hand on instead of its bytes where it has one (SPEC 10.5); nil
	// otherwise. The caller's, like the Classification.
	ActionText []byte
	// Note says why, for every action but ActionForward and ActionNone: a
	// fixed text of the library's, for a log record.
	Note string
	// Classification is what the line is and carries, as the profile's
	// Classify gives it; its spans count from the line's first byte, and
	// unlike Bytes it stays valid after the next call to Next.
	Classification
}

// ErrClosed is what Next returns after Close.
var ErrClosed = errors.New("envelope: Next on a closed Reader")

// errBadRead is the error when the io.Reader returns an impossible count.
var errBadRead = errors.New("envelope: io.Reader returned an invalid count")

// maxEmptyReads is how many reads in a row may return nothing before Next
// gives up with io.ErrNoProgress, as bufio does.
const maxEmptyReads = 100

// Reader reads lines from a stream and classifies them by its profile
// (WithProfile; ProfileJSONRPC by default), with the library's stream reader
// (jsonrpc_reader_*, SPEC §6), which decides where lines end,
// what is too long, and what it holds: every chunk read from the io.Reader
// goes to the library in one call, which hands back the lines it completed.
//
// A Reader does not read ahead of need: Next reads only when every line it
// has is returned, and returns a line as soon as its LF has arrived, so it
// suits a request/response pipe. It is not safe for concurrent use.
//
// The library's reader is freed at the end of the stream, after an error,
// or by Close, whichever comes first; call Close when you stop reading
// before the end.
type Reader struct {
	r        io.Reader
	maxLine  int
	readSize int
	profile  Profile

	s     *stream
	chunk []byte // what each read fills
	next  int    // the next item of the last batch that Next returns

	eof     bool  // the io.Reader said io.EOF
	err     error // returned once the items are: io.EOF or a failure
	empties int   // reads in a row that returned nothing
}

// NewReader returns a Reader of the lines of r, classified by
// ProfileJSONRPC unless WithProfile says otherwise.
func NewReader(r io.Reader, opts ...Option) *Reader {
	rd := &Reader{r: r, readSize: DefaultReadSize, profile: ProfileJSONRPC}
	for _, opt := range opts {
		opt(rd)
	}
	rd.chunk = make([]byte, rd.readSize)
	rd.s, rd.err = newStream(rd.maxLine, rd.readSize, rd.profile)
	return rd
}

// Next returns the next line and its classification. At the end of the
// stream it returns io.EOF; if reading fails it returns the lines completed
// before the failure, then the io.Reader's error. After an error, every
// call returns it again.
func (r *Reader) Next() (Line, error) {
	for r.next >= len(r.s.items) {
		if r.err != nil {
			return Line{}, r.err
		}
		r.fill()
	}
	l := r.s.items[r.next]
	r.next++
	return l, nil
}

// Close frees what the Reader holds (not its io.Reader, which it leaves
// open); then Next returns ErrClosed. It never fails, and may be called
// more than once.
func (r *Reader) Close() error {
	r.s.free()
	r.s.items, r.next = nil, 0
	r.err = ErrClosed
	return nil
}

// fill makes one read and hands what it read to the library, or ends the
// stream after io.EOF. It leaves lines to return, or sets r.err, or both.
func (r *Reader) fill() {
	r.s.items, r.next = r.s.items[:0], 0
	if r.eof {
		r.stop(r.s.end(), io.EOF)
		return
	}
	n, err := r.r.Read(r.chunk)
	if n < 0 || n > len(r.chunk) {
		r.stop(errBadRead)
		return
	}
	if n > 0 {
		r.empties = 0
		if ferr := r.s.feed(r.chunk[:n]); ferr != nil {
			r.stop(ferr)
			return
		}
	} else if err == nil {
		if r.empties++; r.empties >= maxEmptyReads {
			r.stop(io.ErrNoProgress)
		}
	}
	switch {
	case err == io.EOF:
		r.eof = true
	case err != nil:
		// The lines completed before the failure are returned first; an
		// unfinished one is not.
		r.stop(err)
	}
}

// stop makes the first non-nil error of errs the Reader's, and frees the
// library reader; the lines of its last batch are still returned.
func (r *Reader) stop(errs ...error) {
	for _, err := range errs {
		if err != nil && r.err == nil {
			r.err = err
		}
	}
	r.s.free()
}
