package envelope

// A Relay's library relay is a C object that outlives a call: it is freed
// by Close; a cleanup frees it only if the Relay is dropped before. Its
// batches, one per direction, are copied as a Session's are (batchCopy,
// reader_cgo.go).

/*
#cgo noescape jsonrpc_relay_feed
#cgo nocallback jsonrpc_relay_feed
#cgo noescape jsonrpc_relay_end
#cgo nocallback jsonrpc_relay_end
#cgo noescape jsonrpc_relay_wrote
#cgo nocallback jsonrpc_relay_wrote

#include "jsonrpc_envelope.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
)

// ErrRelayClosed is what a Relay's calls return after Close.
var ErrRelayClosed = errors.New("envelope: a closed Relay")

// ErrUnknownDirection is what a Relay's calls return (wrapped) for a
// Direction the library does not know (JSONRPC_STATUS_UNKNOWN_DIRECTION).
var ErrUnknownDirection = errors.New("envelope: unknown direction")

// DirectionReadBy returns the direction an endpoint in role reads
// (jsonrpc_direction_read_by): a server reads DirectionToServer, a client
// DirectionToHost; 0 for a role the library does not know.
func DirectionReadBy(role Role) Direction {
	return Direction(C.jsonrpc_direction_read_by(C.uint32_t(role)))
}

// Goes returns where the text of a line read in dir goes, when a goes
// with it (jsonrpc_action_goes; the line itself for an ActionForward
// without ActionText): dir for an action that hands it on (to the
// receiver: for a transport, the SDK), the other direction for
// ActionAnswer (back to the line's sender: for a transport, its pipe), and
// 0 where only the log sees it (ActionDrop, ActionDivert, ActionNone), or
// for an action or a direction the library does not know.
func (a Action) Goes(dir Direction) Direction {
	return Direction(C.jsonrpc_action_goes(C.uint32_t(a), C.uint32_t(dir)))
}

// A Relay sees both directions of one session, between a host and a
// server (jsonrpc_relay_*): the session of each Direction, read in the
// role of its receiver, in one profile, and the bookkeeping between them.
// It decides each line read (Feed, End) and notes what the decision sends:
// a request handed on in one direction is outstanding for the other until
// a response read there names it; its answers need no telling. The caller
// does what each line's Action says (Action.Goes says where its text
// goes), tells the relay of the lines that reach a peer not through it
// (Wrote: an SDK's own messages) and of a line the receiver's decoder
// refused (Refused); every decision is the library's.
//
// A Relay is not safe for concurrent use: a caller whose directions run
// on different goroutines guards it with a mutex. Close frees the
// library's relay; a cleanup frees a dropped Relay's, but only when the
// garbage collector gets to it.
type Relay struct {
	c       *C.JsonRpcRelay // nil once freed
	cleanup runtime.Cleanup
	// The last batch of each direction, by its value; the others
	// (DirectionReadBy's 0 among them) have no buffer.
	batches [max(DirectionToServer, DirectionToHost) + 1]batchCopy
}

// NewRelay returns a Relay that reads both directions by profile, whose
// lines may be maxLine bytes long (LF excluded; maxLine <= 0 means
// profile.DefaultMaxLine()). It fails for a profile the library does not
// know, or when the library is out of memory.
func NewRelay(profile Profile, maxLine int) (*Relay, error) {
	if !profile.known() {
		return nil, fmt.Errorf("envelope: NewRelay with unknown profile %v", profile)
	}
	r := &Relay{}
	for _, dir := range []Direction{DirectionToServer, DirectionToHost} {
		r.batches[dir].buf = make([]byte, 2*DefaultReadSize)
	}
	r.c = C.jsonrpc_relay_new(C.uint32_t(profile), C.size_t(max(maxLine, 0)))
	if r.c == nil {
		return nil, errors.New("envelope: jsonrpc_relay_new: out of memory")
	}
	r.cleanup = runtime.AddCleanup(r, freeRelay, r.c)
	return r, nil
}

func freeRelay(c *C.JsonRpcRelay) { C.jsonrpc_relay_free(c) }

// batch is where the library describes dir's batch: dir's own, or, for a
// direction it does not know (which it refuses), one of no use after.
func (r *Relay) batch(dir Direction) *batchCopy {
	if uint64(dir) < uint64(len(r.batches)) {
		return &r.batches[dir]
	}
	return &batchCopy{}
}

// relayError is statusError for a call of the relay's in dir, with
// ErrUnknownDirection for a direction the library does not know.
func relayError(status C.uint32_t, what string, dir Direction) error {
	if status == C.JSONRPC_STATUS_UNKNOWN_DIRECTION {
		return fmt.Errorf("%w %v (%s)", ErrUnknownDirection, dir, what)
	}
	return statusError(status, what)
}

// Feed hands the relay the next bytes of dir's stream, as read, and
// returns the lines they complete (none when they end no line), each with
// its Action, ActionText and Note, as Session.Feed gives them. The returned
// slice is the caller's; each line's Bytes point into the Relay's buffer
// for dir and are valid until the next Feed or End of the same direction
// (Wrote, Refused, Outstanding and the other direction's calls leave them
// be). On an error (an unknown direction, the library out of memory, or
// failing after an internal fault) no line is returned.
func (r *Relay) Feed(dir Direction, data []byte) ([]Line, error) {
	if r.c == nil {
		return nil, ErrRelayClosed
	}
	b := r.batch(dir)
	status := C.jsonrpc_relay_feed(r.c, C.uint32_t(dir), bytesPtr(data), C.size_t(len(data)), &b.batch)
	runtime.KeepAlive(data)
	return b.lines(relayError(C.uint32_t(status), "jsonrpc_relay_feed", dir))
}

// End ends dir's stream and returns its last line when it had no LF (or a
// too-long line being dropped), decided as Feed decides lines. The
// direction's reader is then as new, for another stream; the outstanding
// requests are kept.
func (r *Relay) End(dir Direction) ([]Line, error) {
	if r.c == nil {
		return nil, ErrRelayClosed
	}
	b := r.batch(dir)
	status := C.jsonrpc_relay_end(r.c, C.uint32_t(dir), &b.batch)
	return b.lines(relayError(C.uint32_t(status), "jsonrpc_relay_end", dir))
}

// Wrote tells the relay of a line (LF excluded) that went in dir not
// through it: an SDK's own message to the peer (a server transport's to
// DirectionToHost, a client transport's to DirectionToServer). Call it
// before the line leaves, so that its answer always finds it: in
// ProfileMCP a request's id is then outstanding until a response read the
// other way names it. It fails for an unknown direction, when the library
// is out of memory (nothing changed) or the Relay is closed.
func (r *Relay) Wrote(dir Direction, line []byte) error {
	if r.c == nil {
		return ErrRelayClosed
	}
	status := C.jsonrpc_relay_wrote(r.c, C.uint32_t(dir), bytesPtr(line), C.size_t(len(line)))
	runtime.KeepAlive(line)
	return relayError(C.uint32_t(status), "jsonrpc_relay_wrote", dir)
}

// Refused returns what to do instead when the receiver of dir (an SDK's
// own decoder) refused line, a line (or an action's text) the relay handed
// on in dir (SPEC §10.4; a fault of the profile, to be logged at error
// level): the library's decision (jsonrpc_relay_refused), its action and
// text copied out as they are. Its Action.Goes(dir) says where its text
// goes; a text handed on and refused in its turn is settled when asked
// again: ActionDrop, with a note.
func (r *Relay) Refused(dir Direction, line []byte) (Decision, error) {
	if r.c == nil {
		return Decision{}, ErrRelayClosed
	}
	return relayRefused(r.c, dir, line)
}

// Outstanding returns how many requests written toward the sender of
// dir's lines still wait for its response; 0 for an unknown direction, and
// after Close.
func (r *Relay) Outstanding(dir Direction) int {
	if r.c == nil {
		return 0
	}
	return int(C.jsonrpc_relay_outstanding(r.c, C.uint32_t(dir)))
}

// Close frees the library's relay; then every call returns ErrRelayClosed.
// It never fails, and may be called more than once.
func (r *Relay) Close() error {
	if r.c != nil {
		r.cleanup.Stop()
		freeRelay(r.c)
		r.c = nil
	}
	return nil
}
