// libFuzzer target: clrdx::parse_npy_header on arbitrary bytes.
//
// Only rdx::ArgumentError may leave the parser: any other exception, a crash or a sanitizer report
// is a finding. Each result is checked against the bytes, read here independently:
//  - accepted: the format version is 1, 2 or 3, data_offset is the preamble (10 or 12 bytes) plus
//    the header length it declares, and no more than the input; the type is one of the ten; and
//    where a field of the header can be read unambiguously (its key occurs once), the result
//    agrees with it: the shape is a tuple of integers (an optional Python 2 'L' after each) whose
//    product is the count, the dtype's code gives the type, fortran_order is False; and each of
//    the three keys occurs exactly once (NumPy reads a repeated key's last value: refused).
//  - a header in numpy's own form ({'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//    in any key order, either quote, padded with spaces and a newline) with a supported
//    little-endian dtype, C order and a size numpy can hold must be accepted, and must be
//    refused when its dtype is big-endian, unknown, or the array is in Fortran order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "input.hpp"
#include "rdx/errors.hpp"
#include "rdx/types.hpp"

namespace {

using std::string_view;
constexpr auto npos = string_view::npos;

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_npy: %s\n", what);
  std::fflush(stderr);
  std::abort();
}

struct Code {
  string_view code;
  rdx::Type type;
};
constexpr Code kCodes[] = {{"i1", rdx::Type::I8},  {"u1", rdx::Type::U8},  {"i2", rdx::Type::I16},
                           {"u2", rdx::Type::U16}, {"i4", rdx::Type::I32}, {"u4", rdx::Type::U32},
                           {"i8", rdx::Type::I64}, {"u8", rdx::Type::U64}, {"f4", rdx::Type::F32},
                           {"f8", rdx::Type::F64}, {"f2", rdx::Type::F16}};

std::optional<rdx::Type> type_of_code(string_view code) {
  for (auto& c : kCodes)
    if (c.code == code) return c.type;
  return std::nullopt;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

string_view strip(string_view s) {
  while (!s.empty() && is_space(s.front()))
    s.remove_prefix(1);
  while (!s.empty() && is_space(s.back()))
    s.remove_suffix(1);
  return s;
}

// --- Reading one field of an accepted header --------------------------------------------------

// The text after "key:" when 'key' or "key" occurs exactly once in the header and only spaces
// stand between it and the colon; nullopt when that cannot be said.
std::optional<string_view> value_of(string_view dict, string_view key) {
  int hits = 0;
  std::size_t end = 0;
  for (char q : {'\'', '"'}) {
    const std::string k = std::string(1, q) + std::string(key) + q;
    for (auto p = dict.find(k); p != npos; p = dict.find(k, p + 1)) {
      ++hits;
      end = p + k.size();
    }
  }
  if (hits != 1) return std::nullopt;
  string_view rest = dict.substr(end);
  while (!rest.empty() && is_space(rest.front()))
    rest.remove_prefix(1);
  if (rest.empty() || rest.front() != ':') return std::nullopt;
  rest.remove_prefix(1);
  while (!rest.empty() && is_space(rest.front()))
    rest.remove_prefix(1);
  return rest;
}

// The product of the tuple at the start of `v`, "(2, 3L, 4)"; nullopt when v is no tuple (then
// nothing is said); "malformed" when an element is not digits with an optional 'L' (then the
// header must have been refused).
struct ShapeRead {
  bool malformed = false;
  bool overflow = false;
  std::uint64_t count = 1;
};
std::optional<ShapeRead> read_shape(string_view v) {
  if (v.empty() || v.front() != '(') return std::nullopt;
  const auto close = v.find(')');
  if (close == npos) return std::nullopt;
  string_view inner = strip(v.substr(1, close - 1));
  ShapeRead r;
  bool zero = false;
  while (!inner.empty()) {
    const auto comma = inner.find(',');
    string_view dim = strip(inner.substr(0, comma));
    if (!dim.empty() && dim.back() == 'L') dim.remove_suffix(1);
    if (dim.empty() || dim.find_first_not_of("0123456789") != npos) {
      r.malformed = true;
      return r;
    }
    std::uint64_t d = 0;
    for (char c : dim) {
      const auto digit = static_cast<std::uint64_t>(c - '0');
      if (d > (UINT64_MAX - digit) / 10) {
        r.overflow = true;
        d = 1;
        break;
      }
      d = d * 10 + digit;
    }
    if (d == 0) zero = true;
    if (d != 0 && r.count > UINT64_MAX / d) r.overflow = true;
    if (!r.overflow && d != 0) r.count *= d;
    if (comma == npos) break;
    inner = strip(inner.substr(comma + 1));
  }
  if (zero) r.count = 0;
  return r;
}

void check_fields(string_view dict, const clrdx::NpyHeader& h) {
  for (string_view key : {"descr", "fortran_order", "shape"})
    if (!value_of(dict, key)) finding("accepted a header whose key is missing or repeated");
  if (auto v = value_of(dict, "shape")) {
    if (auto s = read_shape(*v)) {
      if (s->malformed) finding("accepted a shape with a dimension that is not an integer");
      if (!s->overflow && s->count != h.count) finding("count is not the product of the shape");
    }
  }
  if (auto v = value_of(dict, "descr");
      v && !v->empty() && (v->front() == '\'' || v->front() == '"')) {
    const auto end = v->find(v->front(), 1);
    if (end != npos) {
      const string_view descr = v->substr(1, end - 1);
      if (descr.empty()) finding("accepted an empty dtype");
      const char order = descr[0];
      const auto t = type_of_code(descr.substr(1));
      if (!t) finding("accepted a dtype code outside the ten");
      if (*t != h.type) finding("the type is not the dtype's");
      if (order != '<' && order != '|' && order != '=' && !(order == '>' && rdx::size_of(*t) == 1))
        finding("accepted a big-endian or unknown byte order");
    }
  }
  if (auto v = value_of(dict, "fortran_order"))
    if (v->substr(0, 5) != "False") finding("accepted a header whose fortran_order is not False");
}

// --- numpy's own header form -------------------------------------------------------------------

struct Canonical {
  string_view descr;
  bool fortran = false;
  bool too_big = false;  // numpy refuses arrays whose size in bytes passes INT64_MAX
  std::uint64_t count = 1;
};

class Strict {
 public:
  explicit Strict(string_view s) : s_(s) {}

  std::optional<Canonical> header() {
    spaces();
    if (!eat('{')) return std::nullopt;
    Canonical c;
    bool have_descr = false, have_fortran = false, have_shape = false;
    std::uint64_t nonzero_product = 1;
    bool zero = false, overflow = false;
    while (true) {
      spaces();
      if (eat('}')) break;
      string_view key;
      if (!quoted(key)) return std::nullopt;
      spaces();
      if (!eat(':')) return std::nullopt;
      spaces();
      if (key == "descr" && !have_descr) {
        have_descr = true;
        if (!quoted(c.descr)) return std::nullopt;
      } else if (key == "fortran_order" && !have_fortran) {
        have_fortran = true;
        if (word("True"))
          c.fortran = true;
        else if (!word("False"))
          return std::nullopt;
      } else if (key == "shape" && !have_shape) {
        have_shape = true;
        if (!tuple(nonzero_product, zero, overflow)) return std::nullopt;
      } else {
        return std::nullopt;  // another key, or one given twice
      }
      spaces();
      if (eat('}')) break;
      if (!eat(',')) return std::nullopt;
    }
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n'))
      ++pos_;
    if (pos_ != s_.size() || !have_descr || !have_fortran || !have_shape) return std::nullopt;
    c.count = zero ? 0 : nonzero_product;
    c.too_big = overflow;
    return c;
  }

 private:
  void spaces() {
    while (pos_ < s_.size() && s_[pos_] == ' ')
      ++pos_;
  }
  bool eat(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool word(string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    pos_ += w.size();
    return true;
  }
  bool quoted(string_view& out) {
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) return false;
    const char q = s_[pos_];
    const auto end = s_.find(q, pos_ + 1);
    if (end == npos) return false;
    out = s_.substr(pos_ + 1, end - pos_ - 1);
    if (out.find_first_of("\\\n\r'\"") != npos) return false;
    pos_ = end + 1;
    return true;
  }
  // A Python tuple of non-negative integers (numpy's intp: at most INT64_MAX each, an optional
  // Python 2 'L'); one element needs its trailing comma. `overflow`: the product of the non-zero
  // dimensions times 8 bytes passes INT64_MAX (so numpy would not hold it with any dtype).
  bool tuple(std::uint64_t& product, bool& zero, bool& overflow) {
    if (!eat('(')) return false;
    int dims = 0;
    bool comma_after_last = false;
    while (true) {
      spaces();
      if (eat(')')) break;
      std::uint64_t d = 0;
      const std::size_t start = pos_;
      while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') {
        const auto digit = static_cast<std::uint64_t>(s_[pos_] - '0');
        if (d > (static_cast<std::uint64_t>(INT64_MAX) - digit) / 10) return false;
        d = d * 10 + digit;
        ++pos_;
      }
      if (pos_ == start) return false;
      eat('L');
      ++dims;
      if (d == 0)
        zero = true;
      else if (product > static_cast<std::uint64_t>(INT64_MAX) / 8 / d)
        overflow = true;
      else
        product *= d;
      spaces();
      comma_after_last = eat(',');
      if (!comma_after_last) {
        spaces();
        if (!eat(')')) return false;
        break;
      }
    }
    return dims != 1 || comma_after_last;
  }

  string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const string_view bytes(reinterpret_cast<const char*>(data), size);

  // What the preamble says, read here: version, where the header is, whether it is all there.
  std::optional<std::size_t> header_start, header_len;
  if (bytes.size() >= 10 && bytes.substr(0, 6) == "\x93NUMPY") {
    const auto byte = [&](std::size_t i) {
      return std::size_t{static_cast<unsigned char>(bytes[i])};
    };
    if (byte(6) == 1) {
      header_start = 10;
      header_len = byte(8) | byte(9) << 8;
    } else if ((byte(6) == 2 || byte(6) == 3) && bytes.size() >= 12) {
      header_start = 12;
      header_len = byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24;
    }
  }
  const bool whole =
      header_start && *header_start + *header_len <= bytes.size();  // the header is all there
  const string_view dict = whole ? bytes.substr(*header_start, *header_len) : string_view();

  std::optional<clrdx::NpyHeader> h;
  try {
    h = clrdx::parse_npy_header(bytes);
  } catch (const rdx::ArgumentError&) {
    // refused: fine, unless numpy's own form of a supported array (below)
  }

  if (h) {
    if (!whole) finding("accepted a file whose preamble or header is missing or truncated");
    if (h->data_offset != *header_start + *header_len)
      finding("data_offset is not the preamble plus the header length it declares");
    if (h->data_offset > bytes.size()) finding("data_offset is past the end of the input");
    if (!std::any_of(std::begin(kCodes), std::end(kCodes),
                     [&](const Code& c) { return c.type == h->type; }))
      finding("the type is not one of the .npy codes");
    check_fields(dict, *h);
  }

  if (whole) {
    if (auto c = Strict(dict).header()) {
      const char order = c->descr.empty() ? '\0' : c->descr[0];
      const auto t = c->descr.empty() ? std::nullopt : type_of_code(c->descr.substr(1));
      const bool little =
          order == '<' || order == '|' || (order == '>' && t && rdx::size_of(*t) == 1);
      if (t && little && !c->fortran && !c->too_big) {
        if (!h) finding("refused a valid header in numpy's own form");
        if (h->type != *t || h->count != c->count) finding("misread a header in numpy's own form");
      }
      if (h && (!t || (order == '>' && rdx::size_of(*t) > 1) || c->fortran))
        finding("accepted an unsupported dtype or Fortran order");
    }
  }
  return 0;
}
