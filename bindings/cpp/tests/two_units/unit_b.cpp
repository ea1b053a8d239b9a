// The second translation unit (see unit_a.cpp); it also holds main.
#include "jsonrpc_envelope.hpp"

#include <cstdio>
#include <string>

std::string kind_in_unit_a(std::string_view line);
std::string action_in_unit_a(std::string_view line);
std::string relayed_in_unit_a(std::string_view line);

int main() {
  const char* line = R"({"jsonrpc":"2.0","id":null,"method":"ping"})";
  std::string a = kind_in_unit_a(line);
  jsonrpc::Classification b = jsonrpc::classify(line);
  std::string log = jsonrpc::log_value(line);
  // In the MCP profile an id is never null: the same line is an invalid
  // request, which a server answers.
  jsonrpc::Session session(jsonrpc::Role::server, jsonrpc::Profile::mcp);
  jsonrpc::Batch mcp = session.feed(std::string(line) + "\n");
  jsonrpc::Relay relay(jsonrpc::Profile::mcp);
  jsonrpc::Batch relayed = relay.feed(jsonrpc::read_by(jsonrpc::Role::server), std::string(line) + "\n");
  bool ok = a == "request" && to_string(b.kind()) == a && b.id() == "null" && !log.empty() &&
            jsonrpc::invalid_reply("[]", jsonrpc::Role::server).has_value() && action_in_unit_a(line) == "answered" &&
            mcp.size() == 1 && mcp[0].action() == jsonrpc::Action::answer && relayed_in_unit_a(line) == "answered" &&
            relayed.size() == 1 && relayed[0].action() == jsonrpc::Action::answer &&
            jsonrpc::classify(line, jsonrpc::Profile::mcp).kind() == jsonrpc::Kind::invalid_request;
  std::printf("two units: %s (unit a: %s, unit b: %s)\n", ok ? "ok" : "FAILED", a.c_str(),
              std::string(to_string(b.kind())).c_str());
  return ok ? 0 : 1;
}
