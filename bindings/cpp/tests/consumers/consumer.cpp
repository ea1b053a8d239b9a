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
  for (jsonrpc::Line line : lines) {
    std::printf("C++ consumer (jsonrpc-envelope %s): %s %s\n", std::string(jsonrpc::version()).c_str(),
                std::string(to_string(line.classification().kind())).c_str(),
                jsonrpc::log_value(line.text()).c_str());
  }
  return ok ? 0 : 1;
}
