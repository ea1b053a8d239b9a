//go:build linux && amd64 && !jsonrpc_envelope_external

package envelope

// The released module's link (`make dist` puts this file in the module it
// ships, in place of the checkout's link_static.go): the static library
// built for linux/amd64 against glibc 2.17 comes with the module, so `go get`
// is all a Go user needs; no Rust toolchain, no .so at run time. The
// libraries after it are those the Rust staticlib needs (`cargo rustc
// --release --lib --crate-type staticlib -- --print native-static-libs`).
// The header, jsonrpc_envelope.h, stands beside this file, where cgo looks
// first. -tags jsonrpc_envelope_external drops this line, as in a checkout.

// #cgo LDFLAGS: ${SRCDIR}/libjsonrpc_envelope_linux_amd64.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
import "C"
