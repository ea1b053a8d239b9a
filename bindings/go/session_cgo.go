package envelope

// A Session's library session is a C object that outlives a call: it is
// freed by Close; a cleanup frees it only if the Session is dropped before.
// Its batches are copied as a Reader's are (batchCopy, reader_cgo.go).

/*
#cgo noescape jsonrpc_session_feed
#cgo nocallback jsonrpc_session_feed
#cgo noescape jsonrpc_session_end
#cgo nocallback jsonrpc_session_end
#cgo noescape jsonrpc_session_sent
#cgo nocallback jsonrpc_session_sent

#include "jsonrpc_envelope.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrSessionClosed is what a Session's calls return after Close.
var ErrSessionClosed = errors.New("envelope: a closed Session")

// A Session is one endpoint's session (SPEC §8 to §10, jsonrpc_session_*):
// a stream reader that also decides what to do with each line it reads,
// in its role and profile, and keeps the ids of the requests written the
// other way that are still outstanding (for substitutes and the handshake
// rule). A guard or an SDK transport feeds it what it reads (Feed, End),
// tells it every line it writes to the same peer (Sent), and does what
// each line's Action says; every decision is the library's.
//
// A Session is not safe for concurrent use: a transport whose writes and
// reads run on different goroutines guards it with a mutex. Close frees
// the library's session; a cleanup frees a dropped Session's, but only when
// the garbage collector gets to it.
type Session struct {
	c       *C.JsonRpcSession // nil once freed
	cleanup runtime.Cleanup
	batchCopy
}

// NewSession returns a Session that reads one stream in role by profile,
// whose lines may be maxLine bytes long (LF excluded; maxLine <= 0 means
// profile.DefaultMaxLine()). In ProfileJSONRPC it decides as SPEC §8 says; in
// ProfileMCP it also substitutes and applies the handshake rule (SPEC §9,
// §10.4). It fails for a role or a profile the library does not know, or
// when the library is out of memory.
func NewSession(role Role, profile Profile, maxLine int) (*Session, error) {
	switch {
	case roleNames.of(uint32(role)) == "":
		return nil, fmt.Errorf("envelope: NewSession with unknown role %v", role)
	case !profile.known():
		return nil, fmt.Errorf("envelope: NewSession with unknown profile %v", profile)
	}
	s := &Session{batchCopy: batchCopy{buf: make([]byte, 2*DefaultReadSize)}}
	s.c = C.jsonrpc_session_new(C.uint32_t(role), C.uint32_t(profile), C.size_t(max(maxLine, 0)))
	if s.c == nil {
		return nil, errors.New("envelope: jsonrpc_session_new: out of memory")
	}
	s.cleanup = runtime.AddCleanup(s, freeSession, s.c)
	return s, nil
}

func freeSession(c *C.JsonRpcSession) { C.jsonrpc_session_free(c) }

// Feed hands the session the next bytes of its stream, as read, and
// returns the lines they complete (none when they end no line), each with
// its Action, ActionText and Note (see Line). The returned slice is the
// caller's; each line's Bytes point into the Session's buffer and are
// valid until its next Feed or End (Sent, Refused, Outstanding and Close
// leave them be); the rest of the line (its Classification, ActionText,
// Note) is the caller's too. On an error (the library out of memory, or
// failing after an internal fault) no line is returned.
func (s *Session) Feed(data []byte) ([]Line, error) {
	if s.c == nil {
		return nil, ErrSessionClosed
	}
	status := C.jsonrpc_session_feed(s.c, bytesPtr(data), C.size_t(len(data)), &s.batch)
	runtime.KeepAlive(data)
	return s.lines(statusError(C.uint32_t(status), "jsonrpc_session_feed"))
}

// End ends the session's stream and returns its last line when it had no
// LF (or a too-long line being dropped), decided as Feed decides lines.
// The reader is then as new, for another stream; the outstanding requests
// are kept.
func (s *Session) End() ([]Line, error) {
	if s.c == nil {
		return nil, ErrSessionClosed
	}
	return s.lines(statusError(C.uint32_t(C.jsonrpc_session_end(s.c, &s.batch)), "jsonrpc_session_end"))
}

// Sent tells the session of a line written the other way, to the peer
// whose lines it reads: call it with every line written to that peer
// (LF excluded), before it leaves, so that its answer always finds it. In
// ProfileMCP a request's id is then outstanding until a response names it.
// It fails only when the library is out of memory (nothing changed) or the
// Session is closed.
func (s *Session) Sent(line []byte) error {
	if s.c == nil {
		return ErrSessionClosed
	}
	status := C.jsonrpc_session_sent(s.c, bytesPtr(line), C.size_t(len(line)))
	runtime.KeepAlive(line)
	return statusError(C.uint32_t(status), "jsonrpc_session_sent")
}

// Refused returns what to do instead when the receiving SDK's own decoder
// refused line, a line (or an action's text) the session handed on (SPEC
// §10.4; a fault of the profile, to be logged at error level): the
// library's decision (jsonrpc_session_refused), its action and text
// copied out as they are.
func (s *Session) Refused(line []byte) (Decision, error) {
	if s.c == nil {
		return Decision{}, ErrSessionClosed
	}
	return sessionRefused(s.c, line)
}

// Outstanding returns how many requests written the other way (Sent) are
// still waiting for a response; 0 after Close.
func (s *Session) Outstanding() int {
	if s.c == nil {
		return 0
	}
	return int(C.jsonrpc_session_outstanding(s.c))
}

// Close frees the library's session; then every call returns
// ErrSessionClosed. It never fails, and may be called more than once.
func (s *Session) Close() error {
	if s.c != nil {
		s.cleanup.Stop()
		freeSession(s.c)
		s.c = nil
	}
	return nil
}
