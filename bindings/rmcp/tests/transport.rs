//! The transport in memory, with rmcp on one side and a host or a server
//! of the test's own on the other (tokio's duplex pipes in place of stdio):
//!
//! - rmcp's server on our transport, fed every one-line vector of
//!   tests/vectors/mcp.jsonl, each followed by a ping, read a few bytes at a
//!   time: every ping is answered and every reply owed is written, whole;
//! - SPEC 10.6 through it: a batch of two requests, a request after a byte
//!   order mark, a damaged request, a request cut short and a request
//!   longer than the line limit each get a response for every id they hold,
//!   and the session goes on;
//! - rmcp's client on our transport, whose server answers initialize with
//!   a too-long or a damaged response: initialize fails at once with the
//!   substitute's error.
//!
//! The line limit is read from the library (a reader of the MCP profile
//! made with 0), never restated here.

use std::time::{Duration, Instant};

use jsonrpc_envelope::{Profile, Reader};
use jsonrpc_envelope_rmcp::EnvelopeTransport;
use rmcp::{RoleClient, RoleServer, ServerHandler, ServiceExt};
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, duplex};

/// rmcp's server with nothing but what every server answers (ping,
/// initialize).
#[derive(Clone)]
struct Server;

impl ServerHandler for Server {}

/// The line limit of the transport made with the library's default.
fn mcp_max_line() -> usize {
    Reader::with_profile(0, Profile::Mcp).max_line()
}

const INIT: &str = r#"{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A host writing to rmcp's server on our transport and reading what it
/// writes back.
struct Host {
    to: DuplexStream,
    from: Lines<BufReader<DuplexStream>>,
    server: tokio::task::JoinHandle<()>,
}

impl Host {
    /// A server whose reads take at most `chunk` bytes at a time, past
    /// initialize.
    async fn start(chunk: usize) -> Host {
        let (to, server_in) = duplex(chunk);
        let (server_out, from) = duplex(1 << 20);
        let transport = EnvelopeTransport::<RoleServer, _, _>::new(server_in, server_out);
        let server = tokio::spawn(async move {
            let service = Server.serve(transport).await.expect("initialize");
            let _ = service.waiting().await;
        });
        let mut host = Host { to, from: BufReader::new(from).lines(), server };
        host.send(INIT.as_bytes()).await;
        let got = host.until(&["init"]).await;
        assert!(got.last().unwrap().contains("\"result\""), "{got:?}");
        host.send(INITIALIZED.as_bytes()).await;
        host
    }

    async fn send(&mut self, line: &[u8]) {
        self.to.write_all(line).await.expect("write");
        self.to.write_all(b"\n").await.expect("write");
        self.to.flush().await.expect("flush");
    }

    /// The lines written until there was a response with each of the
    /// string ids `ids` (rmcp answers the requests it is handed in tasks of
    /// their own, in any order); fails after 60 seconds.
    async fn until(&mut self, ids: &[&str]) -> Vec<String> {
        let mut got = Vec::new();
        let mut waiting: Vec<&str> = ids.to_vec();
        let deadline = Instant::now() + Duration::from_secs(60);
        while !waiting.is_empty() {
            let line = tokio::time::timeout_at(deadline.into(), self.from.next_line())
                .await
                .unwrap_or_else(|_| panic!("no response with id {waiting:?} in time; got {got:?}"))
                .expect("read")
                .unwrap_or_else(|| {
                    panic!("the server's output ended before a response with id {waiting:?}; got {got:?}")
                });
            // A reply may echo an id serde_json cannot hold (1e400): not
            // one waited for.
            if let Ok(v) = serde_json::from_str::<Value>(&line)
                && (v.get("result").is_some() || v.get("error").is_some())
            {
                waiting.retain(|id| v["id"] != *id);
            }
            got.push(line);
        }
        got
    }

    /// Sends a ping with the id `id` and waits for its answer and for a
    /// response to each of `also`: the lines written until then.
    async fn ping(&mut self, id: &str, also: &[&str]) -> Vec<String> {
        self.send(format!(r#"{{"jsonrpc":"2.0","id":"{id}","method":"ping"}}"#).as_bytes()).await;
        self.until(&[also, &[id]].concat()).await
    }

    /// Ends the host's input: the server's session ends.
    async fn finish(self) {
        drop(self.to);
        tokio::time::timeout(Duration::from_secs(20), self.server).await.expect("the server ends").expect("join");
    }
}

/// A vector's input bytes and the reply a server owes it.
struct Vector {
    name: String,
    input: Vec<u8>,
    reply_server: Option<String>,
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

/// The vectors of mcp.jsonl whose input is one line.
fn one_line_vectors() -> Vec<Vector> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors/mcp.jsonl");
    let text = std::fs::read_to_string(path).expect("tests/vectors/mcp.jsonl");
    let vectors: Vec<Vector> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("a vector");
            let input = match (v["line"].as_str(), v["line_hex"].as_str()) {
                (Some(line), _) => line.as_bytes().to_vec(),
                (None, Some(h)) => hex(h),
                _ => panic!("neither line nor line_hex: {l}"),
            };
            Vector {
                name: v["name"].as_str().unwrap().to_owned(),
                input,
                reply_server: v["reply_server"].as_str().map(str::to_owned),
            }
        })
        .filter(|v| !v.input.contains(&b'\n'))
        .collect();
    assert!(vectors.len() > 300, "one-line vectors: {}", vectors.len());
    vectors
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_vector_then_a_ping_a_few_bytes_at_a_time() {
    let vectors = one_line_vectors();
    for chunk in [1, 2, 3, 7, 13, 64, 1 << 16] {
        let mut host = Host::start(chunk).await;
        let mut owed = 0;
        for (i, v) in vectors.iter().enumerate() {
            host.send(&v.input).await;
            let got = host.ping(&format!("ping-{i}"), &[]).await;
            if let Some(reply) = &v.reply_server {
                owed += 1;
                // A batch's reply is one reply a line (SPEC 10.6 (b)):
                // every one written, whole, in order.
                let replies: Vec<&str> = reply.split('\n').collect();
                let at = got.iter().position(|l| l == replies[0]);
                let Some(at) = at else { panic!("{chunk} at a time: {}: owed {reply}, got {got:?}", v.name) };
                assert_eq!(&got[at..at + replies.len()], replies, "{chunk} at a time: {}", v.name);
            }
        }
        assert!(owed > 100, "owed replies: {owed}");
        host.finish().await;
    }
}

/// One line the host sends, the string ids it holds, and the error code
/// each is answered with (`None`: rmcp's result).
struct Owed {
    name: &'static str,
    line: Vec<u8>,
    ids: &'static [&'static str],
    code: Option<i64>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_whose_id_is_in_the_line_is_answered() {
    let max = mcp_max_line();
    let mut too_long =
        br#"{"jsonrpc":"2.0","id":"long","method":"tools/call","params":{"name":"echo","arguments":{"text":""#.to_vec();
    too_long.resize(max + 1 - 4, b'x');
    too_long.extend_from_slice(br#""}}}"#);
    assert_eq!(too_long.len(), max + 1);
    let cases = [
        Owed {
            name: "a batch of two requests",
            line: br#"[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"tools/list"}]"#.to_vec(),
            ids: &["b1", "b2"],
            code: Some(-32600),
        },
        Owed {
            name: "a request after a byte order mark",
            line: [&b"\xEF\xBB\xBF"[..], br#"{"jsonrpc":"2.0","id":"bom","method":"ping"}"#].concat(),
            ids: &["bom"],
            code: None,
        },
        Owed {
            name: "a damaged request (a byte FF inside params)",
            line: [
                &br#"{"jsonrpc":"2.0","id":"damaged","method":"tools/call","params":{"name":"echo","arguments":{"text":"a"#[..],
                b"\xFF",
                br#"b"}}}"#,
            ]
            .concat(),
            ids: &["damaged"],
            code: Some(-32700),
        },
        Owed {
            name: "a request cut short",
            line: br#"{"jsonrpc":"2.0","id":"cut","method":"tools/call","params":{"name":"ec"#.to_vec(),
            ids: &["cut"],
            code: Some(-32700),
        },
        Owed { name: "a request longer than the line limit", line: too_long, ids: &["long"], code: Some(-32600) },
    ];
    let mut host = Host::start(1 << 16).await;
    for (i, case) in cases.iter().enumerate() {
        host.send(&case.line).await;
        let got = host.ping(&format!("ping-{i}"), case.ids).await;
        for id in case.ids {
            let answers: Vec<Value> =
                got.iter().filter_map(|l| serde_json::from_str::<Value>(l).ok()).filter(|v| v["id"] == *id).collect();
            assert_eq!(answers.len(), 1, "{}: responses with id {id} in {got:?}", case.name);
            let answer = &answers[0];
            match case.code {
                None => {
                    assert!(answer.get("result").is_some() && answer.get("error").is_none(), "{}: {answer}", case.name)
                }
                Some(code) => assert_eq!(answer["error"]["code"], code, "{}: {answer}", case.name),
            }
        }
    }
    // The session did not end.
    host.ping("still-here", &[]).await;
    assert!(!host.server.is_finished());
    host.finish().await;
}

/// rmcp's client on our transport, its server the test's own: it reads
/// initialize and answers it with `answer(id)`, `id` the request's id as
/// it stood. Initialize fails at once with the substitute's error.
async fn initialize_fails_at_once(answer: impl FnOnce(&str) -> Vec<u8> + Send + 'static) {
    let (client_out, server_in) = duplex(1 << 16);
    let (mut server_out, client_in) = duplex(1 << 16);
    let server = tokio::spawn(async move {
        let mut lines = BufReader::new(server_in).lines();
        let init: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
        assert_eq!(init["method"], "initialize");
        let mut line = answer(&init["id"].to_string());
        line.push(b'\n');
        server_out.write_all(&line).await.unwrap();
        server_out.flush().await.unwrap();
        // Open until the client is gone.
        while let Ok(Some(_)) = lines.next_line().await {}
    });
    let transport = EnvelopeTransport::<RoleClient, _, _>::new(client_in, client_out);
    let started = Instant::now();
    let outcome = tokio::time::timeout(Duration::from_secs(30), ().serve(transport)).await.expect("no timeout");
    let Err(error) = outcome else { panic!("initialize succeeded") };
    let error = format!("{error:?}");
    assert!(error.contains("not valid MCP") && error.contains("-32603"), "{error}");
    assert!(started.elapsed() < Duration::from_secs(20));
    server.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_too_long_response_to_initialize_fails_it_at_once() {
    let max = mcp_max_line();
    initialize_fails_at_once(move |id| {
        let mut line = format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"text":""#).into_bytes();
        line.resize(max + 1 - 3, b'y');
        line.extend_from_slice(br#""}}"#);
        assert_eq!(line.len(), max + 1);
        line
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_response_to_initialize_fails_it_at_once() {
    initialize_fails_at_once(|id| {
        [format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"text":"a"#).as_bytes(), b"\xFF", br#"b"}}"#].concat()
    })
    .await;
}
