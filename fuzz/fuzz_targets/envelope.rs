//! Structured envelopes: objects with chosen member names (plain, escaped,
//! case-changed, repeated), values of every type and random whitespace. The
//! fast scanner and a plain reading of SPEC §2 on serde_json must agree.
#![no_main]

use jsonrpc_envelope::classify;
use jsonrpc_envelope_fuzz::{check_line, reference_kind};
use libfuzzer_sys::arbitrary::{self, Arbitrary};

#[derive(Debug, Arbitrary)]
enum Name {
    Known(u8),
    CaseChanged(u8),
    Escaped(u8, u8),
    Other(String),
}

const KNOWN: [&str; 6] = ["id", "method", "params", "result", "error", "jsonrpc"];

#[derive(Debug, Arbitrary)]
enum Val {
    Null,
    Bool(bool),
    Int(i64),
    HugeInt(u8),
    Float(u32, i8),
    Str(String),
    EscapedStr(String),
    TwoPointZero(bool),
    Object(Vec<(String, Val)>),
    Array(Vec<Val>),
}

#[derive(Debug, Arbitrary)]
struct Envelope {
    members: Vec<(Name, Val)>,
    spaces: Vec<u8>,
}

struct Writer {
    out: String,
    spaces: std::vec::IntoIter<u8>,
}

impl Writer {
    fn space(&mut self) {
        let pick = self.spaces.next().unwrap_or(0);
        self.out.push_str(["", "", " ", "\t", "\r\n", "  \n"][usize::from(pick % 6)]);
    }

    fn escaped(&mut self, text: &str, mask: u8) {
        self.out.push('"');
        for (i, c) in text.chars().enumerate() {
            if mask & (1 << (i % 8)) != 0 || c < ' ' || c == '"' || c == '\\' {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    self.out.push_str(&format!("\\u{unit:04x}"));
                }
            } else {
                self.out.push(c);
            }
        }
        self.out.push('"');
    }

    fn name(&mut self, name: &Name) {
        match name {
            Name::Known(i) => self.escaped(KNOWN[usize::from(i % 6)], 0),
            Name::CaseChanged(i) => self.escaped(&KNOWN[usize::from(i % 6)].to_uppercase(), 0),
            Name::Escaped(i, mask) => self.escaped(KNOWN[usize::from(i % 6)], *mask | 1),
            Name::Other(text) => self.escaped(text, 0),
        }
    }

    fn value(&mut self, value: &Val, depth: u32) {
        self.space();
        match value {
            Val::Null => self.out.push_str("null"),
            Val::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Val::Int(n) => self.out.push_str(&n.to_string()),
            Val::HugeInt(n) => self.out.push_str(&format!("{}98765432109876543210", u32::from(*n) + 1)),
            Val::Float(m, e) => self.out.push_str(&format!("{m}.5e{e}")),
            Val::Str(text) => self.escaped(text, 0),
            Val::EscapedStr(text) => self.escaped(text, 0xff),
            Val::TwoPointZero(escaped) => self.escaped("2.0", if *escaped { 0b10 } else { 0 }),
            Val::Object(members) if depth < 4 => {
                self.out.push('{');
                for (i, (name, v)) in members.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.space();
                    self.escaped(name, 0);
                    self.space();
                    self.out.push(':');
                    self.value(v, depth + 1);
                }
                self.space();
                self.out.push('}');
            }
            Val::Array(items) if depth < 4 => {
                self.out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.value(v, depth + 1);
                }
                self.space();
                self.out.push(']');
            }
            Val::Object(_) | Val::Array(_) => self.out.push_str("{}"),
        }
        self.space();
    }
}

libfuzzer_sys::fuzz_target!(|envelope: Envelope| {
    let mut w = Writer { out: String::new(), spaces: envelope.spaces.into_iter() };
    w.space();
    w.out.push('{');
    for (i, (name, value)) in envelope.members.iter().enumerate() {
        if i > 0 {
            w.out.push(',');
        }
        w.space();
        w.name(name);
        w.space();
        w.out.push(':');
        w.value(value, 0);
    }
    w.out.push('}');
    w.space();
    let line = w.out.as_bytes();
    // None: a line the reference cannot judge (serde_json's number key).
    let Some(reference) = reference_kind(line) else { return };
    let Some(expected) = reference else { panic!("the generator wrote invalid JSON: {}", w.out) };
    assert_eq!(classify(line).kind, expected, "{}", w.out);
    check_line(line);
});
