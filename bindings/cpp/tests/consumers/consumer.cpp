// consumer.cpp: a C++ program built against an installed jsonrpc-envelope
// only (CMake find_package). Exit 0 when the library answers.
#include <jsonrpc_envelope.hpp>

#include <cstdio>
#include <string>

int main() {
  if (!jsonrpc::abi_compatible()) {
    std::fprintf(stderr, "the library's ABI is not this header's\n");
    return 1;
  }
  jsonrpc::LineReader reader;
  jsonrpc::Batch lines =
      reader.feed("server banner\n{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"no\"}}\n");
  bool ok = lines.size() == 2 && lines[0].classification().kind() == jsonrpc::Kind::parse_error &&
            lines[1].classification().names_no_request();
  // The same output through a session in the MCP profile, with one request
  // of ours waiting: the banner diverted, the error given to the request.
  jsonrpc::Session session(jsonrpc::Role::client, jsonrpc::Profile::mcp);
  ok = ok && session.sent(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})") == jsonrpc::Status::ok;
  jsonrpc::Batch decided =
      session.feed("server banner\n{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"no\"}}\n");
  ok = ok && decided.size() == 2 && decided[0].action() == jsonrpc::Action::divert &&
       decided[1].action() == jsonrpc::Action::attribute;
  // And through a relay: the host's request handed on makes the server's
  // error its answer.
  jsonrpc::Relay relay(jsonrpc::Profile::mcp);
  jsonrpc::Batch to_server = relay.feed(jsonrpc::Direction::to_server,
                                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}\n");
  jsonrpc::Batch to_host = relay.feed(jsonrpc::read_by(jsonrpc::Role::client),
                                      "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"no\"}}\n");
  ok = ok && to_server.size() == 1 && to_server[0].action() == jsonrpc::Action::forward && to_host.size() == 1 &&
       to_host[0].action() == jsonrpc::Action::attribute &&
       jsonrpc::goes(to_host[0].action(), jsonrpc::Direction::to_host) == jsonrpc::Direction::to_host;
  for (jsonrpc::Line line : decided) {
    std::printf("C++ consumer: %s %s\n", std::string(to_string(line.action())).c_str(),
                jsonrpc::log_value(line.action_text().value_or(line.text())).c_str());
  }
  for (jsonrpc::Line line : lines) {
    std::printf("C++ consumer (jsonrpc-envelope %s): %s %s\n", std::string(jsonrpc::version()).c_str(),
                std::string(to_string(line.classification().kind())).c_str(),
                jsonrpc::log_value(line.text()).c_str());
  }
  return ok ? 0 : 1;
}
