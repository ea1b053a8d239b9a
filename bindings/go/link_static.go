//go:build !jsonrpc_envelope_external

package envelope

// The library is linked statically: a Go program that uses this package
// needs no libjsonrpc_envelope.so at run time. The linker looks for
// libjsonrpc_envelope.a in the directories of CGO_LDFLAGS' -L flags first
// (they come before these), then in the repository's target/release; the
// libraries after it are those the Rust staticlib needs (`cargo rustc
// --release --lib --crate-type staticlib -- --print native-static-libs`).
// Build with -tags jsonrpc_envelope_external to drop this line and give the
// whole link line in CGO_LDFLAGS instead (see README.md).
//
// This is a checkout's link: the module that `make dist` ships leaves this
// file out and carries the library itself (_dist/link_prebuilt.go).

// #cgo LDFLAGS: -L${SRCDIR}/../../target/release -l:libjsonrpc_envelope.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
import "C"
