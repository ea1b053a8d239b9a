//! The committed header is exactly what the pinned cbindgen generates from
//! src/ffi. `JSONRPC_WRITE_HEADER=1 cargo test --test header` (`make
//! header`) rewrites it instead.

use std::path::Path;

#[test]
fn committed_header_matches_the_generated_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(root)
        .with_config(config)
        .generate()
        .expect("cbindgen could not read src/ffi")
        .write(&mut generated);
    let path = root.join("include/jsonrpc_envelope.h");
    if std::env::var_os("JSONRPC_WRITE_HEADER").is_some() {
        std::fs::write(&path, &generated).expect("write the header");
        return;
    }
    let committed = std::fs::read(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/jsonrpc_envelope.h differs from what cbindgen generates; run `make header`"
    );
}
