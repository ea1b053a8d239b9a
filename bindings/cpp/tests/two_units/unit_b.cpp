// The second translation unit (see unit_a.cpp); it also holds main.
#include "jsonrpc_envelope.hpp"

#include <cstdio>
#include <string>

std::string kind_in_unit_a(std::string_view line);

int main() {
  const char* line = R"({"jsonrpc":"2.0","id":null,"method":"ping"})";
  std::string a = kind_in_unit_a(line);
  jsonrpc::Classification b = jsonrpc::classify(line);
  std::string log = jsonrpc::log_value(line);
  bool ok = a == "request" && to_string(b.kind()) == a && b.id() == "null" && !log.empty() &&
            jsonrpc::invalid_reply("[]", jsonrpc::Role::server).has_value();
  std::printf("two units: %s (unit a: %s, unit b: %s)\n", ok ? "ok" : "FAILED", a.c_str(),
              std::string(to_string(b.kind())).c_str());
  return ok ? 0 : 1;
}
