use super::*;

fn root(line: &str) -> Root {
    scan(line.as_bytes()).expect("valid").root
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
fn top_level_members_are_found_after_unescaping_and_the_last_one_wins() {
    let line = br#"{"id":1, "\u006dethod":"a", "method" : {"x":[1]}, "ID":2, "params":[]}"#;
    let members = scan(line).unwrap().members;
    assert_eq!(members.id.unwrap().span.of(line), b"1");
    let method = members.method.unwrap();
    assert_eq!((method.kind, method.span.of(line)), (ValueKind::Object, &br#"{"x":[1]}"#[..]));
    assert_eq!(members.params.unwrap().span.of(line), b"[]");
    assert!(members.result.is_none() && members.error.is_none());
}

#[test]
fn nested_members_are_not_top_level() {
    let members = scan(br#"{"params":{"id":1,"method":"x"}}"#).unwrap().members;
    assert!(members.id.is_none() && members.method.is_none());
}

#[test]
fn numbers_follow_the_grammar() {
    for good in ["0", "-0", "1.5", "1e5", "1E+5", "1e-5", "123456789012345678901234567890"] {
        assert!(scan(good.as_bytes()).is_ok(), "{good}");
    }
    for bad in ["01", "-", "1.", ".5", "1e", "+1", "0x1", "1.e5", "NaN", "Infinity", "-Infinity"] {
        assert!(scan(bad.as_bytes()).is_err(), "{bad}");
    }
}

#[test]
fn errors_name_the_offending_byte() {
    assert_eq!(scan(b"{\"a\":1,}"), Err(ParseError::Unexpected { at: 7, byte: b'}' }));
    assert_eq!(scan(b"[1,]"), Err(ParseError::Unexpected { at: 3, byte: b']' }));
    assert_eq!(scan(b"{\"a\" 1}"), Err(ParseError::Unexpected { at: 5, byte: b'1' }));
    assert_eq!(scan(b"[1 2]"), Err(ParseError::Unexpected { at: 3, byte: b'2' }));
    assert_eq!(scan(b"{} x"), Err(ParseError::Unexpected { at: 3, byte: b'x' }));
    assert_eq!(scan(b"{\"a\":[1"), Err(ParseError::End(7)));
    assert_eq!(scan(b"tru"), Err(ParseError::End(3)));
    assert_eq!(scan(b"\xEF\xBB\xBF{}"), Err(ParseError::Unexpected { at: 0, byte: 0xEF }));
    assert_eq!(scan(b"{}\xFF"), Err(ParseError::InvalidUtf8(2)));
    assert_eq!(scan(b"/*c*/{}"), Err(ParseError::Unexpected { at: 0, byte: b'/' }));
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
        .spawn(move || scan(&line).map(|s| s.members.params.map(|p| p.kind)))
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(scanned, Ok(Some(ValueKind::Object)));
}

#[test]
fn nesting_keeps_each_level_kind_past_the_inline_word() {
    let mut nesting = Nesting::default();
    let kinds: Vec<bool> = (0..300).map(|i| i % 3 == 0).collect();
    for &object in &kinds {
        nesting.push(object);
    }
    for &object in kinds.iter().rev() {
        assert_eq!(nesting.in_object(), object);
        nesting.pop();
    }
    assert!(nesting.is_empty());
}
