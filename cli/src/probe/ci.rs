//! The probe's reports for CI (SPEC §11): JUnit XML (a suite per group, a
//! case per line judged) and SARIF 2.1.0 (a result per failure, its rule
//! the SPEC section or MCP requirement broken, its level the grade).

use std::fmt::Write;

use jsonrpc_envelope::{Kind, Profile, log_value};
use serde_json::{Value, json};

use super::judge::{Grade, Verdict};
use super::report::Report;
use super::stdout::Fault;
use super::{Group, Outcome};

/// A rule a failure breaks.
struct Rule {
    id: &'static str,
    name: &'static str,
    text: &'static str,
}

const RULES: [Rule; 9] = [
    Rule {
        id: "JSONRPC-5",
        name: "RequestAnswered",
        text: "A request is answered by a response with its id (JSON-RPC 2.0, section 5).",
    },
    Rule {
        id: "MCP-STDIO-SESSION",
        name: "SessionLasts",
        text: "One line a server cannot read does not end or stall the session (MCP stdio transport; SPEC 8 and 9).",
    },
    Rule {
        id: "SPEC-4",
        name: "OwedReply",
        text: "A line that is not a valid request is owed the reply of SPEC section 4 (JSON-RPC 2.0, sections 4.2 and 5.1).",
    },
    Rule {
        id: "SPEC-10.2",
        name: "McpRequest",
        text: "A request the MCP profile refuses is owed -32600 by its id (SPEC 10.2).",
    },
    Rule {
        id: "SPEC-10.3",
        name: "McpResponse",
        text: "What a server writes is a response every MCP SDK reads (SPEC 10.3).",
    },
    Rule {
        id: "SPEC-10.6",
        name: "EveryRequestAnswered",
        text: "A request whose id is readable is answered, in a line with a byte order mark, in a batch, damaged or too long (SPEC 10.6).",
    },
    Rule {
        id: "MCP-STDIO-STDOUT",
        name: "OnlyMessagesOnStdout",
        text: "The server does not write anything to its stdout that is not a valid MCP message (MCP stdio transport).",
    },
    Rule {
        id: "MCP-2026-07-28-STDIO-REQUESTS",
        name: "NoServerRequests",
        text: "A 2026-07-28 server does not write JSON-RPC requests to stdout (MCP stdio transport).",
    },
    Rule {
        id: "SPEC-11-TEXT",
        name: "LibraryText",
        text: "Under --strict, an error reply's message is the library's exact text (SPEC 4, 10).",
    },
];

fn rule(id: &str) -> usize {
    RULES.iter().position(|r| r.id == id).unwrap_or(0)
}

/// The rule a failing line breaks.
fn line_rule(outcome: &Outcome, profile: Profile) -> usize {
    match &outcome.verdict {
        Verdict::Died { .. } | Verdict::Hung => return rule("MCP-STDIO-SESSION"),
        Verdict::Unanswered | Verdict::DifferentId { .. } => return rule("JSONRPC-5"),
        Verdict::Worded { .. } => return rule("SPEC-11-TEXT"),
        _ => {}
    }
    let Some(bytes) = &outcome.bytes else { return rule("SPEC-10.6") };
    let mcp = profile == Profile::Mcp;
    let c = profile.classify(bytes);
    let plain = Profile::JsonRpc.classify(bytes);
    match c.reason {
        Some(jsonrpc_envelope::Reason::McpRequest(_)) => rule("SPEC-10.2"),
        Some(jsonrpc_envelope::Reason::McpResponse(_)) => rule("SPEC-10.3"),
        // A line JSON-RPC reads otherwise: a batch, a mark, damage.
        _ if mcp && (plain.kind != c.kind || plain.id != c.id || c.kind == Kind::Batch) => rule("SPEC-10.6"),
        _ => rule("SPEC-4"),
    }
}

fn fault_rule(fault: Fault) -> usize {
    match fault {
        Fault::NotJsonRpc | Fault::TooLong => rule("MCP-STDIO-STDOUT"),
        Fault::NotOneMessage => rule("SPEC-10.6"),
        Fault::InvalidResponse => rule("SPEC-10.3"),
        Fault::InvalidRequest => rule("SPEC-10.2"),
        Fault::ForbiddenRequest => rule("MCP-2026-07-28-STDIO-REQUESTS"),
    }
}

fn level(grade: Grade) -> &'static str {
    match grade {
        Grade::Harmful => "error",
        Grade::Nonconforming => "warning",
        Grade::Strict => "note",
    }
}

fn describe(outcome: &Outcome) -> String {
    let mut text = format!("{} ({}): {}", outcome.name, outcome.group.name(), outcome.verdict.name());
    if let Some(owed) = outcome.verdict.owed() {
        let _ = write!(text, "; owed {owed}");
    }
    if let Verdict::Wrong { owed: None, .. } = outcome.verdict {
        text.push_str("; owed nothing");
    }
    if let Verdict::Died { how } = &outcome.verdict {
        let _ = write!(text, "; the server ended: {how}");
    }
    match outcome.got.first() {
        Some(got) => {
            let _ = write!(text, "; got {}", log_value(got));
        }
        None if outcome.grade == Some(Grade::Harmful) => text.push_str("; got nothing"),
        None => {}
    }
    text
}

/// The SARIF 2.1.0 log of every report.
pub fn sarif(reports: &[Report]) -> Value {
    let runs: Vec<Value> = reports
        .iter()
        .map(|r| {
            let mut results: Vec<Value> = r
                .outcomes
                .iter()
                .filter_map(|o| Some((o, o.grade?)))
                .map(|(o, grade)| {
                    let at = line_rule(o, r.profile());
                    json!({
                        "ruleId": RULES[at].id,
                        "ruleIndex": at,
                        "level": level(grade),
                        "message": {"text": describe(o)},
                        "locations": [{"logicalLocations": [{
                            "name": o.name,
                            "fullyQualifiedName": format!("{}/{}", o.group.key(), o.number),
                            "kind": "member",
                        }]}],
                        "properties": {
                            "grade": grade.name(),
                            "verdict": o.verdict.name(),
                            "number": o.number,
                            "group": o.group.key(),
                            "era": r.era.name(),
                        },
                    })
                })
                .collect();
            for (fault, faults) in &r.stdout {
                for (grade, count) in &faults.graded {
                    let at = fault_rule(*fault);
                    let example = faults.first.first().map(|l| log_value(l)).unwrap_or_default();
                    results.push(json!({
                        "ruleId": RULES[at].id,
                        "ruleIndex": at,
                        "level": level(*grade),
                        "message": {"text": format!("{count} lines on stdout {}, such as: {example}", fault.words())},
                        "properties": {"grade": grade.name(), "count": count, "era": r.era.name()},
                    }));
                }
            }
            json!({
                "tool": {"driver": {
                    "name": "jsonrpc-envelope",
                    "version": jsonrpc_envelope::VERSION,
                    "informationUri": "https://github.com/jsonrpc-envelope/jsonrpc-envelope",
                    "rules": RULES.iter().map(|rule| json!({
                        "id": rule.id,
                        "name": rule.name,
                        "shortDescription": {"text": rule.text},
                    })).collect::<Vec<_>>(),
                }},
                "invocations": [{
                    "executionSuccessful": r.unsupported.is_none(),
                    "commandLine": r.command_line(),
                    "properties": {"era": r.era.name(), "profile": r.profile().name(), "passed": r.passed()},
                }],
                "results": results,
            })
        })
        .collect();
    json!({
        "$schema": "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json",
        "version": "2.1.0",
        "runs": runs,
    })
}

/// The JUnit XML report: a suite per era and group, a case per line; a
/// failure of a grade that fails the run is a `<failure>`, one of a milder
/// grade a case that passes with its note in `<system-out>`.
pub fn junit(reports: &[Report]) -> String {
    let mut xml =
        String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"jsonrpc-envelope probe\">\n");
    for r in reports {
        if let Some(why) = &r.unsupported {
            let _ = writeln!(
                xml,
                "  <testsuite name=\"{} era\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">\n    \
                 <testcase classname=\"probe.{}\" name=\"session\">\n      <skipped message=\"{}\"/>\n    </testcase>\n  </testsuite>",
                r.era.name(),
                r.era.name(),
                escape(why)
            );
            continue;
        }
        let fails = |grade: Option<Grade>| grade.is_some_and(|g| g <= r.fail_on);
        for group in Group::ALL {
            let cases: Vec<&Outcome> = r.outcomes.iter().filter(|o| o.group == group).collect();
            if cases.is_empty() {
                continue;
            }
            let failures = cases.iter().filter(|o| fails(o.grade)).count();
            let _ = writeln!(
                xml,
                "  <testsuite name=\"{} ({} era)\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">",
                group.name(),
                r.era.name(),
                cases.len()
            );
            for o in cases {
                let name = escape(&format!("#{} {}", o.number, o.name));
                let _ =
                    write!(xml, "    <testcase classname=\"probe.{}.{}\" name=\"{name}\"", r.era.name(), group.key());
                match o.grade {
                    None => xml.push_str("/>\n"),
                    Some(grade) => {
                        let body = escape(&format!(
                            "line: {}\nowed: {}\ngot: {}",
                            o.bytes.as_deref().map_or_else(|| format!("({} bytes)", o.length), log_value),
                            o.verdict.owed().unwrap_or("nothing"),
                            o.got.first().map_or_else(|| "nothing".to_owned(), |g| log_value(g)),
                        ));
                        let message = escape(&format!("{} ({})", o.verdict.name(), grade.name()));
                        if fails(o.grade) {
                            let _ = write!(
                                xml,
                                ">\n      <failure type=\"{}\" message=\"{message}\">{body}</failure>\n    </testcase>\n",
                                grade.name()
                            );
                        } else {
                            let _ =
                                write!(xml, ">\n      <system-out>{message}\n{body}</system-out>\n    </testcase>\n");
                        }
                    }
                }
            }
            xml.push_str("  </testsuite>\n");
        }
        let failing = |fault: &Fault| r.stdout.get(fault).is_some_and(|f| f.graded.keys().any(|g| fails(Some(*g))));
        let _ = writeln!(
            xml,
            "  <testsuite name=\"stdout ({} era)\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
            r.era.name(),
            Fault::ALL.len(),
            Fault::ALL.iter().filter(|f| failing(f)).count()
        );
        for fault in Fault::ALL {
            let _ = write!(xml, "    <testcase classname=\"probe.{}.stdout\" name=\"{}\"", r.era.name(), fault.key());
            match r.stdout.get(&fault) {
                Some(faults) if failing(&fault) => {
                    let first = faults.first.iter().map(|l| log_value(l)).collect::<Vec<_>>().join("\n");
                    let _ = write!(
                        xml,
                        ">\n      <failure type=\"{}\" message=\"{} lines {}\">{}</failure>\n    </testcase>\n",
                        faults.graded.keys().next().map_or("", |g| g.name()),
                        faults.count,
                        escape(fault.words()),
                        escape(&first)
                    );
                }
                Some(faults) if faults.count > 0 => {
                    let first = faults.first.iter().map(|l| log_value(l)).collect::<Vec<_>>().join("\n");
                    let _ = write!(
                        xml,
                        ">\n      <system-out>{} lines {} ({})\n{}</system-out>\n    </testcase>\n",
                        faults.count,
                        escape(fault.words()),
                        faults.graded.keys().map(|g| g.name()).collect::<Vec<_>>().join(", "),
                        escape(&first)
                    );
                }
                _ => xml.push_str("/>\n"),
            }
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
    xml
}

/// Text for XML: the five entities; what `log_value` wrote holds no
/// control characters.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' | '\t' => out.push(ch),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}
