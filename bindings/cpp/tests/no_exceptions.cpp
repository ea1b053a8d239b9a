// The C++ header built with -fno-exceptions -fno-rtti: every call, each
// result checked by its value, and 0 returned only if all were right.
#include "jsonrpc_envelope.hpp"

#include <cstdio>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}

}  // namespace

int main() {
  check(jsonrpc::abi_compatible(), "abi_compatible");
  jsonrpc::Classification c = jsonrpc::classify(R"({"jsonrpc":"2.0","id":3,"method":1})");
  check(c.kind() == jsonrpc::Kind::invalid_request, "kind");
  check(c.reply(jsonrpc::Role::client).has_value(), "a client answers a broken request");
  jsonrpc::Classification moved = std::move(c);
  check(!c.valid() && moved.valid(), "move");  // NOLINT(bugprone-use-after-move)

  jsonrpc::Reply reply = jsonrpc::try_invalid_reply("nonsense", jsonrpc::Role::server);
  check(reply.ok() && reply.text.has_value(), "try_invalid_reply");
  check(!jsonrpc::invalid_reply("nonsense", jsonrpc::Role::client).has_value(), "invalid_reply(client)");
  check(jsonrpc::log_value("a\nb") == "a\\u000ab", "log_value");

  jsonrpc::LineReader reader(16);
  jsonrpc::Batch lines = reader.feed("{}\n" "0123456789abcdefXYZ\n" "[]");
  check(lines.ok() && lines.size() == 2, "feed");
  check(lines[1].too_long() && lines[1].length() == 19 && lines[1].number() == 2, "too_long");
  jsonrpc::Batch last = reader.end();
  check(last.size() == 1 && last[0].classification().kind() == jsonrpc::Kind::batch, "end");
  check(to_string(last[0].kind()) == "batch", "the library's kind name");

  jsonrpc::Classification mcp = jsonrpc::classify(R"({"jsonrpc":"2.0","id":1,"result":[]})", jsonrpc::Profile::mcp);
  check(mcp.kind() == jsonrpc::Kind::invalid_response && mcp.substitute().has_value(), "the MCP profile");
  jsonrpc::Session session(jsonrpc::Role::client, jsonrpc::Profile::mcp);
  check(session.sent(R"({"jsonrpc":"2.0","id":1,"method":"m"})") == jsonrpc::Status::ok && session.outstanding() == 1,
        "sent");
  jsonrpc::Batch decided = session.feed("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}\n");
  check(decided.size() == 1 && decided[0].action() == jsonrpc::Action::substitute &&
            decided[0].action_text() == mcp.substitute(),
        "a substitute");
  jsonrpc::Decision refused = session.refused(R"({"jsonrpc":"2.0","id":2,"method":"m"})");
  check(refused.ok() && refused.action == jsonrpc::Action::answer && refused.text.has_value(), "refused");

  jsonrpc::Relay relay(jsonrpc::Profile::mcp);
  const jsonrpc::Direction in = jsonrpc::read_by(jsonrpc::Role::client);
  check(in == jsonrpc::Direction::to_host && to_string(in) == "to_host", "read_by");
  check(relay.wrote(jsonrpc::Direction::to_server, R"({"jsonrpc":"2.0","id":1,"method":"m"})") == jsonrpc::Status::ok &&
            relay.outstanding(in) == 1,
        "wrote");
  jsonrpc::Batch relayed = relay.feed(in, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":[]}\n");
  check(relayed.size() == 1 && relayed[0].action() == jsonrpc::Action::substitute &&
            jsonrpc::goes(relayed[0].action(), in) == in,
        "a relay's substitute");
  jsonrpc::Decision again = relay.refused(in, relayed[0].action_text().value_or(""));
  check(again.ok() && again.action == jsonrpc::Action::drop && !again.text.has_value(), "a substitute refused");
  check(relay.end(in).empty(), "end");
  check(relay.feed(static_cast<jsonrpc::Direction>(0), "{}\n").status() == jsonrpc::Status::unknown_direction,
        "a bad direction");

  std::printf("no exceptions: %s\n", failures == 0 ? "ok" : "FAILED");
  return failures == 0 ? 0 : 1;
}
