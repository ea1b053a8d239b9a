module github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go

go 1.24
