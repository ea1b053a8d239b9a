package envelope

// cgo.go and the *_cgo.go files beside it are the only ones that call C
// (envelope.go reads the header's constants, and link_*.go give the link
// flags). Every exported function makes one cgo call and copies what the
// library gave into Go memory before it returns; nothing the caller gets
// points into C memory. Each file says how its calls are made:
//
//   - cgo.go: initialisation (the ABI check, the library's names of the
//     enums' values), the version, and what every call needs (the
//     input's pointer for C, a view of C memory, a status's name);
//   - classify_cgo.go: Classify, through its shim jre_classify;
//   - text_cgo.go: the texts the library returns as owned strings
//     (InvalidReply, LogValue, a Session's or a Relay's Refused);
//   - reader_cgo.go: a batch's copy (a Reader's, a Session's or a
//     Relay's), and the
//     library reader behind a Reader;
//   - session_cgo.go: Session, over the library's session;
//   - relay_cgo.go: Relay, over the library's relay, and what the library
//     says of directions (DirectionReadBy, Action.Goes).
//
// The functions are marked noescape (they keep no Go pointer after the
// call) and nocallback (they never call Go), so the Go compiler can keep
// the caller's buffers on the stack and cgo skips its callback bookkeeping.
// Each file marks the functions it calls, in its own preamble, which also
// defines the static shims it calls (a static C function of one file's
// preamble is not seen from another file's).

/*
#cgo CFLAGS: -I${SRCDIR}/../../include

#include "jsonrpc_envelope.h"
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

// abiVersion is the ABI this package was written for: the header's
// JSONRPC_ABI_VERSION when it was last updated.
const abiVersion = 3

// Compile-time check that the header is the one this package was written
// for; a build fails here when it changes under the package.
func _() {
	var x [1]struct{}
	_ = x[abiVersion-C.JSONRPC_ABI_VERSION]
	_ = x[C.JSONRPC_ABI_VERSION-abiVersion]
}

func init() {
	if got := ABIVersion(); got != abiVersion {
		panic(fmt.Sprintf("envelope: the linked libjsonrpc_envelope (version %s) has ABI version %d, "+
			"but this Go package was written for ABI version %d: link a matching library "+
			"(see bindings/go/README.md) or update the package", Version(), got, abiVersion))
	}
	for _, e := range []*libNames{&kindNames, &idKindNames, &roleNames, &profileNames, &actionNames,
		&directionNames} {
		for v := range e.names {
			e.names[v] = goName(e.lookup(C.uint32_t(v)))
		}
	}
	for k := range kindIsMessage {
		kindIsMessage[k] = bool(C.jsonrpc_kind_is_message(C.uint32_t(k)))
	}
}

// libNames is one of the library's enums as this package names its values:
// lookup is the library's name function (jsonrpc_kind_name, ...), and names
// the names of the values this package declares, asked once at
// initialisation: "" where the library names none (KindNone, Role 0, ...).
type libNames struct {
	lookup func(C.uint32_t) *C.char
	names  []string
}

var (
	kindNames = libNames{func(v C.uint32_t) *C.char { return C.jsonrpc_kind_name(v) },
		make([]string, KindInvalidResponse+1)}
	idKindNames = libNames{func(v C.uint32_t) *C.char { return C.jsonrpc_id_kind_name(v) },
		make([]string, IDBoolean+1)}
	roleNames = libNames{func(v C.uint32_t) *C.char { return C.jsonrpc_role_name(v) },
		make([]string, RoleClient+1)}
	profileNames = libNames{func(v C.uint32_t) *C.char { return C.jsonrpc_profile_name(v) },
		make([]string, ProfileMCP+1)}
	actionNames = libNames{func(v C.uint32_t) *C.char { return C.jsonrpc_action_name(v) },
		make([]string, ActionDivert+1)}
	directionNames = libNames{func(v C.uint32_t) *C.char { return C.jsonrpc_direction_name(v) },
		make([]string, max(DirectionToServer, DirectionToHost)+1)}

	kindIsMessage [KindInvalidResponse + 1]bool // the library's jsonrpc_kind_is_message
)

// of is the library's name of v ("" for none); values this package does
// not declare are asked each time.
func (e *libNames) of(v uint32) string {
	if uint64(v) < uint64(len(e.names)) {
		return e.names[v]
	}
	return goName(e.lookup(C.uint32_t(v)))
}

// goName is a static name of the library's, or "" for NULL.
func goName(name *C.char) string {
	if name == nil {
		return ""
	}
	return C.GoString(name)
}

// statusName is the library's name of a status, or its number when it has
// none.
func statusName(status C.uint32_t) string {
	if name := goName(C.jsonrpc_status_name(status)); name != "" {
		return name
	}
	return fmt.Sprintf("status %d", uint32(status))
}

// statusError is nil for JSONRPC_STATUS_OK, else the error of the
// library's call what, which returned status.
func statusError(status C.uint32_t, what string) error {
	if status == C.JSONRPC_STATUS_OK {
		return nil
	}
	return fmt.Errorf("envelope: %s failed: %s", what, statusName(status))
}

// defaultMaxLine is the library's default line limit (the JSON-RPC
// profile's).
func defaultMaxLine() int {
	return int(min(uint64(C.jsonrpc_default_max_line()), math.MaxInt))
}

// profileMaxLine is the library's default line limit for the profile p,
// 0 for a profile it does not know (jsonrpc_profile_max_line).
func profileMaxLine(p Profile) int {
	return int(min(uint64(C.jsonrpc_profile_max_line(C.uint32_t(p))), math.MaxInt))
}

// ABIVersion returns the ABI version of the linked library
// (jsonrpc_abi_version). The package checks it when it is initialised and
// panics if it is not the version the package was written for.
func ABIVersion() uint32 {
	return uint32(C.jsonrpc_abi_version())
}

// Version returns the linked library's version, such as "0.1.0".
func Version() string {
	return C.GoString(C.jsonrpc_version())
}

// bytesPtr is the data pointer of b for C: NULL for an empty slice, so that
// C sees (NULL, 0) as the empty input.
func bytesPtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(b)))
}

// cBytes views n bytes of C memory at p.
func cBytes(p unsafe.Pointer, n int) []byte {
	if n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(p), n)
}

// bytesString views b as a string. b is part of a result's own string
// block, which nothing writes after the result is made: the block's other
// parts are handed out as slices capped at their own length.
func bytesString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}
