// test_wrapper.cpp: the shared vectors (envelope.jsonl in the JSON-RPC
// profile, mcp.jsonl in the MCP profile), the ownership rules, the
// session and the relay, through the C++ layer (jsonrpc_envelope.hpp).
//
// The vectors come from the flat file that tests/c/flatten_vectors.py writes
// (path compiled in as JSONRPC_VECTORS_FLAT; the environment variable of the
// same name overrides it).

#include <jsonrpc_envelope.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "flat_vectors.hpp"

namespace jsonrpc {
// How GoogleTest prints a Span in a failure message.
inline void PrintTo(const Span& span, std::ostream* out) {
  *out << "{" << span.offset << "," << span.length << "}";
}
}  // namespace jsonrpc

namespace {

using jsonrpc::Action;
using jsonrpc::Direction;
using jsonrpc::Kind;
using jsonrpc::Profile;
using jsonrpc::Role;
using jsonrpc::Span;
using jsonrpc::Status;

// ---- the vectors -----------------------------------------------------------

const flat::Vectors& vectors() {
  static const flat::Vectors loaded = [] {
    const char* from_env = std::getenv("JSONRPC_VECTORS_FLAT");
    return flat::load(from_env != nullptr && *from_env != '\0' ? from_env : JSONRPC_VECTORS_FLAT);
  }();
  return loaded;
}

std::vector<std::size_t> indices(std::size_t count) {
  std::vector<std::size_t> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = i;
  return out;
}

// The indices of the envelope vectors of one profile (one file).
std::vector<std::size_t> indices_of(Profile profile) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < vectors().envelopes.size(); ++i) {
    if (vectors().envelopes[i].profile == profile) out.push_back(i);
  }
  return out;
}

// A test name from a vector's line number and name: letters, digits, '_'.
std::string test_name(unsigned at, const std::string& name) {
  std::string out = "L" + std::to_string(at) + "_";
  bool gap = false;
  for (char c : name) {
    bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (word) {
      if (gap && out.back() != '_') out.push_back('_');
      out.push_back(c);
      gap = false;
    } else {
      gap = true;
    }
    if (out.size() >= 72) break;
  }
  return out;
}

std::string envelope_test_name(const ::testing::TestParamInfo<std::size_t>& param) {
  const flat::EnvelopeVector& v = vectors().envelopes.at(param.param);
  return test_name(v.at, v.name);
}

std::string log_test_name(const ::testing::TestParamInfo<std::size_t>& param) {
  const flat::LogVector& v = vectors().logs.at(param.param);
  return test_name(v.at, v.name);
}

// A heap copy of exactly the line's bytes, so that reading past its end is
// reading past an allocation (ASan and valgrind see it).
struct ExactCopy {
  explicit ExactCopy(const std::string& bytes) : data(new char[bytes.empty() ? 1 : bytes.size()]), size(bytes.size()) {
    if (size > 0) std::memcpy(data.get(), bytes.data(), size);
  }
  std::string_view view() const { return std::string_view(data.get(), size); }
  std::unique_ptr<char[]> data;
  std::size_t size;
};

std::optional<std::string> owned(std::optional<std::string_view> view) {
  if (!view) return std::nullopt;
  return std::string(*view);
}

// ---- a classification as plain values ----------------------------------------

struct Snapshot {
  std::uint64_t number = 0;  // 0 for a classification that is no stream's line
  bool too_long = false;
  std::size_t length = 0;
  std::string text;
  std::string kind;
  std::string id_kind;
  std::optional<std::string> id;
  std::optional<std::string> method;
  std::array<bool, 4> flags{};
  std::array<std::optional<Span>, 5> spans{};
  std::optional<std::string> reason;
  std::optional<std::string> reply_server;
  std::optional<std::string> reply_client;
  std::optional<std::string> substitute;
  std::string action = "none";  // a session's decision (`none` from a LineReader)
  std::optional<std::string> action_text;
  bool has_note = false;

  auto tied() const {
    return std::tie(number, too_long, length, text, kind, id_kind, id, method, flags, spans, reason, reply_server,
                    reply_client, substitute, action, action_text, has_note);
  }
  friend bool operator==(const Snapshot& a, const Snapshot& b) { return a.tied() == b.tied(); }
  friend bool operator!=(const Snapshot& a, const Snapshot& b) { return !(a == b); }
};

std::string show(const std::optional<std::string>& text) {
  return text ? ::testing::PrintToString(*text) : std::string("(absent)");
}

void PrintTo(const Snapshot& s, std::ostream* out) {
  *out << "{number=" << s.number << " too_long=" << s.too_long << " length=" << s.length
       << " text=" << ::testing::PrintToString(s.text) << " kind=" << s.kind << " id_kind=" << s.id_kind
       << " id=" << show(s.id) << " method=" << show(s.method) << " flags=";
  for (bool f : s.flags) *out << f;
  *out << " spans=";
  for (const auto& span : s.spans) *out << (span ? ::testing::PrintToString(*span) : "-") << " ";
  *out << "reason=" << show(s.reason) << " reply_server=" << show(s.reply_server)
       << " reply_client=" << show(s.reply_client) << " substitute=" << show(s.substitute) << " action=" << s.action
       << " action_text=" << show(s.action_text) << " note=" << s.has_note << "}";
}

template <class C>
Snapshot snapshot(const C& c, std::string_view text) {
  Snapshot s;
  s.length = text.size();
  s.text = std::string(text);
  s.kind = std::string(to_string(c.kind()));
  s.id_kind = std::string(to_string(c.id_kind()));
  s.id = owned(c.id());
  s.method = owned(c.method());
  s.flags = {c.jsonrpc_2_0(), c.has_result(), c.has_error(), c.names_no_request()};
  s.spans = {c.id_span(), c.method_span(), c.params_span(), c.result_span(), c.error_span()};
  s.reason = owned(c.reason());
  s.reply_server = owned(c.reply_server());
  s.reply_client = owned(c.reply_client());
  s.substitute = owned(c.substitute());
  return s;
}

Snapshot snapshot(const jsonrpc::Line& line) {
  Snapshot s = snapshot(line.classification(), line.text());
  s.number = line.number();
  s.too_long = line.too_long();
  s.length = line.length();
  s.action = line.action() == Action::none ? "none" : std::string(to_string(line.action()));
  s.action_text = owned(line.action_text());
  s.has_note = !line.note().empty();
  return s;
}

// Every field of a classification against its vector.
::testing::AssertionResult matches(const Snapshot& got, const flat::EnvelopeVector& v) {
  auto fail = [&](const char* field) {
    return ::testing::AssertionFailure() << field << " differs for " << v.source() << " line " << v.at << " (\""
                                         << v.name << "\")\n  got " << ::testing::PrintToString(got);
  };
  if (got.too_long) return fail("too_long");
  if (got.kind != v.kind) return fail("kind") << "\n  expected " << v.kind;
  if (got.id_kind != v.id_kind) return fail("id_kind") << "\n  expected " << v.id_kind;
  if (got.id != v.id) return fail("id") << "\n  expected " << show(v.id);
  if (got.method != v.method) return fail("method") << "\n  expected " << show(v.method);
  for (std::size_t i = 0; i < v.flags.size(); ++i) {
    if (got.flags[i] != v.flags[i]) return fail(flat::kFlagNames[i]) << "\n  expected " << v.flags[i];
  }
  for (std::size_t i = 0; i < v.spans.size(); ++i) {
    if (got.spans[i] != v.spans[i]) return fail(flat::kSpanNames[i]);
  }
  switch (v.reason.mode) {
    case flat::Text::Mode::absent:
      if (got.reason) return fail("reason") << "\n  expected absent";
      break;
    case flat::Text::Mode::any:
      if (!got.reason || got.reason->empty()) return fail("reason") << "\n  expected some text";
      break;
    case flat::Text::Mode::exact:
      if (got.reason != v.reason.bytes) return fail("reason") << "\n  expected " << v.reason.bytes;
      break;
  }
  if (got.reply_server != v.reply_server) return fail("reply_server") << "\n  expected " << show(v.reply_server);
  if (got.reply_client != v.reply_client) return fail("reply_client") << "\n  expected " << show(v.reply_client);
  if (got.substitute != v.substitute) return fail("substitute") << "\n  expected " << show(v.substitute);
  return ::testing::AssertionSuccess();
}

// ---- the vectors, one line at a time -------------------------------------------

TEST(Vectors, Loaded) {
  ASSERT_EQ(vectors().error, "");
  EXPECT_GT(indices_of(Profile::jsonrpc).size(), 50u);
  EXPECT_GT(indices_of(Profile::mcp).size(), 50u);
  EXPECT_GT(vectors().logs.size(), 5u);
}

class EnvelopeVector : public ::testing::TestWithParam<std::size_t> {};

TEST_P(EnvelopeVector, EveryFieldAndBothReplies) {
  const flat::EnvelopeVector& v = vectors().envelopes.at(GetParam());
  ExactCopy line(v.line);
  jsonrpc::Classification c = jsonrpc::classify(line.view(), v.profile);
  EXPECT_TRUE(c.valid());
  EXPECT_TRUE(matches(snapshot(c, line.view()), v));
  if (v.profile == Profile::jsonrpc) {  // the profile a call without one uses
    EXPECT_TRUE(matches(snapshot(jsonrpc::classify(line.view()), line.view()), v));
    EXPECT_EQ(jsonrpc::invalid_reply(line.view(), Role::server), v.reply_server);
  }

  // The same replies through reply(Role), and through jsonrpc_invalid_reply.
  EXPECT_EQ(owned(c.reply(Role::server)), v.reply_server);
  EXPECT_EQ(owned(c.reply(Role::client)), v.reply_client);
  EXPECT_EQ(jsonrpc::invalid_reply(line.view(), Role::server, v.profile), v.reply_server);
  EXPECT_EQ(jsonrpc::invalid_reply(line.view(), Role::client, v.profile), v.reply_client);
  jsonrpc::Reply server = jsonrpc::try_invalid_reply(line.view(), Role::server, v.profile);
  EXPECT_EQ(server.status, Status::ok);
  EXPECT_EQ(server.text, v.reply_server);

  // The id is exactly the line's bytes at its span.
  if (c.id()) {
    ASSERT_TRUE(c.id_span().has_value());
    EXPECT_EQ(c.id_span()->in(line.view()), *c.id());
  }
  // Present strings are followed by a NUL byte (the C convention).
  for (const JsonRpcStr& str : {c.raw().id, c.raw().method, c.raw().reason, c.raw().reply_server,
                                c.raw().reply_client, c.raw().substitute}) {
    if (str.ptr != nullptr) {
      EXPECT_EQ(str.ptr[str.len], '\0');
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Envelope, EnvelopeVector, ::testing::ValuesIn(indices_of(Profile::jsonrpc)),
                         envelope_test_name);
INSTANTIATE_TEST_SUITE_P(Mcp, EnvelopeVector, ::testing::ValuesIn(indices_of(Profile::mcp)), envelope_test_name);

class LogValueVector : public ::testing::TestWithParam<std::size_t> {};

TEST_P(LogValueVector, ExactText) {
  const flat::LogVector& v = vectors().logs.at(GetParam());
  ExactCopy input(v.input);
  EXPECT_EQ(jsonrpc::log_value(input.view()), v.output);
  EXPECT_EQ(jsonrpc::try_log_value(input.view()), v.output);
}

INSTANTIATE_TEST_SUITE_P(LogValue, LogValueVector, ::testing::ValuesIn(indices(vectors().logs.size())),
                         log_test_name);

// ---- enumerations --------------------------------------------------------------

// The names are the library's: each against the vectors' spelling.
TEST(Enums, NamesComeFromTheLibrary) {
  const std::pair<Kind, std::string_view> kinds[] = {
      {Kind::empty, "empty"},
      {Kind::parse_error, "parse_error"},
      {Kind::batch, "batch"},
      {Kind::not_object, "not_object"},
      {Kind::invalid_request, "invalid_request"},
      {Kind::request, "request"},
      {Kind::notification, "notification"},
      {Kind::response, "response"},
      {Kind::not_jsonrpc, "not_jsonrpc"},
      {Kind::too_long, "too_long"},
      {Kind::invalid_response, "invalid_response"},
  };
  for (const auto& [kind, name] : kinds) EXPECT_EQ(to_string(kind), name);
  // The messages a peer acts on (SPEC §8, §9).
  for (const auto& [kind, name] : kinds) {
    EXPECT_EQ(jsonrpc::is_message(kind), kind == Kind::request || kind == Kind::notification || kind == Kind::response)
        << name;
  }
  EXPECT_FALSE(jsonrpc::is_message(Kind::none));
  EXPECT_EQ(to_string(Profile::jsonrpc), "jsonrpc");
  EXPECT_EQ(to_string(Profile::mcp), "mcp");
  EXPECT_EQ(to_string(static_cast<Profile>(0)), "");
  EXPECT_EQ(to_string(static_cast<Profile>(3)), "");
  // The one vocabulary of records (the header's words).
  const std::pair<Action, std::string_view> actions[] = {
      {Action::forward, "forwarded"},     {Action::answer, "answered"}, {Action::substitute, "substituted"},
      {Action::attribute, "attributed"}, {Action::drop, "dropped"},    {Action::divert, "diverted"},
  };
  for (const auto& [action, name] : actions) EXPECT_EQ(to_string(action), name);
  EXPECT_EQ(to_string(Action::none), "");
  EXPECT_EQ(to_string(static_cast<Action>(7)), "");
  EXPECT_EQ(to_string(Status::unknown_profile), "unknown_profile");
  static_assert(static_cast<std::uint32_t>(Profile::jsonrpc) == JSONRPC_PROFILE_JSONRPC);
  static_assert(static_cast<std::uint32_t>(Profile::mcp) == JSONRPC_PROFILE_MCP);
  static_assert(static_cast<std::uint32_t>(Action::divert) == JSONRPC_ACTION_DIVERT);
  static_assert(static_cast<std::uint32_t>(Kind::invalid_response) == JSONRPC_KIND_INVALID_RESPONSE);
  const std::pair<jsonrpc::IdKind, std::string_view> id_kinds[] = {
      {jsonrpc::IdKind::absent, "absent"}, {jsonrpc::IdKind::null, "null"},     {jsonrpc::IdKind::string, "string"},
      {jsonrpc::IdKind::number, "number"}, {jsonrpc::IdKind::object, "object"}, {jsonrpc::IdKind::array, "array"},
      {jsonrpc::IdKind::boolean, "boolean"},
  };
  for (const auto& [id_kind, name] : id_kinds) EXPECT_EQ(to_string(id_kind), name);
  EXPECT_EQ(to_string(Role::server), "server");
  EXPECT_EQ(to_string(Role::client), "client");
  // Values the library does not name.
  EXPECT_EQ(to_string(Kind::none), "");
  EXPECT_EQ(to_string(static_cast<Kind>(99)), "");
  EXPECT_EQ(to_string(static_cast<jsonrpc::IdKind>(7)), "");
  EXPECT_EQ(to_string(static_cast<Role>(0)), "");
  EXPECT_EQ(to_string(Status::unknown_role), "unknown_role");
  static_assert(static_cast<std::uint32_t>(Role::server) == JSONRPC_ROLE_SERVER);
  static_assert(static_cast<std::uint32_t>(Role::client) == JSONRPC_ROLE_CLIENT);
  static_assert(static_cast<std::uint32_t>(Kind::not_jsonrpc) == JSONRPC_KIND_NOT_JSONRPC);
  static_assert(static_cast<std::uint32_t>(Kind::too_long) == JSONRPC_KIND_TOO_LONG);
}

// The directions, their names and the status of a bad one: the header's
// values, the library's names.
TEST(Enums, DirectionsAreTheHeadersAndTheirNamesTheLibrarys) {
  static_assert(static_cast<std::uint32_t>(Direction::to_server) == JSONRPC_DIRECTION_TO_SERVER);
  static_assert(static_cast<std::uint32_t>(Direction::to_host) == JSONRPC_DIRECTION_TO_HOST);
  static_assert(static_cast<std::uint32_t>(Status::unknown_direction) == JSONRPC_STATUS_UNKNOWN_DIRECTION);
  EXPECT_EQ(to_string(Direction::to_server), "to_server");
  EXPECT_EQ(to_string(Direction::to_host), "to_host");
  EXPECT_EQ(to_string(static_cast<Direction>(0)), "");
  EXPECT_EQ(to_string(static_cast<Direction>(3)), "");
  EXPECT_EQ(to_string(Status::unknown_direction), "unknown_direction");
}

// A server reads what goes to the server; a client what goes to the host.
TEST(Enums, TheDirectionEachRoleReads) {
  EXPECT_EQ(jsonrpc::read_by(Role::server), Direction::to_server);
  EXPECT_EQ(jsonrpc::read_by(Role::client), Direction::to_host);
  EXPECT_EQ(jsonrpc::read_by(static_cast<Role>(0)), static_cast<Direction>(0));
  EXPECT_EQ(jsonrpc::read_by(static_cast<Role>(3)), static_cast<Direction>(0));
}

// Where a line's text goes: on for what is handed on, back for an answer,
// nowhere (the log) for the rest.
TEST(Enums, WhereEachActionsTextGoes) {
  for (Direction in : {Direction::to_server, Direction::to_host}) {
    const Direction back = in == Direction::to_server ? Direction::to_host : Direction::to_server;
    SCOPED_TRACE(std::string(to_string(in)));
    EXPECT_EQ(jsonrpc::goes(Action::forward, in), in);
    EXPECT_EQ(jsonrpc::goes(Action::substitute, in), in);
    EXPECT_EQ(jsonrpc::goes(Action::attribute, in), in);
    EXPECT_EQ(jsonrpc::goes(Action::answer, in), back);
    EXPECT_EQ(jsonrpc::goes(Action::drop, in), std::nullopt);
    EXPECT_EQ(jsonrpc::goes(Action::divert, in), std::nullopt);
    EXPECT_EQ(jsonrpc::goes(Action::none, in), std::nullopt);
    EXPECT_EQ(jsonrpc::goes(static_cast<Action>(7), in), std::nullopt);
  }
  EXPECT_EQ(jsonrpc::goes(Action::forward, static_cast<Direction>(0)), std::nullopt);
  EXPECT_EQ(jsonrpc::goes(Action::answer, static_cast<Direction>(3)), std::nullopt);
}

TEST(Limits, TheDefaultLineLimitIsTheHeaders16MiB) {
  EXPECT_EQ(jsonrpc::default_max_line(), std::size_t{16} << 20);
}

// Each profile's default is the library's (the MCP profile's is read from
// it, never restated here); a value that is no profile has none.
TEST(Limits, EachProfilesDefaultLineLimitIsTheLibrarys) {
  EXPECT_EQ(jsonrpc::default_max_line(Profile::jsonrpc), jsonrpc::default_max_line());
  EXPECT_EQ(jsonrpc::default_max_line(Profile::mcp), jsonrpc_profile_max_line(JSONRPC_PROFILE_MCP));
  EXPECT_GT(jsonrpc::default_max_line(Profile::mcp), 0u);
  EXPECT_EQ(jsonrpc::default_max_line(static_cast<Profile>(0)), 0u);
}

TEST(Version, AbiMatchesTheHeader) {
  EXPECT_TRUE(jsonrpc::abi_compatible());
  EXPECT_EQ(jsonrpc::abi_version(), static_cast<std::uint32_t>(JSONRPC_ABI_VERSION));
  EXPECT_FALSE(jsonrpc::version().empty());
  EXPECT_EQ(jsonrpc::version(), std::string_view(jsonrpc_version()));
}

// ---- ownership -------------------------------------------------------------------

constexpr std::string_view kRequest = R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{}})";
constexpr std::string_view kBadRequest = R"({"jsonrpc":"2.0","id":{"a":1},"method":"x"})";

static_assert(!std::is_copy_constructible_v<jsonrpc::Classification>);
static_assert(!std::is_copy_assignable_v<jsonrpc::Classification>);
static_assert(std::is_nothrow_move_constructible_v<jsonrpc::Classification>);
static_assert(std::is_nothrow_move_assignable_v<jsonrpc::Classification>);
static_assert(std::is_nothrow_destructible_v<jsonrpc::Classification>);
static_assert(!std::is_copy_constructible_v<jsonrpc::LineReader>);
static_assert(!std::is_copy_assignable_v<jsonrpc::LineReader>);
static_assert(std::is_nothrow_move_constructible_v<jsonrpc::LineReader>);
static_assert(std::is_nothrow_move_assignable_v<jsonrpc::LineReader>);
static_assert(std::is_nothrow_destructible_v<jsonrpc::LineReader>);
static_assert(std::is_trivially_copyable_v<jsonrpc::Batch>);  // views, nothing to free
static_assert(std::is_trivially_copyable_v<jsonrpc::Line>);
static_assert(std::is_trivially_copyable_v<jsonrpc::ClassificationView>);

void expect_empty(const jsonrpc::Classification& c) {
  EXPECT_EQ(c.kind(), Kind::none);
  EXPECT_FALSE(c.valid());
  EXPECT_EQ(c.id_kind(), jsonrpc::IdKind::absent);
  EXPECT_FALSE(c.id() || c.method() || c.reason() || c.reply_server() || c.reply_client());
  EXPECT_FALSE(c.id_span() || c.method_span() || c.params_span() || c.result_span() || c.error_span());
  EXPECT_FALSE(c.jsonrpc_2_0() || c.has_result() || c.has_error() || c.names_no_request());
  EXPECT_EQ(c.raw().storage, nullptr);
}

TEST(Classification, DefaultIsEmpty) {
  jsonrpc::Classification c;
  expect_empty(c);
}

TEST(Classification, MoveConstructionTransfersTheSameStrings) {
  jsonrpc::Classification a = jsonrpc::classify(kRequest);
  ASSERT_EQ(a.kind(), Kind::request);
  const char* id_bytes = a.id()->data();
  jsonrpc::Classification b(std::move(a));
  expect_empty(a);  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  EXPECT_EQ(b.kind(), Kind::request);
  EXPECT_EQ(b.id(), "7");
  EXPECT_EQ(b.id()->data(), id_bytes);  // moved, not copied
  EXPECT_EQ(b.method(), "tools/call");
}

TEST(Classification, MoveAssignmentFreesTheOldResult) {
  jsonrpc::Classification a = jsonrpc::classify(kRequest);
  jsonrpc::Classification b = jsonrpc::classify(kBadRequest);
  ASSERT_EQ(b.kind(), Kind::invalid_request);
  b = std::move(a);  // b's invalid_request is freed here (leak checkers watch)
  expect_empty(a);   // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(b.kind(), Kind::request);
  b = jsonrpc::Classification();  // and the request here
  expect_empty(b);
}

TEST(Classification, SelfMoveKeepsTheResult) {
  jsonrpc::Classification a = jsonrpc::classify(kRequest);
  jsonrpc::Classification& same = a;
  a = std::move(same);
  EXPECT_EQ(a.kind(), Kind::request);
  EXPECT_EQ(a.id(), "7");
}

TEST(Classification, ReleaseAndAdoptHandOverOwnershipOnce) {
  jsonrpc::Classification a = jsonrpc::classify(kRequest);
  JsonRpcClassification raw = a.release();
  expect_empty(a);
  EXPECT_EQ(raw.kind, JSONRPC_KIND_REQUEST);
  jsonrpc::Classification b = jsonrpc::Classification::adopt(raw);
  EXPECT_EQ(raw.storage, nullptr);  // adopt zeroed it: freeing it again is harmless
  EXPECT_EQ(raw.kind, JSONRPC_KIND_NONE);
  jsonrpc_classification_free(&raw);
  EXPECT_EQ(b.id(), "7");
  JsonRpcClassification again = b.release();
  jsonrpc_classification_free(&again);
  jsonrpc_classification_free(&again);  // the C free is idempotent too
  expect_empty(b);
}

TEST(Classification, SurvivesVectorGrowthAndShuffles) {
  std::vector<jsonrpc::Classification> all;
  std::vector<std::string> lines;
  for (int i = 0; i < 500; ++i) {
    lines.push_back(R"({"jsonrpc":"2.0","id":)" + std::to_string(i) + R"(,"method":"m"})");
  }
  for (const std::string& line : lines) all.push_back(jsonrpc::classify(line));  // reallocates
  std::reverse(all.begin(), all.end());                                        // swaps
  all.erase(all.begin(), all.begin() + 100);                                   // move-assigns
  ASSERT_EQ(all.size(), 400u);
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].id(), std::to_string(399 - i));
  }
}

TEST(Classification, ViewSharesTheOwnersStrings) {
  jsonrpc::Classification c = jsonrpc::classify(kRequest);
  jsonrpc::ClassificationView view = c.view();
  EXPECT_EQ(view.kind(), Kind::request);
  EXPECT_EQ(view.method()->data(), c.method()->data());
}

TEST(Classification, EmptyViewAndEmbeddedNul) {
  EXPECT_EQ(jsonrpc::classify(std::string_view()).kind(), Kind::empty);  // (NULL, 0)
  EXPECT_EQ(jsonrpc::classify(std::string_view("  \r\n", 4)).kind(), Kind::empty);
  // The length is the truth: a NUL after the object is not whitespace.
  jsonrpc::Classification c = jsonrpc::classify(std::string_view("{\"id\":1}\0", 9));
  EXPECT_EQ(c.kind(), Kind::parse_error);
  EXPECT_TRUE(c.reason().has_value());
  EXPECT_EQ(jsonrpc::classify(std::string_view("{\"id\":1}\0", 8)).kind(), Kind::response);
}

TEST(Classification, SpansSliceTheLine) {
  jsonrpc::Classification c = jsonrpc::classify(kRequest);
  ASSERT_TRUE(c.params_span().has_value());
  EXPECT_EQ(c.params_span()->in(kRequest), "{}");
  EXPECT_EQ(c.method_span()->in(kRequest), "\"tools/call\"");
  EXPECT_EQ((Span{5, 100}.in("short")), "");  // out of range: empty, never a wild view
  EXPECT_FALSE(c.result_span().has_value());
}

TEST(Reply, ARoleCastFromAnotherValueIsRefusedByTheLibrary) {
  // No Role names an unknown role; a cast can still make one, and the
  // library, not the binding, refuses it.
  jsonrpc::Reply reply = jsonrpc::try_invalid_reply("[1]", static_cast<Role>(0));
  EXPECT_EQ(reply.status, Status::unknown_role);
  EXPECT_FALSE(reply.ok());
  EXPECT_FALSE(reply.text.has_value());
  EXPECT_FALSE(jsonrpc::invalid_reply("[1]", static_cast<Role>(3)).has_value());
  EXPECT_FALSE(jsonrpc::classify("[1]").reply(static_cast<Role>(3)).has_value());
  EXPECT_TRUE(jsonrpc::classify("[1]").reply(Role::server).has_value());
}

// A profile cast from a value that is none is refused by the library, not
// by the binding.
TEST(Profile, AProfileCastFromAnotherValueIsRefusedByTheLibrary) {
  for (std::uint32_t value : {0u, 3u, 0xFFFFFFFFu}) {
    const Profile profile = static_cast<Profile>(value);
    jsonrpc::Classification c = jsonrpc::classify("[1]", profile);
    EXPECT_EQ(c.kind(), Kind::none);
    EXPECT_FALSE(c.valid());
    EXPECT_EQ(c.reason(), "unknown profile");
    jsonrpc::Reply reply = jsonrpc::try_invalid_reply("[1]", Role::server, profile);
    EXPECT_EQ(reply.status, Status::unknown_profile);
    EXPECT_FALSE(reply.text.has_value());
    EXPECT_FALSE(jsonrpc::LineReader(0, profile).valid());
    jsonrpc::Session session(Role::client, profile);
    EXPECT_FALSE(session.valid());
    EXPECT_EQ(session.feed("{}\n").status(), Status::null_argument);
  }
  EXPECT_FALSE(jsonrpc::Session(static_cast<Role>(0), Profile::mcp).valid());
  EXPECT_TRUE(jsonrpc::Session(Role::server, Profile::jsonrpc).valid());
}

TEST(LogValue, EmptyAndBinary) {
  EXPECT_EQ(jsonrpc::log_value(std::string_view()), "");
  EXPECT_EQ(jsonrpc::try_log_value(std::string_view()), "");
  EXPECT_EQ(jsonrpc::log_value(std::string_view("a\0b", 3)), "a\\u0000b");
}

// ---- a stream ------------------------------------------------------------------------

// The largest chunk the chunked passes try; every size from 1 is tried.
constexpr std::size_t kMaxChunk = 70;

// Checks one batch: ok, its lines numbered on from `*number`, each
// complete line inside the batch's bytes and followed there by its LF
// (unless `at_end`, where the stream's last line may have none); a
// LineReader's lines (`session` false) undecided, a Session's decided, with
// a text exactly for answer, substitute and attribute and a note for all
// but forward.
::testing::AssertionResult well_formed(const jsonrpc::Batch& batch, std::uint64_t* number, bool at_end,
                                       bool session = false) {
  if (!batch.ok()) return ::testing::AssertionFailure() << "status " << to_string(batch.status());
  for (jsonrpc::Line line : batch) {
    if (line.number() != ++*number) {
      return ::testing::AssertionFailure() << "line number " << line.number() << ", expected " << *number;
    }
    Action action = line.action();
    bool texted = action == Action::answer || action == Action::substitute || action == Action::attribute;
    if (!session && (action != Action::none || line.action_text() || !line.note().empty())) {
      return ::testing::AssertionFailure() << "a LineReader's line " << *number << " has an action, text or note";
    }
    // A forward may carry the line's normal form (MCP profile, SPEC 10.5).
    bool normal = action == Action::forward && line.action_text().has_value();
    if (session && (to_string(action).empty() || (!normal && line.action_text().has_value() != texted) ||
                    line.note().empty() != (action == Action::forward))) {
      return ::testing::AssertionFailure() << "a Session's line " << *number << " ("
                                           << to_string(line.classification().kind()) << ", "
                                           << static_cast<std::uint32_t>(action) << ") has a bad action, text or note";
    }
    const JsonRpcLine& raw = line.raw();
    if (line.too_long()) {
      if (raw.offset != 0 || !line.text().empty()) return ::testing::AssertionFailure() << "a too_long line has bytes";
      continue;
    }
    if (raw.offset > batch.bytes().size() || raw.len > batch.bytes().size() - raw.offset) {
      return ::testing::AssertionFailure() << "line " << *number << " lies outside the batch's bytes";
    }
    bool has_lf = raw.offset + raw.len < batch.bytes().size() && batch.bytes()[raw.offset + raw.len] == '\n';
    if (!has_lf && !at_end) return ::testing::AssertionFailure() << "line " << *number << " has no LF after it";
  }
  return ::testing::AssertionSuccess();
}

// Feeds `stream` to `owner` (a LineReader or a Session) `chunk` bytes at a
// time, as a host reading a pipe would, each chunk a heap copy freed after
// the call (the owner must copy what it keeps), then ends it; returns
// every line.
template <class Owner>
std::vector<Snapshot> read_with(Owner& owner, std::string_view stream, std::size_t chunk) {
  constexpr bool session = !std::is_same_v<Owner, jsonrpc::LineReader>;  // a Session or a relay's OneWay
  std::vector<Snapshot> items;
  EXPECT_TRUE(owner.valid());
  std::uint64_t number = 0;
  for (std::size_t pos = 0; pos < stream.size(); pos += chunk) {
    ExactCopy piece{std::string(stream.substr(pos, chunk))};
    jsonrpc::Batch batch = owner.feed(piece.view());
    EXPECT_TRUE(well_formed(batch, &number, false, session)) << "after " << pos + piece.size << " bytes";
    for (jsonrpc::Line line : batch) items.push_back(snapshot(line));
  }
  jsonrpc::Batch last = owner.end();
  EXPECT_TRUE(well_formed(last, &number, true, session)) << "at the end";
  for (jsonrpc::Line line : last) items.push_back(snapshot(line));
  return items;
}

std::vector<Snapshot> read_stream(std::string_view stream, std::size_t chunk, std::size_t max_line = 0,
                                  Profile profile = Profile::jsonrpc) {
  jsonrpc::LineReader reader(max_line, profile);
  return read_with(reader, stream, chunk);
}

// The vector lines of one profile that hold no LF, which a stream can carry.
std::vector<const flat::EnvelopeVector*> streamable(Profile profile) {
  std::vector<const flat::EnvelopeVector*> out;
  for (const flat::EnvelopeVector& v : vectors().envelopes) {
    if (v.profile == profile && v.line.find('\n') == std::string::npos) out.push_back(&v);
  }
  return out;
}

std::string join(const std::vector<const flat::EnvelopeVector*>& lines, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0) out += separator;
    out += lines[i]->line;
  }
  return out;
}

// Every vector line in one stream, at every chunk size and whole: each item
// is its vector, field by field, with its bytes and its number. A CR before
// the LF stays in the line, as whitespace, and changes nothing else.
void check_vector_stream(std::string_view separator, Profile profile) {
  std::vector<const flat::EnvelopeVector*> lines = streamable(profile);
  ASSERT_GT(lines.size(), 50u);
  std::string stream = join(lines, separator);
  bool crlf = separator == "\r\n";
  for (std::size_t chunk = 1; chunk <= kMaxChunk + 1; ++chunk) {
    std::size_t size = chunk > kMaxChunk ? stream.size() : chunk;
    std::vector<Snapshot> items = read_stream(stream, size, 0, profile);
    ASSERT_EQ(items.size(), lines.size()) << "chunks of " << size;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      bool has_cr = crlf && i + 1 < lines.size();  // the last line has no line ending
      ASSERT_TRUE(matches(items[i], *lines[i])) << "chunks of " << size << ", item " << i;
      ASSERT_EQ(items[i].text, lines[i]->line + (has_cr ? "\r" : "")) << "chunks of " << size << ", item " << i;
      ASSERT_EQ(items[i].number, i + 1);
    }
  }
}

TEST(LineReader, EveryVectorAtEveryChunkSizeLF) { check_vector_stream("\n", Profile::jsonrpc); }

TEST(LineReader, EveryVectorAtEveryChunkSizeCRLF) { check_vector_stream("\r\n", Profile::jsonrpc); }

TEST(LineReader, EveryMcpVectorAtEveryChunkSizeLF) { check_vector_stream("\n", Profile::mcp); }

TEST(LineReader, EveryMcpVectorAtEveryChunkSizeCRLF) { check_vector_stream("\r\n", Profile::mcp); }

void expect_too_long(const Snapshot& item, std::uint64_t number, std::size_t length) {
  EXPECT_EQ(item.number, number);
  EXPECT_TRUE(item.too_long);
  EXPECT_EQ(item.kind, "too_long");
  EXPECT_EQ(item.length, length);
  EXPECT_EQ(item.text, "");
  EXPECT_EQ(item.id_kind, "absent");
  EXPECT_FALSE(item.id || item.method || item.reason || item.reply_server || item.reply_client);
  for (const auto& span : item.spans) EXPECT_FALSE(span.has_value());
  for (bool flag : item.flags) EXPECT_FALSE(flag);
}

// Lines over the limit, one of them split across many reads at small chunk
// sizes, one a byte over, one at the limit exactly, and one still open when
// the stream ends without LF.
TEST(LineReader, TooLongLinesAtEveryChunkSize) {
  constexpr std::size_t kMaxLine = 10;
  std::string stream = "{\"id\":1}\n" + std::string(250, 'x') + "\n{}\n" + std::string(11, 'y') + "\n" +
                       std::string(10, 'z') + "\n" + std::string(37, 'w');
  for (std::size_t chunk = 1; chunk <= kMaxChunk; ++chunk) {
    SCOPED_TRACE("chunks of " + std::to_string(chunk));
    std::vector<Snapshot> items = read_stream(stream, chunk, kMaxLine);
    ASSERT_EQ(items.size(), 6u);
    EXPECT_EQ(items[0].kind, "response");
    EXPECT_EQ(items[0].text, "{\"id\":1}");
    expect_too_long(items[1], 2, 250);
    EXPECT_EQ(items[2].kind, "not_jsonrpc");
    EXPECT_EQ(items[2].number, 3u);
    expect_too_long(items[3], 4, 11);  // one byte over
    EXPECT_FALSE(items[4].too_long);   // exactly the limit is kept
    EXPECT_EQ(items[4].text, std::string(10, 'z'));
    EXPECT_EQ(items[4].kind, "parse_error");
    expect_too_long(items[5], 6, 37);  // reported by end()
  }
}

TEST(LineReader, EndOfStreamWithoutLF) {
  jsonrpc::LineReader reader;
  jsonrpc::Batch first = reader.feed("{\"id\":1}\n{\"id\":");
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].text(), "{\"id\":1}");
  EXPECT_TRUE(reader.feed("2}").empty());  // no LF: nothing yet
  jsonrpc::Batch last = reader.end();
  ASSERT_TRUE(last.ok());
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].number(), 2u);
  EXPECT_EQ(last[0].text(), "{\"id\":2}");
  EXPECT_EQ(last[0].classification().id(), "2");
  EXPECT_EQ(last.bytes(), "{\"id\":2}");  // no LF in the batch either
  EXPECT_TRUE(reader.end().empty());
}

TEST(LineReader, EmptyStreamAndEmptyLines) {
  EXPECT_TRUE(read_stream("", 1).empty());
  std::vector<Snapshot> items = read_stream("\n\r\n", 1);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].kind, "empty");
  EXPECT_EQ(items[1].text, "\r");
  EXPECT_EQ(items[1].kind, "empty");
  jsonrpc::LineReader reader;
  jsonrpc::Batch none = reader.feed(std::string_view());  // (NULL, 0): no bytes
  EXPECT_TRUE(none.ok());
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.begin(), none.end());
}

TEST(LineReader, EndStartsANewStream) {
  jsonrpc::LineReader reader(4);
  ASSERT_EQ(reader.feed("a\nb\nlong").size(), 2u);
  EXPECT_TRUE(reader.feed("er").empty());  // over the limit: being dropped
  jsonrpc::Batch last = reader.end();
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].number(), 3u);
  EXPECT_TRUE(last[0].too_long());
  EXPECT_EQ(last[0].length(), 6u);
  jsonrpc::Batch next = reader.feed("{}\n");  // nothing of the old stream is left
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].number(), 1u);
  EXPECT_EQ(next[0].text(), "{}");
}

// A batch is the reader's memory: intact whatever else runs, through a
// move of the reader, until the reader's next call.
TEST(LineReader, ABatchIsValidUntilTheNextCall) {
  std::optional<jsonrpc::LineReader> reader(std::in_place);
  jsonrpc::Batch batch = reader->feed("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\"}\n[1]\n{\"partial\":");
  jsonrpc::LineReader other;
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(other.feed(std::string(1000, ' ') + "\n[2]\n").size(), 2u);
    ASSERT_EQ(jsonrpc::classify("{\"id\":{}}").kind(), Kind::response);
  }
  jsonrpc::LineReader moved(std::move(*reader));
  EXPECT_FALSE(reader->valid());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  reader.reset();
  ASSERT_EQ(batch.size(), 2u);
  std::vector<jsonrpc::Line> items(batch.begin(), batch.end());
  EXPECT_EQ(items[0].text(), "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\"}");
  EXPECT_EQ(items[0].classification().id(), "\"a\"");
  EXPECT_EQ(items[0].classification().method(), "m");
  EXPECT_EQ(items[1].text(), "[1]");
  EXPECT_EQ(items[1].classification().kind(), Kind::batch);
  EXPECT_TRUE(items[1].classification().reply(Role::server).has_value());
  EXPECT_FALSE(items[1].classification().reply(Role::client).has_value());
  // The moved reader kept the stream: the partial line is still pending.
  jsonrpc::Batch rest = moved.feed("1}\n");
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].number(), 3u);
  EXPECT_EQ(rest[0].text(), "{\"partial\":1}");
}

TEST(LineReader, AnEmptyReaderRefusesEveryCall) {
  jsonrpc::LineReader a;
  jsonrpc::LineReader b(std::move(a));
  ASSERT_TRUE(b.valid());
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.raw(), nullptr);
  jsonrpc::Batch fed = a.feed("{}\n");
  EXPECT_EQ(fed.status(), Status::null_argument);
  EXPECT_TRUE(fed.empty());
  EXPECT_EQ(a.end().status(), Status::null_argument);
  a = std::move(b);  // move assignment frees nothing twice
  EXPECT_EQ(a.feed("{}\n").size(), 1u);
  EXPECT_FALSE(b.valid());  // NOLINT(bugprone-use-after-move)
}

// A long line that arrives in many small pieces comes out once, whole, when
// its LF arrives, and costs linear time: a reader that searched or copied
// the held bytes again at each of these 2^18 pieces would take about 2^39
// byte steps (minutes; hours under valgrind), where a linear one takes
// about 2^22.
TEST(LineReader, LongLineInSmallPiecesStaysLinear) {
  constexpr std::size_t kPiece = 16;
  const std::string line = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"m\",\"params\":\"" +
                           std::string(std::size_t{4} << 20, 'p') + "\"}";
  jsonrpc::LineReader reader;
  for (std::size_t pos = 0; pos < line.size(); pos += kPiece) {
    jsonrpc::Batch batch = reader.feed(std::string_view(line).substr(pos, kPiece));
    ASSERT_TRUE(batch.ok() && batch.empty()) << "at " << pos;
  }
  jsonrpc::Batch batch = reader.feed("\n{}");
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(batch[0].text(), line);
  EXPECT_EQ(batch[0].classification().kind(), Kind::request);
  EXPECT_EQ(batch[0].classification().id(), "7");
  EXPECT_EQ(batch[0].classification().params_span()->in(batch[0].text()).size(), (std::size_t{4} << 20) + 2);
  jsonrpc::Batch last = reader.end();
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].number(), 2u);
  EXPECT_EQ(last[0].text(), "{}");
}

// ---- a session -------------------------------------------------------------------------

static_assert(!std::is_copy_constructible_v<jsonrpc::Session>);
static_assert(!std::is_copy_assignable_v<jsonrpc::Session>);
static_assert(std::is_nothrow_move_constructible_v<jsonrpc::Session>);
static_assert(std::is_nothrow_move_assignable_v<jsonrpc::Session>);
static_assert(std::is_nothrow_destructible_v<jsonrpc::Session>);

// SPEC §10.3's substitute and §10.4's reply for a request the SDK refused,
// for an id's exact text.
std::string substitute_for(std::string_view id) {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) +
         R"(,"error":{"code":-32603,"message":"Internal error: the peer's response to this request is not valid MCP"})"
         "}";
}

std::string refused_reply_for(std::string_view id) {
  return R"({"jsonrpc":"2.0","id":)" + std::string(id) +
         R"(,"error":{"code":-32600,"message":"Invalid Request: the receiving MCP SDK cannot read this request"}})";
}

constexpr std::string_view kParseErrorReply =
    R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})";
constexpr std::string_view kNoRequestError = R"("error":{"code":-32700,"message":"Parse error"}})";

// Feeds one whole text and returns its lines, checked as well formed.
std::vector<Snapshot> feed_all(jsonrpc::Session& session, std::string_view text, std::uint64_t* number) {
  std::vector<Snapshot> items;
  jsonrpc::Batch batch = session.feed(text);
  EXPECT_TRUE(well_formed(batch, number, false, true));
  for (jsonrpc::Line line : batch) items.push_back(snapshot(line));
  return items;
}

TEST(Session, ASubstituteForTheRequestOutstanding) {
  jsonrpc::Session session(Role::client, Profile::mcp);
  ASSERT_TRUE(session.valid());
  EXPECT_EQ(session.sent(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})"), Status::ok);
  EXPECT_EQ(session.outstanding(), 1u);
  std::uint64_t number = 0;
  std::vector<Snapshot> items = feed_all(session, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n", &number);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].kind, "invalid_response");
  EXPECT_EQ(items[0].action, "substituted");
  EXPECT_EQ(items[0].action_text, substitute_for("7"));
  EXPECT_EQ(items[0].substitute, substitute_for("7"));
  EXPECT_EQ(session.outstanding(), 0u);
  // Nobody waits on id 7 now: the same line again is dropped.
  items = feed_all(session, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n", &number);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].action, "dropped");
  EXPECT_FALSE(items[0].action_text.has_value());
  EXPECT_TRUE(items[0].has_note);
}

TEST(Session, AnErrorThatNamesNoRequestGoesToTheOneOutstanding) {
  jsonrpc::Session session(Role::client, Profile::mcp);
  std::uint64_t number = 0;
  const std::string no_id = R"({"jsonrpc":"2.0",)" + std::string(kNoRequestError);
  const std::string null_id = R"({"jsonrpc":"2.0","id":null,)" + std::string(kNoRequestError);
  // None outstanding: dropped.
  std::vector<Snapshot> items = feed_all(session, no_id + "\n", &number);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].action, "dropped");
  // One: attributed, the id put first where there was none...
  EXPECT_EQ(session.sent(R"({"jsonrpc":"2.0","id":"a","method":"initialize","params":{}})"), Status::ok);
  items = feed_all(session, no_id + "\n", &number);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].kind, "response");
  EXPECT_EQ(items[0].action, "attributed");
  EXPECT_EQ(items[0].action_text, R"({"id":"a","jsonrpc":"2.0",)" + std::string(kNoRequestError));
  EXPECT_EQ(session.outstanding(), 0u);
  // ... and in place of a null one.
  EXPECT_EQ(session.sent(R"({"jsonrpc":"2.0","id":12,"method":"ping"})"), Status::ok);
  items = feed_all(session, null_id + "\n", &number);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].action_text, R"({"jsonrpc":"2.0","id":12,)" + std::string(kNoRequestError));
  // Two outstanding: nobody can tell which; dropped, both still waiting.
  EXPECT_EQ(session.sent(R"({"jsonrpc":"2.0","id":1,"method":"ping"})"), Status::ok);
  EXPECT_EQ(session.sent(R"({"jsonrpc":"2.0","id":2,"method":"ping"})"), Status::ok);
  items = feed_all(session, null_id + "\n", &number);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].action, "dropped");
  EXPECT_EQ(session.outstanding(), 2u);
}

TEST(Session, WhatIsNoMessageIsAnsweredInRoleServerAndDivertedInRoleClient) {
  jsonrpc::Session server(Role::server, Profile::mcp);
  jsonrpc::Session client(Role::client, Profile::mcp);
  std::uint64_t server_number = 0;
  std::uint64_t client_number = 0;
  const char* input = "not json\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n{}\n";
  std::vector<Snapshot> s = feed_all(server, input, &server_number);
  std::vector<Snapshot> c = feed_all(client, input, &client_number);
  ASSERT_EQ(s.size(), 3u);
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(s[0].action, "answered");
  EXPECT_EQ(s[0].action_text, kParseErrorReply);
  EXPECT_EQ(c[0].action, "diverted");
  EXPECT_FALSE(c[0].action_text.has_value());
  EXPECT_EQ(s[1].action, "forwarded");
  EXPECT_EQ(c[1].action, "forwarded");
  EXPECT_FALSE(s[1].has_note);
  EXPECT_EQ(s[2].action, "dropped");
  EXPECT_EQ(c[2].action, "diverted");
}

// SPEC §10.6 through the wrapper: a request whose id is in the line is
// answered by it (role server), a response whose id is outstanding is
// substituted, and a line after a byte order mark is forwarded in its
// normal form, without the mark. Texts written by hand from SPEC.md.
TEST(Session, EveryRequestWhoseIdIsInTheLineIsAnswered) {
  const std::string batch_note = "Invalid Request: MCP has no batches; send each request on its own line";
  const std::string batch = R"([{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":"2","method":"x"}])";
  const std::string damaged = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"t\":\"\xff\"}}";
  const std::string too_long =
      R"({"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"t":")" + std::string(300, 'x') + R"("}})";
  const std::string long_response =
      R"({"jsonrpc":"2.0","id":42,"result":{"content":[{"text":")" + std::string(300, 'y') + R"("}]}})";
  const std::string bom_request = "\xEF\xBB\xBF" R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})";
  const std::string stream = bom_request + "\n" + batch + "\n" + damaged + "\n" + too_long + "\n" + long_response;
  for (std::size_t chunk = 1; chunk <= kMaxChunk; ++chunk) {
    SCOPED_TRACE("chunks of " + std::to_string(chunk));
    jsonrpc::Session server(Role::server, Profile::mcp, 200);
    ASSERT_EQ(server.sent(R"({"jsonrpc":"2.0","id":42,"method":"sampling/createMessage","params":{}})"), Status::ok);
    std::vector<Snapshot> items = read_with(server, stream, chunk);
    ASSERT_EQ(items.size(), 5u);
    EXPECT_EQ(items[0].kind, "request");
    EXPECT_EQ(items[0].action, "forwarded");
    EXPECT_EQ(items[0].action_text, R"({"jsonrpc":"2.0","id":0,"method":"initialize","params":{}})");
    EXPECT_EQ(items[1].kind, "batch");
    EXPECT_EQ(items[1].action, "answered");
    EXPECT_EQ(items[1].action_text,
              R"({"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":")" + batch_note + "\"}}\n" +
                  R"({"jsonrpc":"2.0","id":"2","error":{"code":-32600,"message":")" + batch_note + "\"}}");
    EXPECT_EQ(items[2].kind, "parse_error");
    EXPECT_EQ(items[2].id, "3");
    EXPECT_EQ(items[2].method, "tools/call");
    EXPECT_EQ(items[2].action_text, R"({"jsonrpc":"2.0","id":3,"error":{"code":-32700,"message":"Parse error"}})");
    EXPECT_TRUE(items[3].too_long);
    EXPECT_EQ(items[3].id, "\"big\"");
    EXPECT_EQ(items[3].method, "tools/call");
    EXPECT_EQ(items[3].action, "answered");
    EXPECT_EQ(items[3].action_text,
              R"({"jsonrpc":"2.0","id":"big","error":{"code":-32600,"message":"Invalid Request: the line is longer than this peer reads"}})");
    EXPECT_TRUE(items[4].too_long);
    EXPECT_EQ(items[4].id, "42");
    EXPECT_FALSE(items[4].method.has_value());
    EXPECT_EQ(items[4].action, "substituted");
    EXPECT_EQ(items[4].action_text, substitute_for("42"));
    EXPECT_EQ(items[4].substitute, substitute_for("42"));
    EXPECT_EQ(server.outstanding(), 0u);
  }
}

TEST(Session, TooLongLinesAreDropped) {
  for (Role role : {Role::server, Role::client}) {
    jsonrpc::Session session(role, Profile::mcp, 8);
    std::vector<Snapshot> items = read_with(session, "{\"jsonrpc\":\"2.0\"}\n0123456789", 3);
    ASSERT_EQ(items.size(), 2u);
    for (const Snapshot& item : items) {
      EXPECT_TRUE(item.too_long);
      EXPECT_EQ(item.action, "dropped");
      EXPECT_FALSE(item.action_text.has_value());
      EXPECT_TRUE(item.has_note);
    }
  }
}

TEST(Session, RefusedByTheSdk) {
  jsonrpc::Session session(Role::client, Profile::mcp);
  ASSERT_EQ(session.sent(R"({"jsonrpc":"2.0","id":4,"method":"ping"})"), Status::ok);
  jsonrpc::Decision request = session.refused(R"({"jsonrpc":"2.0","id":1,"method":"sampling/createMessage"})");
  EXPECT_TRUE(request.ok());
  EXPECT_EQ(request.action, Action::answer);
  EXPECT_EQ(request.text, refused_reply_for("1"));
  EXPECT_FALSE(request.note.empty());
  jsonrpc::Decision response = session.refused(R"({"jsonrpc":"2.0","id":4,"result":{}})");
  EXPECT_EQ(response.action, Action::substitute);
  EXPECT_EQ(response.text, substitute_for("4"));
  EXPECT_EQ(session.outstanding(), 0u);  // the substitute answers it
  jsonrpc::Decision other = session.refused(R"({"jsonrpc":"2.0","method":"notifications/progress"})");
  EXPECT_EQ(other.action, Action::drop);
  EXPECT_FALSE(other.text.has_value());
  EXPECT_FALSE(other.note.empty());
}

TEST(Session, TheJsonRpcProfileKeepsNoIdsAndForwardsEveryResponse) {
  jsonrpc::Session session(Role::client, Profile::jsonrpc);
  EXPECT_EQ(session.sent(R"({"jsonrpc":"2.0","id":7,"method":"tools/list"})"), Status::ok);
  EXPECT_EQ(session.outstanding(), 0u);
  std::uint64_t number = 0;
  const std::string input = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n{\"jsonrpc\":\"2.0\",\"id\":null," +
                            std::string(kNoRequestError) + "\n";
  std::vector<Snapshot> items = feed_all(session, input, &number);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].kind, "response");
  EXPECT_EQ(items[0].action, "forwarded");
  EXPECT_EQ(items[1].action, "forwarded");
}

TEST(Session, EndDecidesTheLastLineAndKeepsTheOutstandingRequests) {
  jsonrpc::Session session(Role::client, Profile::mcp);
  ASSERT_EQ(session.sent(R"({"jsonrpc":"2.0","id":3,"method":"a"})"), Status::ok);
  ASSERT_EQ(session.sent(R"({"jsonrpc":"2.0","id":"b","method":"b"})"), Status::ok);
  EXPECT_TRUE(session.feed(R"({"jsonrpc":"2.0","id":3,"result":[]})").empty());
  jsonrpc::Batch last = session.end();
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].action(), Action::substitute);
  EXPECT_EQ(last[0].action_text(), substitute_for("3"));
  EXPECT_EQ(session.outstanding(), 1u);
  jsonrpc::Batch next = session.feed(R"({"jsonrpc":"2.0",)" + std::string(kNoRequestError) + "\n");
  ASSERT_EQ(next.size(), 1u);
  EXPECT_EQ(next[0].number(), 1u);  // a new stream
  EXPECT_EQ(next[0].action(), Action::attribute);
  EXPECT_EQ(next[0].action_text(), R"({"id":"b","jsonrpc":"2.0",)" + std::string(kNoRequestError));
}

// A batch, the session's own texts included, is valid until the session's
// next call, through a move of the session.
TEST(Session, ABatchIsValidUntilTheNextCall) {
  std::optional<jsonrpc::Session> session(std::in_place, Role::client, Profile::mcp);
  ASSERT_EQ(session->sent(R"({"jsonrpc":"2.0","id":"a","method":"m"})"), Status::ok);
  jsonrpc::Batch batch = session->feed(R"({"jsonrpc":"2.0","id":null,)" + std::string(kNoRequestError) + "\n{\"x\":");
  jsonrpc::Session other(Role::client, Profile::mcp);
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(other.sent(R"({"jsonrpc":"2.0","id":"z","method":"m"})"), Status::ok);
    ASSERT_EQ(other.feed(R"({"jsonrpc":"2.0",)" + std::string(kNoRequestError) + "\n").size(), 1u);
  }
  jsonrpc::Session moved(std::move(*session));
  EXPECT_FALSE(session->valid());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  session.reset();
  ASSERT_EQ(batch.size(), 1u);
  EXPECT_EQ(batch[0].action(), Action::attribute);
  EXPECT_EQ(batch[0].action_text(), R"({"jsonrpc":"2.0","id":"a",)" + std::string(kNoRequestError));
  jsonrpc::Batch rest = moved.feed("1}\n");
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].number(), 2u);
  EXPECT_EQ(rest[0].text(), "{\"x\":1}");
  EXPECT_EQ(rest[0].action(), Action::divert);
}

TEST(Session, AnEmptySessionRefusesEveryCall) {
  jsonrpc::Session a(Role::server, Profile::mcp);
  jsonrpc::Session b(std::move(a));
  ASSERT_TRUE(b.valid());
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.raw(), nullptr);
  EXPECT_EQ(a.feed("{}\n").status(), Status::null_argument);
  EXPECT_EQ(a.end().status(), Status::null_argument);
  EXPECT_EQ(a.sent("{}"), Status::null_argument);
  jsonrpc::Decision decision = a.refused("{}");
  EXPECT_EQ(decision.status, Status::null_argument);
  EXPECT_EQ(decision.action, Action::none);
  EXPECT_FALSE(decision.text.has_value());
  EXPECT_EQ(a.outstanding(), 0u);
  a = std::move(b);
  EXPECT_EQ(a.feed("{}\n").size(), 1u);
}

// What a session does with a vector line, nothing being outstanding: SPEC
// §8's tables; in the MCP profile (§9, §10.4) an error that names no
// request and an invalid_response have nobody to go to, and are dropped; a
// damaged response (§10.6 (c), a parse error with a substitute) is never
// answered, so dropped or diverted.
std::string expected_action(const flat::EnvelopeVector& v, Role role) {
  const bool server = role == Role::server;
  if (v.kind == "parse_error" && v.substitute) return server ? "dropped" : "diverted";
  if (v.kind == "request" || v.kind == "notification") return "forwarded";
  // SPEC §10.8 (a): in the MCP profile a server reads no response nobody waits for.
  if (v.kind == "response") return v.profile == Profile::mcp && (v.flags[3] || server) ? "dropped" : "forwarded";
  if (v.kind == "invalid_response") return "dropped";
  if (v.kind == "invalid_request") return "answered";
  if (v.kind == "parse_error" || v.kind == "batch" || v.kind == "not_object") return server ? "answered" : "diverted";
  return server ? "dropped" : "diverted";  // empty, not_jsonrpc
}

// Every vector line of `profile` in one stream, read in each role (by
// `read(role, stream, chunk)`: a session, or a relay's direction), each
// line decided as `expected_action` says.
template <class Read>
void check_decided_stream(Profile profile, Read read) {
  std::vector<const flat::EnvelopeVector*> lines = streamable(profile);
  ASSERT_GT(lines.size(), 50u);
  std::string stream = join(lines, "\n");
  for (Role role : {Role::server, Role::client}) {
    for (std::size_t chunk : {std::size_t{1}, std::size_t{13}, stream.size()}) {
      std::vector<Snapshot> items = read(role, stream, chunk);
      ASSERT_EQ(items.size(), lines.size());
      for (std::size_t i = 0; i < lines.size(); ++i) {
        const flat::EnvelopeVector& v = *lines[i];
        SCOPED_TRACE(std::string(to_string(role)) + ", chunks of " + std::to_string(chunk) + ", " + v.source() +
                     " line " + std::to_string(v.at));
        ASSERT_TRUE(matches(items[i], v));
        EXPECT_EQ(items[i].action, expected_action(v, role));
        std::optional<std::string> reply = role == Role::server ? v.reply_server : v.reply_client;
        if (items[i].action == "forwarded" && items[i].action_text) {
          // The line's normal form (MCP profile, SPEC 10.5): a compact
          // object, never longer than the line.
          EXPECT_EQ(profile, Profile::mcp);
          const std::string& text = *items[i].action_text;
          EXPECT_TRUE(text.size() >= 2 && text.front() == '{' && text.back() == '}') << text;
          EXPECT_LE(text.size(), v.line.size());
        } else {
          EXPECT_EQ(items[i].action_text, items[i].action == "answered" ? reply : std::nullopt);
        }
      }
    }
  }
}

void check_session_stream(Profile profile) {
  check_decided_stream(profile, [profile](Role role, std::string_view stream, std::size_t chunk) {
    jsonrpc::Session session(role, profile);
    return read_with(session, stream, chunk);
  });
}

TEST(Session, EveryVectorThroughASessionInEachRole) { check_session_stream(Profile::jsonrpc); }

TEST(Session, EveryMcpVectorThroughASessionInEachRole) { check_session_stream(Profile::mcp); }

// ---- a relay ---------------------------------------------------------------------------

static_assert(!std::is_copy_constructible_v<jsonrpc::Relay>);
static_assert(!std::is_copy_assignable_v<jsonrpc::Relay>);
static_assert(std::is_nothrow_move_constructible_v<jsonrpc::Relay>);
static_assert(std::is_nothrow_move_assignable_v<jsonrpc::Relay>);
static_assert(std::is_nothrow_destructible_v<jsonrpc::Relay>);

// One direction of a relay, read as a LineReader or a Session is (read_with).
struct OneWay {
  jsonrpc::Relay& relay;
  Direction direction;
  bool valid() const { return relay.valid(); }
  jsonrpc::Batch feed(std::string_view bytes) { return relay.feed(direction, bytes); }
  jsonrpc::Batch end() { return relay.end(direction); }
};

// Each direction of a relay decides every vector line as a session in its
// receiver's role does: to_server as a server, to_host as a client.
void check_relay_stream(Profile profile) {
  check_decided_stream(profile, [profile](Role role, std::string_view stream, std::size_t chunk) {
    jsonrpc::Relay relay(profile);
    OneWay way{relay, role == Role::server ? Direction::to_server : Direction::to_host};
    return read_with(way, stream, chunk);
  });
}

TEST(Relay, EveryVectorThroughARelayInEachDirection) { check_relay_stream(Profile::jsonrpc); }

TEST(Relay, EveryMcpVectorThroughARelayInEachDirection) { check_relay_stream(Profile::mcp); }

constexpr std::string_view kPing7 = R"({"jsonrpc":"2.0","id":7,"method":"ping"})";

// What a relay hands on in one direction, the other direction waits for.
TEST(Relay, ARequestForwardedToTheServerIsOutstandingUntilItsAnswer) {
  jsonrpc::Relay relay(Profile::mcp);
  ASSERT_TRUE(relay.valid());
  jsonrpc::Batch to_server = relay.feed(Direction::to_server, std::string(kPing7) + "\n");
  ASSERT_TRUE(to_server.ok());
  ASSERT_EQ(to_server.size(), 1u);
  EXPECT_EQ(to_server[0].kind(), Kind::request);
  EXPECT_EQ(to_server[0].action(), Action::forward);
  EXPECT_TRUE(to_server[0].note().empty());
  EXPECT_EQ(relay.outstanding(Direction::to_host), 1u);  // the server owes a response
  EXPECT_EQ(relay.outstanding(Direction::to_server), 0u);
  // The server's answer clears it.
  jsonrpc::Batch to_host = relay.feed(Direction::to_host, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n");
  ASSERT_EQ(to_host.size(), 1u);
  EXPECT_EQ(to_host[0].kind(), Kind::response);
  EXPECT_EQ(to_host[0].action(), Action::forward);
  EXPECT_EQ(relay.outstanding(Direction::to_host), 0u);
  EXPECT_EQ(relay.outstanding(Direction::to_server), 0u);
  // A result no MCP SDK reads, for a request outstanding: its substitute.
  ASSERT_EQ(relay.feed(Direction::to_server, std::string(kPing7) + "\n").size(), 1u);
  to_host = relay.feed(Direction::to_host, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":[]}\n");
  ASSERT_EQ(to_host.size(), 1u);
  EXPECT_EQ(to_host[0].kind(), Kind::invalid_response);
  EXPECT_EQ(to_host[0].action(), Action::substitute);
  EXPECT_EQ(to_host[0].action_text(), substitute_for("7"));
  EXPECT_EQ(relay.outstanding(Direction::to_host), 0u);
}

TEST(Relay, WhatIsNoMessageIsAnsweredToTheHostAndDivertedFromIt) {
  jsonrpc::Relay relay(Profile::mcp);
  jsonrpc::Batch to_server = relay.feed(Direction::to_server, "not json\n");
  ASSERT_EQ(to_server.size(), 1u);
  EXPECT_EQ(to_server[0].action(), Action::answer);
  EXPECT_EQ(to_server[0].action_text(), kParseErrorReply);
  EXPECT_FALSE(to_server[0].note().empty());
  jsonrpc::Batch to_host = relay.feed(Direction::to_host, "not json\n");
  ASSERT_EQ(to_host.size(), 1u);
  EXPECT_EQ(to_host[0].action(), Action::divert);
  EXPECT_FALSE(to_host[0].action_text().has_value());
  // An answer is a response: nothing is outstanding either way.
  EXPECT_EQ(relay.outstanding(Direction::to_server), 0u);
  EXPECT_EQ(relay.outstanding(Direction::to_host), 0u);
}

// A server transport's SDK writes a request to the host: the host's error
// whose id is null is given that request's id.
TEST(Relay, WroteNotesALineThatWentNotThroughTheRelay) {
  jsonrpc::Relay relay(Profile::mcp);
  EXPECT_EQ(relay.wrote(Direction::to_host, R"({"jsonrpc":"2.0","id":"s1","method":"roots/list"})"), Status::ok);
  EXPECT_EQ(relay.outstanding(Direction::to_server), 1u);
  EXPECT_EQ(relay.outstanding(Direction::to_host), 0u);
  jsonrpc::Batch to_server = relay.feed(
      Direction::to_server, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"x\"}}\n");
  ASSERT_EQ(to_server.size(), 1u);
  EXPECT_EQ(to_server[0].action(), Action::attribute);
  EXPECT_EQ(to_server[0].action_text(), R"({"jsonrpc":"2.0","id":"s1","error":{"code":-32600,"message":"x"}})");
  EXPECT_EQ(relay.outstanding(Direction::to_server), 0u);
  // A response or a notification written changes nothing.
  EXPECT_EQ(relay.wrote(Direction::to_host, R"({"jsonrpc":"2.0","id":1,"result":{}})"), Status::ok);
  EXPECT_EQ(relay.wrote(Direction::to_host, R"({"jsonrpc":"2.0","method":"notifications/progress"})"), Status::ok);
  EXPECT_EQ(relay.outstanding(Direction::to_server), 0u);
}

// SPEC §10.4 through the relay: a request the SDK refused is answered back
// to its sender; a response is substituted, and its substitute refused in
// its turn is dropped; so the loop ends by the second refusal.
TEST(Relay, RefusedTwiceIsSettledByADrop) {
  jsonrpc::Relay relay(Profile::mcp);
  jsonrpc::Decision request = relay.refused(Direction::to_server, R"({"jsonrpc":"2.0","id":1,"method":"x/y"})");
  EXPECT_TRUE(request.ok());
  EXPECT_EQ(request.action, Action::answer);
  EXPECT_EQ(request.text, refused_reply_for("1"));
  EXPECT_FALSE(request.note.empty());

  ASSERT_EQ(relay.wrote(Direction::to_server, R"({"jsonrpc":"2.0","id":4,"method":"ping"})"), Status::ok);
  EXPECT_EQ(relay.outstanding(Direction::to_host), 1u);
  jsonrpc::Decision first = relay.refused(Direction::to_host, R"({"jsonrpc":"2.0","id":4,"result":{}})");
  EXPECT_TRUE(first.ok());
  EXPECT_EQ(first.action, Action::substitute);
  EXPECT_EQ(first.text, substitute_for("4"));
  EXPECT_FALSE(first.note.empty());
  EXPECT_EQ(relay.outstanding(Direction::to_host), 0u);  // the substitute answers it
  jsonrpc::Decision second = relay.refused(Direction::to_host, substitute_for("4"));
  EXPECT_TRUE(second.ok());
  EXPECT_EQ(second.action, Action::drop);
  EXPECT_FALSE(second.text.has_value());
  EXPECT_FALSE(second.note.empty());

  jsonrpc::Decision other = relay.refused(Direction::to_host, R"({"jsonrpc":"2.0","method":"notifications/progress"})");
  EXPECT_EQ(other.action, Action::drop);
  EXPECT_FALSE(other.text.has_value());
}

// The loop of a transport (the header's comment), with an SDK that refuses
// every line: the request's reply goes back, the response's substitute is
// tried once, and the loop stops.
TEST(Relay, TheRefusalLoopEndsByTheSecondRefusal) {
  jsonrpc::Relay relay(Profile::mcp);
  ASSERT_EQ(relay.wrote(Direction::to_server, R"({"jsonrpc":"2.0","id":9,"method":"ping"})"), Status::ok);
  Direction in = Direction::to_host;
  struct Run {
    std::vector<std::string> tried;
    std::vector<std::string> written_back;
  };
  auto deliver = [&relay, in](std::string bytes) {
    Run run;
    for (int turn = 0; turn < 5; ++turn) {
      run.tried.push_back(bytes);  // the SDK refuses it
      jsonrpc::Decision d = relay.refused(in, bytes);
      std::optional<Direction> to = jsonrpc::goes(d.action, in);
      if (to == in) {
        bytes = *d.text;
        continue;
      }
      if (to) run.written_back.push_back(*d.text);
      break;
    }
    return run;
  };
  Run response = deliver(R"({"jsonrpc":"2.0","id":9,"result":{}})");
  EXPECT_EQ(response.tried, (std::vector<std::string>{R"({"jsonrpc":"2.0","id":9,"result":{}})", substitute_for("9")}));
  EXPECT_TRUE(response.written_back.empty());
  Run request = deliver(R"({"jsonrpc":"2.0","id":"r","method":"sampling/createMessage"})");
  EXPECT_EQ(request.tried.size(), 1u);
  EXPECT_EQ(request.written_back, std::vector<std::string>{refused_reply_for("\"r\"")});
}

TEST(Relay, EndDecidesTheLastLineOfOneDirection) {
  jsonrpc::Relay relay(Profile::mcp, 64);
  ASSERT_EQ(relay.feed(Direction::to_server, std::string(kPing7) + "\n").size(), 1u);
  EXPECT_TRUE(relay.feed(Direction::to_host, R"({"jsonrpc":"2.0","id":7,"result":[]})").empty());
  EXPECT_TRUE(relay.end(Direction::to_server).empty());  // the other direction's stream is its own
  jsonrpc::Batch last = relay.end(Direction::to_host);
  ASSERT_TRUE(last.ok());
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].number(), 1u);
  EXPECT_EQ(last[0].action(), Action::substitute);
  EXPECT_EQ(last[0].action_text(), substitute_for("7"));
  EXPECT_TRUE(relay.end(Direction::to_host).empty());
  // The line limit: 64 bytes.
  jsonrpc::Batch long_line = relay.feed(Direction::to_host, std::string(65, 'x') + "\n" + std::string(64, ' ') + "\n");
  ASSERT_EQ(long_line.size(), 2u);
  EXPECT_TRUE(long_line[0].too_long());
  EXPECT_EQ(long_line[0].action(), Action::drop);
  EXPECT_FALSE(long_line[1].too_long());
}

// A batch of each direction is valid at once, until the next feed or end of
// its own direction, through a move of the relay.
TEST(Relay, ABatchIsValidUntilTheNextCallOfItsDirection) {
  std::optional<jsonrpc::Relay> relay(std::in_place, Profile::mcp);
  jsonrpc::Batch to_server = relay->feed(Direction::to_server, "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\"}\n[1]\n");
  jsonrpc::Batch to_host = relay->feed(Direction::to_host, "banner\n{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":1,\"message\":\"m\"}}\n{");
  EXPECT_EQ(relay->wrote(Direction::to_host, R"({"jsonrpc":"2.0","id":2,"method":"m"})"), Status::ok);
  jsonrpc::Decision refused = relay->refused(Direction::to_server, R"({"jsonrpc":"2.0","id":3,"method":"m"})");
  EXPECT_EQ(refused.action, Action::answer);
  jsonrpc::Relay moved(std::move(*relay));
  EXPECT_FALSE(relay->valid());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  relay.reset();
  ASSERT_EQ(to_server.size(), 2u);
  EXPECT_EQ(to_server[0].text(), R"({"jsonrpc":"2.0","id":"a","method":"m"})");
  EXPECT_EQ(to_server[0].action(), Action::forward);
  EXPECT_EQ(to_server[1].action(), Action::answer);
  ASSERT_TRUE(to_server[1].action_text().has_value());
  ASSERT_EQ(to_host.size(), 2u);
  EXPECT_EQ(to_host[0].text(), "banner");
  EXPECT_EQ(to_host[0].action(), Action::divert);
  EXPECT_EQ(to_host[1].action(), Action::attribute);  // to the request "a", handed on to the server
  EXPECT_EQ(to_host[1].action_text(), R"({"jsonrpc":"2.0","id":"a","error":{"code":1,"message":"m"}})");
  // The moved relay kept both streams and the request written to the host.
  EXPECT_EQ(moved.outstanding(Direction::to_server), 1u);
  jsonrpc::Batch rest = moved.feed(Direction::to_host, "}\n");
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].number(), 3u);
  EXPECT_EQ(rest[0].text(), "{}");
}

TEST(Relay, ADirectionCastFromAnotherValueIsRefusedByTheLibrary) {
  jsonrpc::Relay relay(Profile::mcp);
  for (std::uint32_t value : {0u, 3u, 0xFFFFFFFFu}) {
    const Direction bad = static_cast<Direction>(value);
    jsonrpc::Batch fed = relay.feed(bad, std::string(kPing7) + "\n");
    EXPECT_EQ(fed.status(), Status::unknown_direction);
    EXPECT_FALSE(fed.ok());
    EXPECT_TRUE(fed.empty());
    EXPECT_EQ(relay.end(bad).status(), Status::unknown_direction);
    EXPECT_EQ(relay.wrote(bad, kPing7), Status::unknown_direction);
    jsonrpc::Decision decision = relay.refused(bad, kPing7);
    EXPECT_EQ(decision.status, Status::unknown_direction);
    EXPECT_FALSE(decision.ok());
    EXPECT_EQ(decision.action, Action::none);
    EXPECT_FALSE(decision.text.has_value());
    EXPECT_EQ(relay.outstanding(bad), 0u);
  }
  // Nothing of it was taken.
  EXPECT_EQ(relay.outstanding(Direction::to_server), 0u);
  EXPECT_EQ(relay.outstanding(Direction::to_host), 0u);
  jsonrpc::Batch good = relay.feed(Direction::to_server, std::string(kPing7) + "\n");
  ASSERT_EQ(good.size(), 1u);
  EXPECT_EQ(good[0].number(), 1u);
}

TEST(Relay, AProfileCastFromAnotherValueIsRefusedByTheLibrary) {
  for (std::uint32_t value : {0u, 3u, 0xFFFFFFFFu}) {
    jsonrpc::Relay relay(static_cast<Profile>(value));
    EXPECT_FALSE(relay.valid());
    EXPECT_EQ(relay.feed(Direction::to_server, "{}\n").status(), Status::null_argument);
  }
  EXPECT_TRUE(jsonrpc::Relay(Profile::jsonrpc).valid());
}

TEST(Relay, TheJsonRpcProfileKeepsNoIds) {
  jsonrpc::Relay relay(Profile::jsonrpc);
  ASSERT_EQ(relay.feed(Direction::to_server, std::string(kPing7) + "\n").size(), 1u);
  EXPECT_EQ(relay.wrote(Direction::to_host, R"({"jsonrpc":"2.0","id":8,"method":"ping"})"), Status::ok);
  EXPECT_EQ(relay.outstanding(Direction::to_host), 0u);
  EXPECT_EQ(relay.outstanding(Direction::to_server), 0u);
}

TEST(Relay, AnEmptyRelayRefusesEveryCall) {
  jsonrpc::Relay a(Profile::mcp);
  jsonrpc::Relay b(std::move(a));
  ASSERT_TRUE(b.valid());
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.raw(), nullptr);
  for (Direction direction : {Direction::to_server, Direction::to_host}) {
    EXPECT_EQ(a.feed(direction, "{}\n").status(), Status::null_argument);
    EXPECT_EQ(a.end(direction).status(), Status::null_argument);
    EXPECT_EQ(a.wrote(direction, "{}"), Status::null_argument);
    jsonrpc::Decision decision = a.refused(direction, "{}");
    EXPECT_EQ(decision.status, Status::null_argument);
    EXPECT_EQ(decision.action, Action::none);
    EXPECT_FALSE(decision.text.has_value());
    EXPECT_EQ(a.outstanding(direction), 0u);
  }
  a = std::move(b);
  EXPECT_EQ(a.feed(Direction::to_host, "{}\n").size(), 1u);
}

}  // namespace
