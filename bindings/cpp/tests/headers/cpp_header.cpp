// The C++ header alone (it must bring everything it uses), included twice.
#include "jsonrpc_envelope.hpp"
#include "jsonrpc_envelope.hpp"

bool header_check_cpp();

bool header_check_cpp() {
  jsonrpc::Session session(jsonrpc::Role::server, jsonrpc::Profile::mcp);
  jsonrpc::Relay relay(jsonrpc::Profile::mcp);
  const jsonrpc::Direction in = jsonrpc::read_by(jsonrpc::Role::server);
  return jsonrpc::classify("{}").kind() == jsonrpc::Kind::not_jsonrpc && jsonrpc::abi_compatible() &&
         session.feed("{}\n").size() == 1 && jsonrpc::classify("{}", jsonrpc::Profile::mcp).valid() &&
         relay.feed(in, "{}\n").size() == 1 && jsonrpc::goes(jsonrpc::Action::answer, in).has_value();
}
