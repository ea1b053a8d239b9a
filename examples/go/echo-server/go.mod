module github.com/jsonrpc-envelope/jsonrpc-envelope/examples/go/echo-server

go 1.24

require github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go v0.0.0-00010101000000-000000000000

// The binding is used from this checkout: its cgo directives find the
// header and the static library relative to its own directory.
replace github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go => ../../../bindings/go
