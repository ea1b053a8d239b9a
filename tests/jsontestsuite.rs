//! JSONTestSuite (tests/jsontestsuite, MIT): each file is one line. `y_`
//! files are valid, `n_` files are not (the two holding only whitespace or
//! nothing are `empty`), and each `i_` file's kind is listed here.

use std::path::Path;

use jsonrpc_envelope::{Kind, classify};

fn files(prefix: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jsontestsuite/test_parsing");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("test_parsing")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(prefix)))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
        .collect();
    files.sort();
    files
}

#[test]
fn every_y_file_is_valid() {
    let files = files("y_");
    assert_eq!(files.len(), 95);
    for (name, bytes) in files {
        assert_ne!(classify(&bytes).kind, Kind::ParseError, "{name}");
    }
}

#[test]
fn every_n_file_is_a_parse_error_or_empty() {
    let files = files("n_");
    assert_eq!(files.len(), 188);
    for (name, bytes) in files {
        let expected = match name.as_str() {
            "n_single_space.json" | "n_structure_no_data.json" => Kind::Empty,
            _ => Kind::ParseError,
        };
        assert_eq!(classify(&bytes).kind, expected, "{name}");
    }
}

/// What each implementation-defined file gives: numbers of any size and
/// lone-surrogate escapes are valid JSON (SPEC §1); bytes that are not
/// UTF-8 (UTF-16 included) and a byte-order mark are parse errors; depth
/// has no limit.
const I_FILES: &[(&str, Kind)] = &[
    ("i_number_double_huge_neg_exp.json", Kind::Batch),
    ("i_number_huge_exp.json", Kind::Batch),
    ("i_number_neg_int_huge_exp.json", Kind::Batch),
    ("i_number_pos_double_huge_exp.json", Kind::Batch),
    ("i_number_real_neg_overflow.json", Kind::Batch),
    ("i_number_real_pos_overflow.json", Kind::Batch),
    ("i_number_real_underflow.json", Kind::Batch),
    ("i_number_too_big_neg_int.json", Kind::Batch),
    ("i_number_too_big_pos_int.json", Kind::Batch),
    ("i_number_very_big_negative_int.json", Kind::Batch),
    ("i_object_key_lone_2nd_surrogate.json", Kind::NotJsonRpc),
    ("i_string_1st_surrogate_but_2nd_missing.json", Kind::Batch),
    ("i_string_1st_valid_surrogate_2nd_invalid.json", Kind::Batch),
    ("i_string_UTF-16LE_with_BOM.json", Kind::ParseError),
    ("i_string_UTF-8_invalid_sequence.json", Kind::ParseError),
    ("i_string_UTF8_surrogate_U+D800.json", Kind::ParseError),
    ("i_string_incomplete_surrogate_and_escape_valid.json", Kind::Batch),
    ("i_string_incomplete_surrogate_pair.json", Kind::Batch),
    ("i_string_incomplete_surrogates_escape_valid.json", Kind::Batch),
    ("i_string_invalid_lonely_surrogate.json", Kind::Batch),
    ("i_string_invalid_surrogate.json", Kind::Batch),
    ("i_string_invalid_utf-8.json", Kind::ParseError),
    ("i_string_inverted_surrogates_U+1D11E.json", Kind::Batch),
    ("i_string_iso_latin_1.json", Kind::ParseError),
    ("i_string_lone_second_surrogate.json", Kind::Batch),
    ("i_string_lone_utf8_continuation_byte.json", Kind::ParseError),
    ("i_string_not_in_unicode_range.json", Kind::ParseError),
    ("i_string_overlong_sequence_2_bytes.json", Kind::ParseError),
    ("i_string_overlong_sequence_6_bytes.json", Kind::ParseError),
    ("i_string_overlong_sequence_6_bytes_null.json", Kind::ParseError),
    ("i_string_truncated-utf-8.json", Kind::ParseError),
    ("i_string_utf16BE_no_BOM.json", Kind::ParseError),
    ("i_string_utf16LE_no_BOM.json", Kind::ParseError),
    ("i_structure_500_nested_arrays.json", Kind::Batch),
    ("i_structure_UTF-8_BOM_empty_object.json", Kind::ParseError),
];

#[test]
fn every_i_file_gives_its_listed_kind() {
    let files = files("i_");
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    let listed: Vec<&str> = I_FILES.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, listed, "the list names every i_ file, in order");
    for ((name, bytes), (_, kind)) in files.iter().zip(I_FILES) {
        assert_eq!(classify(bytes).kind, *kind, "{name}");
    }
}
