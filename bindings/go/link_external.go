//go:build jsonrpc_envelope_external

package envelope

// With -tags jsonrpc_envelope_external the package adds no link flags of its
// own: CGO_LDFLAGS must name the library and what it needs, for example
// "-L/usr/local/lib -l:libjsonrpc_envelope.a -lgcc_s -lutil -lrt -lpthread
// -lm -ldl -lc" (static) or "-L/usr/local/lib -ljsonrpc_envelope" (shared).
