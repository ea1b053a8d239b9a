//! The `--json` report (SPEC §11): every failure with the line's exact
//! bytes and what came back (base64), so that `--replay` can send them
//! again.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use jsonrpc_envelope::log_value;
use serde_json::{Map, Value, json};

use super::judge::{Grade, Verdict};
use super::report::Report;
use super::stdout::Fault;
use super::{Group, Outcome, known};

/// One report, or under `--era both` the reports of each era.
pub fn document(reports: &[Report]) -> Value {
    match reports {
        [one] => report(one),
        all => json!({
            "era": "both",
            "reports": all.iter().map(report).collect::<Vec<_>>(),
            "passed": all.iter().all(Report::passed),
        }),
    }
}

fn report(r: &Report) -> Value {
    let grades: Map<String, Value> = Grade::ALL.iter().map(|g| (g.name().to_owned(), r.count(*g).into())).collect();
    let groups: Map<String, Value> = Group::ALL
        .iter()
        .map(|&group| {
            let mut counts = Map::new();
            counts.insert("lines".into(), r.lines_in(group).into());
            counts.insert("passed".into(), r.lines_of(Some(group), None).into());
            for grade in Grade::ALL {
                counts.insert(grade.name().into(), r.lines_of(Some(group), Some(grade)).into());
            }
            let verdicts: Map<String, Value> = Verdict::NAMES
                .iter()
                .map(|&name| {
                    let n = r.outcomes.iter().filter(|o| o.group == group && o.verdict.name() == name).count();
                    (name.to_owned(), n.into())
                })
                .collect();
            counts.insert("verdicts".into(), Value::Object(verdicts));
            (group.key().to_owned(), Value::Object(counts))
        })
        .collect();
    let failures: Vec<Value> = r.outcomes.iter().filter(|o| o.grade.is_some()).map(failure).collect();
    let stdout: Map<String, Value> = Fault::ALL
        .iter()
        .map(|fault| {
            let faults = r.stdout.get(fault).cloned().unwrap_or_default();
            let mut record = Map::new();
            record.insert("count".into(), faults.count.into());
            for grade in Grade::ALL {
                record.insert(grade.name().into(), faults.graded.get(&grade).copied().unwrap_or(0).into());
            }
            record.insert("first".into(), faults.first.iter().map(|l| log_value(l)).collect());
            record.insert("first_base64".into(), faults.first.iter().map(|l| STANDARD.encode(l)).collect());
            (fault.key().to_owned(), Value::Object(record))
        })
        .collect();
    json!({
        "command": r.command,
        "command_line": r.command_line(),
        "profile": r.profile().name(),
        "era": r.era.name(),
        "seed": r.seed,
        "strict": r.strict,
        "fail_on": r.fail_on.name(),
        "keepalive": r.keepalive,
        "server_info": r.server_info.as_ref().map(|(name, version)| json!({"name": name, "version": version})),
        "known_transport": known::matching(&r.outcomes).map(|t| json!({"sdk": t.sdk, "measured": t.measured, "ours": t.ours})),
        "lines": r.outcomes.len(),
        "failed": r.failed(),
        "grades": grades,
        "groups": groups,
        "failures": failures,
        "stdout": stdout,
        "limit": r.limit.as_ref().map(|l| l.to_json()),
        "shutdown": r.shutdown,
        "server_starts": r.starts,
        "seconds": r.seconds,
        "replay_of": r.replay_of,
        "unsupported": r.unsupported,
        "passed": r.passed(),
    })
}

fn failure(o: &Outcome) -> Value {
    let mut record = json!({
        "number": o.number,
        "group": o.group.key(),
        "name": o.name,
        "line": o.bytes.as_deref().map(log_value),
        "line_base64": o.bytes.as_deref().map(|b| STANDARD.encode(b)),
        "length": o.length,
        "verdict": o.verdict.name(),
        "grade": o.grade.map(Grade::name),
        "owed": o.verdict.owed(),
        "got": o.got.iter().map(|g| log_value(g)).collect::<Vec<_>>(),
        "got_base64": o.got.iter().map(|g| STANDARD.encode(g)).collect::<Vec<_>>(),
    });
    if let Verdict::Died { how } = &o.verdict {
        record["how"] = how.as_str().into();
    }
    record
}
