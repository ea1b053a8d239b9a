// One of two translation units that include the C++ header; linked into one
// program, its inline functions must not collide (ODR).
#include "jsonrpc_envelope.hpp"
#include "jsonrpc_envelope.hpp"

#include <string>

std::string kind_in_unit_a(std::string_view line);

std::string kind_in_unit_a(std::string_view line) {
  jsonrpc::LineReader reader;
  reader.append(line);
  jsonrpc::Lines lines = reader.finish();
  return lines.size() == 1 ? std::string(to_string(lines[0].classification().kind())) : std::string("?");
}
