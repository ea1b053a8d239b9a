// host.cpp: a small MCP host in C++ over jsonrpc_envelope.hpp.
//
//   host [--timeout SECONDS] [--] [COMMAND [ARG...]]
//
// It starts the server COMMAND (by default `python3 examples/python/echo_server.py`,
// when that file exists) with pipes on its stdin and stdout, and sends it
// `initialize`, `notifications/initialized`, `tools/list` and a `tools/call`
// of `echo`, one request at a time. Everything the server writes goes
// through a jsonrpc::Session (role client, MCP profile), which is told of
// every line the host writes, and the host does what the library decides
// for each line: a message is handled; a server's banner or log line on
// stdout is reported, not choked on; a broken request from the server gets
// the reply the library writes; a response no MCP SDK could read, or an
// error that names no request while a request of ours is waiting, comes in
// as that request's error (its substitute, or the error with our id put
// in), so the call fails at once with the server's message instead of a
// timeout.
//
// Exit status: 0 when every request was answered with a result, 1 when the
// server failed (an error, a timeout, an early exit), 2 on usage errors or
// when the server cannot be started.

#include <jsonrpc_envelope.hpp>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr const char* kDefaultServer = "examples/python/echo_server.py";
constexpr std::string_view kProtocolVersion = "2025-11-25";
constexpr std::size_t kMaxLine = std::size_t{4} << 20;  // a server's line over 4 MiB is skipped

std::string str(std::string_view view) { return std::string(view); }

// Peer text made safe for one line of our output.
std::string shown(std::string_view peer_text) { return jsonrpc::log_value(peer_text); }

// ---- the server process ----------------------------------------------------------

class Server {
 public:
  Server() = default;
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;
  ~Server() { stop(milliseconds(0)); }

  // Starts argv[0] (searched on PATH) with pipes on its stdin and stdout;
  // its stderr stays ours.
  bool start(const std::vector<std::string>& argv, std::string& error) {
    int to_child[2];
    int from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0) {
      error = std::strerror(errno);
      return false;
    }
    if (pipe2(from_child, O_CLOEXEC) != 0) {
      error = std::strerror(errno);
      close(to_child[0]);
      close(to_child[1]);
      return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    int status = posix_spawnp(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(to_child[0]);
    close(from_child[1]);
    if (status != 0) {
      error = std::strerror(status);
      close(to_child[1]);
      close(from_child[0]);
      pid_ = -1;
      return false;
    }
    in_ = to_child[1];
    out_ = from_child[0];
    return true;
  }

  // Writes one line and its LF; false if the server is gone.
  bool send(std::string_view line) {
    std::string bytes = str(line) + "\n";
    std::size_t done = 0;
    while (done < bytes.size()) {
      ssize_t wrote = write(in_, bytes.data() + done, bytes.size() - done);
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) return false;
      done += static_cast<std::size_t>(wrote);
    }
    return true;
  }

  enum class Read { data, end, timeout, error };

  // Waits until the deadline for the server's output; on `Read::data`,
  // `got` is what it wrote, valid until the next read.
  Read read_some(Clock::time_point deadline, std::string_view& got) {
    for (;;) {
      auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return Read::timeout;
      pollfd fd{out_, POLLIN, 0};
      int ready = poll(&fd, 1, static_cast<int>(left));
      if (ready < 0 && errno == EINTR) continue;
      if (ready < 0) return Read::error;
      if (ready == 0) return Read::timeout;
      ssize_t n = read(out_, chunk_, sizeof chunk_);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Read::error;
      if (n == 0) return Read::end;
      got = std::string_view(chunk_, static_cast<std::size_t>(n));
      return Read::data;
    }
  }

  // Closes the server's stdin, gives it `grace` to exit, then SIGTERM and,
  // a second later, SIGKILL. Returns how it ended, for the log.
  std::string stop(milliseconds grace) {
    if (in_ >= 0) close(in_);
    in_ = -1;
    std::string how;
    if (pid_ > 0) {
      int status = 0;
      bool done = wait_until(Clock::now() + grace, status);
      if (!done) {
        kill(pid_, SIGTERM);
        done = wait_until(Clock::now() + milliseconds(1000), status);
      }
      if (!done) {
        kill(pid_, SIGKILL);
        while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
        }
      }
      if (WIFEXITED(status)) {
        how = "exited with status " + std::to_string(WEXITSTATUS(status));
      } else if (WIFSIGNALED(status)) {
        how = std::string("ended by signal ") + std::to_string(WTERMSIG(status)) + (done ? "" : " (killed)");
      }
      pid_ = -1;
    }
    if (out_ >= 0) close(out_);
    out_ = -1;
    return how;
  }

 private:
  bool wait_until(Clock::time_point deadline, int& status) {
    for (;;) {
      pid_t ended = waitpid(pid_, &status, WNOHANG);
      if (ended == pid_) return true;
      if (ended < 0 && errno != EINTR) return true;  // not our child any more
      if (Clock::now() >= deadline) return false;
      std::this_thread::sleep_for(milliseconds(10));
    }
  }

  pid_t pid_ = -1;
  int in_ = -1;
  int out_ = -1;
  char chunk_[65536];
};

// ---- the session -------------------------------------------------------------------

// How one request of ours ended.
struct Answer {
  enum class Kind { result, error, failed } kind = Kind::failed;
  std::string text;  // the result, the error object, or why it failed (log-safe)
};

class Client {
 public:
  Client(Server& server, milliseconds timeout) : server_(server), timeout_(timeout) {}

  [[nodiscard]] bool valid() const { return session_.valid(); }

  bool notify(std::string_view method, std::string_view params) {
    std::string line = R"({"jsonrpc":"2.0","method":")" + str(method) + "\"";
    if (!params.empty()) line += R"(,"params":)" + str(params);
    line += "}";
    std::printf("-> notification %s\n", str(method).c_str());
    return send(line);
  }

  // Sends one request and reads the server's output until its answer.
  Answer call(std::string_view method, std::string_view params) {
    std::string id = std::to_string(++last_id_);
    std::string line = R"({"jsonrpc":"2.0","id":)" + id + R"(,"method":")" + str(method) + R"(","params":)" +
                       str(params) + "}";
    std::printf("-> request %s (id %s)\n", str(method).c_str(), id.c_str());
    if (!send(line)) {
      return {Answer::Kind::failed, "the server's stdin is closed: it has exited"};
    }
    return await(id, method);
  }

 private:
  // Writes one line to the server, and tells the session of it (the ids of
  // our requests are the session's to keep).
  bool send(std::string_view line) {
    if (session_.sent(line) != jsonrpc::Status::ok) {
      std::printf("host: the library could not note a line it was sent\n");
    }
    return server_.send(line);
  }

  Answer await(const std::string& id, std::string_view method) {
    const Clock::time_point deadline = Clock::now() + timeout_;
    std::optional<Answer> answer;
    while (!answer) {
      std::string_view got;
      Server::Read read = server_.read_some(deadline, got);
      if (read == Server::Read::timeout) {
        return {Answer::Kind::failed, "no answer to " + str(method) + " within " +
                                          std::to_string(timeout_.count() / 1000) + " s"};
      }
      if (read == Server::Read::error) {
        return {Answer::Kind::failed, "reading the server's stdout failed: " + str(std::strerror(errno))};
      }
      bool end = read == Server::Read::end;
      // The lines are the session's until its next call, which comes after them.
      jsonrpc::Batch lines = end ? session_.end() : session_.feed(got);
      if (!lines.ok()) {
        return {Answer::Kind::failed, "the library failed: " + str(to_string(lines.status()))};
      }
      for (jsonrpc::Line line : lines) {
        if (std::optional<Answer> found = handle(line, id, method)) {
          answer = std::move(found);
          if (answer->kind == Answer::Kind::failed) return *answer;  // fail at once
        }
      }
      if (end && !answer) {
        return {Answer::Kind::failed, "the server closed its stdout before answering " + str(method)};
      }
    }
    return *answer;
  }

  // Does what the session decided for one line of the server's output, and
  // returns the answer to our request `id` if the line (or the text handed
  // on in its place) is one.
  std::optional<Answer> handle(const jsonrpc::Line& line, const std::string& id, std::string_view method) {
    jsonrpc::ClassificationView c = line.classification();
    std::string kind = str(to_string(c.kind()));
    std::string action = str(to_string(line.action()));
    switch (line.action()) {
      case jsonrpc::Action::forward:
        return handle_message(c, line.text(), id, method);
      case jsonrpc::Action::answer:
        // The reply the library wrote for the line goes back to the server.
        std::printf("<- %s %s (%s): %s\n", action.c_str(), kind.c_str(), shown(c.reason().value_or("")).c_str(),
                    shown(line.text()).c_str());
        std::printf("-> %s\n", shown(line.action_text().value_or("")).c_str());
        send(line.action_text().value_or(""));
        return std::nullopt;
      case jsonrpc::Action::substitute:
      case jsonrpc::Action::attribute: {
        // A text goes on in the line's place: the error response of the
        // request it belongs to.
        std::string_view text = line.action_text().value_or("");
        std::printf("<- %s %s (%s): %s\n", action.c_str(), kind.c_str(), str(line.note()).c_str(),
                    shown(line.text()).c_str());
        jsonrpc::Classification replaced = jsonrpc::classify(text, jsonrpc::Profile::mcp);
        return handle_message(replaced.view(), text, id, method);
      }
      default:  // drop, divert: a banner, a log line, what nobody waits for
        if (line.too_long()) {
          std::printf("<- %s a line of %zu bytes (%s)\n", action.c_str(), line.length(), str(line.note()).c_str());
        } else {
          std::printf("<- %s %s (%s): %s\n", action.c_str(), kind.c_str(), str(line.note()).c_str(),
                      shown(line.text()).c_str());
        }
        return std::nullopt;
    }
  }

  // A message handed on to the host: a response (to our request `id`, or to
  // nothing of ours), a request of the server's, a notification.
  std::optional<Answer> handle_message(const jsonrpc::ClassificationView& c, std::string_view text,
                                       const std::string& id, std::string_view method) {
    switch (c.kind()) {
      case jsonrpc::Kind::response: {
        std::string error = c.error_span() ? shown(c.error_span()->in(text)) : std::string();
        if (c.id() != std::string_view(id)) {
          std::printf("<- response with id %s, which answers none of our requests\n",
                      shown(c.id().value_or("(absent)")).c_str());
          return std::nullopt;
        }
        if (c.has_error()) {
          std::printf("<- error response to %s (id %s): %s\n", str(method).c_str(), id.c_str(), error.c_str());
          return Answer{Answer::Kind::error, error};
        }
        std::string result = c.result_span() ? shown(c.result_span()->in(text)) : std::string("(no result)");
        std::printf("<- response to %s (id %s): %s\n", str(method).c_str(), id.c_str(), result.c_str());
        return Answer{Answer::Kind::result, result};
      }
      case jsonrpc::Kind::request:
        std::printf("<- request %s (id %s)\n", shown(c.method().value_or("")).c_str(),
                    shown(c.id().value_or("")).c_str());
        answer_request(c);
        return std::nullopt;
      case jsonrpc::Kind::notification:
        std::printf("<- notification %s%s%s\n", shown(c.method().value_or("")).c_str(), c.params_span() ? " " : "",
                    c.params_span() ? shown(c.params_span()->in(text)).c_str() : "");
        return std::nullopt;
      default:  // the session hands on messages only
        std::printf("<- %s: %s\n", str(to_string(c.kind())).c_str(), shown(text).c_str());
        return std::nullopt;
    }
  }

  // A host's own answers to a server's requests: `ping` gets an empty
  // result, anything else "method not found". The id is echoed exactly.
  void answer_request(const jsonrpc::ClassificationView& c) {
    std::string id = str(c.id().value_or("null"));
    std::string reply;
    if (c.method() == std::string_view("ping")) {
      reply = R"({"jsonrpc":"2.0","id":)" + id + R"(,"result":{}})";
    } else {
      reply = R"({"jsonrpc":"2.0","id":)" + id + R"(,"error":{"code":-32601,"message":"Method not found"}})";
    }
    std::printf("-> %s\n", shown(reply).c_str());
    send(reply);
  }

  Server& server_;
  milliseconds timeout_;
  jsonrpc::Session session_{jsonrpc::Role::client, jsonrpc::Profile::mcp, kMaxLine};
  long last_id_ = 0;
};

int usage(const char* program) {
  std::fprintf(stderr,
               "usage: %s [--timeout SECONDS] [--] [COMMAND [ARG...]]\n"
               "  starts the MCP server COMMAND (default: python3 %s) and talks to it\n",
               program, kDefaultServer);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  long timeout_s = 10;
  int arg = 1;
  for (; arg < argc && argv[arg][0] == '-'; ++arg) {
    std::string_view option = argv[arg];
    if (option == "--") {
      ++arg;
      break;
    }
    if (option == "--timeout" && arg + 1 < argc) {
      char* end = nullptr;
      timeout_s = std::strtol(argv[++arg], &end, 10);
      if (*end != '\0' || timeout_s <= 0) return usage(argv[0]);
    } else {
      return usage(argv[0]);
    }
  }
  std::vector<std::string> command(argv + arg, argv + argc);
  if (command.empty()) {
    if (access(kDefaultServer, R_OK) != 0) {
      std::fprintf(stderr,
                   "host: no server given, and the default server %s is not here (%s); "
                   "run from the repository's top directory, or name one: host COMMAND [ARG...]\n",
                   kDefaultServer, std::strerror(errno));
      return 2;
    }
    command = {"python3", kDefaultServer};
  }
  if (!jsonrpc::abi_compatible()) {
    std::fprintf(stderr, "host: libjsonrpc_envelope has ABI %u, this program was built for %u\n",
                 jsonrpc::abi_version(), static_cast<unsigned>(JSONRPC_ABI_VERSION));
    return 2;
  }
  std::signal(SIGPIPE, SIG_IGN);  // a server that exits is seen as EPIPE, not a signal

  std::string shown_command;
  for (const std::string& part : command) shown_command += (shown_command.empty() ? "" : " ") + part;
  std::printf("host: jsonrpc-envelope %s, starting: %s\n", str(jsonrpc::version()).c_str(),
              shown(shown_command).c_str());
  Server server;
  std::string error;
  if (!server.start(command, error)) {
    std::fprintf(stderr, "host: cannot start %s: %s\n", command[0].c_str(), error.c_str());
    return 2;
  }

  Client session(server, milliseconds(timeout_s * 1000));
  if (!session.valid()) {
    std::fprintf(stderr, "host: the library could not make a session: out of memory\n");
    return 2;
  }
  auto fail = [&](const std::string& why) {
    std::string how = server.stop(milliseconds(0));
    std::fprintf(stderr, "host: %s\n", why.c_str());
    if (!how.empty()) std::fprintf(stderr, "host: the server %s\n", how.c_str());
    return 1;
  };

  Answer init = session.call("initialize", R"({"protocolVersion":")" + str(kProtocolVersion) +
                                               R"(","capabilities":{},"clientInfo":{"name":"jsonrpc-envelope-cpp-host","version":")" +
                                               str(jsonrpc::version()) + R"("}})");
  if (init.kind != Answer::Kind::result) {
    return fail(init.kind == Answer::Kind::error ? "initialize failed: " + init.text : init.text);
  }
  if (!session.notify("notifications/initialized", "")) {
    return fail("the server's stdin is closed: it has exited");
  }
  bool all_ok = true;
  Answer tools = session.call("tools/list", "{}");
  if (tools.kind == Answer::Kind::failed) return fail(tools.text);
  all_ok = all_ok && tools.kind == Answer::Kind::result;
  Answer echo = session.call("tools/call", R"({"name":"echo","arguments":{"text":"hello from the C++ host"}})");
  if (echo.kind == Answer::Kind::failed) return fail(echo.text);
  all_ok = all_ok && echo.kind == Answer::Kind::result;

  std::string how = server.stop(milliseconds(2000));
  std::printf("host: %s; the server %s\n", all_ok ? "done, every request answered" : "done, with errors",
              how.c_str());
  return all_ok ? 0 : 1;
}
