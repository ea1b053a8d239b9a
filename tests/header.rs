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

/// Every name the header defines is the library's: `JSONRPC_`-prefixed (a
/// Rust constant of the safe API, such as an error code, must not reach C
/// as a bare macro that collides with a host's own names).
#[test]
fn every_name_the_header_defines_is_prefixed() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = std::fs::read_to_string(root.join("include/jsonrpc_envelope.h")).expect("the header");
    let bare: Vec<&str> = header
        .lines()
        .filter_map(|line| line.strip_prefix("#define "))
        .filter_map(|rest| rest.split_whitespace().next())
        .filter(|name| !name.starts_with("JSONRPC_"))
        .collect();
    assert!(bare.is_empty(), "the header defines names without the JSONRPC_ prefix: {bare:?}");
    // Every type a typedef, an enum or a struct names: `typedef ... Name;`,
    // `} Name;`, `enum Name`, `typedef struct Name {`.
    let types: Vec<&str> = header
        .lines()
        .filter_map(|line| {
            let line = line.trim_end_matches(['{', ' ']).trim_end_matches(" //");
            let named = line.starts_with("typedef ")
                || (line.starts_with("} ") && line.ends_with(';'))
                || line.starts_with("enum ");
            named.then(|| line.trim_end_matches(';').rsplit(' ').next().unwrap_or(""))
        })
        .filter(|name| !name.starts_with("JsonRpc"))
        .collect();
    assert!(types.is_empty(), "the header names types without the JsonRpc prefix: {types:?}");
}
