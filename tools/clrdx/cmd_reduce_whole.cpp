// `clrdx reduce` for what reduces whole inputs at once: composites (--op minmax, mean, ...),
// transform-reduce (--map with a built-in operator) and custom reductions (--combine,
// --identity), over one to four arrays of the same length. Regular files are mapped, not read
// into memory (the library copies them to the device chunk by chunk); pipes are read whole.
#include <fmt/format.h>

#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <memory>
#include <vector>

#include "commands.hpp"
#include "input.hpp"
#include "json_util.hpp"
#include "options.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"

namespace clrdx {
namespace {

// A mapped file that another process truncates makes reading past its new end raise SIGBUS:
// one clear line and exit 1 instead of a crash.
void on_sigbus(int) {
  static const char kMessage[] =
      "clrdx: reading a mapped input file failed (it became shorter, or an I/O error)\n";
  [[maybe_unused]] const ssize_t w = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
  ::_exit(1);
}

// A regular file's data mapped read-only (the page cache holds it, so an input larger than
// memory works); unmapped by the destructor.
class Mapping {
 public:
  Mapping(const InputFile& f, std::uint64_t data_bytes) {
    // The data starts where the file's read position is, less what the format check read.
    const off_t pos = ::lseek(f.fd, 0, SEEK_CUR);
    if (pos < 0) throw rdx::Error(fmt::format("cannot read {}: {}", f.path, std::strerror(errno)));
    if (static_cast<std::uint64_t>(pos) < f.head.size())
      throw rdx::Error(fmt::format("cannot read {}: its position is before its data", f.path));
    const std::uint64_t offset = static_cast<std::uint64_t>(pos) - f.head.size();
    size_ = offset + data_bytes;
    void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, f.fd, 0);
    if (p == MAP_FAILED)
      throw rdx::Error(fmt::format("cannot map {}: {}", f.path, std::strerror(errno)));
    base_ = static_cast<unsigned char*>(p);
    struct sigaction sa {};
    sa.sa_handler = on_sigbus;
    ::sigaction(SIGBUS, &sa, nullptr);
    ::madvise(base_, size_, MADV_SEQUENTIAL);
    data_ = base_ + offset;
  }
  ~Mapping() { ::munmap(base_, size_); }
  Mapping(const Mapping&) = delete;
  Mapping& operator=(const Mapping&) = delete;
  const unsigned char* data() const { return data_; }

 private:
  unsigned char* base_ = nullptr;
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

// An input's elements: a regular file's, mapped; a pipe's or generated data, in memory.
struct Loaded {
  explicit Loaded(rdx::Type t) : type(t) {}
  rdx::Type type;
  std::uint64_t bytes = 0;
  std::vector<unsigned char> owned;
  std::unique_ptr<Mapping> mapped;
  const unsigned char* data() const { return mapped ? mapped->data() : owned.data(); }
  std::uint64_t count() const { return bytes / rdx::size_of(type); }
};

Loaded load_file(const std::string& path, std::optional<rdx::Type> type) {
  InputFile f = open_input(path, type);
  Loaded l(f.type);
  struct stat st {};
  if (f.data_bytes && *f.data_bytes > 0 && ::fstat(f.fd, &st) == 0 && S_ISREG(st.st_mode)) {
    f.check_data_size(*f.data_bytes);
    l.bytes = *f.data_bytes;
    try {
      l.mapped = std::make_unique<Mapping>(f, l.bytes);
      return l;
    } catch (const rdx::Error&) {  // a file system without mmap: read it as a pipe is read
      l.bytes = 0;
    }
  }
  l.owned.assign(f.head.begin(), f.head.end());
  constexpr std::size_t kStep = std::size_t{16} << 20;
  for (;;) {
    const std::size_t at = l.owned.size();
    l.owned.resize(at + kStep);
    const std::size_t got = read_full(f.fd, l.owned.data() + at, kStep, path);
    l.owned.resize(at + got);
    if (got < kStep) break;
  }
  f.check_data_size(l.owned.size());
  l.bytes = l.owned.size();
  return l;
}

}  // namespace

int cmd_reduce_whole(const ReduceArgs& a, const ReduceRequest& req) {
  std::vector<Loaded> in;
  if (!a.input.empty()) {
    in.push_back(load_file(a.input, req.type));
    for (const std::string& p : a.inputs)
      if (!p.empty()) in.push_back(load_file(p, in[0].type));
  } else {
    const rdx::Type t = *req.type;
    const std::uint64_t n = parse_count(a.count, "--count"), seed = parse_count(a.seed, "--seed");
    for (std::uint64_t k = 0; k < (req.stat == rdx::Stat::Dot ? 2u : 1u); ++k) {
      Loaded l(t);  // dot: a second array from the next seed
      l.owned = rdx::generate(t, a.generate, n, seed + k);
      l.bytes = l.owned.size();
      in.push_back(std::move(l));
    }
  }
  const std::uint64_t n = in[0].count();
  std::vector<rdx::Array> arrays;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (in[k].count() != n)
      throw rdx::ArgumentError(
          fmt::format("the inputs differ in length: {} has {} elements, "
                      "the first {}",
                      k == 0 ? "--input" : fmt::format("--input{}", k + 1), in[k].count(), n));
    arrays.push_back({in[k].type, in[k].data()});
  }

  rdx::Context ctx(a.device);
  const auto t0 = std::chrono::steady_clock::now();
  rdx::StatResult r;
  std::string what;
  if (req.stat) {
    r = rdx::reduce(ctx, *req.stat, arrays, n, req.opts, a.map);
    what = rdx::name(*req.stat);
  } else {
    const rdx::Type acc = req.opts.acc.value_or(in[0].type);
    const rdx::Reduction red =
        req.custom ? rdx::Reduction::simple(acc, a.combine, a.identity, a.map.empty() ? "x" : a.map)
                   : rdx::Reduction::transform(req.op, acc, a.map);
    const rdx::StateResult s = rdx::reduce(ctx, red, arrays, n, req.opts);
    r.value = s.fields.at(0);
    r.plan = s.plan;
    what = req.custom ? "custom" : std::string(rdx::name(req.op));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (a.json) {
    nlohmann::json j = {{"device", ctx.device_info().name},
                        {"strategy", r.plan.strategy},
                        {"type", std::string(rdx::name(in[0].type))},
                        {"acc", std::string(rdx::name(r.value.type))},
                        {"op", what},
                        {"count", n},
                        {"result", to_json(r.value)},
                        {"index", nullptr},
                        {"work_group_size", r.plan.work_group_size},
                        {"seconds", seconds}};
    if (!a.map.empty()) j["map"] = a.map;
    if (r.index) j["index"] = *r.index;
    if (r.max) {
      j["max"] = to_json(*r.max);
      j["max_index"] = *r.max_index;
    }
    std::cout << j.dump() << "\n";
  } else if (r.max) {
    fmt::print("{} {} {} {}\n", r.value.to_string(), *r.index, r.max->to_string(), *r.max_index);
  } else {
    fmt::print("{}\n", r.value.to_string());
  }
  return 0;
}

}  // namespace clrdx
