// jsonrpc_envelope.hpp: the C++17 layer over jsonrpc_envelope.h.
//
// Header-only. It converts types and frees memory, and nothing else: every
// kind, reply and reason comes from the library (SPEC.md), never from here.
//
//   jsonrpc::Classification c = jsonrpc::classify(line);            // JSON-RPC 2.0
//   if (c.kind() == jsonrpc::Kind::request) { ... c.id(), c.method() ... }
//   if (auto reply = c.reply(jsonrpc::Role::server)) { write(*reply); }
//   jsonrpc::classify(line, jsonrpc::Profile::mcp);                 // MCP's rules
//
//   jsonrpc::Relay relay(jsonrpc::Profile::mcp);                    // both directions
//   const jsonrpc::Direction in = jsonrpc::read_by(jsonrpc::Role::server);
//   for (jsonrpc::Line line : relay.feed(in, bytes_read)) {
//     ... line.action(), jsonrpc::goes(line.action(), in) ...
//   }
//
//   jsonrpc::Session session(jsonrpc::Role::client, jsonrpc::Profile::mcp);
//   session.sent(request_we_wrote);
//   for (jsonrpc::Line line : session.feed(bytes_read)) { ... line.action() ... }
//
// The profile (SPEC section 10) is an explicit parameter wherever the
// library takes one, JSON-RPC 2.0 alone by default; a `Relay` and a
// `Session` name it.
//
// Ownership: `Classification` owns its C result, `LineReader` its C reader,
// `Session` its C session and `Relay` its C relay, and each frees it in its
// destructor; they are move-only, and a moved-from object is empty, so
// nothing is ever freed twice. Accessors return `std::string_view` into
// memory the owner holds: a `Classification`'s strings are valid while it
// lives; a `Batch` that a `LineReader` or a `Session` returns, with its
// lines and strings, until the owner's next call; one that a `Relay`
// returns, until its next `feed` or `end` of the same direction.
//
// Errors travel in results, never as exceptions: the only exception this
// header can let through is std::bad_alloc from the std::string of
// `try_invalid_reply`, `try_log_value`, `Session::refused` and
// `Relay::refused`, so it also builds with -fno-exceptions.
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
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace jsonrpc {

// ---- enumerations ----------------------------------------------------------

/// What a line is (SPEC §2). `none` is not a line's kind: it is an empty
/// (moved-from) result, or a call that failed inside the library.
/// `too_long` is a stream's line over its reader's limit (`LineReader`),
/// which `classify` never gives.
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
  too_long = JSONRPC_KIND_TOO_LONG,
  /// A response the MCP profile refuses (SPEC §10.3); it may carry a
  /// `substitute()`. Only `Profile::mcp` gives it.
  invalid_response = JSONRPC_KIND_INVALID_RESPONSE,
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

/// The rule set a line is read by (SPEC §10). There is deliberately no
/// "unknown" value; one cast from another number is refused by the library
/// (`Status::unknown_profile`).
enum class Profile : std::uint32_t {
  jsonrpc = JSONRPC_PROFILE_JSONRPC,  ///< JSON-RPC 2.0 alone (SPEC sections 1 to 7), the default
  mcp = JSONRPC_PROFILE_MCP,          ///< as MCP narrows it: what every official MCP SDK reads
};

/// What a `Session` or a `Relay` decided to do with a line (SPEC §8 to §10);
/// where its text goes: `goes`.
enum class Action : std::uint32_t {
  none = JSONRPC_ACTION_NONE,              ///< not decided: a `LineReader`'s line
  forward = JSONRPC_ACTION_FORWARD,        ///< hand the line's bytes on, with its LF
  answer = JSONRPC_ACTION_ANSWER,          ///< write `action_text()` back to the line's sender
  substitute = JSONRPC_ACTION_SUBSTITUTE,  ///< hand `action_text()` on in the line's place
  attribute = JSONRPC_ACTION_ATTRIBUTE,    ///< hand `action_text()` on in the line's place
  drop = JSONRPC_ACTION_DROP,              ///< nobody sees the line; log the note
  divert = JSONRPC_ACTION_DIVERT,          ///< nobody sees the line but the log
};

/// How a call that can fail went.
enum class Status : std::uint32_t {
  ok = JSONRPC_STATUS_OK,
  unknown_role = JSONRPC_STATUS_UNKNOWN_ROLE,
  null_argument = JSONRPC_STATUS_NULL_ARGUMENT,
  out_of_memory = JSONRPC_STATUS_OUT_OF_MEMORY,
  internal_error = JSONRPC_STATUS_INTERNAL_ERROR,
  unknown_profile = JSONRPC_STATUS_UNKNOWN_PROFILE,
  unknown_direction = JSONRPC_STATUS_UNKNOWN_DIRECTION,
};

/// Which way a line travels, for a `Relay`. There is deliberately no
/// "unknown" value; one cast from another number is refused by the library
/// (`Status::unknown_direction`).
enum class Direction : std::uint32_t {
  to_server = JSONRPC_DIRECTION_TO_SERVER,  ///< host -> server: read as a server reads it (`Role::server`)
  to_host = JSONRPC_DIRECTION_TO_HOST,      ///< server -> host: read as a host reads it (`Role::client`)
};

namespace detail {

inline std::string_view name(const char* text) noexcept {
  return text != nullptr ? std::string_view(text) : std::string_view();
}

}  // namespace detail

/// The kind's name as the test vectors write it (`parse_error`, `too_long`,
/// ...), from the library; empty for a value that is no kind (`none`).
[[nodiscard]] inline std::string_view to_string(Kind kind) noexcept {
  return detail::name(jsonrpc_kind_name(static_cast<std::uint32_t>(kind)));
}

/// The id kind's name as the test vectors write it (`absent`, `null`, ...),
/// from the library; empty for a value that is no id kind.
[[nodiscard]] inline std::string_view to_string(IdKind id_kind) noexcept {
  return detail::name(jsonrpc_id_kind_name(static_cast<std::uint32_t>(id_kind)));
}

/// The role's name (`server`, `client`), from the library; empty for a
/// value that is no role.
[[nodiscard]] inline std::string_view to_string(Role role) noexcept {
  return detail::name(jsonrpc_role_name(static_cast<std::uint32_t>(role)));
}

/// The status's name (`ok`, `out_of_memory`, ...), from the library; empty
/// for a value that is no status.
[[nodiscard]] inline std::string_view to_string(Status status) noexcept {
  return detail::name(jsonrpc_status_name(static_cast<std::uint32_t>(status)));
}

/// The profile's name (`jsonrpc`, `mcp`), from the library; empty for a
/// value that is no profile.
[[nodiscard]] inline std::string_view to_string(Profile profile) noexcept {
  return detail::name(jsonrpc_profile_name(static_cast<std::uint32_t>(profile)));
}

/// The action's name as log records and recordings spell it (`forwarded`,
/// `answered`, `substituted`, `attributed`, `dropped`, `diverted`), from
/// the library; empty for `Action::none` and any value that is no action.
[[nodiscard]] inline std::string_view to_string(Action action) noexcept {
  return detail::name(jsonrpc_action_name(static_cast<std::uint32_t>(action)));
}

/// The direction's name (`to_server`, `to_host`), from the library; empty
/// for a value that is no direction.
[[nodiscard]] inline std::string_view to_string(Direction direction) noexcept {
  return detail::name(jsonrpc_direction_name(static_cast<std::uint32_t>(direction)));
}

/// The direction an endpoint in `role` reads (`jsonrpc_direction_read_by`):
/// a server reads `Direction::to_server`, a client `Direction::to_host`. For
/// a role cast from a value that is none, a value that is no direction
/// (which a `Relay` refuses).
[[nodiscard]] inline Direction read_by(Role role) noexcept {
  return static_cast<Direction>(jsonrpc_direction_read_by(static_cast<std::uint32_t>(role)));
}

/// Where the text of a line read in `direction` goes (the line itself for a
/// `forward` without text), from the library (`jsonrpc_action_goes`):
/// `direction` for an action that hands it on (to the receiver: for a
/// transport, its SDK), the other direction for `answer` (back to the
/// line's sender: for a transport, the pipe), and nullopt for one that goes
/// only to the log (`drop`, `divert`), for `Action::none`, and for a value
/// that is no action or no direction.
[[nodiscard]] inline std::optional<Direction> goes(Action action, Direction direction) noexcept {
  const std::uint32_t to =
      jsonrpc_action_goes(static_cast<std::uint32_t>(action), static_cast<std::uint32_t>(direction));
  if (to == 0) {
    return std::nullopt;
  }
  return static_cast<Direction>(to);
}

/// Whether lines of this kind are messages a peer acts on (request,
/// notification, response), from the library.
[[nodiscard]] inline bool is_message(Kind kind) noexcept {
  return jsonrpc_kind_is_message(static_cast<std::uint32_t>(kind));
}

// ---- versions --------------------------------------------------------------

/// The library's version, such as "0.1.0".
[[nodiscard]] inline std::string_view version() noexcept { return detail::name(jsonrpc_version()); }

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

  /// False for an empty result: moved-from, or a call that failed inside
  /// the library (whose `reason()` says why).
  [[nodiscard]] bool valid() const noexcept { return kind() != Kind::none; }

  /// The id's exact JSON text (`7`, `"a"`, `null`, ...); absent without an
  /// `id` member. In the MCP profile a parse_error has one where it is a
  /// damaged request or response (the readable id, and for a request the
  /// readable `method()`: SPEC §10.6 (c)).
  [[nodiscard]] std::optional<std::string_view> id() const noexcept { return view(c().id); }
  /// The decoded method, where `method` is a string.
  [[nodiscard]] std::optional<std::string_view> method() const noexcept {
    return view(c().method);
  }
  /// What is wrong, for invalid_request and parse_error (and a failed call).
  [[nodiscard]] std::optional<std::string_view> reason() const noexcept {
    return view(c().reason);
  }
  /// The reply a server owes; for an MCP batch of requests, one reply per
  /// request, joined by LF (SPEC §10.6 (b)).
  [[nodiscard]] std::optional<std::string_view> reply_server() const noexcept {
    return view(c().reply_server);
  }
  [[nodiscard]] std::optional<std::string_view> reply_client() const noexcept {
    return view(c().reply_client);
  }
  /// For an `invalid_response` whose id is an MCP id, or a damaged
  /// response, the error response to hand on in its place (SPEC §10.3,
  /// §10.6); absent otherwise.
  [[nodiscard]] std::optional<std::string_view> substitute() const noexcept {
    return view(c().substitute);
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

/// A borrowed classification: a `Line`'s, or `Classification::view()`.
/// Valid while what it was taken from is (see each).
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

/// Classifies one line (no LF needed; a trailing CR or LF is whitespace)
/// by `profile`. The result's kind is `Kind::none` only when the call
/// failed inside the library, or `profile` was cast from a value that is
/// no Profile; its `reason()` then says why.
[[nodiscard]] inline Classification classify(std::string_view line, Profile profile = Profile::jsonrpc) noexcept {
  JsonRpcClassification raw =
      jsonrpc_classify(detail::bytes(line), line.size(), static_cast<std::uint32_t>(profile));
  return Classification::adopt(raw);
}

/// The answer of `try_invalid_reply`.
struct [[nodiscard]] Reply {
  Status status = Status::ok;
  /// The reply when `status` is ok and one is owed.
  std::optional<std::string> text;

  [[nodiscard]] bool ok() const noexcept { return status == Status::ok; }
};

/// The one reply the endpoint in `role` owes for `line` (SPEC §4) by
/// `profile`, with the call's status: not ok only if the library failed
/// (out of memory, or an internal fault) or `role` or `profile` was cast
/// from a value that is none.
[[nodiscard]] inline Reply try_invalid_reply(std::string_view line, Role role, Profile profile = Profile::jsonrpc) {
  JsonRpcReply raw = jsonrpc_invalid_reply(detail::bytes(line), line.size(), static_cast<std::uint32_t>(role),
                                           static_cast<std::uint32_t>(profile));
  detail::OwnedString text(raw.text);
  return Reply{static_cast<Status>(raw.status), text.copy()};
}

/// The one reply the endpoint in `role` owes for `line`, or nullopt for none
/// (and when the call failed: use `try_invalid_reply` to tell the two apart).
[[nodiscard]] inline std::optional<std::string> invalid_reply(std::string_view line, Role role,
                                                              Profile profile = Profile::jsonrpc) {
  return try_invalid_reply(line, role, profile).text;
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

// ---- a stream ----------------------------------------------------------------

/// The line limit of a `LineReader(0)` (of `Profile::jsonrpc`).
[[nodiscard]] inline std::size_t default_max_line() noexcept { return jsonrpc_default_max_line(); }

/// The line limit of a `LineReader` or a `Session` of `profile` made with
/// `max_line` 0 (`jsonrpc_profile_max_line`): `default_max_line()` for
/// `Profile::jsonrpc`; for `Profile::mcp`, the longest line every official
/// MCP SDK's own stdio reader takes (SPEC §10.7).
[[nodiscard]] inline std::size_t default_max_line(Profile profile) noexcept {
  return jsonrpc_profile_max_line(static_cast<std::uint32_t>(profile));
}

/// One line of a `Batch`: its number in the stream, its bytes and its
/// classification, or, for a line over the reader's limit, only its number
/// and length (`too_long()`: no text; in the MCP profile its classification
/// may hold what its first bytes name, a request's id, method and
/// `reply_server` or a response's id and `substitute`, SPEC §10.6 (d)). A
/// `Session`'s or a `Relay`'s line also carries what to do with it:
/// `action()`, with `action_text()` and `note()`. A view: valid as long as
/// its `Batch`.
class Line {
 public:
  /// The line's number in its stream, from 1 (too_long lines count).
  [[nodiscard]] std::uint64_t number() const noexcept { return item_->number; }
  [[nodiscard]] Kind kind() const noexcept { return static_cast<Kind>(item_->classification.kind); }
  [[nodiscard]] bool too_long() const noexcept { return kind() == Kind::too_long; }
  /// The line's length in bytes, LF excluded (a too_long line's whole length).
  [[nodiscard]] std::size_t length() const noexcept { return item_->len; }
  /// The line's bytes, LF excluded (a CR before it stays); empty for too_long.
  [[nodiscard]] std::string_view text() const noexcept {
    return too_long() ? std::string_view() : Span{item_->offset, item_->len}.in(bytes_);
  }
  /// The line's classification; its spans count from `text()`'s first byte.
  [[nodiscard]] ClassificationView classification() const noexcept {
    return ClassificationView(item_->classification);
  }
  /// What a `Session` or a `Relay` decided for the line; `Action::none` for
  /// a `LineReader`'s.
  [[nodiscard]] Action action() const noexcept { return static_cast<Action>(item_->action); }
  /// For `Action::answer`, the reply to write back to the line's sender (and
  /// its LF; for an MCP batch, one reply a line, SPEC §10.6 (b)); for
  /// `Action::substitute` and `Action::attribute`, the line to hand on in
  /// this one's place; for `Action::forward` in the MCP profile, the line's
  /// normal form to hand on instead of its bytes, where it has one (SPEC
  /// 10.5); absent otherwise.
  [[nodiscard]] std::optional<std::string_view> action_text() const noexcept {
    return detail::view(item_->action_text);
  }
  /// Why, for every action but `forward`: a fixed text for a log record
  /// (render the line itself with `log_value`); empty otherwise.
  [[nodiscard]] std::string_view note() const noexcept { return detail::name(item_->note); }
  [[nodiscard]] const JsonRpcLine& raw() const noexcept { return *item_; }

 private:
  friend class Batch;
  Line(const JsonRpcLine& item, std::string_view bytes) noexcept : item_(&item), bytes_(bytes) {}

  const JsonRpcLine* item_;
  std::string_view bytes_;
};

class Batch;

namespace detail {

/// The one conversion of a C call that fills a `JsonRpcBatch` (the `feed`
/// and `end` of `LineReader`, `Session` and `Relay`): `fn(args..., &raw)`.
struct Batches {
  template <class Fn, class... Args>
  [[nodiscard]] static Batch call(Fn fn, Args... args) noexcept;
};

}  // namespace detail

/// The lines one `LineReader`, `Session` or `Relay` call completed, in
/// stream order. A view of memory the owner holds: it, its `Line`s and every
/// string_view they give stay valid until the owner's next call (`feed`,
/// `end`, or its destruction; for a `Relay`, its next `feed` or `end` of the
/// same direction), and no longer; copy what you keep. Moving the owner
/// keeps them valid.
class [[nodiscard]] Batch {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Line;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Line;

    iterator() noexcept = default;
    [[nodiscard]] Line operator*() const noexcept { return (*batch_)[index_]; }
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
      return a.batch_ == b.batch_ && a.index_ == b.index_;
    }
    friend bool operator!=(const iterator& a, const iterator& b) noexcept { return !(a == b); }

   private:
    friend class Batch;
    iterator(const Batch* batch, std::size_t index) noexcept : batch_(batch), index_(index) {}
    const Batch* batch_ = nullptr;
    std::size_t index_ = 0;
  };

  /// Not ok when the call failed; then the batch is empty. After
  /// `out_of_memory` the reader took none of the bytes (the call may be
  /// repeated); after `internal_error` it fails every call; a moved-from
  /// reader, session or relay, or one that could not be made, gives
  /// `null_argument`; a `Relay` given a direction cast from a value that is
  /// none, `unknown_direction`.
  [[nodiscard]] Status status() const noexcept { return status_; }
  [[nodiscard]] bool ok() const noexcept { return status_ == Status::ok; }

  [[nodiscard]] std::size_t size() const noexcept { return raw_.count; }
  [[nodiscard]] bool empty() const noexcept { return raw_.count == 0; }
  /// Item `index`, which must be below `size()`.
  [[nodiscard]] Line operator[](std::size_t index) const noexcept { return Line(raw_.items[index], bytes()); }
  [[nodiscard]] iterator begin() const noexcept { return iterator(this, 0); }
  [[nodiscard]] iterator end() const noexcept { return iterator(this, raw_.count); }

  /// The lines' bytes, each with its LF (but a stream's last line without one).
  [[nodiscard]] std::string_view bytes() const noexcept {
    return std::string_view(reinterpret_cast<const char*>(raw_.bytes), raw_.bytes_len);
  }
  /// Every string of the lines' classifications, back to back (see `JsonRpcBatch`).
  [[nodiscard]] std::string_view texts() const noexcept { return std::string_view(raw_.texts, raw_.texts_len); }
  [[nodiscard]] const JsonRpcBatch& raw() const noexcept { return raw_; }

 private:
  friend struct detail::Batches;
  Batch(JsonRpcStatus status, const JsonRpcBatch& raw) noexcept : status_(static_cast<Status>(status)), raw_(raw) {}

  Status status_;
  JsonRpcBatch raw_;
};

namespace detail {

template <class Fn, class... Args>
Batch Batches::call(Fn fn, Args... args) noexcept {
  JsonRpcBatch raw{};
  const JsonRpcStatus status = fn(args..., &raw);
  return Batch(status, raw);
}

struct ReaderDeleter {
  void operator()(JsonRpcReader* reader) const noexcept { jsonrpc_reader_free(reader); }
};

struct SessionDeleter {
  void operator()(JsonRpcSession* session) const noexcept { jsonrpc_session_free(session); }
};

struct RelayDeleter {
  void operator()(JsonRpcRelay* relay) const noexcept { jsonrpc_relay_free(relay); }
};

}  // namespace detail

/// Lines from one byte stream (SPEC §6): owns a `JsonRpcReader`, which
/// holds the stream's pending bytes, finds its lines and classifies them.
/// `feed` takes each chunk as it is read and returns the lines it
/// completes; `end` ends the stream, returning a last line without LF, and
/// leaves the reader ready for a new stream. What either returns is valid
/// until the next call (see `Batch`). Move-only: one stream, one reader,
/// one thread at a time.
class LineReader {
 public:
  /// Lines up to `max_line` bytes long (LF excluded); 0 means
  /// `default_max_line(profile)`; classified by `profile`. When memory runs out
  /// (or `profile` was cast from a value that is none) the reader is empty
  /// (`valid()` is false), as a moved-from one is.
  explicit LineReader(std::size_t max_line = 0, Profile profile = Profile::jsonrpc) noexcept
      : reader_(jsonrpc_reader_new(max_line, static_cast<std::uint32_t>(profile))) {}

  [[nodiscard]] bool valid() const noexcept { return reader_ != nullptr; }

  /// Hands the reader the next bytes of the stream, which it copies, and
  /// returns the lines they complete.
  [[nodiscard]] Batch feed(std::string_view bytes) noexcept {
    return detail::Batches::call(jsonrpc_reader_feed, reader_.get(), detail::bytes(bytes), bytes.size());
  }

  /// Ends the stream: returns its last line if it had no LF (or a too_long
  /// line still open). Line numbers start again from 1.
  [[nodiscard]] Batch end() noexcept { return detail::Batches::call(jsonrpc_reader_end, reader_.get()); }

  /// The C reader, still owned by this object.
  [[nodiscard]] JsonRpcReader* raw() const noexcept { return reader_.get(); }

 private:
  std::unique_ptr<JsonRpcReader, detail::ReaderDeleter> reader_;
};

// ---- a session -----------------------------------------------------------------

/// What a `Session` or a `Relay` decided for a line its SDK's decoder
/// refused (`Session::refused`, `Relay::refused`).
struct [[nodiscard]] Decision {
  /// Not ok if the call failed; then `action` is `Action::none`.
  Status status = Status::ok;
  /// `answer` (write `text` back to the line's sender), `substitute` (hand
  /// `text` to the SDK instead) or `drop` (`goes` tells which way).
  Action action = Action::none;
  std::optional<std::string> text;
  /// Why: a fixed text for a log record, at error level.
  std::string_view note;

  [[nodiscard]] bool ok() const noexcept { return status == Status::ok; }
};

namespace detail {

/// The one conversion of a C call that fills a `JsonRpcDecision`
/// (`Session::refused`, `Relay::refused`): `fn(args..., &raw)`, its text
/// copied and freed.
template <class Fn, class... Args>
[[nodiscard]] Decision decision(Fn fn, Args... args) {
  JsonRpcDecision raw{};
  const JsonRpcStatus status = fn(args..., &raw);
  const OwnedString text(raw.text);
  return Decision{static_cast<Status>(status), static_cast<Action>(raw.action), text.copy(), name(raw.note)};
}

}  // namespace detail

/// One endpoint's session (SPEC §8 to §10): a stream reader that also
/// decides what to do with each line it reads, in its role and profile
/// (`Line::action()`), and keeps the ids of the requests written the other
/// way that are still outstanding. Owns a `JsonRpcSession`. Its caller
/// feeds it what it reads, tells it every line it writes to the same peer
/// (`sent`), and does what each line's action says; the decisions are the
/// library's. A caller that stands between two peers (a guard, a transport)
/// uses a `Relay`, which holds a session for each direction and tells each
/// what the other sends. Move-only; one thread at a time.
class Session {
 public:
  /// A session that reads lines in `role` by `profile`, lines up to
  /// `max_line` bytes long (0: `default_max_line(profile)`). When memory runs out
  /// (or `role` or `profile` was cast from a value that is none) the
  /// session is empty (`valid()` is false), as a moved-from one is.
  Session(Role role, Profile profile, std::size_t max_line = 0) noexcept
      : session_(jsonrpc_session_new(static_cast<std::uint32_t>(role), static_cast<std::uint32_t>(profile),
                                     max_line)) {}

  [[nodiscard]] bool valid() const noexcept { return session_ != nullptr; }

  /// Hands the session the next bytes of its stream and returns the lines
  /// they complete, each with its action (see `LineReader::feed`, `Batch`).
  [[nodiscard]] Batch feed(std::string_view bytes) noexcept {
    return detail::Batches::call(jsonrpc_session_feed, session_.get(), detail::bytes(bytes), bytes.size());
  }

  /// Ends the stream: returns its last line, decided, if it had no LF. The
  /// outstanding requests are kept.
  [[nodiscard]] Batch end() noexcept { return detail::Batches::call(jsonrpc_session_end, session_.get()); }

  /// Tells the session of a line written the other way, to the peer whose
  /// lines it reads (call it with every such line).
  Status sent(std::string_view line) noexcept {
    return static_cast<Status>(jsonrpc_session_sent(session_.get(), detail::bytes(line), line.size()));
  }

  /// What to do instead when the SDK's own decoder refused a line this
  /// session handed on (SPEC §10.4).
  [[nodiscard]] Decision refused(std::string_view line) {
    return detail::decision(jsonrpc_session_refused, session_.get(), detail::bytes(line), line.size());
  }

  /// How many requests written the other way still wait for a response.
  [[nodiscard]] std::size_t outstanding() const noexcept { return jsonrpc_session_outstanding(session_.get()); }

  /// The C session, still owned by this object.
  [[nodiscard]] JsonRpcSession* raw() const noexcept { return session_.get(); }

 private:
  std::unique_ptr<JsonRpcSession, detail::SessionDeleter> session_;
};

// ---- a relay -------------------------------------------------------------------

/// Both directions of one session (SPEC §8 to §10; h11's `Connection`
/// shape): a session for each `Direction`, both in one profile, each read
/// in the role of its receiver, and the bookkeeping between them. Owns a
/// `JsonRpcRelay`. A guard or a transport feeds it what it reads in each
/// direction and does what each line's action says (`goes` tells where its
/// text goes); the relay notes what its decisions send (a request handed on
/// in one direction is outstanding for the other until a response read
/// there names it), so only lines that reach a peer not through it are
/// told (`wrote`: an SDK's own messages). The decisions are the library's.
/// Move-only; one thread at a time (a caller with a thread per direction
/// locks it).
///
/// A transport's loop for a line the SDK's decoder refused, the library's
/// `jsonrpc_relay_refused` settling a substitute refused in its turn:
///
///   std::string bytes(line);
///   for (;;) {
///     if (sdk.decode(bytes)) break;
///     jsonrpc::Decision d = relay.refused(in, bytes);   // log at error level
///     std::optional<jsonrpc::Direction> to = jsonrpc::goes(d.action, in);
///     if (to == in) { bytes = *d.text; continue; }  // substitute: hand it on instead
///     if (to) write_back(*d.text);                   // answer: back to the line's sender
///     break;                                         // drop: the log only
///   }
class Relay {
 public:
  /// A relay that reads both directions by `profile`, lines up to
  /// `max_line` bytes long (0: `default_max_line(profile)`). When memory
  /// runs out (or `profile` was cast from a value that is none) the relay is
  /// empty (`valid()` is false), as a moved-from one is.
  explicit Relay(Profile profile, std::size_t max_line = 0) noexcept
      : relay_(jsonrpc_relay_new(static_cast<std::uint32_t>(profile), max_line)) {}

  [[nodiscard]] bool valid() const noexcept { return relay_ != nullptr; }

  /// Hands the relay the next bytes of `direction`'s stream and returns the
  /// lines they complete, each with its action, as `Session::feed` does.
  /// The batch is valid until the next `feed` or `end` of the same
  /// direction (see `Batch`): a batch of each direction can be held at once.
  [[nodiscard]] Batch feed(Direction direction, std::string_view bytes) noexcept {
    return detail::Batches::call(jsonrpc_relay_feed, relay_.get(), static_cast<std::uint32_t>(direction),
                                 detail::bytes(bytes), bytes.size());
  }

  /// Ends `direction`'s stream: returns its last line, decided, if it had no
  /// LF. The outstanding requests are kept.
  [[nodiscard]] Batch end(Direction direction) noexcept {
    return detail::Batches::call(jsonrpc_relay_end, relay_.get(), static_cast<std::uint32_t>(direction));
  }

  /// Tells the relay of a line that went in `direction` not through it: an
  /// SDK's own message to the peer (a server transport: `to_host`, each line
  /// its SDK writes; a client transport: `to_server`). The relay's own
  /// decisions need no call.
  Status wrote(Direction direction, std::string_view line) noexcept {
    return static_cast<Status>(
        jsonrpc_relay_wrote(relay_.get(), static_cast<std::uint32_t>(direction), detail::bytes(line), line.size()));
  }

  /// What to do instead when the receiver of `direction` (the SDK's own
  /// decoder) refused `line`, which the relay handed on (SPEC §10.4), as
  /// `Session::refused`; a substitute refused in its turn (`refused` again
  /// with its text) is settled: `drop`, with a note.
  [[nodiscard]] Decision refused(Direction direction, std::string_view line) {
    return detail::decision(jsonrpc_relay_refused, relay_.get(), static_cast<std::uint32_t>(direction),
                            detail::bytes(line), line.size());
  }

  /// How many requests written toward the sender of `direction`'s lines
  /// still wait for its response (0 for a direction that is none).
  [[nodiscard]] std::size_t outstanding(Direction direction) const noexcept {
    return jsonrpc_relay_outstanding(relay_.get(), static_cast<std::uint32_t>(direction));
  }

  /// The C relay, still owned by this object.
  [[nodiscard]] JsonRpcRelay* raw() const noexcept { return relay_.get(); }

 private:
  std::unique_ptr<JsonRpcRelay, detail::RelayDeleter> relay_;
};

}  // namespace jsonrpc

#endif  // JSONRPC_ENVELOPE_HPP
