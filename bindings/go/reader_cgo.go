package envelope

// Batches (a Reader's, a Session's or a Relay's) need no C code of their
// own: the library's feed and end are called directly, and Go reads the
// batch they describe (JsonRpcLine items, the lines' bytes and their
// strings, all in the library's memory until its next call) and copies it.
//
// A Reader's library reader (stream below) is a C object that outlives a
// call: it is freed at the end of the stream, on an error or by Close; a
// cleanup frees it only if it is dropped before any of those.

/*
#cgo noescape jsonrpc_reader_feed
#cgo nocallback jsonrpc_reader_feed
#cgo noescape jsonrpc_reader_end
#cgo nocallback jsonrpc_reader_end

#include "jsonrpc_envelope.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"
)

// ---- batches: the lines of a reader, a session or a relay ----------------

// batchCopy is a library batch and the Go copy of its lines' bytes.
type batchCopy struct {
	batch C.JsonRpcBatch // what the library's last call described

	// The last batch's lines' bytes: buf, or an allocation of their own
	// when they did not fit, which is not kept. buf never grows.
	bytes, buf []byte
}

// copyOut appends the lines of the last batch to dst, copied out of the
// library's memory: their bytes into b.bytes (which Line.Bytes points
// into), their strings into one allocation of their own (the lines'
// classifications outlive the batch).
func (b *batchCopy) copyOut(dst []Line) []Line {
	count := int(b.batch.count)
	nbytes, ntexts := int(b.batch.bytes_len), int(b.batch.texts_len)
	if nbytes <= cap(b.buf) {
		b.bytes = b.buf[:nbytes]
	} else {
		b.bytes = make([]byte, nbytes)
	}
	copy(b.bytes, cBytes(unsafe.Pointer(b.batch.bytes), nbytes))
	if count == 0 {
		return dst
	}
	var block []byte
	if ntexts > 0 {
		block = make([]byte, ntexts)
		copy(block, cBytes(unsafe.Pointer(b.batch.texts), ntexts))
	}
	texts := batchTexts{base: uintptr(unsafe.Pointer(b.batch.texts)), block: block}
	items := unsafe.Slice(b.batch.items, count)
	for i := range items {
		it := &items[i]
		dst = append(dst, Line{})
		l := &dst[len(dst)-1]
		l.Number = uint64(it.number)
		l.Len = int(it.len)
		l.Action = Action(it.action)
		l.ActionText, _ = texts.str(it.action_text)
		if it.note != nil {
			l.Note = C.GoString(it.note)
		}
		var strs [numStrings][]byte
		var present uint8
		for j, s := range cStrings(&it.classification) {
			var ok bool
			if strs[j], ok = texts.str(s); ok {
				present |= 1 << j
			}
		}
		l.Classification.fill(&it.classification, &strs, present)
		if l.Kind == KindTooLong {
			l.TooLong = true
			continue
		}
		off := int(it.offset)
		l.Bytes = b.bytes[off : off+l.Len : off+l.Len]
	}
	return dst
}

// lines returns the lines of the batch that a library call (a session's or
// a relay's feed or end) just described, copied out, or, when the call
// failed with err, none.
func (b *batchCopy) lines(err error) ([]Line, error) {
	if err != nil {
		b.bytes = b.buf[:0]
		return nil, err
	}
	return b.copyOut(nil), nil
}

// batchTexts is a batch's strings: block is the Go copy of the library's
// texts, which stood at base.
type batchTexts struct {
	base  uintptr
	block []byte
}

// str returns the Go copy of s, a string of the batch, and whether it is
// there: a slice of the block when it stood in the texts, else a copy of
// its own (a session's action text may stand outside them).
func (t *batchTexts) str(s C.JsonRpcStr) ([]byte, bool) {
	if s.ptr == nil {
		return nil, false
	}
	n := int(s.len)
	if p := uintptr(unsafe.Pointer(s.ptr)); p >= t.base && p-t.base <= uintptr(len(t.block)) &&
		uintptr(n) <= uintptr(len(t.block))-(p-t.base) {
		off := int(p - t.base)
		return t.block[off : off+n : off+n], true
	}
	own := make([]byte, n)
	copy(own, cBytes(unsafe.Pointer(s.ptr), n))
	return own, true
}

// ---- the stream reader ---------------------------------------------------

// stream is a library reader and the Go copies of its last batch.
type stream struct {
	c       *C.JsonRpcReader // nil once freed
	cleanup runtime.Cleanup
	batchCopy
	items []Line // the last batch's lines
}

// newStream makes a library reader with the line limit maxLine (0: the
// library's default) and the profile p, and buffers for batches of about
// readSize bytes. It fails when the library does not know p or is out of
// memory.
func newStream(maxLine, readSize int, p Profile) (*stream, error) {
	s := &stream{batchCopy: batchCopy{buf: make([]byte, 2*readSize)}}
	if !p.known() {
		return s, fmt.Errorf("envelope: NewReader with unknown profile %v", p)
	}
	s.c = C.jsonrpc_reader_new(C.size_t(maxLine), C.uint32_t(p))
	if s.c == nil {
		return s, errors.New("envelope: jsonrpc_reader_new: out of memory")
	}
	s.cleanup = runtime.AddCleanup(s, freeReader, s.c)
	return s, nil
}

func freeReader(c *C.JsonRpcReader) { C.jsonrpc_reader_free(c) }

// free frees the library reader (once); the last batch's copies stay.
func (s *stream) free() {
	if s.c != nil {
		s.cleanup.Stop()
		freeReader(s.c)
		s.c = nil
	}
}

// feed hands the library the next bytes of the stream, and makes the lines
// they complete the last batch.
func (s *stream) feed(data []byte) error {
	return s.call(data, false)
}

// end ends the stream, and makes its last line (if it had no LF) the last
// batch.
func (s *stream) end() error {
	return s.call(nil, true)
}

// call makes one library call (feed or end) and copies its batch.
func (s *stream) call(data []byte, end bool) error {
	s.items = s.items[:0]
	if s.c == nil {
		return errors.New("envelope: the library reader is freed")
	}
	var status C.JsonRpcStatus
	what := "jsonrpc_reader_feed"
	if end {
		what = "jsonrpc_reader_end"
		status = C.jsonrpc_reader_end(s.c, &s.batch)
	} else {
		status = C.jsonrpc_reader_feed(s.c, bytesPtr(data), C.size_t(len(data)), &s.batch)
	}
	runtime.KeepAlive(data)
	if status != C.JSONRPC_STATUS_OK {
		s.bytes = s.buf[:0]
		return fmt.Errorf("envelope: %s failed: %s", what, statusName(C.uint32_t(status)))
	}
	s.items = s.copyOut(s.items)
	return nil
}
