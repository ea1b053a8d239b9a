//! Gives the shared library an SONAME that carries the ABI version
//! (`libjsonrpc_envelope.so.1`), so a program linked against one ABI never
//! loads a library of another. The number is read from the one place it is
//! written, `JSONRPC_ABI_VERSION` in src/ffi/version.rs.

fn main() {
    const SOURCE: &str = "src/ffi/version.rs";
    println!("cargo:rerun-if-changed={SOURCE}");
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    let text = std::fs::read_to_string(SOURCE).expect("read src/ffi/version.rs");
    let abi: u32 = text
        .lines()
        .find_map(|line| line.strip_prefix("pub const JSONRPC_ABI_VERSION: u32 = "))
        .and_then(|rest| rest.trim_end_matches(';').parse().ok())
        .expect("src/ffi/version.rs defines JSONRPC_ABI_VERSION as a number");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libjsonrpc_envelope.so.{abi}");
}
