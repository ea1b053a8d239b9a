//go:build !(linux && amd64) && !jsonrpc_envelope_external

package envelope

// The released module carries a prebuilt library for linux/amd64 only. On
// any other platform the build stops here, on the name below: build the
// library from source (cargo build --release in the repository) and link it
// with -tags jsonrpc_envelope_external and CGO_LDFLAGS (see README.md).
var _ = no_prebuilt_libjsonrpc_envelope_for_this_platform_use_tag_jsonrpc_envelope_external
