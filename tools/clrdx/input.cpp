#include "input.hpp"

#include "core/format.hpp"
#include "core/text.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rdx/errors.hpp"

namespace clrdx {
namespace {

using rdx::ArgumentError;

constexpr std::string_view kMagic = "\x93NUMPY";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n';
}

// Where the value that `s` starts with ends (one past it): a quoted string; a (...), [...] or
// {...} group, nested, with quoted strings inside; or a bare word up to ',' or '}' (False, 3).
// npos when a string or a group does not close.
std::size_t value_end(std::string_view s) {
  constexpr auto npos = std::string_view::npos;
  if (s.empty()) return npos;
  std::string closers;  // the groups still open, innermost last
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '\'' || c == '"') {
      i = s.find(c, i + 1);
      if (i == npos) return npos;
    } else if (c == '(' || c == '[' || c == '{') {
      closers.push_back(c == '(' ? ')' : c == '[' ? ']' : '}');
    } else if (!closers.empty() && c == closers.back()) {
      closers.pop_back();
    } else if (closers.empty() && (c == ',' || c == '}')) {
      return i;  // the end of a bare word
    } else if (c == ')' || c == ']' || c == '}') {
      return npos;  // a closer that does not match
    }
    if (closers.empty() && (c == '\'' || c == '"' || c == ')' || c == ']' || c == '}'))
      return i + 1;  // a string or a group is the whole value
  }
  return npos;
}

// At most this many bytes of a header's text in a message (printable()).
constexpr std::size_t kShownBytes = 48;

// Header text as a message shows it: escaped (printable) and cut at kShownBytes.
std::string shown(std::string_view s) {
  return rdx::detail::printable(s.substr(0, kShownBytes)) + (s.size() > kShownBytes ? "..." : "");
}

// NumPy's dimension limit (NPY_MAXDIMS in NumPy 2): it refuses a header with more.
constexpr std::size_t kMaxDims = 64;

// The header dict's three entries, each value's text.
struct NpyDict {
  std::optional<std::string_view> descr, fortran_order, shape;
};

// The entries of the header dict (`dict` starts with '{'), each key given once: NumPy evaluates
// the dict as Python does, so a repeated key's last value wins where a first-wins read would
// disagree (another dtype, order or shape); such a header, and one with a key NumPy neither
// writes nor reads, is refused. A field named like a key, inside a structured dtype, is no entry.
NpyDict npy_dict(std::string_view dict) {
  NpyDict d;
  std::size_t i = 1;
  const auto skip_spaces = [&] {
    while (i < dict.size() && is_space(dict[i]))
      ++i;
  };
  const auto garbled = [&] {
    return ArgumentError(rdx::detail::format(
        ".npy header is not a dictionary of 'key': value entries at '{}'", shown(dict.substr(i))));
  };
  for (;;) {
    skip_spaces();
    if (i < dict.size() && dict[i] == '}') break;
    if (i >= dict.size() || (dict[i] != '\'' && dict[i] != '"')) throw garbled();
    const std::size_t key_end = dict.find(dict[i], i + 1);
    if (key_end == std::string_view::npos) throw garbled();
    const std::string_view k = dict.substr(i + 1, key_end - i - 1);
    i = key_end + 1;
    skip_spaces();
    if (i >= dict.size() || dict[i] != ':') throw garbled();
    ++i;
    skip_spaces();
    const std::string_view rest = dict.substr(i);
    const std::size_t end = value_end(rest);
    if (end == std::string_view::npos || end == 0) throw garbled();
    std::optional<std::string_view>* entry = k == "descr"           ? &d.descr
                                             : k == "fortran_order" ? &d.fortran_order
                                             : k == "shape"         ? &d.shape
                                                                    : nullptr;
    if (!entry)
      throw ArgumentError(rdx::detail::format(
          ".npy header has the key '{}', which NumPy refuses (its keys: 'descr', "
          "'fortran_order', 'shape')",
          shown(k)));
    if (*entry)
      throw ArgumentError(rdx::detail::format(
          ".npy header gives '{}' twice (NumPy would take the last one): it is refused", k));
    *entry = trim(rest.substr(0, end));
    i += end;
    skip_spaces();
    if (i < dict.size() && dict[i] == ',') {
      ++i;
    } else if (i >= dict.size() || dict[i] != '}') {
      throw garbled();
    }
  }
  if (const std::string_view after = trim(dict.substr(i + 1)); !after.empty())
    throw ArgumentError(
        rdx::detail::format(".npy header has '{}' after its dictionary", shown(after)));
  for (const auto& [value, key] :
       {std::pair{&d.descr, "descr"}, {&d.fortran_order, "fortran_order"}, {&d.shape, "shape"}})
    if (!*value)
      throw ArgumentError(rdx::detail::format(".npy header has no valid '{}' entry", key));
  return d;
}

// The dtype codes librdx reads, without their byte order: "i1 u1 ... f8".
std::string npy_codes() {
  std::string r;
  for (rdx::Type t : rdx::kAllTypes) {
    if (rdx::npy_descr(t).empty()) continue;  // bf16: NumPy has no dtype for it
    if (!r.empty()) r += ' ';
    r += rdx::npy_descr(t).substr(1);
  }
  return r;
}

rdx::Type npy_type(std::string_view descr) {
  if (descr.starts_with('['))
    throw ArgumentError(rdx::detail::format(
        ".npy dtype is structured (a list of fields): structured dtypes are not supported "
        "(librdx reads {})",
        npy_codes()));
  if (descr.size() < 4 || (descr.front() != '\'' && descr.front() != '"') ||
      descr.back() != descr.front())
    throw ArgumentError(
        rdx::detail::format(".npy dtype {} is not a simple dtype string", shown(descr)));
  descr = descr.substr(1, descr.size() - 2);
  const char order = descr[0];
  const std::string_view code = descr.substr(1);
  // Big-endian: only a one-byte type's code reads (b1 is refused below as not supported).
  if (order == '>' && code != "b1" && !rdx::type_of_npy(descr))
    throw ArgumentError(rdx::detail::format(
        ".npy dtype '{}' is big-endian; librdx reads little-endian", shown(descr)));
  if (order != '<' && order != '|' && order != '=' && order != '>')
    throw ArgumentError(rdx::detail::format(".npy dtype '{}' is not understood", shown(descr)));
  if (const std::optional<rdx::Type> t = rdx::type_of_npy(descr)) return *t;
  throw ArgumentError(rdx::detail::format(".npy dtype '{}' is not supported (librdx reads {})",
                                          shown(descr), npy_codes()));
}

std::vector<std::uint64_t> npy_shape(std::string_view shape) {
  std::vector<std::uint64_t> dims;
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')')
    throw ArgumentError(rdx::detail::format(".npy shape {} is not a tuple", shown(shape)));
  shape = shape.substr(1, shape.size() - 2);
  std::uint64_t count = 1;
  while (!(shape = trim(shape)).empty()) {
    const auto comma = shape.find(',');
    std::string_view dim = trim(shape.substr(0, comma));
    std::string_view digits = dim;
    if (!digits.empty() && digits.back() == 'L') digits.remove_suffix(1);  // Python 2 long: 3L
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos)
      throw ArgumentError(rdx::detail::format(".npy shape has a bad dimension '{}'", shown(dim)));
    dim = digits;
    std::uint64_t d = 0;
    for (char c : dim) {
      if (d > (UINT64_MAX - 9) / 10) throw ArgumentError(".npy shape dimension overflows 64 bits");
      d = d * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (d && count > UINT64_MAX / d) throw ArgumentError(".npy shape overflows 64 bits");
    count *= d;
    dims.push_back(d);
    if (dims.size() > kMaxDims)
      throw ArgumentError(rdx::detail::format(
          ".npy shape has more than {} dimensions, which NumPy refuses", kMaxDims));
    if (comma == std::string_view::npos) break;
    shape.remove_prefix(comma + 1);
  }
  return dims;
}

// The first read: enough for any ordinary .npy header.
constexpr std::size_t kHeadBytes = 64 << 10;
// A .npy header longer than this is not read whole (its parse then reports it truncated).
constexpr std::uint64_t kMaxNpyHeader = 64 << 20;

// Where the header that `head` starts declares it ends (its preamble's length field), or 0 when
// head is too short to say.
std::uint64_t npy_header_end(std::string_view head) {
  const auto byte = [&](std::size_t i) {
    return std::uint64_t{static_cast<unsigned char>(head[i])};
  };
  if (head.size() >= 10 && byte(6) == 1) return 10 + (byte(8) | byte(9) << 8);
  if (head.size() >= 12 && (byte(6) == 2 || byte(6) == 3))
    return 12 + (byte(8) | byte(9) << 8 | byte(10) << 16 | byte(11) << 24);
  return 0;
}

// Appends to `head` what the file gives until it holds `want` bytes or the file ends.
std::string read_more(const InputFile& f, std::string head, std::uint64_t want) {
  const std::size_t have = head.size();
  head.resize(static_cast<std::size_t>(want));
  const std::size_t got = read_full(f.fd, head.data() + have, head.size() - have, f.path);
  head.resize(have + got);
  return head;
}

}  // namespace

std::size_t read_full(int fd, void* buf, std::size_t n, const std::string& path) {
  auto* p = static_cast<char*>(buf);
  std::size_t done = 0;
  while (done < n) {
    const ssize_t r = ::read(fd, p + done, n - done);
    if (r == 0) break;
    if (r < 0) {
      if (errno == EINTR) continue;
      throw ArgumentError(rdx::detail::format("error while reading {}: {}",
                                              rdx::detail::printable(path), std::strerror(errno)));
    }
    done += static_cast<std::size_t>(r);
  }
  return done;
}

bool looks_like_npy(std::string_view bytes) {
  return bytes.substr(0, kMagic.size()) == kMagic;
}

NpyHeader parse_npy_header(std::string_view b) {
  if (b.empty()) throw ArgumentError("the .npy file is empty");
  if (!looks_like_npy(b)) throw ArgumentError("not a .npy file (bad magic)");
  if (b.size() < 10) throw ArgumentError(".npy header is truncated");
  const auto major = static_cast<unsigned char>(b[6]);
  std::size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(b[8]) | static_cast<unsigned char>(b[9]) << 8;
    start = 10;
  } else if (major == 2 || major == 3) {
    if (b.size() < 12) throw ArgumentError(".npy header is truncated");
    for (int i = 3; i >= 0; --i)
      header_len = header_len << 8 | static_cast<unsigned char>(b[8 + static_cast<std::size_t>(i)]);
    start = 12;
  } else {
    throw ArgumentError(
        rdx::detail::format(".npy format version {} is not supported (1, 2 or 3)", major));
  }
  if (b.size() < start + header_len) throw ArgumentError(".npy header is truncated");
  const std::string_view dict = trim(b.substr(start, header_len));
  if (dict.empty() || dict.front() != '{' || dict.find('}') == std::string_view::npos)
    throw ArgumentError(".npy header is not a dictionary");
  const NpyDict entries = npy_dict(dict);
  const std::string_view fortran = *entries.fortran_order;
  if (fortran == "True")
    throw ArgumentError(
        ".npy array is in Fortran order; save it in C order (np.ascontiguousarray)");
  if (fortran != "False")
    throw ArgumentError(rdx::detail::format(".npy fortran_order {} is not a bool", shown(fortran)));
  NpyHeader h;
  h.type = npy_type(*entries.descr);
  const std::string_view shape = *entries.shape;
  h.shape = npy_shape(shape);
  h.count = 1;
  for (std::uint64_t d : h.shape)
    h.count *= d;  // no overflow: npy_shape checks
  if (const std::size_t es = rdx::size_of(h.type); h.count > UINT64_MAX / es)
    throw ArgumentError(rdx::detail::format(
        ".npy shape {} has {} elements of {} bytes, whose byte count overflows 64 bits",
        shown(shape), h.count, es));
  h.data_offset = start + header_len;
  return h;
}

InputFile::InputFile(InputFile&& o) noexcept
    : path(std::move(o.path)),
      type(o.type),
      fd(std::exchange(o.fd, -1)),
      head(std::move(o.head)),
      data_bytes(o.data_bytes),
      npy(o.npy),
      npy_count(o.npy_count),
      npy_shape(std::move(o.npy_shape)),
      part(o.part) {}

InputFile& InputFile::operator=(InputFile&& o) noexcept {
  if (this != &o) {
    if (fd >= 0) ::close(fd);
    path = std::move(o.path);
    type = o.type;
    fd = std::exchange(o.fd, -1);
    head = std::move(o.head);
    data_bytes = o.data_bytes;
    npy = o.npy;
    npy_count = o.npy_count;
    npy_shape = std::move(o.npy_shape);
    part = o.part;
  }
  return *this;
}

InputFile::~InputFile() {
  if (fd >= 0) ::close(fd);
}

void InputFile::check_data_size(std::uint64_t bytes) const {
  const std::size_t es = rdx::size_of(type);
  if (part) {
    if (bytes != *data_bytes)
      throw ArgumentError(rdx::detail::format("{}: {} bytes of the range of {} could be read",
                                              rdx::detail::printable(path), bytes, *data_bytes));
  } else if (npy) {
    if (npy_count > UINT64_MAX / es)  // parse_npy_header refuses these
      throw ArgumentError(
          rdx::detail::format("{}: {} elements of {} bytes overflow a 64-bit byte count",
                              rdx::detail::printable(path), npy_count, es));
    const std::uint64_t need = npy_count * es;
    if (bytes != need)
      throw ArgumentError(
          rdx::detail::format("{}: the header promises {} elements ({} bytes) but {} bytes "
                              "of data follow",
                              rdx::detail::printable(path), npy_count, need, bytes));
  } else if (bytes % es != 0) {
    throw ArgumentError(
        rdx::detail::format("{} has {} bytes, not a multiple of the {}-byte {} element",
                            rdx::detail::printable(path), bytes, es, rdx::name(type)));
  }
}

void keep_range(InputFile& f, std::uint64_t first, std::uint64_t bytes) {
  struct stat st {};
  if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode) || !f.data_bytes)
    throw ArgumentError(
        rdx::detail::format("{} is not a regular file: its ranges cannot be read apart",
                            rdx::detail::printable(f.path)));
  const std::size_t es = rdx::size_of(f.type);
  if (first % es || bytes % es || first > *f.data_bytes || bytes > *f.data_bytes - first)
    throw ArgumentError(rdx::detail::format("{}: bytes [{}, {}) are not whole elements of its data",
                                            rdx::detail::printable(f.path), first, first + bytes));
  const off_t here = ::lseek(f.fd, 0, SEEK_CUR);
  if (here < 0)
    throw ArgumentError(
        rdx::detail::format("{}: {}", rdx::detail::printable(f.path), std::strerror(errno)));
  // The data starts where open_input's read ended, less the data bytes it read with the header.
  const std::uint64_t start = static_cast<std::uint64_t>(here) - f.head.size() + first;
  if (::lseek(f.fd, static_cast<off_t>(start), SEEK_SET) < 0)
    throw ArgumentError(
        rdx::detail::format("{}: {}", rdx::detail::printable(f.path), std::strerror(errno)));
  f.head.clear();
  f.data_bytes = bytes;
  f.part = true;
}

InputFile open_input(const std::string& path, std::optional<rdx::Type> type, bool raw_default) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw ArgumentError(
        rdx::detail::format("{} is a directory, not a file", rdx::detail::printable(path)));
  InputFile f;
  f.path = path;
  f.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (f.fd < 0)
    throw ArgumentError(rdx::detail::format("cannot read {}: {}", rdx::detail::printable(path),
                                            std::strerror(errno)));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0)
    throw ArgumentError(rdx::detail::format("cannot read {}: {}", rdx::detail::printable(path),
                                            std::strerror(errno)));
  const bool regular = S_ISREG(st.st_mode);
  ::posix_fadvise(f.fd, 0, 0, POSIX_FADV_SEQUENTIAL);  // a hint: larger read-ahead

  std::string head = read_more(f, "", kHeadBytes);
  if (looks_like_npy(head) || path.ends_with(".npy")) {
    if (const std::uint64_t end = npy_header_end(head); end > head.size())
      head = read_more(f, std::move(head), std::min(end, kMaxNpyHeader));
    NpyHeader h;
    try {
      h = parse_npy_header(head);
    } catch (const ArgumentError& e) {
      throw ArgumentError(rdx::detail::format("{}: {}", rdx::detail::printable(path), e.what()));
    }
    if (type && *type != h.type && !raw_default)
      throw ArgumentError(rdx::detail::format("{} holds {} elements but --type is {}",
                                              rdx::detail::printable(path), rdx::name(h.type),
                                              rdx::name(*type)));
    f.type = h.type;
    f.npy = true;
    f.npy_count = h.count;
    f.npy_shape = h.shape;
    f.head = head.substr(h.data_offset);
    if (regular) {
      f.data_bytes = static_cast<std::uint64_t>(st.st_size) - h.data_offset;
      f.check_data_size(*f.data_bytes);
    } else {
      f.data_bytes = h.count * rdx::size_of(h.type);  // the header's count fits (checked)
    }
    return f;
  }
  if (!type)
    throw ArgumentError(
        rdx::detail::format("{} is a raw file: --type is required", rdx::detail::printable(path)));
  f.type = *type;
  f.head = std::move(head);
  if (regular) {
    f.data_bytes = static_cast<std::uint64_t>(st.st_size);
    f.check_data_size(*f.data_bytes);
  }
  return f;
}

std::string npy_bytes(rdx::Type type, std::span<const std::uint64_t> shape, const void* data,
                      bool logical) {
  if (logical && type != rdx::Type::U8) throw std::logic_error("npy_bytes: a bool is a u8");
  if (rdx::npy_descr(type).empty()) {  // bf16: written as its f32 values (exact)
    std::uint64_t count = 1;
    for (std::uint64_t d : shape)
      count *= d;
    const rdx::Type f = rdx::computed_type(type);
    if (f != rdx::Type::F32) throw std::logic_error("npy_bytes: a type without dtype is not f32's");
    std::vector<unsigned char> wide(count * rdx::size_of(f));
    for (std::uint64_t k = 0; k < count; ++k) {
      const auto* p = static_cast<const unsigned char*>(data) + k * rdx::size_of(type);
      const rdx::Scalar v = rdx::Scalar::from_bytes(type, p);
      const float x = v.as<float>();
      std::memcpy(wide.data() + k * sizeof x, &x, sizeof x);
    }
    return npy_bytes(f, shape, wide.data(), false);
  }
  const std::string_view descr = logical ? "|b1" : rdx::npy_descr(type);
  std::string dims;
  std::uint64_t count = 1;
  for (std::uint64_t d : shape) {
    dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    count *= d;
  }
  if (shape.size() == 1) dims += ',';  // (3,) is a tuple, (3) is not
  std::string dict = rdx::detail::format(
      "{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", descr, dims);
  // Version 1: magic, 2 version bytes, a 2-byte length; version 2 (a header over 65535 bytes, from
  // many dimensions): a 4-byte length. The header ends in '\n' and the data starts at a multiple
  // of 64 bytes.
  const bool v2 = 10 + dict.size() + 1 + 63 > 65535;
  const std::size_t prefix = v2 ? 12 : 10;
  dict.append((64 - (prefix + dict.size() + 1) % 64) % 64, ' ');
  dict += '\n';
  std::string out(v2 ? "\x93NUMPY\x02\x00" : "\x93NUMPY\x01\x00", 8);
  for (std::size_t b = 0; b < (v2 ? 4u : 2u); ++b)
    out += static_cast<char>((dict.size() >> (8 * b)) & 0xff);
  out += dict;
  out.append(static_cast<const char*>(data), count * rdx::size_of(type));
  return out;
}

}  // namespace clrdx
