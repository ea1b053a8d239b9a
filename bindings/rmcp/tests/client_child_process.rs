//! The rmcp client on our child-process client transport: a whole session
//! (initialize, tools/list, tools/call echo) against the Python SDK's
//! example server, and the handshake rule against a server that answers
//! initialize with an error that names no request.

use std::time::{Duration, Instant};

use jsonrpc_envelope_rmcp::TokioChildProcess;
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use tokio::process::Command;

fn python_mcp() -> String {
    std::env::var("RMCP_PYTHON").expect("RMCP_PYTHON names a Python with the mcp SDK (make test-rmcp sets it)")
}

async fn echo_session(args: &[&str]) {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/python/sdk_server.py");
    let mut command = Command::new(python_mcp());
    command.arg(script).args(args);
    let transport = TokioChildProcess::builder(command).stderr(std::process::Stdio::null()).spawn().unwrap().0;
    let client = tokio::time::timeout(Duration::from_secs(30), ().serve(transport))
        .await
        .expect("initialize in time")
        .expect("initialize");
    let tools = client.list_tools(None).await.expect("tools/list");
    assert!(tools.tools.iter().any(|t| t.name == "echo"), "{tools:?}");
    let args = serde_json::json!({"text": "hello, rmcp"});
    let result = client
        .call_tool(CallToolRequestParams::new("echo").with_arguments(args.as_object().unwrap().clone()))
        .await
        .expect("tools/call");
    let text = serde_json::to_value(&result.content).unwrap();
    assert!(text.to_string().contains("hello, rmcp"), "{text}");
    assert_ne!(result.is_error, Some(true));
    client.cancel().await.unwrap();
}

#[tokio::test]
#[ignore = "needs the Python MCP SDK: make test-rmcp runs it"]
async fn session_with_the_python_sdk_server_on_its_own_transport() {
    echo_session(&["--sdk-transport"]).await;
}

#[tokio::test]
#[ignore = "needs the Python MCP SDK: make test-rmcp runs it"]
async fn session_with_the_python_sdk_server_on_our_python_transport() {
    echo_session(&[]).await;
}

/// A server that writes a banner, then answers initialize with an error
/// that names no request (id absent): the transport diverts the banner and
/// gives the error to the one request outstanding, so initialize fails at
/// once with the server's message instead of waiting.
#[tokio::test]
async fn an_error_that_names_no_request_fails_initialize_at_once() {
    let script = r#"
import sys
sys.stdin.readline()
sys.stdout.write('starting...\n{"jsonrpc":"2.0","error":{"code":-32001,"message":"go away"}}\n')
sys.stdout.flush()
sys.stdin.read()
"#;
    let mut command = Command::new(std::env::var("PYTHON").unwrap_or_else(|_| "python3".into()));
    command.arg("-c").arg(script);
    let transport = TokioChildProcess::new(command).unwrap();
    let started = Instant::now();
    let outcome = tokio::time::timeout(Duration::from_secs(20), ().serve(transport)).await.expect("no timeout");
    let Err(error) = outcome else { panic!("initialize succeeded") };
    assert!(format!("{error:?}").contains("go away"), "{error:?}");
    assert!(started.elapsed() < Duration::from_secs(10));
}
