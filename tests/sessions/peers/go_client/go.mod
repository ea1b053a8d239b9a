module github.com/jsonrpc-envelope/jsonrpc-envelope/tests/sessions/peers/go_client

go 1.25.0

require (
	github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go/mcpstdio v0.0.0-00010101000000-000000000000
	github.com/modelcontextprotocol/go-sdk v1.8.0
)

require (
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go v0.0.0-00010101000000-000000000000 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

// The transport and the binding are used from this checkout.
replace (
	github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go => ../../../../bindings/go
	github.com/jsonrpc-envelope/jsonrpc-envelope/bindings/go/mcpstdio => ../../../../bindings/go/mcpstdio
)
