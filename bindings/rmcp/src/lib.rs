//! Stdio transports for [rmcp], the official Rust MCP SDK, that apply the
//! rules of `jsonrpc-envelope` to every line read (SPEC §9, §10, §10.5):
//! [`stdio`] in place of `rmcp::transport::stdio()` for a server, and
//! [`TokioChildProcess`] in place of `rmcp::transport::TokioChildProcess`
//! for a client. Switching is one line:
//!
//! ```no_run
//! # use rmcp::{ServerHandler, ServiceExt};
//! # #[derive(Clone)] struct MyServer;
//! # impl ServerHandler for MyServer {}
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! // let service = MyServer.serve(rmcp::transport::stdio()).await?;
//! let service = MyServer.serve(jsonrpc_envelope_rmcp::stdio()).await?;
//! service.waiting().await?;
//! # Ok(()) }
//! ```
//!
//! Lines are read with the library's [`Reader`] by the MCP profile, and each
//! one is decided by its [`Relay`] (the direction a server reads on the
//! server side, the one a client reads on the client side); the transport
//! only does what the decision says. A message is decoded with rmcp's own types and handed to rmcp; a
//! line owed a reply is answered at once and never reaches rmcp; a
//! substitute or an attributed error is decoded and handed on in the line's
//! place; every other line is logged (with [`tracing`], as rmcp logs) and
//! dropped. Every message rmcp writes to the peer is told to the relay,
//! which keeps the ids of requests outstanding. Should rmcp's decoder refuse
//! a line the relay handed on, the relay says what to do instead
//! ([`Relay::refused`], settled by the second refusal), and the complaint is
//! logged at error level.
//!
//! Log records name the action with the library's word for it
//! ([`Action::name`]), the relay's note, and the line rendered by
//! [`log_value`].

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::sync::{Arc, Mutex, PoisonError};

use jsonrpc_envelope::{Action, Decision, Direction, Line, Profile, Reader, Relay, Role, log_value};
use process_wrap::tokio::{ChildWrapper, CommandWrap};
use rmcp::service::{RoleClient, RoleServer, RxJsonRpcMessage, ServiceRole, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::process::{ChildStderr, ChildStdin, ChildStdout};

/// How many bytes one read asks for.
const CHUNK: usize = 64 << 10;

/// The side of an MCP session an rmcp role reads as: a server reads in role
/// `server`, a client in role `client`. Implemented for rmcp's two roles.
pub trait EnvelopeRole: ServiceRole + sealed::Sealed {
    /// The session role of an endpoint with this rmcp role.
    const ROLE: Role;
}

impl EnvelopeRole for RoleServer {
    const ROLE: Role = Role::Server;
}

impl EnvelopeRole for RoleClient {
    const ROLE: Role = Role::Client;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for rmcp::service::RoleServer {}
    impl Sealed for rmcp::service::RoleClient {}
}

/// The write half: whole lines go into `pending` at once and leave it as the
/// writer takes them, so that a write cancelled part way (rmcp polls
/// `receive` in a `select!`) never leaves half a line behind, and lines are
/// never interleaved.
struct Writer<W> {
    write: Option<W>,
    pending: Vec<u8>,
}

impl<W: AsyncWrite + Unpin> Writer<W> {
    /// Adds one line (without its LF).
    fn push(&mut self, line: &[u8]) {
        self.pending.extend_from_slice(line);
        self.pending.push(b'\n');
    }

    /// Writes out every line pushed so far, then flushes.
    async fn drain(&mut self) -> std::io::Result<()> {
        let Some(write) = self.write.as_mut() else {
            return Err(std::io::Error::new(std::io::ErrorKind::NotConnected, "Transport is closed"));
        };
        while !self.pending.is_empty() {
            let n = write.write(&self.pending).await?;
            if n == 0 {
                return Err(std::io::ErrorKind::WriteZero.into());
            }
            self.pending.drain(..n);
        }
        write.flush().await
    }
}

/// An rmcp transport over a byte stream read and a byte stream written,
/// applying the library's MCP profile and relay to every line read.
/// [`stdio`] and [`TokioChildProcess`] are the usual ways to make one.
pub struct EnvelopeTransport<R: EnvelopeRole, Rd, W> {
    read: Rd,
    reader: Reader,
    chunk: Box<[u8]>,
    eof: bool,
    relay: Arc<Mutex<Relay>>,
    writer: Arc<tokio::sync::Mutex<Writer<W>>>,
    /// Messages decoded and not yet returned by `receive`.
    ready: VecDeque<RxJsonRpcMessage<R>>,
    /// Replies owed to the peer and not yet written.
    answers: VecDeque<String>,
    _role: PhantomData<fn() -> R>,
}

impl<R, Rd, W> EnvelopeTransport<R, Rd, W>
where
    R: EnvelopeRole,
    Rd: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    /// A transport that reads `read` and writes `write`, in the session role
    /// of `R`, with the library's default line limit.
    pub fn new(read: Rd, write: W) -> Self {
        let relay = Relay::reading(reads::<R>(), Profile::Mcp, 0);
        EnvelopeTransport {
            read,
            reader: relay.reader(),
            chunk: vec![0; CHUNK].into_boxed_slice(),
            eof: false,
            relay: Arc::new(Mutex::new(relay)),
            writer: Arc::new(tokio::sync::Mutex::new(Writer { write: Some(write), pending: Vec::new() })),
            ready: VecDeque::new(),
            answers: VecDeque::new(),
            _role: PhantomData,
        }
    }

    /// The same transport with another line limit in bytes (0: the
    /// library's default for the MCP profile). A longer line is
    /// never held whole: where its first bytes hold a request's id it is
    /// answered, a response's id outstanding, substituted (SPEC §10.6 (d));
    /// otherwise it is skipped and logged.
    pub fn with_max_line(mut self, max_line: usize) -> Self {
        let relay = Relay::reading(reads::<R>(), Profile::Mcp, max_line);
        self.reader = relay.reader();
        self.relay = Arc::new(Mutex::new(relay));
        self
    }

    /// How many requests written to the peer still wait for its response.
    pub fn outstanding(&self) -> usize {
        lock(&self.relay).outstanding(reads::<R>())
    }

    /// Feeds `n` bytes of the chunk to the reader (`None`: ends the stream)
    /// and acts on every line that completes.
    fn consume(&mut self, n: Option<usize>) {
        let EnvelopeTransport { reader, chunk, relay, ready, answers, .. } = self;
        let batch = match n {
            Some(n) => reader.feed(&chunk[..n]),
            None => reader.end(),
        };
        let batch = match batch {
            Ok(batch) => batch,
            Err(e) => {
                tracing::error!("jsonrpc-envelope reader: {e}");
                return;
            }
        };
        let mut relay = lock(relay);
        for line in batch {
            let decision = relay.decide(reads::<R>(), &line);
            act::<R>(&mut relay, &line, decision, ready, answers);
        }
    }
}

/// The direction an endpoint of role `R` reads: the peer's lines.
const fn reads<R: EnvelopeRole>() -> Direction {
    Direction::read_by(R::ROLE)
}

fn lock(relay: &Mutex<Relay>) -> std::sync::MutexGuard<'_, Relay> {
    relay.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Does what the relay decided for one line, a too-long line included:
/// its bytes were never held, but its first bytes may hold a request's id
/// (answered) or a response's (substituted), SPEC §10.6 (d). The line is
/// only handed on as it stands when the relay forwards it, which it never
/// does for a too-long line.
fn act<R: EnvelopeRole>(
    relay: &mut Relay,
    line: &Line<'_>,
    decision: Decision,
    ready: &mut VecDeque<RxJsonRpcMessage<R>>,
    answers: &mut VecDeque<String>,
) {
    let action = decision.action;
    let note = decision.note.unwrap_or_default();
    match (action, decision.text, line) {
        (Action::Forward, text, Line::Complete { bytes, .. }) => {
            let handed = text.as_deref().map_or(*bytes, str::as_bytes);
            hand_on::<R>(relay, handed, ready, answers);
        }
        (Action::Substitute | Action::Attribute, Some(text), _) => {
            record(action, note, line, "jsonrpc-envelope");
            hand_on::<R>(relay, text.as_bytes(), ready, answers);
        }
        (Action::Answer, Some(text), _) => {
            record(action, note, line, "jsonrpc-envelope");
            answers.push_back(text);
        }
        (Action::Drop | Action::Divert, _, _) => record(action, note, line, "jsonrpc-envelope"),
        // An action without its text, or a too-long line forwarded: never
        // decided by the library; logged as its fault.
        (action, _, Line::Complete { bytes, number, .. }) => {
            tracing::error!(action = action.name(), note, number, line = log_value(bytes), "jsonrpc-envelope: no text");
        }
        (action, _, Line::TooLong { len, number, .. }) => {
            tracing::error!(action = action.name(), note, number, len, "jsonrpc-envelope: no text");
        }
    }
}

/// The log record of a line that does not reach rmcp as it was read: the
/// line as [`log_value`] renders it, or a too-long line's length.
fn record(action: Action, note: &str, line: &Line<'_>, message: &str) {
    match line {
        Line::Complete { bytes, number, .. } => {
            tracing::warn!(action = action.name(), note, number, line = log_value(bytes), "{message}");
        }
        Line::TooLong { len, number, .. } => {
            tracing::warn!(action = action.name(), note, number, len, "{message}");
        }
    }
}

/// Decodes a line with rmcp's own types and queues it for rmcp; if rmcp's
/// decoder refuses it, does what the relay says instead (SPEC §10.4): an
/// answer, or a substitute handed on in its turn, which the relay settles
/// should rmcp refuse that too.
fn hand_on<R: EnvelopeRole>(
    relay: &mut Relay,
    line: &[u8],
    ready: &mut VecDeque<RxJsonRpcMessage<R>>,
    answers: &mut VecDeque<String>,
) {
    let mut substitute;
    let mut line = line;
    loop {
        let error = match serde_json::from_slice::<RxJsonRpcMessage<R>>(line) {
            Ok(message) => return ready.push_back(message),
            Err(error) => error,
        };
        let decision = relay.refused(reads::<R>(), line);
        let action = decision.action;
        let note = decision.note.unwrap_or_default();
        tracing::error!(action = action.name(), note, error = %error, line = log_value(line), "jsonrpc-envelope");
        match (action, decision.text) {
            (Action::Answer, Some(text)) => return answers.push_back(text),
            (Action::Substitute, Some(text)) => {
                substitute = text;
                line = substitute.as_bytes();
            }
            _ => return,
        }
    }
}

impl<R, Rd, W> Transport<R> for EnvelopeTransport<R, Rd, W>
where
    R: EnvelopeRole,
    Rd: AsyncRead + Send + Unpin,
    W: AsyncWrite + Send + Unpin + 'static,
{
    type Error = std::io::Error;

    fn send(&mut self, item: TxJsonRpcMessage<R>) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let line = serde_json::to_vec(&item).map_err(std::io::Error::from);
        if let Ok(line) = &line {
            // Before the write: the peer may answer at once.
            lock(&self.relay).wrote(reads::<R>().other(), line);
        }
        let writer = self.writer.clone();
        async move {
            let line = line?;
            let mut writer = writer.lock().await;
            writer.push(&line);
            writer.drain().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<R>> {
        loop {
            // Replies first, so that the peer sees them in the order of the
            // lines they answer, before any response rmcp writes later.
            if !self.answers.is_empty() {
                let mut writer = self.writer.lock().await;
                while let Some(answer) = self.answers.pop_front() {
                    // A batch's answer is one reply a line, joined by LF
                    // (SPEC §10.6 (b)), pushed whole; the relay noted it
                    // when it decided.
                    writer.push(answer.as_bytes());
                }
                if let Err(e) = writer.drain().await {
                    tracing::error!("Error writing to stream: {e}");
                    return None;
                }
            }
            if let Some(message) = self.ready.pop_front() {
                return Some(message);
            }
            if self.eof {
                return None;
            }
            match self.read.read(&mut self.chunk).await {
                Ok(0) => {
                    self.eof = true;
                    self.consume(None);
                }
                Ok(n) => self.consume(Some(n)),
                Err(e) => {
                    tracing::error!("Error reading from stream: {e}");
                    self.eof = true;
                    self.consume(None);
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        let mut writer = self.writer.lock().await;
        drop(writer.write.take());
        Ok(())
    }
}

/// A server transport on this process's stdin and stdout: the drop-in for
/// `rmcp::transport::stdio()`.
pub fn stdio() -> EnvelopeTransport<RoleServer, tokio::io::Stdin, tokio::io::Stdout> {
    EnvelopeTransport::new(tokio::io::stdin(), tokio::io::stdout())
}

/// How long [`TokioChildProcess::graceful_shutdown`] waits for the child at
/// each step, as rmcp's own does.
const WAIT_ON_CLOSE: std::time::Duration = std::time::Duration::from_secs(3);

/// A client transport to an MCP server it starts as a child process, on
/// the child's stdin and stdout: the drop-in for
/// `rmcp::transport::TokioChildProcess`, with the same constructors. The
/// child is killed when the transport is dropped.
pub struct TokioChildProcess {
    child: ChildGuard,
    transport: EnvelopeTransport<RoleClient, ChildStdout, ChildStdin>,
}

struct ChildGuard(Option<Box<dyn ChildWrapper>>);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            // Killed and reaped where a runtime runs; else killed at once.
            match tokio::runtime::Handle::try_current() {
                Ok(handle) => {
                    handle.spawn(async move {
                        if let Err(e) = Box::into_pin(child.kill()).await {
                            tracing::warn!("Error killing child process: {e}");
                        }
                    });
                }
                Err(_) => {
                    let _ = child.start_kill();
                }
            }
        }
    }
}

impl TokioChildProcess {
    /// Starts `command` with piped stdin and stdout (stderr inherited).
    pub fn new(command: impl Into<CommandWrap>) -> std::io::Result<Self> {
        Ok(TokioChildProcessBuilder::new(command).spawn()?.0)
    }

    /// A builder, to choose the child's stderr (and stdin, stdout).
    pub fn builder(command: impl Into<CommandWrap>) -> TokioChildProcessBuilder {
        TokioChildProcessBuilder::new(command)
    }

    /// The child's process id, while it runs.
    pub fn id(&self) -> Option<u32> {
        self.child.0.as_ref()?.id()
    }

    /// How many requests written to the server still wait for its response.
    pub fn outstanding(&self) -> usize {
        self.transport.outstanding()
    }

    /// Closes the child's stdin and waits for it to exit; then, as rmcp's
    /// own transport does, sends SIGTERM and waits again, and then kills it.
    pub async fn graceful_shutdown(&mut self) -> std::io::Result<()> {
        let Some(child) = self.child.0.as_mut() else { return Ok(()) };
        self.transport.close().await?;
        if tokio::time::timeout(WAIT_ON_CLOSE, child.wait()).await.is_ok() {
            self.child.0 = None;
            return Ok(());
        }
        #[cfg(unix)]
        if child.signal(libc::SIGTERM).is_ok() && tokio::time::timeout(WAIT_ON_CLOSE, child.wait()).await.is_ok() {
            self.child.0 = None;
            return Ok(());
        }
        Box::into_pin(child.kill()).await?;
        self.child.0 = None;
        Ok(())
    }

    /// Takes the child process out of the transport.
    pub fn into_inner(mut self) -> Option<Box<dyn ChildWrapper>> {
        self.child.0.take()
    }
}

/// Builds a [`TokioChildProcess`] with a choice of the child's stdio.
pub struct TokioChildProcessBuilder {
    command: CommandWrap,
    stdin: std::process::Stdio,
    stdout: std::process::Stdio,
    stderr: std::process::Stdio,
}

impl TokioChildProcessBuilder {
    fn new(command: impl Into<CommandWrap>) -> Self {
        TokioChildProcessBuilder {
            command: command.into(),
            stdin: std::process::Stdio::piped(),
            stdout: std::process::Stdio::piped(),
            stderr: std::process::Stdio::inherit(),
        }
    }

    /// The child's stdin (piped unless chosen).
    pub fn stdin(mut self, io: impl Into<std::process::Stdio>) -> Self {
        self.stdin = io.into();
        self
    }

    /// The child's stdout (piped unless chosen).
    pub fn stdout(mut self, io: impl Into<std::process::Stdio>) -> Self {
        self.stdout = io.into();
        self
    }

    /// The child's stderr (inherited unless chosen).
    pub fn stderr(mut self, io: impl Into<std::process::Stdio>) -> Self {
        self.stderr = io.into();
        self
    }

    /// Starts the child: the transport, and its stderr when piped.
    pub fn spawn(mut self) -> std::io::Result<(TokioChildProcess, Option<ChildStderr>)> {
        self.command.command_mut().stdin(self.stdin).stdout(self.stdout).stderr(self.stderr);
        let mut child = self.command.spawn()?;
        let stdin = child.inner_mut().stdin().take().ok_or_else(|| std::io::Error::other("stdin was already taken"))?;
        let stdout =
            child.inner_mut().stdout().take().ok_or_else(|| std::io::Error::other("stdout was already taken"))?;
        let stderr = child.inner_mut().stderr().take();
        let transport = EnvelopeTransport::new(stdout, stdin);
        Ok((TokioChildProcess { child: ChildGuard(Some(child)), transport }, stderr))
    }
}

impl Transport<RoleClient> for TokioChildProcess {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        self.transport.send(item)
    }

    fn receive(&mut self) -> impl Future<Output = Option<RxJsonRpcMessage<RoleClient>>> + Send {
        self.transport.receive()
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.graceful_shutdown()
    }
}
