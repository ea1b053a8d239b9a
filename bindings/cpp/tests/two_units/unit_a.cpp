// One of two translation units that include the C++ header; linked into one
// program, its inline functions must not collide (ODR).
#include "jsonrpc_envelope.hpp"
#include "jsonrpc_envelope.hpp"

#include <string>

std::string kind_in_unit_a(std::string_view line);

std::string kind_in_unit_a(std::string_view line) {
  jsonrpc::LineReader reader;
  if (!reader.feed(line).empty()) return "?";
  jsonrpc::Batch last = reader.end();
  return last.size() == 1 ? std::string(to_string(last[0].kind())) : std::string("?");
}

std::string action_in_unit_a(std::string_view line);

std::string action_in_unit_a(std::string_view line) {
  jsonrpc::Session session(jsonrpc::Role::server, jsonrpc::Profile::mcp);
  jsonrpc::Batch lines = session.feed(std::string(line) + "\n");
  return lines.size() == 1 ? std::string(to_string(lines[0].action())) : std::string("?");
}

std::string relayed_in_unit_a(std::string_view line);

std::string relayed_in_unit_a(std::string_view line) {
  jsonrpc::Relay relay(jsonrpc::Profile::mcp);
  jsonrpc::Batch lines = relay.feed(jsonrpc::Direction::to_server, std::string(line) + "\n");
  return lines.size() == 1 ? std::string(to_string(lines[0].action())) : std::string("?");
}
