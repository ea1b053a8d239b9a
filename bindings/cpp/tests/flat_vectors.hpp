// flat_vectors.hpp: reads the flat form of tests/vectors/*.jsonl that
// tests/c/flatten_vectors.py writes (its docstring describes the format):
// one record a line, `type<TAB>key=value<TAB>...`, bytes as lowercase hex,
// `-` for absent, `+` for "any non-empty reason". Fields are looked up by
// name, so their order does not matter; a missing or malformed field is an
// error, never a silent default.

#ifndef JSONRPC_TESTS_FLAT_VECTORS_HPP
#define JSONRPC_TESTS_FLAT_VECTORS_HPP

#include <jsonrpc_envelope.hpp>

#include <array>
#include <cstddef>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace flat {

/// An expected string: absent, exactly these bytes, or any non-empty text.
struct Text {
  enum class Mode { absent, exact, any } mode = Mode::absent;
  std::string bytes;
};

inline constexpr std::array<const char*, 4> kFlagNames = {"jsonrpc_2_0", "has_result", "has_error",
                                                          "names_no_request"};
inline constexpr std::array<const char*, 5> kSpanNames = {"id_span", "method_span", "params_span",
                                                          "result_span", "error_span"};

struct EnvelopeVector {
  unsigned at = 0;  // line number in its file: envelope.jsonl (jsonrpc) or mcp.jsonl (mcp)
  jsonrpc::Profile profile = jsonrpc::Profile::jsonrpc;
  std::string name;
  std::string line;
  std::string kind;
  std::string id_kind;
  std::optional<std::string> id;
  std::optional<std::string> method;
  std::array<bool, 4> flags{};
  std::array<std::optional<jsonrpc::Span>, 5> spans{};
  Text reason;
  std::optional<std::string> reply_server;
  std::optional<std::string> reply_client;
  std::optional<std::string> substitute;

  /// The file the vector comes from.
  const char* source() const { return profile == jsonrpc::Profile::mcp ? "mcp.jsonl" : "envelope.jsonl"; }
};

struct LogVector {
  unsigned at = 0;  // line number in log_value.jsonl
  std::string name;
  std::string input;
  std::string output;
};

struct Vectors {
  std::vector<EnvelopeVector> envelopes;
  std::vector<LogVector> logs;
  std::string error;  // empty when the file was read
};

namespace detail {

class Record {
 public:
  Record(std::string_view text, std::size_t source_line) : source_line_(source_line) {
    std::size_t start = 0;
    bool first = true;
    while (start <= text.size()) {
      std::size_t tab = text.find('\t', start);
      std::string_view part = text.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start);
      if (first) {
        type = std::string(part);
        first = false;
      } else {
        std::size_t equals = part.find('=');
        if (equals == std::string_view::npos) {
          fail("a field without '=': " + std::string(part));
        } else {
          fields_[std::string(part.substr(0, equals))] = std::string(part.substr(equals + 1));
        }
      }
      if (tab == std::string_view::npos) {
        break;
      }
      start = tab + 1;
    }
  }

  std::string type;
  std::string error;

  const std::string& field(const std::string& key) {
    static const std::string kNone;
    auto found = fields_.find(key);
    if (found == fields_.end()) {
      fail("no field " + key);
      return kNone;
    }
    return found->second;
  }

  std::optional<std::string> text(const std::string& key) {
    const std::string& value = field(key);
    if (value == "-") {
      return std::nullopt;
    }
    return hex(key, value);
  }

  std::string bytes(const std::string& key) {
    std::optional<std::string> value = text(key);
    if (!value) {
      fail("field " + key + " must be present");
      return std::string();
    }
    return *value;
  }

  Text reason(const std::string& key) {
    const std::string& value = field(key);
    if (value == "+") {
      return Text{Text::Mode::any, std::string()};
    }
    std::optional<std::string> exact = text(key);
    return exact ? Text{Text::Mode::exact, *exact} : Text{};
  }

  bool flag(const std::string& key) {
    const std::string& value = field(key);
    if (value != "0" && value != "1") {
      fail("field " + key + " is not 0 or 1");
    }
    return value == "1";
  }

  unsigned number(const std::string& key) {
    const std::string& value = field(key);
    if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos) {
      fail("field " + key + " is not a number");
      return 0;
    }
    return static_cast<unsigned>(std::stoul(value));
  }

  std::optional<jsonrpc::Span> span(const std::string& key) {
    const std::string& value = field(key);
    if (value == "-") {
      return std::nullopt;
    }
    std::size_t comma = value.find(',');
    std::string offset = comma == std::string::npos ? std::string() : value.substr(0, comma);
    std::string length = comma == std::string::npos ? std::string() : value.substr(comma + 1);
    auto digits = [](const std::string& s) {
      return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
    };
    if (!digits(offset) || !digits(length)) {
      fail("field " + key + " is not a span: " + value);
      return std::nullopt;
    }
    return jsonrpc::Span{static_cast<std::size_t>(std::stoull(offset)),
                         static_cast<std::size_t>(std::stoull(length))};
  }

  void fail(const std::string& what) {
    if (error.empty()) {
      error = "flat file line " + std::to_string(source_line_) + ": " + what;
    }
  }

 private:
  std::string hex(const std::string& key, const std::string& value) {
    auto digit = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      return -1;
    };
    std::string out;
    if (value.size() % 2 != 0) {
      fail("field " + key + " is not hex");
      return out;
    }
    for (std::size_t i = 0; i < value.size(); i += 2) {
      int high = digit(value[i]);
      int low = digit(value[i + 1]);
      if (high < 0 || low < 0) {
        fail("field " + key + " is not hex");
        return std::string();
      }
      out.push_back(static_cast<char>(high * 16 + low));
    }
    return out;
  }

  std::size_t source_line_;
  std::map<std::string, std::string> fields_;
};

}  // namespace detail

inline Vectors load(const std::string& path) {
  Vectors vectors;
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    vectors.error = "cannot open " + path;
    return vectors;
  }
  std::string text;
  std::size_t number = 0;
  while (std::getline(file, text)) {
    ++number;
    if (text.empty() || text[0] == '#') {
      continue;
    }
    detail::Record record(text, number);
    if (record.type == "envelope") {
      EnvelopeVector v;
      v.at = record.number("at");
      const std::string& profile = record.field("profile");
      if (profile == "mcp") {
        v.profile = jsonrpc::Profile::mcp;
      } else if (profile != "jsonrpc") {
        record.fail("unknown profile " + profile);
      }
      v.name = record.bytes("name");
      v.line = record.bytes("line");
      v.kind = record.field("kind");
      v.id_kind = record.field("id_kind");
      v.id = record.text("id");
      v.method = record.text("method");
      for (std::size_t i = 0; i < kFlagNames.size(); ++i) {
        v.flags[i] = record.flag(kFlagNames[i]);
      }
      for (std::size_t i = 0; i < kSpanNames.size(); ++i) {
        v.spans[i] = record.span(kSpanNames[i]);
      }
      v.reason = record.reason("reason");
      v.reply_server = record.text("reply_server");
      v.reply_client = record.text("reply_client");
      v.substitute = record.text("substitute");
      vectors.envelopes.push_back(std::move(v));
    } else if (record.type == "log_value") {
      LogVector v;
      v.at = record.number("at");
      v.name = record.bytes("name");
      v.input = record.bytes("input");
      v.output = record.bytes("output");
      vectors.logs.push_back(std::move(v));
    } else {
      record.fail("unknown record type " + record.type);
    }
    if (!record.error.empty()) {
      vectors.error = path + ": " + record.error;
      return vectors;
    }
  }
  if (vectors.envelopes.empty() || vectors.logs.empty()) {
    vectors.error = path + ": no envelope or no log_value records";
  }
  return vectors;
}

}  // namespace flat

#endif  // JSONRPC_TESTS_FLAT_VECTORS_HPP
