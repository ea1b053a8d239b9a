// test_wrapper.cpp: the shared vectors and the ownership rules, through the
// C++ layer (jsonrpc_envelope.hpp).
//
// The vectors come from the flat file that tests/c/flatten_vectors.py writes
// (path compiled in as JSONRPC_VECTORS_FLAT; the environment variable of the
// same name overrides it).

#include <jsonrpc_envelope.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "flat_vectors.hpp"

namespace jsonrpc {
// How GoogleTest prints a Span in a failure message.
inline void PrintTo(const Span& span, std::ostream* out) {
  *out << "{" << span.offset << "," << span.length << "}";
}
}  // namespace jsonrpc

namespace {

using jsonrpc::Kind;
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

  auto tied() const {
    return std::tie(too_long, length, text, kind, id_kind, id, method, flags, spans, reason, reply_server,
                    reply_client);
  }
  friend bool operator==(const Snapshot& a, const Snapshot& b) { return a.tied() == b.tied(); }
  friend bool operator!=(const Snapshot& a, const Snapshot& b) { return !(a == b); }
};

std::string show(const std::optional<std::string>& text) {
  return text ? ::testing::PrintToString(*text) : std::string("(absent)");
}

void PrintTo(const Snapshot& s, std::ostream* out) {
  *out << "{too_long=" << s.too_long << " length=" << s.length << " text=" << ::testing::PrintToString(s.text)
       << " kind=" << s.kind << " id_kind=" << s.id_kind << " id=" << show(s.id) << " method=" << show(s.method) << " flags=";
  for (bool f : s.flags) *out << f;
  *out << " spans=";
  for (const auto& span : s.spans) *out << (span ? ::testing::PrintToString(*span) : "-") << " ";
  *out << "reason=" << show(s.reason) << " reply_server=" << show(s.reply_server)
       << " reply_client=" << show(s.reply_client) << "}";
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
  return s;
}

Snapshot snapshot(const jsonrpc::Line& line) {
  Snapshot s = snapshot(line.classification(), line.text());
  s.too_long = line.too_long();
  s.length = line.length();
  return s;
}

// Every field of a classification against its vector.
::testing::AssertionResult matches(const Snapshot& got, const flat::EnvelopeVector& v) {
  auto fail = [&](const char* field) {
    return ::testing::AssertionFailure() << field << " differs for envelope.jsonl line " << v.at << " (\"" << v.name
                                         << "\")\n  got " << ::testing::PrintToString(got);
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
  return ::testing::AssertionSuccess();
}

// ---- the vectors, one line at a time -------------------------------------------

TEST(Vectors, Loaded) {
  ASSERT_EQ(vectors().error, "");
  EXPECT_GT(vectors().envelopes.size(), 50u);
  EXPECT_GT(vectors().logs.size(), 5u);
}

class EnvelopeVector : public ::testing::TestWithParam<std::size_t> {};

TEST_P(EnvelopeVector, EveryFieldAndBothReplies) {
  const flat::EnvelopeVector& v = vectors().envelopes.at(GetParam());
  ExactCopy line(v.line);
  jsonrpc::Classification c = jsonrpc::classify(line.view());
  EXPECT_TRUE(c.valid());
  EXPECT_TRUE(matches(snapshot(c, line.view()), v));

  // The same replies through reply(Role), and through jsonrpc_invalid_reply.
  EXPECT_EQ(owned(c.reply(Role::server)), v.reply_server);
  EXPECT_EQ(owned(c.reply(Role::client)), v.reply_client);
  EXPECT_EQ(jsonrpc::invalid_reply(line.view(), Role::server), v.reply_server);
  EXPECT_EQ(jsonrpc::invalid_reply(line.view(), Role::client), v.reply_client);
  jsonrpc::Reply server = jsonrpc::try_invalid_reply(line.view(), Role::server);
  EXPECT_EQ(server.status, Status::ok);
  EXPECT_EQ(server.text, v.reply_server);

  // The id is exactly the line's bytes at its span.
  if (c.id()) {
    ASSERT_TRUE(c.id_span().has_value());
    EXPECT_EQ(c.id_span()->in(line.view()), *c.id());
  }
  // Present strings are followed by a NUL byte (the C convention).
  for (const JsonRpcStr& str : {c.raw().id, c.raw().method, c.raw().reason, c.raw().reply_server,
                                c.raw().reply_client}) {
    if (str.ptr != nullptr) {
      EXPECT_EQ(str.ptr[str.len], '\0');
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Envelope, EnvelopeVector, ::testing::ValuesIn(indices(vectors().envelopes.size())),
                         envelope_test_name);

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

TEST(Enums, NamesAndValues) {
  EXPECT_EQ(to_string(Kind::none), "none");
  EXPECT_EQ(to_string(Kind::parse_error), "parse_error");
  EXPECT_EQ(to_string(Kind::not_jsonrpc), "not_jsonrpc");
  EXPECT_EQ(to_string(Kind::invalid_request), "invalid_request");
  EXPECT_EQ(to_string(jsonrpc::IdKind::absent), "absent");
  EXPECT_EQ(to_string(jsonrpc::IdKind::boolean), "boolean");
  EXPECT_EQ(to_string(Role::server), "server");
  EXPECT_EQ(to_string(Status::unknown_role), "unknown_role");
  EXPECT_EQ(to_string(static_cast<Kind>(99)), "unknown");
  static_assert(static_cast<std::uint32_t>(Role::server) == JSONRPC_ROLE_SERVER);
  static_assert(static_cast<std::uint32_t>(Role::client) == JSONRPC_ROLE_CLIENT);
  static_assert(static_cast<std::uint32_t>(Kind::not_jsonrpc) == JSONRPC_KIND_NOT_JSONRPC);
  static_assert(to_string(Kind::request) == "request");  // usable at compile time
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
static_assert(!std::is_copy_constructible_v<jsonrpc::Lines>);
static_assert(!std::is_copy_assignable_v<jsonrpc::Lines>);
static_assert(std::is_nothrow_move_constructible_v<jsonrpc::Lines>);
static_assert(std::is_nothrow_move_assignable_v<jsonrpc::Lines>);
static_assert(!std::is_copy_constructible_v<jsonrpc::LineReader>);
static_assert(std::is_nothrow_move_constructible_v<jsonrpc::LineReader>);
static_assert(std::is_nothrow_move_assignable_v<jsonrpc::LineReader>);
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

TEST(LogValue, EmptyAndBinary) {
  EXPECT_EQ(jsonrpc::log_value(std::string_view()), "");
  EXPECT_EQ(jsonrpc::try_log_value(std::string_view()), "");
  EXPECT_EQ(jsonrpc::log_value(std::string_view("a\0b", 3)), "a\\u0000b");
}

// ---- many lines --------------------------------------------------------------------

struct ReadResult {
  std::vector<Snapshot> items;
  std::size_t max_held = 0;
  std::size_t calls = 0;
};

// Feeds `stream` to a LineReader `chunk` bytes at a time, as a host reading
// a pipe would, and collects every item.
ReadResult read_stream(std::string_view stream, std::size_t chunk, std::size_t max_line = 0) {
  ReadResult result;
  jsonrpc::LineReader reader(max_line);
  auto drain = [&](jsonrpc::Lines lines) {
    ++result.calls;
    EXPECT_TRUE(lines.ok()) << to_string(lines.status());
    for (jsonrpc::Line line : lines) result.items.push_back(snapshot(line));
  };
  for (std::size_t pos = 0; pos < stream.size(); pos += chunk) {
    reader.append(stream.substr(pos, chunk));
    result.max_held = std::max(result.max_held, reader.buffered());
    drain(reader.take());
  }
  drain(reader.finish());
  EXPECT_EQ(reader.buffered(), 0u) << "bytes left at the end of the stream";
  return result;
}

// The first item that differs, as a failure.
::testing::AssertionResult same_items(const std::vector<Snapshot>& got, const std::vector<Snapshot>& want) {
  for (std::size_t i = 0; i < std::min(got.size(), want.size()); ++i) {
    if (got[i] != want[i]) {
      return ::testing::AssertionFailure() << "item " << i << " differs\n  got      "
                                           << ::testing::PrintToString(got[i]) << "\n  expected "
                                           << ::testing::PrintToString(want[i]);
    }
  }
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << got.size() << " items, expected " << want.size();
  }
  return ::testing::AssertionSuccess();
}

// The vector lines that hold no LF, which a stream can carry.
std::vector<const flat::EnvelopeVector*> streamable() {
  std::vector<const flat::EnvelopeVector*> out;
  for (const flat::EnvelopeVector& v : vectors().envelopes) {
    if (v.line.find('\n') == std::string::npos) out.push_back(&v);
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

TEST(LineReader, EveryVectorAtEveryChunkSizeLF) {
  std::vector<const flat::EnvelopeVector*> lines = streamable();
  ASSERT_GT(lines.size(), 50u);
  std::string stream = join(lines, "\n");
  ReadResult whole = read_stream(stream, stream.size());
  ASSERT_EQ(whole.items.size(), lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    ASSERT_TRUE(matches(whole.items[i], *lines[i])) << "item " << i;
    ASSERT_EQ(whole.items[i].text, lines[i]->line);
  }
  for (std::size_t chunk = 1; chunk <= 64; ++chunk) {
    ReadResult read = read_stream(stream, chunk);
    ASSERT_TRUE(same_items(read.items, whole.items)) << "chunks of " << chunk;
  }
}

TEST(LineReader, EveryVectorAtEveryChunkSizeCRLF) {
  std::vector<const flat::EnvelopeVector*> lines = streamable();
  std::string stream = join(lines, "\r\n");
  // A CR before the LF stays in the line, as whitespace: each item is what
  // classify gives for the line with its CR (the last line has none).
  std::vector<Snapshot> want;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string line = lines[i]->line + (i + 1 < lines.size() ? "\r" : "");
    want.push_back(snapshot(jsonrpc::classify(line), line));
    EXPECT_EQ(want.back().kind, lines[i]->kind) << "envelope.jsonl line " << lines[i]->at;
  }
  for (std::size_t chunk = 1; chunk <= 65; ++chunk) {
    std::size_t size = chunk == 65 ? stream.size() : chunk;
    ReadResult read = read_stream(stream, size);
    ASSERT_TRUE(same_items(read.items, want)) << "chunks of " << size;
  }
}

TEST(LineReader, TooLongLinesAtEveryChunkSize) {
  constexpr std::size_t kMaxLine = 10;
  std::string stream = "{\"id\":1}\n" + std::string(25, 'x') + "\n{}\n" + std::string(11, 'y') + "\n" +
                       std::string(10, 'z') + "\n";
  for (std::size_t chunk = 1; chunk <= 64; ++chunk) {
    ReadResult read = read_stream(stream, chunk, kMaxLine);
    ASSERT_EQ(read.items.size(), 5u) << "chunks of " << chunk;
    EXPECT_EQ(read.items[0].kind, "response");
    EXPECT_EQ(read.items[0].text, "{\"id\":1}");
    EXPECT_TRUE(read.items[1].too_long);
    EXPECT_EQ(read.items[1].length, 25u);
    EXPECT_EQ(read.items[1].kind, "none");
    EXPECT_EQ(read.items[1].text, "");
    EXPECT_FALSE(read.items[1].reply_server || read.items[1].reply_client);
    EXPECT_EQ(read.items[2].kind, "not_jsonrpc");
    EXPECT_TRUE(read.items[3].too_long);  // one byte over
    EXPECT_EQ(read.items[3].length, 11u);
    EXPECT_FALSE(read.items[4].too_long);  // exactly the limit is kept
    EXPECT_EQ(read.items[4].text, std::string(10, 'z'));
    EXPECT_EQ(read.items[4].kind, "parse_error");
    EXPECT_LE(read.max_held, kMaxLine + chunk) << "chunks of " << chunk;
  }
}

TEST(LineReader, TooLongLineAtTheEndOfTheStream) {
  ReadResult read = read_stream("{}\n" + std::string(100, 'x'), 7, 10);
  ASSERT_EQ(read.items.size(), 2u);
  EXPECT_TRUE(read.items[1].too_long);
  EXPECT_EQ(read.items[1].length, 100u);
  EXPECT_LE(read.max_held, 17u);
}

TEST(LineReader, LastLineWithoutLFOnlyAtTheEnd) {
  jsonrpc::LineReader reader;
  reader.append("{\"id\":1}\n{\"id\":2}");
  jsonrpc::Lines first = reader.take();
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first.consumed(), 9u);
  EXPECT_EQ(reader.buffered(), 8u);
  jsonrpc::Lines last = reader.finish();
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].text(), "{\"id\":2}");
  EXPECT_EQ(last[0].classification().id(), "2");
  EXPECT_TRUE(reader.finish().empty());
}

TEST(LineReader, EmptyStreamAndEmptyLines) {
  EXPECT_TRUE(read_stream("", 1).items.empty());
  ReadResult read = read_stream("\n\r\n", 1);
  ASSERT_EQ(read.items.size(), 2u);
  EXPECT_EQ(read.items[0].kind, "empty");
  EXPECT_EQ(read.items[1].text, "\r");
  EXPECT_EQ(read.items[1].kind, "empty");
}

TEST(LineReader, LinesOutliveTheReaderAndMoves) {
  std::optional<jsonrpc::LineReader> reader(std::in_place);
  reader->append("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\"}\n[1]\n{\"partial\":");
  jsonrpc::Lines lines = reader->take();
  reader->append(std::string(4096, ' '));  // the reader's buffer moves on
  reader.reset();                          // and goes away
  jsonrpc::Lines moved(std::move(lines));
  EXPECT_TRUE(lines.empty());  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(lines.begin(), lines.end());
  ASSERT_EQ(moved.size(), 2u);
  std::vector<jsonrpc::Line> items(moved.begin(), moved.end());
  jsonrpc::Lines target;
  target = std::move(moved);
  EXPECT_EQ(items[0].text(), "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"m\"}");
  EXPECT_EQ(items[0].classification().id(), "\"a\"");
  EXPECT_EQ(items[1].text(), "[1]");
  EXPECT_EQ(items[1].classification().kind(), Kind::batch);
  EXPECT_TRUE(items[1].classification().reply(Role::server).has_value());
  EXPECT_FALSE(items[1].classification().reply(Role::client).has_value());
  target = jsonrpc::Lines();  // frees; the views are gone with it
  EXPECT_TRUE(target.empty());
}

// A long line that arrives in many pieces comes out once, whole, when its
// LF arrives; until then take() returns nothing and the reader holds it
// all (without calling the library over it again at every piece).
TEST(LineReader, LongLineInManyPieces) {
  const std::string line = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"m\",\"params\":\"" +
                           std::string(std::size_t{2} << 20, 'p') + "\"}";
  jsonrpc::LineReader reader;
  const std::size_t piece = 4096;
  for (std::size_t pos = 0; pos < line.size(); pos += piece) {
    reader.append(std::string_view(line).substr(pos, piece));
    ASSERT_TRUE(reader.take().empty()) << "at " << pos;
    ASSERT_EQ(reader.buffered(), std::min(pos + piece, line.size()));
  }
  reader.append("\n{}");
  jsonrpc::Lines lines = reader.take();
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].text(), line);
  EXPECT_EQ(lines[0].classification().kind(), Kind::request);
  EXPECT_EQ(lines[0].classification().id(), "7");
  EXPECT_EQ(reader.buffered(), 2u);
  jsonrpc::Lines last = reader.finish();
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].text(), "{}");
}

TEST(LineReader, MovedReaderKeepsItsStream) {
  jsonrpc::LineReader a(5);
  a.append("12345678");  // over the limit, dropped as it comes
  EXPECT_TRUE(a.take().empty());
  EXPECT_EQ(a.buffered(), 0u);
  jsonrpc::LineReader b(std::move(a));
  b.append("9\n{}\n");
  jsonrpc::Lines lines = b.take();
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_TRUE(lines[0].too_long());
  EXPECT_EQ(lines[0].length(), 9u);
  EXPECT_EQ(lines[1].classification().kind(), Kind::not_jsonrpc);
}

}  // namespace
