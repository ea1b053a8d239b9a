//! The lines the probe sends (SPEC §11): every line of the project's
//! vectors, lines at the limits, and seeded random lines. Which reply each
//! is owed is never decided here: the judge asks the library.

use jsonrpc_envelope::Profile;
use serde_json::Value;

/// The groups a report counts apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// tests/vectors/envelope.jsonl.
    EnvelopeVectors,
    /// tests/vectors/mcp.jsonl.
    McpVectors,
    /// A line over the line limit, deep nesting, invalid UTF-8, CRLF, lone
    /// surrogates.
    Limits,
    /// The seeded generator's lines.
    Random,
}

impl Group {
    pub const ALL: [Group; 4] = [Group::EnvelopeVectors, Group::McpVectors, Group::Limits, Group::Random];

    pub fn name(self) -> &'static str {
        match self {
            Group::EnvelopeVectors => "envelope vectors",
            Group::McpVectors => "mcp vectors",
            Group::Limits => "limits",
            Group::Random => "random",
        }
    }

    /// The group a JSON report's key names.
    pub fn from_key(key: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.key() == key)
    }

    /// The name as the JSON report spells it.
    pub fn key(self) -> &'static str {
        match self {
            Group::EnvelopeVectors => "envelope_vectors",
            Group::McpVectors => "mcp_vectors",
            Group::Limits => "limits",
            Group::Random => "random",
        }
    }
}

/// One line to send, without its LF.
#[derive(Debug, Clone)]
pub struct ProbeLine {
    pub group: Group,
    pub name: String,
    pub bytes: Vec<u8>,
    /// Its number in the run a replay took it from.
    pub number: Option<usize>,
}

/// The vectors, carried in the binary (the library's `vectors` feature) so
/// that the probe needs no checkout.
use jsonrpc_envelope::vectors::{ENVELOPE, MCP};

/// Every line the probe sends, in order: the vectors, the limits, then
/// `random` lines from `seed`. Vector lines that hold an LF (they would be
/// two lines on a pipe) are left out.
pub fn all(random: usize, seed: u64) -> Vec<ProbeLine> {
    let mut lines = vectors(Group::EnvelopeVectors, ENVELOPE);
    lines.extend(vectors(Group::McpVectors, MCP));
    lines.extend(limits());
    let mut generator = Generator::new(seed);
    lines.extend((0..random).map(|n| ProbeLine {
        group: Group::Random,
        name: format!("random {n}"),
        bytes: generator.line(),
        number: None,
    }));
    lines
}

fn vectors(group: Group, file: &str) -> Vec<ProbeLine> {
    file.lines()
        .filter_map(|record| serde_json::from_str::<Value>(record).ok())
        .filter_map(|record| {
            let name = record["name"].as_str()?.to_owned();
            let bytes = match (&record["line"], &record["line_hex"]) {
                (Value::String(text), _) => text.as_bytes().to_vec(),
                (_, Value::String(hex)) => hex_bytes(hex)?,
                _ => return None,
            };
            (!bytes.contains(&b'\n')).then_some(ProbeLine { group, name, bytes, number: None })
        })
        .collect()
}

fn hex_bytes(hex: &str) -> Option<Vec<u8>> {
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok()).collect()
}

/// The limit line `name`, made again (a replay of a line too long for a
/// report to keep).
pub fn limit_line(name: &str) -> Option<Vec<u8>> {
    limits().into_iter().find(|line| line.name == name).map(|line| line.bytes)
}

fn limits() -> Vec<ProbeLine> {
    let line =
        |name: &str, bytes: Vec<u8>| ProbeLine { group: Group::Limits, name: name.to_owned(), bytes, number: None };
    let depth = 100_000;
    let deep = [
        &br#"{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"deep":"#[..],
        &b"[".repeat(depth),
        &b"]".repeat(depth),
        b"}}",
    ]
    .concat();
    // Over the line limit of every profile (the library's defaults).
    let over = Profile::ALL.map(Profile::default_max_line).into_iter().max().unwrap_or_default() + 1024;
    let long = [&br#"{"jsonrpc":"2.0","id":"long","method":"ping","params":{"pad":""#[..], &b"x".repeat(over), b"\"}}"]
        .concat();
    vec![
        line("a line over the line limit", long),
        line("a request nested 100,000 levels deep", deep),
        line(
            "invalid UTF-8 in a request",
            b"{\"jsonrpc\":\"2.0\",\"id\":\"utf8\",\"method\":\"ping\",\"x\":\"\xff\xfe\"}".to_vec(),
        ),
        line("a request with CRLF", b"{\"jsonrpc\":\"2.0\",\"id\":\"crlf\",\"method\":\"ping\"}\r".to_vec()),
        line(
            "a lone surrogate in params",
            br#"{"jsonrpc":"2.0","id":"lone","method":"ping","params":{"s":"\ud800"}}"#.to_vec(),
        ),
        line("a lone surrogate as the id", br#"{"jsonrpc":"2.0","id":"\udbff","method":"ping"}"#.to_vec()),
        line("a NUL byte", b"{\"jsonrpc\":\"2.0\",\"id\":\"nul\",\"method\":\"ping\"}\0".to_vec()),
    ]
}

/// A small seeded generator of odd and broken lines (splitmix64): the same
/// seed gives the same lines on every machine.
pub struct Generator(u64);

impl Generator {
    pub fn new(seed: u64) -> Generator {
        Generator(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, choices: &[&'a str]) -> &'a str {
        choices[self.below(choices.len())]
    }

    /// One line: most are envelopes with odd parts, some are damaged.
    pub fn line(&mut self) -> Vec<u8> {
        const IDS: &[&str] = &[
            "1",
            "0",
            "-0",
            "7",
            "1.5",
            "1e2",
            "1E+2",
            "-1",
            "1e400",
            "9007199254740991",
            "9007199254740992",
            "-9007199254740993",
            "12345678901234567890123",
            "\"a\"",
            "\"\"",
            "\"\\u0061\"",
            "\"\\ud800\"",
            "\"\\ud83d\\ude00\"",
            "\"\\udc00x\"",
            "null",
            "true",
            "false",
            "{}",
            "[1]",
            "{\"a\":1}",
        ];
        const JSONRPC: &[&str] =
            &["\"2.0\"", "\"2.0\"", "\"2.0\"", "\"1.0\"", "2.0", "null", "\"2.0 \"", "\"\\u0032.0\""];
        const METHODS: &[&str] =
            &["\"ping\"", "\"tools/list\"", "\"ping\"", "\"notifications/x\"", "5", "null", "[]", "\"\""];
        const PARAMS: &[&str] = &[
            "{}",
            "{}",
            "[]",
            "[1]",
            "5",
            "\"x\"",
            "null",
            "true",
            "{\"_meta\":{}}",
            "{\"_meta\":5}",
            "{\"_meta\":null}",
            "{\"_meta\":{\"progressToken\":\"t\"}}",
            "{\"_meta\":{\"progressToken\":1.5}}",
            "{\"_meta\":{\"progressToken\":{}}}",
            "{\"_meta\":{\"progressToken\":9007199254740992}}",
            "{\"_meta\":{\"progressToken\":\"\\udfff\"}}",
            "{\"a\":{\"_meta\":5}}",
        ];
        const RESULTS: &[&str] = &["{}", "[]", "null", "5", "\"ok\"", "{\"a\":[1,2]}"];
        const ERRORS: &[&str] = &[
            "{\"code\":-32600,\"message\":\"m\"}",
            "{\"code\":\"x\",\"message\":\"m\"}",
            "{\"code\":1.5,\"message\":\"m\"}",
            "{\"message\":\"m\"}",
            "{\"code\":1}",
            "{\"code\":1,\"message\":5}",
            "\"boom\"",
            "null",
            "{\"code\":1e3,\"message\":\"m\",\"data\":[1]}",
        ];
        const EXTRAS: &[&str] =
            &["\"x\":1", "\"ID\":1", "\"Method\":\"m\"", "\"\":0", "\"params\":{}", "\"result\":{}"];
        const DAMAGE: &[&str] = &["", "", "", "", "trunc", "garbage", "control", "bytes", "space"];

        let mut members: Vec<String> = Vec::new();
        let shape = self.below(10);
        let member = |name: &str, value: &str| format!("\"{name}\":{value}");
        if self.below(8) != 0 {
            members.push(member(self.pick(&["jsonrpc", "jsonrpc", "jsonrpc", "json\\u0072pc"]), self.pick(JSONRPC)));
        }
        match shape {
            // A request.
            0..=3 => {
                members.push(member("id", self.pick(IDS)));
                members.push(member("method", self.pick(METHODS)));
                if self.below(2) == 0 {
                    members.push(member("params", self.pick(PARAMS)));
                }
            }
            // A notification.
            4 | 5 => {
                members.push(member("method", self.pick(METHODS)));
                if self.below(2) == 0 {
                    members.push(member("params", self.pick(PARAMS)));
                }
            }
            // A response: never with a string id, so that it cannot answer
            // a request of the probe's own.
            6 | 7 => {
                let id = self.pick(IDS);
                if !id.starts_with('"') && self.below(4) != 0 {
                    members.push(member("id", id));
                }
                match self.below(3) {
                    0 => members.push(member("result", self.pick(RESULTS))),
                    1 => members.push(member("error", self.pick(ERRORS))),
                    _ => {
                        members.push(member("result", self.pick(RESULTS)));
                        members.push(member("error", self.pick(ERRORS)));
                    }
                }
            }
            // Something else: a log line, a scalar, a batch.
            8 => {
                return self
                    .pick(&[
                        "{\"level\":\"info\",\"msg\":\"hi\"}",
                        "42",
                        "\"text\"",
                        "null",
                        "[]",
                        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
                        "{}",
                    ])
                    .as_bytes()
                    .to_vec();
            }
            _ => {}
        }
        if self.below(6) == 0 {
            members.push(self.pick(EXTRAS).to_owned());
        }
        // Members in any order; a duplicate now and then.
        for i in (1..members.len()).rev() {
            let j = self.below(i + 1);
            members.swap(i, j);
        }
        if !members.is_empty() && self.below(10) == 0 {
            let twice = members[self.below(members.len())].clone();
            members.push(twice);
        }
        let mut line = format!("{{{}}}", members.join(",")).into_bytes();
        match self.pick(DAMAGE) {
            "trunc" if line.len() > 2 => line.truncate(1 + self.below(line.len() - 1)),
            "garbage" => line.extend_from_slice(self.pick(&["x", ",", "}", " {}", "]"]).as_bytes()),
            "control" => {
                let at = self.below(line.len());
                line.insert(at, 0x01);
            }
            "bytes" => {
                let at = self.below(line.len());
                line.insert(at, [0xff, 0xc3, 0xed][self.below(3)]);
            }
            "space" => {
                line.splice(0..0, *b" \t");
                line.extend_from_slice(b" \r");
            }
            _ => {}
        }
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_lines_and_another_other_lines() {
        let lines = |seed| {
            (0..200).map({
                let mut g = Generator::new(seed);
                move |_| g.line()
            })
        };
        assert!(lines(7).eq(lines(7)));
        assert!(!lines(7).eq(lines(8)));
        assert!(lines(1).all(|line| !line.contains(&b'\n')));
    }

    #[test]
    fn every_vector_without_an_lf_is_sent_once() {
        let all = all(0, 0);
        let count = |group| all.iter().filter(|l| l.group == group).count();
        let one_line = |file: &str| {
            file.lines()
                .filter(|r| {
                    !serde_json::from_str::<Value>(r).unwrap()["line"].as_str().is_some_and(|l| l.contains('\n'))
                })
                .count()
        };
        assert_eq!(count(Group::EnvelopeVectors), one_line(ENVELOPE));
        assert_eq!(count(Group::McpVectors), one_line(MCP));
        assert!(count(Group::McpVectors) >= 200);
        assert!(all.iter().all(|line| !line.bytes.contains(&b'\n')));
        assert!(all.iter().any(|line| line.bytes.len() > jsonrpc_envelope::DEFAULT_MAX_LINE));
    }
}
