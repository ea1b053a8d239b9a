// jsonrpc_envelope.hpp: the C++17 layer over jsonrpc_envelope.h.
//
// Header-only. It converts types and frees memory, and nothing else: every
// kind, reply and reason comes from the library (SPEC.md), never from here.
//
//   jsonrpc::Classification c = jsonrpc::classify(line);
//   if (c.kind() == jsonrpc::Kind::request) { ... c.id(), c.method() ... }
//   if (auto reply = c.reply(jsonrpc::Role::server)) { write(*reply); }
//
// Ownership: `Classification` and `Lines` own their C results and free them
// in their destructors; they are move-only, and a moved-from object is empty
// (kind `none`), so nothing is ever freed twice. Accessors return
// `std::string_view` into the owned strings: valid while the owner lives.
//
// Errors travel in results, never as exceptions: the only exception this
// header can let through is std::bad_alloc from its own std::string and
// std::vector, so it also builds with -fno-exceptions.
//
// Thread safety is the library's: no shared state; one object, one thread
// at a time.

#ifndef JSONRPC_ENVELOPE_HPP
#define JSONRPC_ENVELOPE_HPP

#if !(__cplusplus >= 201703L || (defined(_MSVC_LANG) && _MSVC_LANG >= 201703L))
#error "jsonrpc_envelope.hpp needs C++17 or newer"
#endif

#include "jsonrpc_envelope.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jsonrpc {

// ---- enumerations ----------------------------------------------------------

/// What a line is (SPEC §2). `none` is not a line's kind: it is an empty
/// (moved-from) result, a too_long item, or a call that failed inside the
/// library.
enum class Kind : std::uint32_t {
  none = JSONRPC_KIND_NONE,
  empty = JSONRPC_KIND_EMPTY,
  parse_error = JSONRPC_KIND_PARSE_ERROR,
  batch = JSONRPC_KIND_BATCH,
  not_object = JSONRPC_KIND_NOT_OBJECT,
  invalid_request = JSONRPC_KIND_INVALID_REQUEST,
  request = JSONRPC_KIND_REQUEST,
  notification = JSONRPC_KIND_NOTIFICATION,
  response = JSONRPC_KIND_RESPONSE,
  not_jsonrpc = JSONRPC_KIND_NOT_JSONRPC,
};

/// What the `id` member holds (SPEC §3).
enum class IdKind : std::uint32_t {
  absent = JSONRPC_ID_ABSENT,
  null = JSONRPC_ID_NULL,
  string = JSONRPC_ID_STRING,
  number = JSONRPC_ID_NUMBER,
  object = JSONRPC_ID_OBJECT,
  array = JSONRPC_ID_ARRAY,
  boolean = JSONRPC_ID_BOOLEAN,
};

/// Which endpoint reads the line (SPEC §4). There is deliberately no
/// "unknown" value.
enum class Role : std::uint32_t {
  server = JSONRPC_ROLE_SERVER,  ///< reads its client's input (a server's stdin)
  client = JSONRPC_ROLE_CLIENT,  ///< reads a server's output (a host reading stdout)
};

/// How a call that can fail went.
enum class Status : std::uint32_t {
  ok = JSONRPC_STATUS_OK,
  unknown_role = JSONRPC_STATUS_UNKNOWN_ROLE,
  null_argument = JSONRPC_STATUS_NULL_ARGUMENT,
  out_of_memory = JSONRPC_STATUS_OUT_OF_MEMORY,
  internal_error = JSONRPC_STATUS_INTERNAL_ERROR,
};

/// The kind's name as the test vectors write it (`parse_error`, ...).
[[nodiscard]] constexpr std::string_view to_string(Kind kind) noexcept {
  switch (kind) {
    case Kind::none: return "none";
    case Kind::empty: return "empty";
    case Kind::parse_error: return "parse_error";
    case Kind::batch: return "batch";
    case Kind::not_object: return "not_object";
    case Kind::invalid_request: return "invalid_request";
    case Kind::request: return "request";
    case Kind::notification: return "notification";
    case Kind::response: return "response";
    case Kind::not_jsonrpc: return "not_jsonrpc";
  }
  return "unknown";
}

/// The id kind's name as the test vectors write it (`absent`, `null`, ...).
[[nodiscard]] constexpr std::string_view to_string(IdKind id_kind) noexcept {
  switch (id_kind) {
    case IdKind::absent: return "absent";
    case IdKind::null: return "null";
    case IdKind::string: return "string";
    case IdKind::number: return "number";
    case IdKind::object: return "object";
    case IdKind::array: return "array";
    case IdKind::boolean: return "boolean";
  }
  return "unknown";
}

[[nodiscard]] constexpr std::string_view to_string(Role role) noexcept {
  switch (role) {
    case Role::server: return "server";
    case Role::client: return "client";
  }
  return "unknown";
}

[[nodiscard]] constexpr std::string_view to_string(Status status) noexcept {
  switch (status) {
    case Status::ok: return "ok";
    case Status::unknown_role: return "unknown_role";
    case Status::null_argument: return "null_argument";
    case Status::out_of_memory: return "out_of_memory";
    case Status::internal_error: return "internal_error";
  }
  return "unknown";
}

// ---- versions --------------------------------------------------------------

/// The library's version, such as "0.1.0".
[[nodiscard]] inline std::string_view version() noexcept {
  const char* text = jsonrpc_version();
  return text != nullptr ? std::string_view(text) : std::string_view();
}

/// The loaded library's ABI version.
[[nodiscard]] inline std::uint32_t abi_version() noexcept { return jsonrpc_abi_version(); }

/// Whether the loaded library has the ABI this header was written for. A
/// host checks it once at start-up.
[[nodiscard]] inline bool abi_compatible() noexcept {
  return jsonrpc_abi_version() == JSONRPC_ABI_VERSION;
}

// ---- spans -----------------------------------------------------------------

/// Where a member's value stands in the line, in bytes from its first byte.
struct Span {
  std::size_t offset = 0;
  std::size_t length = 0;

  /// The bytes of `line` this span covers (empty if it does not fit in it).
  [[nodiscard]] constexpr std::string_view in(std::string_view line) const noexcept {
    if (offset > line.size() || length > line.size() - offset) {
      return std::string_view();
    }
    return std::string_view(line.data() + offset, length);
  }

  friend constexpr bool operator==(Span a, Span b) noexcept {
    return a.offset == b.offset && a.length == b.length;
  }
  friend constexpr bool operator!=(Span a, Span b) noexcept { return !(a == b); }
};

namespace detail {

inline const std::uint8_t* bytes(std::string_view text) noexcept {
  return reinterpret_cast<const std::uint8_t*>(text.data());
}

inline std::optional<std::string_view> view(JsonRpcStr str) noexcept {
  if (str.ptr == nullptr) {
    return std::nullopt;
  }
  return std::string_view(str.ptr, str.len);
}

inline std::optional<Span> span(JsonRpcSpan span) noexcept {
  if (span.len == 0) {
    return std::nullopt;
  }
  return Span{span.offset, span.len};
}

/// Owns a JsonRpcString for the length of a conversion.
class OwnedString {
 public:
  explicit OwnedString(JsonRpcString string) noexcept : string_(string) {}
  ~OwnedString() { jsonrpc_string_free(&string_); }
  OwnedString(const OwnedString&) = delete;
  OwnedString& operator=(const OwnedString&) = delete;

  [[nodiscard]] std::optional<std::string> copy() const {
    if (string_.ptr == nullptr) {
      return std::nullopt;
    }
    return std::string(string_.ptr, string_.len);
  }

 private:
  JsonRpcString string_;
};

/// The accessors shared by an owned classification and a view of one.
/// `Self` provides `const JsonRpcClassification& raw() const noexcept`.
template <class Self>
class ClassificationFields {
 public:
  /// The line's kind; `Kind::none` for an empty result (see `Kind`).
  [[nodiscard]] Kind kind() const noexcept { return static_cast<Kind>(c().kind); }
  [[nodiscard]] IdKind id_kind() const noexcept { return static_cast<IdKind>(c().id_kind); }

  /// False for an empty result: moved-from, a too_long item, or a call that
  /// failed inside the library (whose `reason()` says why).
  [[nodiscard]] bool valid() const noexcept { return kind() != Kind::none; }

  /// The id's exact JSON text (`7`, `"a"`, `null`, ...); absent without an
  /// `id` member.
  [[nodiscard]] std::optional<std::string_view> id() const noexcept { return view(c().id); }
  /// The decoded method, where `method` is a string.
  [[nodiscard]] std::optional<std::string_view> method() const noexcept {
    return view(c().method);
  }
  /// What is wrong, for invalid_request and parse_error (and a failed call).
  [[nodiscard]] std::optional<std::string_view> reason() const noexcept {
    return view(c().reason);
  }
  [[nodiscard]] std::optional<std::string_view> reply_server() const noexcept {
    return view(c().reply_server);
  }
  [[nodiscard]] std::optional<std::string_view> reply_client() const noexcept {
    return view(c().reply_client);
  }
  /// The reply the endpoint in `role` owes for the line, if any.
  [[nodiscard]] std::optional<std::string_view> reply(Role role) const noexcept {
    switch (role) {
      case Role::server: return reply_server();
      case Role::client: return reply_client();
    }
    return std::nullopt;
  }

  [[nodiscard]] bool jsonrpc_2_0() const noexcept { return c().jsonrpc_2_0; }
  [[nodiscard]] bool has_result() const noexcept { return c().has_result; }
  [[nodiscard]] bool has_error() const noexcept { return c().has_error; }
  [[nodiscard]] bool names_no_request() const noexcept { return c().names_no_request; }

  /// Where the members' values stand in the line (`Span::in(line)`).
  [[nodiscard]] std::optional<Span> id_span() const noexcept { return span(c().id_span); }
  [[nodiscard]] std::optional<Span> method_span() const noexcept {
    return span(c().method_span);
  }
  [[nodiscard]] std::optional<Span> params_span() const noexcept {
    return span(c().params_span);
  }
  [[nodiscard]] std::optional<Span> result_span() const noexcept {
    return span(c().result_span);
  }
  [[nodiscard]] std::optional<Span> error_span() const noexcept {
    return span(c().error_span);
  }

 protected:
  ClassificationFields() noexcept = default;
  ~ClassificationFields() = default;
  ClassificationFields(const ClassificationFields&) noexcept = default;
  ClassificationFields& operator=(const ClassificationFields&) noexcept = default;

 private:
  const JsonRpcClassification& c() const noexcept {
    return static_cast<const Self&>(*this).raw();
  }
};

}  // namespace detail

// ---- one line --------------------------------------------------------------

/// A borrowed classification: an item of `Lines`, or `Classification::view()`.
/// Valid while what it was taken from lives.
class ClassificationView : public detail::ClassificationFields<ClassificationView> {
 public:
  explicit ClassificationView(const JsonRpcClassification& raw) noexcept : raw_(&raw) {}
  [[nodiscard]] const JsonRpcClassification& raw() const noexcept { return *raw_; }

 private:
  const JsonRpcClassification* raw_;
};

/// What a line is and what it carries (SPEC §3). Owns the C result and frees
/// it once; move-only; a moved-from Classification is empty (`Kind::none`).
class [[nodiscard]] Classification : public detail::ClassificationFields<Classification> {
 public:
  /// An empty result (`Kind::none`).
  Classification() noexcept = default;

  /// Takes ownership of a result of `jsonrpc_classify`, and zeroes `raw` so
  /// that freeing it again is harmless.
  [[nodiscard]] static Classification adopt(JsonRpcClassification& raw) noexcept {
    Classification owned;
    owned.raw_ = std::exchange(raw, JsonRpcClassification{});
    return owned;
  }

  ~Classification() { jsonrpc_classification_free(&raw_); }

  Classification(const Classification&) = delete;
  Classification& operator=(const Classification&) = delete;

  Classification(Classification&& other) noexcept
      : raw_(std::exchange(other.raw_, JsonRpcClassification{})) {}

  Classification& operator=(Classification&& other) noexcept {
    if (this != &other) {
      jsonrpc_classification_free(&raw_);
      raw_ = std::exchange(other.raw_, JsonRpcClassification{});
    }
    return *this;
  }

  /// The C result, still owned by this object.
  [[nodiscard]] const JsonRpcClassification& raw() const noexcept { return raw_; }

  /// Gives up ownership: the caller frees the result with
  /// `jsonrpc_classification_free`; this object is left empty.
  [[nodiscard]] JsonRpcClassification release() noexcept {
    return std::exchange(raw_, JsonRpcClassification{});
  }

  [[nodiscard]] ClassificationView view() const noexcept { return ClassificationView(raw_); }

 private:
  JsonRpcClassification raw_{};
};

/// Classifies one line (no LF needed; a trailing CR or LF is whitespace).
/// The result's kind is `Kind::none` only when the call failed inside the
/// library; its `reason()` then says why.
[[nodiscard]] inline Classification classify(std::string_view line) noexcept {
  JsonRpcClassification raw = jsonrpc_classify(detail::bytes(line), line.size());
  return Classification::adopt(raw);
}

/// The answer of `try_invalid_reply`.
struct [[nodiscard]] Reply {
  Status status = Status::ok;
  /// The reply when `status` is ok and one is owed.
  std::optional<std::string> text;

  [[nodiscard]] bool ok() const noexcept { return status == Status::ok; }
};

/// The one reply the endpoint in `role` owes for `line` (SPEC §4), with the
/// call's status: not ok only if the library failed (out of memory, or an
/// internal fault) or `role` was cast from a value that is not a Role.
[[nodiscard]] inline Reply try_invalid_reply(std::string_view line, Role role) {
  JsonRpcReply raw = jsonrpc_invalid_reply(detail::bytes(line), line.size(),
                                           static_cast<std::uint32_t>(role));
  detail::OwnedString text(raw.text);
  return Reply{static_cast<Status>(raw.status), text.copy()};
}

/// The one reply the endpoint in `role` owes for `line`, or nullopt for none
/// (and when the call failed: use `try_invalid_reply` to tell the two apart).
[[nodiscard]] inline std::optional<std::string> invalid_reply(std::string_view line, Role role) {
  return try_invalid_reply(line, role).text;
}

/// A peer's bytes rendered for one log line (SPEC §5), or nullopt if the
/// call failed inside the library.
[[nodiscard]] inline std::optional<std::string> try_log_value(std::string_view data) {
  detail::OwnedString text(jsonrpc_log_value(detail::bytes(data), data.size()));
  return text.copy();
}

/// A peer's bytes rendered for one log line (SPEC §5): control, line
/// separator and bidi characters escaped, cut at 256 UTF-16 units. Empty if
/// the call failed inside the library (`try_log_value` tells).
[[nodiscard]] inline std::string log_value(std::string_view data) {
  std::optional<std::string> text = try_log_value(data);
  return text ? std::move(*text) : std::string();
}

// ---- many lines from a stream ----------------------------------------------

class Lines;

/// One item of `Lines`: a complete line and its classification, or a line
/// over the limit (`too_long()`), which has no text, no classification
/// (`Kind::none`) and owes no reply. Valid while its `Lines` lives.
class Line {
 public:
  [[nodiscard]] bool too_long() const noexcept { return item_->too_long; }
  /// The line's length in bytes, LF excluded (a too_long line's whole length).
  [[nodiscard]] std::size_t length() const noexcept { return item_->len; }
  /// The line's bytes, LF excluded (a CR before it stays); empty for too_long.
  [[nodiscard]] std::string_view text() const noexcept {
    if (item_->too_long) {
      return std::string_view();
    }
    return Span{item_->offset, item_->len}.in(bytes_);
  }
  /// The line's classification; its spans count from the line's first byte.
  [[nodiscard]] ClassificationView classification() const noexcept {
    return ClassificationView(item_->classification);
  }
  [[nodiscard]] const JsonRpcLine& raw() const noexcept { return *item_; }

 private:
  friend class Lines;
  Line(const JsonRpcLine& item, std::string_view bytes) noexcept : item_(&item), bytes_(bytes) {}

  const JsonRpcLine* item_;
  std::string_view bytes_;
};

/// The lines one `LineReader::take` found, in stream order. Owns the C result
/// and the bytes its lines were read from; move-only.
class [[nodiscard]] Lines {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Line;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Line;

    iterator() noexcept = default;
    [[nodiscard]] Line operator*() const noexcept { return (*lines_)[index_]; }
    iterator& operator++() noexcept {
      ++index_;
      return *this;
    }
    iterator operator++(int) noexcept {
      iterator before = *this;
      ++index_;
      return before;
    }
    friend bool operator==(const iterator& a, const iterator& b) noexcept {
      return a.lines_ == b.lines_ && a.index_ == b.index_;
    }
    friend bool operator!=(const iterator& a, const iterator& b) noexcept { return !(a == b); }

   private:
    friend class Lines;
    iterator(const Lines* lines, std::size_t index) noexcept : lines_(lines), index_(index) {}
    const Lines* lines_ = nullptr;
    std::size_t index_ = 0;
  };

  Lines() noexcept = default;
  ~Lines() { jsonrpc_lines_free(&raw_); }

  Lines(const Lines&) = delete;
  Lines& operator=(const Lines&) = delete;

  Lines(Lines&& other) noexcept
      : raw_(std::exchange(other.raw_, JsonRpcLines{})),
        bytes_(std::exchange(other.bytes_, std::vector<char>())) {}

  Lines& operator=(Lines&& other) noexcept {
    if (this != &other) {
      jsonrpc_lines_free(&raw_);
      raw_ = std::exchange(other.raw_, JsonRpcLines{});
      bytes_ = std::exchange(other.bytes_, std::vector<char>());
    }
    return *this;
  }

  /// Not ok only when the library failed; then there are no items and the
  /// reader kept every byte.
  [[nodiscard]] Status status() const noexcept { return static_cast<Status>(raw_.status); }
  [[nodiscard]] bool ok() const noexcept { return status() == Status::ok; }

  [[nodiscard]] std::size_t size() const noexcept { return raw_.count; }
  [[nodiscard]] bool empty() const noexcept { return raw_.count == 0; }
  /// How many bytes of the reader's buffer this call consumed.
  [[nodiscard]] std::size_t consumed() const noexcept { return raw_.consumed; }

  /// Item `index`, which must be below `size()`.
  [[nodiscard]] Line operator[](std::size_t index) const noexcept {
    return Line(raw_.items[index], std::string_view(bytes_.data(), bytes_.size()));
  }
  [[nodiscard]] iterator begin() const noexcept { return iterator(this, 0); }
  [[nodiscard]] iterator end() const noexcept { return iterator(this, raw_.count); }

  [[nodiscard]] const JsonRpcLines& raw() const noexcept { return raw_; }

 private:
  friend class LineReader;
  JsonRpcLines raw_{};
  std::vector<char> bytes_;  // the consumed bytes the items' offsets point into
};

/// Lines from one byte stream (SPEC §6), through `jsonrpc_classify_lines`.
/// The host appends what it reads; `take()` hands back every complete line
/// held, and keeps the unconsumed bytes and the stream's state for the next
/// call; `finish()` at the end of the stream also hands back a last line
/// without LF. A line over `max_line` bytes is dropped as it arrives (the
/// reader never holds more than `max_line` bytes of it plus what was last
/// appended) and reported once as a too_long item. Move-only: one stream,
/// one reader, one thread at a time.
class LineReader {
 public:
  /// `max_line` 0 means the library's default (16 MiB).
  explicit LineReader(std::size_t max_line = 0) noexcept { state_.max_line = max_line; }

  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  LineReader(LineReader&&) noexcept = default;
  LineReader& operator=(LineReader&&) noexcept = default;
  ~LineReader() = default;

  /// Appends bytes read from the stream.
  void append(std::string_view bytes) {
    if (bytes.empty()) {
      return;
    }
    // resize + memcpy rather than insert: GCC 12 at -O2 warns falsely
    // (-Wstringop-overflow) on vector<char>::insert of a char range.
    std::size_t held = buffer_.size();
    buffer_.resize(held + bytes.size());
    std::memcpy(buffer_.data() + held, bytes.data(), bytes.size());
    line_ended_ = line_ended_ || std::memchr(bytes.data(), '\n', bytes.size()) != nullptr;
  }

  /// Every complete line held now; with `end_of_stream`, also a last line
  /// without LF (and a too_long line still open). If an allocation throws,
  /// it throws before the stream's state changes.
  [[nodiscard]] Lines take(bool end_of_stream = false) {
    // The library is called only when it can return or consume something: a
    // line has ended, the stream has, the bytes held pass the limit, or an
    // over-long line is being dropped. Otherwise it would return nothing,
    // and rescanning a long line held in part at every take() would cost
    // time quadratic in its length.
    if (!line_ended_ && !end_of_stream && buffer_.size() <= effective_max_line() && state_.too_long_bytes == 0) {
      return Lines();
    }
    std::vector<char> rest;
    rest.reserve(buffer_.size());  // nothing below allocates once the call ran
    Lines lines;
    lines.raw_ = jsonrpc_classify_lines(detail::bytes(std::string_view(buffer_.data(), buffer_.size())),
                                        buffer_.size(), end_of_stream, &state_);
    std::size_t consumed = lines.raw_.consumed < buffer_.size() ? lines.raw_.consumed : buffer_.size();
    // What is left after the last LF has none (unless the call failed and
    // consumed nothing).
    line_ended_ = !lines.ok();
    if (lines.raw_.count == 0) {
      buffer_.erase(buffer_.begin(), buffer_.begin() + static_cast<std::ptrdiff_t>(consumed));
      return lines;
    }
    // The items point into the consumed bytes: they move into `lines`.
    rest.assign(buffer_.begin() + static_cast<std::ptrdiff_t>(consumed), buffer_.end());
    buffer_.resize(consumed);
    lines.bytes_ = std::move(buffer_);
    buffer_ = std::move(rest);
    return lines;
  }

  /// `take(true)`: the stream has ended.
  [[nodiscard]] Lines finish() { return take(true); }

  /// Bytes held and not yet consumed.
  [[nodiscard]] std::size_t buffered() const noexcept { return buffer_.size(); }
  [[nodiscard]] std::size_t max_line() const noexcept { return state_.max_line; }
  [[nodiscard]] const JsonRpcLineState& state() const noexcept { return state_; }

 private:
  // The header: "0 means the default, 16 MiB".
  static constexpr std::size_t kDefaultMaxLine = std::size_t{16} << 20;

  [[nodiscard]] std::size_t effective_max_line() const noexcept {
    return state_.max_line == 0 ? kDefaultMaxLine : state_.max_line;
  }

  std::vector<char> buffer_;
  JsonRpcLineState state_{};
  bool line_ended_ = false;  // an LF was appended since the library's last call
};

}  // namespace jsonrpc

#endif  // JSONRPC_ENVELOPE_HPP
