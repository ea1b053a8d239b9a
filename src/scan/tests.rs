use super::*;

fn root(line: &str) -> Root {
    scan(line.as_bytes(), &mut Nothing).expect("valid").root
}

/// The root object's members as (name as in the line, value's bytes, kind).
fn members(line: &[u8]) -> Vec<(&str, &[u8], ValueKind)> {
    let mut all = Everything::default();
    scan(line, &mut all).expect("valid");
    all.members
        .into_iter()
        .filter(|(object, _, _)| object.is_none())
        .map(|(_, name, value)| {
            let value = value.expect("every member has a value");
            let name = std::str::from_utf8(&name).unwrap().to_owned().leak() as &str;
            (name, value.span.of(line), value.kind)
        })
        .collect()
}

fn error(line: &[u8]) -> ParseError {
    match scan(line, &mut Nothing) {
        Err(ScanError::Parse(error)) => error,
        other => panic!("not a parse error: {other:?}"),
    }
}

#[test]
fn roots() {
    assert_eq!(root(""), Root::Nothing);
    assert_eq!(root(" \t\r\n"), Root::Nothing);
    assert_eq!(root("{}"), Root::Object);
    assert_eq!(root(" [1, {\"a\": [true, false, null]}] "), Root::Array);
    assert_eq!(root("-0.5e+10"), Root::Scalar(ValueKind::Number));
    assert_eq!(root("\"x\""), Root::Scalar(ValueKind::String));
    assert_eq!(root("null"), Root::Scalar(ValueKind::Null));
}

#[test]
fn every_member_of_the_root_object_is_reported_in_order_with_its_name_as_written() {
    let line = br#"{"id":1, "\u006dethod":"a", "method" : {"x":[1]}, "ID":2, "params":[] }"#;
    assert_eq!(
        members(line),
        vec![
            ("id", &b"1"[..], ValueKind::Number),
            (r"\u006dethod", b"\"a\"", ValueKind::String),
            ("method", br#"{"x":[1]}"#, ValueKind::Object),
            ("ID", b"2", ValueKind::Number),
            ("params", b"[]", ValueKind::Array),
        ]
    );
}

#[test]
fn nested_members_are_not_reported() {
    assert_eq!(
        members(br#"{"params":{"id":1,"method":"x"}}"#),
        vec![("params", &br#"{"id":1,"method":"x"}"#[..], ValueKind::Object)]
    );
    assert_eq!(members(br#"[{"id":1}]"#), vec![]);
}

#[test]
fn numbers_follow_the_grammar() {
    for good in ["0", "-0", "1.5", "1e5", "1E+5", "1e-5", "123456789012345678901234567890"] {
        assert!(scan(good.as_bytes(), &mut Nothing).is_ok(), "{good}");
    }
    for bad in ["01", "-", "1.", ".5", "1e", "+1", "0x1", "1.e5", "NaN", "Infinity", "-Infinity"] {
        assert!(scan(bad.as_bytes(), &mut Nothing).is_err(), "{bad}");
    }
}

#[test]
fn errors_name_the_offending_byte() {
    assert_eq!(error(b"{\"a\":1,}"), ParseError::Unexpected { at: 7, byte: b'}' });
    assert_eq!(error(b"[1,]"), ParseError::Unexpected { at: 3, byte: b']' });
    assert_eq!(error(b"{\"a\" 1}"), ParseError::Unexpected { at: 5, byte: b'1' });
    assert_eq!(error(b"[1 2]"), ParseError::Unexpected { at: 3, byte: b'2' });
    assert_eq!(error(b"{} x"), ParseError::Unexpected { at: 3, byte: b'x' });
    assert_eq!(error(b"{\"a\":[1"), ParseError::End(7));
    assert_eq!(error(b"tru"), ParseError::End(3));
    assert_eq!(error(b"\xEF\xBB\xBF{}"), ParseError::Unexpected { at: 0, byte: 0xEF });
    assert_eq!(error(b"{}\xFF"), ParseError::InvalidUtf8(2));
    assert_eq!(error(b"/*c*/{}"), ParseError::Unexpected { at: 0, byte: b'/' });
}

#[test]
fn reasons_read_well() {
    assert_eq!(ParseError::Unexpected { at: 7, byte: b'}' }.to_string(), "unexpected character '}' at byte 7");
    assert_eq!(ParseError::Unexpected { at: 0, byte: 0 }.to_string(), "unexpected byte 0x00 at byte 0");
    assert_eq!(
        ParseError::Control { at: 3, byte: 10 }.to_string(),
        "unescaped control character U+000A in a string at byte 3"
    );
}

#[test]
fn a_million_levels_need_no_stack() {
    let depth = 1_000_000;
    let mut line = b"{\"method\":\"deep\",\"params\":".to_vec();
    line.extend(std::iter::repeat_n(b"{\"a\":[", depth).flatten());
    line.extend(std::iter::repeat_n(b"]}", depth).flatten());
    line.push(b'}');
    // A small stack proves that depth costs no stack.
    let scanned = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || {
            let mut all = Everything::default();
            scan(&line, &mut all).map(|_| all.members.iter().map(|(_, _, v)| v.map(|v| v.kind)).collect::<Vec<_>>())
        })
        .unwrap()
        .join()
        .unwrap();
    // method, params, and params.a (params opened).
    assert_eq!(scanned, Ok(vec![Some(ValueKind::String), Some(ValueKind::Object), Some(ValueKind::Array)]));
}

/// The members of opened objects as (the member it stands in, name as in
/// the line, value's bytes), in the order asked, from both scanners.
fn opened(line: &str) -> Vec<(Option<usize>, String, String)> {
    let report = |all: Everything| -> Vec<_> {
        all.members
            .into_iter()
            .map(|(object, name, value)| {
                let value = value.expect("every member has a value").span.of(line.as_bytes()).to_vec();
                (object, String::from_utf8(name).unwrap(), String::from_utf8(value).unwrap())
            })
            .collect()
    };
    let mut structural = Everything::default();
    scan(line.as_bytes(), &mut structural).expect("valid");
    let mut stepwise = Everything::default();
    stepwise::scan(line.as_bytes(), &mut stepwise).expect("valid");
    let (structural, stepwise) = (report(structural), report(stepwise));
    assert_eq!(structural, stepwise, "{line}");
    structural
}

#[test]
fn opened_objects_report_their_members_down_to_two_levels_below_the_root() {
    let s = |object: Option<usize>, name: &str, value: &str| (object, name.to_owned(), value.to_owned());
    let line = r#"{"a":1,"p":{"m":{"t":{"deep":{}},"u":[1]},"n":{}} ,"z":[{"q":1}]}"#;
    assert_eq!(
        opened(line),
        [
            s(None, "a", "1"),
            s(None, "p", r#"{"m":{"t":{"deep":{}},"u":[1]},"n":{}}"#),
            s(Some(1), "m", r#"{"t":{"deep":{}},"u":[1]}"#),
            // Two levels below the root: reported, not opened.
            s(Some(2), "t", r#"{"deep":{}}"#),
            s(Some(2), "u", "[1]"),
            s(Some(1), "n", "{}"),
            // An object in an array is not a member's value: not opened.
            s(None, "z", r#"[{"q":1}]"#),
        ]
    );
    // Opening changes no depth: the root, p, m, t, deep.
    assert_eq!(scan(line.as_bytes(), &mut Everything::default()).unwrap().depth, 5);
    assert_eq!(scan(line.as_bytes(), &mut Nothing).unwrap().depth, 5);
    assert_eq!(stepwise::scan(line.as_bytes(), &mut Everything::default()).unwrap().1, 5);
}

#[test]
fn the_facts_a_scan_reports_hold() {
    let facts = |line: &str| {
        let s = scan(line.as_bytes(), &mut Nothing).expect("valid");
        (s.huge_number, s.surrogates, s.control_whitespace)
    };
    assert_eq!(facts(r#"{"a":[1.5e300,-1e-400,1e308,0.1]}"#), (false, false, false));
    assert_eq!(facts(r#"{"a":[1,2e308]}"#), (true, false, false));
    assert_eq!(facts(r#"[-1E+309]"#), (true, false, false));
    let long = format!("[{}]", "9".repeat(400));
    assert_eq!(facts(&long), (true, false, false));
    let long_fraction = format!("[0.{}1]", "0".repeat(400));
    assert_eq!(facts(&long_fraction), (false, false, false));
    assert_eq!(facts(r#"{"s":"\\ud800 \u0041 \\"}"#), (false, false, false));
    assert_eq!(facts(r#"{"s":"\ud83d\ude00"}"#), (false, true, false));
    assert_eq!(facts(r#"{"s":"\uDFFF"}"#), (false, true, false));
    assert_eq!(facts("{\"s\":1,\r\n\t\"t\":2}"), (false, false, true));
    assert_eq!(facts("\t[1]"), (false, false, true));
}

/// Both scanners' readings of `line`: the structural one (with the
/// byte-by-byte classes, and with AVX2 and AVX-512 where the CPU has them)
/// must take exactly the lines the stepwise one finds valid, with the same
/// members.
fn assert_scanners_agree(line: &[u8]) {
    assert!(scanners_agree(line), "the scanners disagree on {}", String::from_utf8_lossy(line));
}

/// The scanners' agreement is checked with every set of byte classes this
/// CPU has; say which it lacks, so that no path passes unseen.
#[test]
fn the_byte_classes_this_cpu_lacks_are_named() {
    #[cfg(target_arch = "x86_64")]
    {
        use byte_classes::{Avx2, Avx512};
        if Avx2::detect().is_none() {
            println!("skipped on this CPU: the structural scanner with AVX2");
        }
        if Avx512::detect().is_none() {
            println!("skipped on this CPU: the structural scanner with AVX-512");
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    println!("skipped on this CPU: the structural scanner with AVX2 and AVX-512 (not x86_64)");
}

fn vector_lines() -> Vec<Vec<u8>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/envelope.jsonl");
    let text = std::fs::read_to_string(path).expect("vectors");
    text.lines()
        .map(|record| serde_json::from_str::<serde_json::Value>(record).expect("vector"))
        .filter_map(|record| record.get("line").and_then(|l| l.as_str()).map(|l| l.as_bytes().to_vec()))
        .collect()
}

/// Shifts `line` by `by` bytes of leading whitespace, so that each of its
/// bytes meets each position of a 64-byte block.
fn shifted(line: &[u8], by: usize) -> Vec<u8> {
    let mut out = vec![b' '; by];
    out.extend_from_slice(line);
    out
}

/// Prefix lengths of a line of `len` bytes: every one within 1 KiB of
/// either end, every 61st in between (every prefix of the 40 KB vector
/// would cost 800 MB of scanning four ways; tests/stress.rs classifies
/// every prefix of every vector).
fn prefix_lengths(len: usize) -> impl Iterator<Item = usize> {
    (0..=len).filter(move |&end| end < 1024 || end + 1024 >= len || end % 61 == 0)
}

#[test]
fn the_scanners_agree_on_every_vector_at_every_block_offset_and_on_its_prefixes() {
    for line in vector_lines() {
        let offsets = if line.len() < 4096 { 0..64 } else { 0..4 };
        for by in offsets {
            assert_scanners_agree(&shifted(&line, by));
        }
        for end in prefix_lengths(line.len()) {
            assert_scanners_agree(&line[..end]);
        }
    }
}

#[test]
fn the_scanners_agree_on_json_test_suite() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/jsontestsuite/test_parsing");
    for entry in std::fs::read_dir(dir).expect("JSONTestSuite") {
        let bytes = std::fs::read(entry.expect("entry").path()).expect("file");
        for by in [0, 1, 31, 63] {
            assert_scanners_agree(&shifted(&bytes, by));
        }
    }
}

/// Strings, escapes and scalars that cross block boundaries, at every
/// offset: runs of backslashes of every length, escaped quotes, `\u`
/// escapes split anywhere, and bad ones.
#[test]
fn the_scanners_agree_across_block_boundaries() {
    let mut pieces: Vec<String> = Vec::new();
    for run in 0..6 {
        let slashes = "\\".repeat(run);
        pieces.push(format!(r#"{{"method":"a{slashes}","id":1}}"#));
        pieces.push(format!(r#"{{"method":"a{slashes}"x","id":1}}"#));
        pieces.push(format!(r#"["{slashes}\"", 1]"#));
    }
    for piece in [
        r#"{"id":"\u00e9\u002F","method":"m\ud800"}"#,
        r#"{"id":"\u00g9","method":"m"}"#,
        r#"{"id":"\u00"}"#,
        r#"{"method":"m","params":[1.5e+10,-0,true,false,null,{"a":[]}]}"#,
        r#"{"method":"m","params":[1.5e+,-0]}"#,
        r#"{"method":"m","params":[truex]}"#,
        r#"{"method":"m","params":[1 2]}"#,
        r#"{"method":"m","params":["a""b"]}"#,
        r#"{"method":"m","params":["a"1]}"#,
        r#"{"method" "m"}"#,
        r#"{"method":"m",}"#,
        r#"{"method":"m"}}"#,
        r#"{"method":"m"} 1"#,
        r#"{"method":"m" , "id" : 7 , "\u0069d" : "x" }"#,
        "{\"method\":\"m\",\"params\":\"tab\there\"}",
        "{\"method\":\"m\",\"params\":\"\x0c\"}",
        "[\x0c]",
        "[\x1a]",
        "{\"a\":1\x0c}",
        r#"{"method":"m"\}"#,
        r#"\{"method":"m"}"#,
        r#"[1\"a"]"#,
        r#""\\""#,
        r#""\\\""#,
    ] {
        pieces.push(piece.to_owned());
    }
    for piece in &pieces {
        for by in 0..130 {
            let line = shifted(piece.as_bytes(), by);
            assert_scanners_agree(&line);
            assert_scanners_agree(&line[..line.len() - 1]);
        }
    }
}

/// Lines mutated at random from the vectors: a byte replaced by one that
/// matters to the grammar, inserted or removed.
#[test]
fn the_scanners_agree_on_mutated_lines() {
    let specials = b"\"\\{}[]:, \t\r\n0123456789-+.eEtrufalsn\x00\x1f\x0c\x1au";
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let lines = vector_lines();
    for _ in 0..40_000 {
        let mut line = shifted(&lines[next(lines.len())], next(64));
        for _ in 0..1 + next(3) {
            let at = next(line.len() + 1);
            let byte = specials[next(specials.len())];
            match next(3) {
                0 if at < line.len() => line[at] = byte,
                1 => line.insert(at, byte),
                _ if at < line.len() => {
                    line.remove(at);
                }
                _ => {}
            }
        }
        assert_scanners_agree(&line);
    }
}

/// The escaped-byte mask against a plain reading, across two blocks.
#[test]
fn escaped_bytes_follow_odd_runs_of_backslashes_across_blocks() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        // Dense runs: bits set with probability about 3/4.
        let first = state | state.rotate_left(17);
        let second = state.rotate_left(29) | state.rotate_left(3);
        let mut strings = token_starts::TokenStarts::new(utf8::Deferred::default());
        let got = [strings.escaped_bytes(first), strings.escaped_bytes(second)];
        let mut want = [0u64; 2];
        let mut escaped = false;
        for (block, backslash) in [first, second].into_iter().enumerate() {
            for i in 0..64 {
                if escaped {
                    want[block] |= 1 << i;
                    escaped = false;
                } else {
                    escaped = backslash >> i & 1 == 1;
                }
            }
        }
        assert_eq!(got, want, "{first:064b} {second:064b}");
    }
}

/// Invalid UTF-8 in an otherwise valid line is found wherever it stands:
/// in a block of plain string text, among tokens, or in the last block.
#[test]
fn invalid_utf8_is_found_at_every_offset() {
    for bad in [&b"\xff"[..], b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf"] {
        for at in 0..200 {
            let mut line = br#"{"jsonrpc":"2.0","method":"m","params":""#.to_vec();
            line.extend(std::iter::repeat_n(b'a', at));
            let fault = line.len();
            line.extend_from_slice(bad);
            line.extend_from_slice("é\"}".as_bytes());
            assert_eq!(error(&line), ParseError::InvalidUtf8(fault), "{bad:?} at {at}");
        }
    }
}

/// The line-as-text check against `std::str::from_utf8`: every input of up
/// to two bytes, and longer ones (the vector path starts at 32 bytes) with
/// one byte of each UTF-8 role at every position, at every alignment of a
/// 32-byte vector load.
#[test]
fn the_utf8_check_agrees_with_std_on_short_inputs_at_every_alignment() {
    for a in 0..=255u8 {
        assert!(utf8_agrees(&[a]));
        for b in 0..=255u8 {
            assert!(utf8_agrees(&[a, b]), "{a:#x} {b:#x}");
        }
    }
    let mut backing = vec![b'a'; 32 + 200];
    let odd: [&[u8]; 8] =
        [b"\x7f", b"\x80", b"\xc3", b"\xc3\xa9", b"\xe2\x82\xac", b"\xf0\x9f\x98\x80", b"\xed\xa0\x80", b"\xff"];
    for align in 0..32 {
        for len in 0..=160 {
            let plain = &mut backing[align..align + len];
            plain.fill(b'a');
            assert!(utf8_agrees(plain), "ASCII of {len} at {align}");
            for piece in odd {
                for at in 0..len.saturating_sub(piece.len() - 1) {
                    let line = &mut backing[align..align + len];
                    line.fill(b'a');
                    line[at..at + piece.len()].copy_from_slice(piece);
                    assert!(utf8_agrees(line), "{piece:x?} at {at} of {len}, aligned {align}");
                }
            }
        }
    }
}

/// UTF-8, valid and not, at every offset in a block and across block
/// boundaries, and cut off at every length: the structural scanner (which
/// checks UTF-8 along its pass, with vectors or by the first non-ASCII
/// block) takes exactly the lines that `std::str::from_utf8` and the
/// stepwise scanner accept.
#[test]
fn the_scanners_agree_on_utf8_at_every_offset() {
    let good: [&[u8]; 8] = [
        "é".as_bytes(),
        "€".as_bytes(),
        "😀".as_bytes(),
        "\u{7ff}".as_bytes(),
        "\u{d7ff}\u{e000}".as_bytes(),
        "\u{ffff}".as_bytes(),
        "\u{10000}\u{10ffff}".as_bytes(),
        "日本語".as_bytes(),
    ];
    let bad: [&[u8]; 15] = [
        b"\x80",
        b"\xbf",
        b"\xc3",
        b"\xe2\x82",
        b"\xf0\x9f\x98",
        b"\xc0\xaf",
        b"\xc1\xbf",
        b"\xe0\x80\xaf",
        b"\xf0\x80\x80\xaf",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
        b"\xf5\x80\x80\x80",
        b"\xf8\x88\x80\x80\x80",
        b"\xff",
        b"\xc3\xa9\xa9",
    ];
    for piece in good.iter().chain(&bad) {
        for at in 0..140 {
            let mut line = br#"{"method":""#.to_vec();
            line.extend(std::iter::repeat_n(b'a', at));
            line.extend_from_slice(piece);
            line.extend_from_slice("é\"}".as_bytes());
            for end in (line.len().saturating_sub(8)..=line.len()).chain([at + 11, at + 12]) {
                assert_scanners_agree(&line[..end.min(line.len())]);
            }
            // Outside a string, and as a whole line.
            let mut bare = vec![b' '; at];
            bare.extend_from_slice(piece);
            assert_scanners_agree(&bare);
            // Far from the start: an ASCII block, then the piece.
            let mut late = br#"{"id":1,"#.to_vec();
            late.extend(std::iter::repeat_n(b' ', 64 + at));
            late.extend_from_slice(br#""method":"x"#);
            late.extend_from_slice(piece);
            late.extend_from_slice(br#""}"#);
            assert_scanners_agree(&late);
        }
    }
}
