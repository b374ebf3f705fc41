// Plan selection, device selectors, names and the host reference: no OpenCL device needed.
#include <doctest/doctest.h>
#include "core/format.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

#include <unistd.h>

#include "core/plan_memo.hpp"
#include "coverage.hpp"
#include "ops/operators.hpp"
#include "ops/stats.hpp"
#include "plan/fast_tuning.hpp"
#include "rdx/rdx.hpp"
#include "rdx/verify.hpp"

using namespace rdx;
using rdx::test::Coverage;
using rdx::test::pair_in_matrix;

namespace {
// A tunable the plan chose (Plan::params), 0 when it has none.
std::uint64_t param(const Plan& p, const char* name) {
  return p.params.get(name).value_or(0);
}
// fast_strided's default of a tunable (plan/fast_tuning.cpp's table).
std::uint64_t strided_default(const char* name) {
  return detail::fast_default(false, name);
}
}  // namespace

namespace {

DeviceInfo fake_device(DeviceKind kind, std::string name, bool fp64 = true) {
  DeviceInfo d;
  d.kind = kind;
  d.name = std::move(name);
  d.fp64 = fp64;
  d.max_work_group = 1024;
  d.compute_units = 8;
  d.local_mem = 48 << 10;
  d.max_alloc = 1 << 30;
  return d;
}

std::vector<DeviceInfo> fake_devices() {
  auto a = fake_device(DeviceKind::CPU, "pthread-skylake Xeon");
  a.platform_index = 0, a.device_index = 0, a.index = 0;
  a.platform = "Portable Computing Language";
  a.platform_version = "OpenCL 3.0 PoCL 5.0+debian  Linux, None+Asserts";
  auto b = fake_device(DeviceKind::GPU, "NVIDIA H200");
  b.platform_index = 1, b.device_index = 0, b.index = 1;
  b.platform = "NVIDIA CUDA";
  auto c = fake_device(DeviceKind::GPU, "Other GPU");
  c.platform_index = 1, c.device_index = 1, c.index = 2;
  c.platform = "NVIDIA CUDA";
  auto d = fake_device(DeviceKind::CPU, "AMD EPYC 7B13 64-Core Processor");
  d.platform_index = 2, d.device_index = 0, d.index = 3;
  d.platform = "Intel(R) OpenCL";
  return {a, b, c, d};
}

}  // namespace

TEST_CASE("select_device: every selector form") {
  const auto devs = fake_devices();
  CHECK(select_device(devs, "").name == "NVIDIA H200");  // first GPU
  CHECK(select_device(devs, "cpu").index == 0);
  CHECK(select_device(devs, "GPU").index == 1);
  CHECK(select_device(devs, "2").name == "Other GPU");
  CHECK(select_device(devs, "1:1").name == "Other GPU");
  CHECK(select_device(devs, "h200").index == 1);  // case-insensitive substring
  // The platform's name or version, after every device name: the first device that matches.
  CHECK(select_device(devs, "intel").index == 3);
  CHECK(select_device(devs, "Intel").index == 3);
  CHECK(select_device(devs, "pocl").index == 0);
  CHECK(select_device(devs, "cuda").index == 1);
  CHECK(select_device(devs, "epyc").index == 3);  // a device name first
  CHECK_THROWS_AS(select_device(devs, "7"), DeviceError);
  CHECK_THROWS_AS(select_device(devs, "3:0"), DeviceError);
  CHECK_THROWS_AS(select_device(devs, "radeon"), DeviceError);
  CHECK_THROWS_AS(select_device(devs, "accelerator"), DeviceError);
  CHECK_THROWS_AS(select_device({}, ""), DeviceError);
  std::vector<DeviceInfo> cpus_only = {devs[0]};
  CHECK(select_device(cpus_only, "").index == 0);  // no GPU: the first device
}

TEST_CASE("names parse back, and bad names are argument errors") {
  for (Type t : kAllTypes)
    CHECK(parse_type(name(t)) == t);
  for (Op op : kAllOps)
    CHECK(parse_op(name(op)) == op);
  CHECK(parse_type("float") == Type::F32);
  CHECK(parse_type("UINT8") == Type::U8);
  CHECK(parse_type("float16") == Type::F16);
  CHECK(parse_type("bfloat16") == Type::BF16);
  CHECK_THROWS_AS(parse_type("ushort16"), ArgumentError);
  CHECK_THROWS_AS(parse_type("f8"), ArgumentError);
  CHECK_THROWS_AS(parse_op("mean"), ArgumentError);
}

TEST_CASE("holds_every_value: exact conversions between element types") {
  // Every pair, against the ranges of the C++ types: an integer fits when its minimum and
  // maximum convert and come back unchanged; a float fits a float at least as wide; a 16-bit
  // float fits where each of its 65536 values converts and comes back unchanged.
  for (Type from : kAllTypes)
    for (Type to : kAllTypes) {
      CAPTURE(name(from));
      CAPTURE(name(to));
      const bool want = visit_type(from, [&](auto f) {
        using F = decltype(f);
        return visit_type(to, [&](auto t) {
          using T = decltype(t);
          if constexpr (is_half_v<F>) {
            if constexpr (std::is_integral_v<T>) {
              return false;  // 0.5 is an f16 and a bf16
            } else {
              for (std::uint32_t b = 0; b < 0x10000; ++b) {
                const float x = F::from_bits(static_cast<std::uint16_t>(b));
                if (std::isnan(x)) continue;
                if (static_cast<float>(static_cast<T>(x)) != x) return false;
              }
              return true;
            }
          } else if constexpr (std::is_floating_point_v<F>) {
            return std::is_floating_point_v<T> && sizeof(T) >= sizeof(F);
          } else {
            // The extremes, and the largest value with all low bits set (2^k - 1 rounds in a
            // float whose significand is shorter than k bits).
            const F lo = std::numeric_limits<F>::lowest(), hi = std::numeric_limits<F>::max();
            auto round_trips = [](F x) {
              const long double y = static_cast<long double>(static_cast<T>(x));
              return y == static_cast<long double>(x);
            };
            if constexpr (is_float_v<T>) return round_trips(lo) && round_trips(hi);
            return std::numeric_limits<T>::lowest() <= static_cast<long double>(lo) &&
                   static_cast<long double>(hi) <= std::numeric_limits<T>::max();
          }
        });
      });
      CHECK(holds_every_value(to, from) == want);
    }
}

TEST_CASE("make_plan validates the request") {
  const auto gpu = fake_device(DeviceKind::GPU, "gpu");
  const auto no_fp64 = fake_device(DeviceKind::GPU, "tiny", false);
  Options o;
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Xor, 10, o), ArgumentError);
  CHECK_THROWS_AS(make_plan(no_fp64, Type::F64, Op::Sum, 10, o), UnsupportedError);
  o.acc = Type::F64;
  CHECK_THROWS_AS(make_plan(no_fp64, Type::F32, Op::Sum, 10, o), UnsupportedError);
  CHECK(make_plan(gpu, Type::F32, Op::Sum, 10, o).acc == Type::F64);
  o.acc = Type::I8;
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::Sum, 10, o), ArgumentError);  // narrower
  o.acc = Type::I32;
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Sum, 10, o), ArgumentError);  // float into int
  o.acc = Type::I64;
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::ArgMax, 10, o), ArgumentError);
  CHECK(make_plan(gpu, Type::I32, Op::Sum, 10, o).acc == Type::I64);
  // f16 and bf16 compute in f32 (or f64), never in themselves; argmin/argmax only in f32.
  for (Type h : {Type::F16, Type::BF16}) {
    CAPTURE(name(h));
    Options d;
    CHECK(make_plan(gpu, h, Op::Sum, 10, d).acc == Type::F32);
    CHECK(make_plan(gpu, h, Op::ArgMin, 10, d).acc == Type::F32);
    CHECK(make_plan(gpu, h, Op::NanMax, 10, d).acc == Type::F32);
    d.acc = h;
    CHECK_THROWS_AS(make_plan(gpu, h, Op::Sum, 10, d), ArgumentError);
    d.acc = Type::F16;
    CHECK_THROWS_AS(make_plan(gpu, Type::I8, Op::Sum, 10, d), ArgumentError);
    d.acc = Type::F64;
    CHECK(make_plan(gpu, h, Op::Sum, 10, d).acc == Type::F64);
    CHECK(make_plan(gpu, h, Op::Max, 10, d).acc == Type::F64);
    CHECK_THROWS_AS(make_plan(gpu, h, Op::ArgMax, 10, d), ArgumentError);
    CHECK_THROWS_AS(make_plan(no_fp64, h, Op::Sum, 10, d), UnsupportedError);
    d.acc = Type::F32;
    CHECK(make_plan(gpu, h, Op::ArgMax, 10, d).acc == Type::F32);
    CHECK_THROWS_AS(make_plan(gpu, h, Op::And, 10, d), ArgumentError);
  }
  // An integer widens into a wider integer or a float, never into one of its own width.
  o.acc = Type::U32;
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::Sum, 10, o), ArgumentError);
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::Min, 10, o), ArgumentError);
  o.acc = Type::I8;
  CHECK_THROWS_AS(make_plan(gpu, Type::U8, Op::Max, 10, o), ArgumentError);
  o.acc = Type::I64;
  CHECK_THROWS_AS(make_plan(gpu, Type::U64, Op::Max, 10, o), ArgumentError);
  // min and max: only an accumulator that holds every element value exactly.
  o.acc = Type::U64;
  CHECK(make_plan(gpu, Type::I32, Op::Sum, 10, o).acc == Type::U64);
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::Min, 10, o), ArgumentError);
  o.acc = Type::F64;
  CHECK(make_plan(gpu, Type::I64, Op::Sum, 10, o).acc == Type::F64);
  CHECK_THROWS_AS(make_plan(gpu, Type::I64, Op::Max, 10, o), ArgumentError);
  CHECK(make_plan(gpu, Type::I32, Op::Max, 10, o).acc == Type::F64);
  o.acc = Type::F32;
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::Min, 10, o), ArgumentError);
  CHECK(make_plan(gpu, Type::U16, Op::Min, 10, o).acc == Type::F32);
  o.acc = Type::I16;
  CHECK(make_plan(gpu, Type::U8, Op::Max, 10, o).acc == Type::I16);
  o = {};
  o.strategy = "nope";
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::Sum, 10, o), ArgumentError);
  o = {};
  o.work_group_size = 100;
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::Sum, 10, o), ArgumentError);
  o.work_group_size = 2048;  // above the device's 1024
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::Sum, 10, o), ArgumentError);
  o.work_group_size = 64;
  CHECK(make_plan(gpu, Type::I32, Op::Sum, 10, o).work_group_size == 64);
}

TEST_CASE("PlanMemo: a kept plan only for the same request; a throwing plan is not kept") {
  const auto gpu = fake_device(DeviceKind::GPU, "gpu");
  detail::PlanMemo memo;
  int made = 0;
  const auto get = [&](Type t, Op op, std::uint64_t n, const Options& o) {
    return memo.get(t, op, n, o, [&] {
      ++made;
      return make_plan(gpu, t, op, n, o);
    });
  };
  const Options def;
  const auto a = get(Type::F32, Op::Sum, 1000, def);
  CHECK(made == 1);
  CHECK(get(Type::F32, Op::Sum, 1000, def) == a);  // the same object: not planned again
  CHECK(made == 1);
  // Every field of the request is part of the key: each of these is planned, and is make_plan's.
  Options wg = def, strat = def, acc = def, tun = def, det = def;
  wg.work_group_size = 64;
  strat.strategy = "topdown";
  acc.acc = Type::F64;
  tun.tuning.set("unroll", 4);
  det.determinism = Determinism::AnyDevice;
  const std::vector<std::tuple<Type, Op, std::uint64_t, Options>> requests = {
      {Type::F32, Op::Sum, 1001, def},   {Type::F64, Op::Sum, 1000, def},
      {Type::F32, Op::Max, 1000, def},   {Type::F32, Op::Sum, 1000, wg},
      {Type::F32, Op::Sum, 1000, strat}, {Type::F32, Op::Sum, 1000, acc},
      {Type::F32, Op::Sum, 1000, tun},   {Type::F32, Op::Sum, 1000, det}};
  for (const auto& [t, op, n, o] : requests) {
    const int before = made;
    const auto p = get(t, op, n, o);
    CHECK(made == before + 1);
    CHECK(*p == make_plan(gpu, t, op, n, o));
    CHECK(*get(t, op, n, o) == *p);
    CHECK(made == before + 1);
  }
  // A request that make_plan refuses: its error, and nothing kept (the next call plans again).
  Options bad = def;
  bad.strategy = "nope";
  CHECK_THROWS_AS(get(Type::F32, Op::Sum, 1000, bad), ArgumentError);
  CHECK_THROWS_AS(get(Type::F32, Op::Sum, 1000, bad), ArgumentError);
  CHECK(made == 1 + int(requests.size()) + 2);
  // More requests than it keeps: the oldest give way, and a plan made again is still make_plan's.
  for (std::uint64_t n = 1; n <= 40; ++n)
    CHECK(*get(Type::I32, Op::Sum, n, def) == make_plan(gpu, Type::I32, Op::Sum, n, def));
  const int before = made;
  CHECK(*get(Type::F32, Op::Sum, 1000, def) == *a);
  CHECK(made == before + 1);
}

TEST_CASE("make_plan is a pure function: same facts, same plan; every strategy plans") {
  CHECK(std::any_of(strategies().begin(), strategies().end(),
                    [](const StrategyInfo& s) { return s.name == kBaselineStrategy; }));
  const auto gpu = fake_device(DeviceKind::GPU, "gpu");
  const auto cpu = fake_device(DeviceKind::CPU, "cpu");
  for (auto& s : strategies()) {
    Options o;
    o.strategy = std::string(s.name);
    for (std::uint64_t n : {1ull, 1000ull, 1ull << 40}) {
      for (const auto& dev : {gpu, cpu}) {
        try {
          const Plan a = make_plan(dev, Type::F32, Op::Sum, n, o);
          CHECK(a == make_plan(dev, Type::F32, Op::Sum, n, o));
          CHECK(a.strategy == s.name);
          CHECK(a.state == StateForm::Value);  // a strategy's plan keeps the operator's value
          if (n > 1) CHECK(a.depth >= 1);      // at least one combine
          CHECK(a.work_group_size >= 1);
        } catch (const UnsupportedError&) {
          // a strategy may refuse a device; the message is checked by the device tests
        }
      }
    }
  }
  const Plan p = make_plan(gpu, Type::I32, Op::Sum, 1 << 20, {});
  CHECK(p.strategy != "auto");
  CHECK(!p.describe().empty());
}

TEST_CASE("identity of each operator") {
  CHECK(identity(Op::Sum, Type::I32).as<int>() == 0);
  CHECK(identity(Op::Prod, Type::F64).as<double>() == 1.0);
  CHECK(identity(Op::And, Type::U8).as<unsigned>() == 255u);
  CHECK(identity(Op::Min, Type::I16).as<int>() == 32767);
  CHECK(identity(Op::Max, Type::U32).as<unsigned>() == 0u);
  CHECK(identity(Op::Min, Type::F32).as<float>() == std::numeric_limits<float>::infinity());
  CHECK(identity(Op::Max, Type::F32).as<float>() == -std::numeric_limits<float>::infinity());
  CHECK_THROWS_AS(identity(Op::ArgMin, Type::F32), ArgumentError);
}

TEST_CASE("host reference against facts computed another way") {
  // Sum of 0..n-1 is n(n-1)/2; u8 wraps it modulo 256.
  std::vector<std::uint32_t> iota(100000);
  std::iota(iota.begin(), iota.end(), 0u);
  auto r = reference_reduce(Type::U32, Type::U64, Op::Sum, iota.data(), iota.size());
  CHECK(r.value.as<std::uint64_t>() == 100000ull * 99999ull / 2);
  std::vector<std::uint8_t> bytes(1000, 200);
  r = reference_reduce(Type::U8, Type::U8, Op::Sum, bytes.data(), bytes.size());
  CHECK(r.value.as<unsigned>() == (1000u * 200u) % 256u);
  // u16 products promote to int in C++: the reference must wrap, not overflow.
  std::vector<std::uint16_t> big(3, 65535);
  r = reference_reduce(Type::U16, Type::U16, Op::Prod, big.data(), big.size());
  CHECK(r.value.as<unsigned>() == 65535u);  // (-1)^3 mod 2^16
  // argmin: first occurrence; NaN propagates (its first index); nan*: NaN ignored unless all NaN.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> f = {nan, 3, 1, 2, 1, nan};
  r = reference_reduce(Type::F32, Type::F32, Op::NanArgMin, f.data(), f.size());
  CHECK(*r.index == 2);
  r = reference_reduce(Type::F32, Type::F32, Op::ArgMin, f.data(), f.size());
  CHECK(*r.index == 0);
  CHECK(std::isnan(r.value.as<float>()));
  std::vector<float> g = {3, 1, nan, 4, nan};
  r = reference_reduce(Type::F32, Type::F32, Op::ArgMax, g.data(), g.size());
  CHECK(*r.index == 2);
  r = reference_reduce(Type::F32, Type::F32, Op::NanMax, f.data(), f.size());
  CHECK(r.value.as<float>() == 3.0f);
  r = reference_reduce(Type::F32, Type::F32, Op::Max, f.data(), f.size());
  CHECK(std::isnan(r.value.as<float>()));
  r = reference_reduce(Type::F32, Type::F32, Op::Sum, f.data(), f.size());
  CHECK(std::isnan(r.value.as<float>()));
  std::vector<float> all_nan(4, nan);
  r = reference_reduce(Type::F32, Type::F32, Op::ArgMax, all_nan.data(), 4);
  CHECK(*r.index == 0);
  CHECK(std::isnan(r.value.as<float>()));
  r = reference_reduce(Type::F32, Type::F32, Op::Min, all_nan.data(), 4);
  CHECK(std::isnan(r.value.as<float>()));
  r = reference_reduce(Type::F32, Type::F32, Op::NanArgMin, all_nan.data(), 4);
  CHECK(*r.index == 0);
  CHECK(std::isnan(r.value.as<float>()));
}

TEST_CASE("check_result accepts within the bound and rejects outside it") {
  std::vector<float> x(1 << 16, 0.1f);
  const auto ref = reference_reduce(Type::F32, Type::F32, Op::Sum, x.data(), x.size());
  Plan p;
  p.type = p.acc = Type::F32;
  p.op = Op::Sum;
  p.n = x.size();
  p.depth = 16;
  const float exact = static_cast<float>(ref.exact);
  CHECK(check_result(p, Scalar::of(exact), std::nullopt, ref).empty());
  CHECK(!check_result(p, Scalar::of(exact * 1.001f), std::nullopt, ref).empty());
  CHECK(!check_result(p, Scalar::of(exact), std::optional<std::uint64_t>(3), ref).empty());
  std::vector<int> ints = {1, 2, 3};
  const auto iref = reference_reduce(Type::I32, Type::I32, Op::Sum, ints.data(), 3);
  p.type = p.acc = Type::I32;
  CHECK(check_result(p, Scalar::of(6), std::nullopt, iref).empty());
  CHECK(!check_result(p, Scalar::of(7), std::nullopt, iref).empty());
}

// "wide": each float type's exponents from its smallest subnormal's (2^(min_exponent - digits))
// to its largest finite value's, or 33 below the sum's accumulator's largest where that is lower
// (bf16 and f32 sum in f32, f64 in f64): sums of 2^31 elements stay finite. Read from the values.
TEST_CASE("generators: wide floats span the type's exponents") {
  struct Want {
    Type type;
    int lo, hi;
  };
  const Want wants[] = {{Type::F16, -24, 15},  // all of f16 (f32 sums 2^31 of 65504)
                        {Type::BF16, -133, 95},
                        {Type::F32, -149, 95},
                        {Type::F64, -1074, 991}};
  for (const Want& w : wants) {
    CAPTURE(name(w.type));
    const std::uint64_t n = 40000;
    const std::vector<unsigned char> g = generate(w.type, "wide", n, 3);
    int lo = std::numeric_limits<int>::max(), hi = std::numeric_limits<int>::min();
    bool finite = true, negative = false;
    double largest = 0;
    visit_type(w.type, [&](auto z) {
      using T = decltype(z);
      for (std::uint64_t i = 0; i < n; ++i) {
        T v;
        std::memcpy(&v, g.data() + i * sizeof(T), sizeof(T));
        const double d = static_cast<double>(v);
        finite = finite && std::isfinite(d) && d != 0;
        negative = negative || d < 0;
        largest = std::max(largest, std::abs(d));
        const int e = std::ilogb(d);  // floor(log2 |d|), exact for subnormals of T in a double
        lo = std::min(lo, e);
        hi = std::max(hi, e);
      }
    });
    CHECK(finite);
    CHECK(negative);
    CHECK(lo == w.lo);
    CHECK(hi == w.hi);
    // 2^31 elements as large as the largest sum to a finite value of the sum's accumulator.
    const double acc_max = computed_type(w.type) == Type::F64
                               ? std::numeric_limits<double>::max()
                               : double(std::numeric_limits<float>::max());
    CHECK(std::ldexp(largest, 31) < acc_max);
  }
}

TEST_CASE("generators and the case table") {
  auto g = generate(Type::I32, "mod:7", 20);
  CHECK(reinterpret_cast<const int*>(g.data())[15] == 1);
  g = generate(Type::U8, "iota", 300);
  CHECK(g[299] == 299 % 256);
  CHECK_THROWS_AS(generate(Type::I32, "mod:0", 5), ArgumentError);
  CHECK_THROWS_AS(generate(Type::I32, "gauss", 5), ArgumentError);
  CHECK(generate(Type::F64, "random", 10, 5) == generate(Type::F64, "random", 10, 5));
  const auto sizes = case_sizes(256, 1 << 22, 3, 1);
  for (std::uint64_t s :
       {0ull, 1ull, 2ull, 3ull, 255ull, 256ull, 257ull, 1025ull, 4095ull, 65535ull, 65537ull})
    CHECK(std::find(sizes.begin(), sizes.end(), s) != sizes.end());
  const auto cases = verify_cases(256, false, 1 << 17, 1);
  for (auto& c : cases) {
    CHECK(c.type != Type::F64);
    CHECK(op_allows(c.op, c.type));
  }
}

TEST_CASE("the covering test matrix still runs every pair, every type and every operator") {
  const auto all = strategies();
  std::map<std::pair<Type, Op>, int> runs;  // pair -> strategies that run it
  std::size_t every = 0;                    // the pairs there are
  for (Type t : kAllTypes)
    for (Op op : kAllOps)
      every += op_allows(op, t);
  // From the tables: every type with every operator, but a float type with no integer-only one.
  const auto float_types =
      std::count_if(std::begin(kAllTypes), std::end(kAllTypes), [](Type t) { return is_float(t); });
  const auto integer_only = std::count_if(std::begin(detail::kOpRows), std::end(detail::kOpRows),
                                          [](const detail::OpRow& r) { return r.integer_only; });
  CHECK(every == std::size(kAllTypes) * std::size(kAllOps) -
                     static_cast<std::size_t>(float_types * integer_only));
  CHECK(every > 0);
  for (std::size_t pos = 0; pos < all.size(); ++pos) {
    const std::string_view s = all[pos].name;
    CAPTURE(s);
    std::set<Type> types;
    std::set<Op> ops;
    std::size_t pairs = 0;
    for (Type t : kAllTypes)
      for (Op op : kAllOps) {
        CHECK(pair_in_matrix(Coverage::Full, s, pos, t, op) == op_allows(op, t));
        if (!pair_in_matrix(Coverage::Covering, s, pos, t, op)) continue;
        CHECK(op_allows(op, t));
        types.insert(t);
        ops.insert(op);
        ++runs[{t, op}];
        ++pairs;
      }
    CHECK(types.size() == std::size(kAllTypes));
    CHECK(ops.size() == std::size(kAllOps));
    if (s == "localtree" || s.starts_with("fast_") || s.starts_with("atomic_"))
      CHECK(pairs == every);
    else
      CHECK(pairs * 3 < every);  // the point of the matrix: under a third of the builds
  }
  for (Type t : kAllTypes)
    for (Op op : kAllOps)
      if (op_allows(op, t)) {
        CAPTURE(name(t));
        CAPTURE(name(op));
        // The five full strategies, and at least one more whose code is shaped differently.
        CHECK(runs[{t, op}] >= 6);
      }
  std::size_t barrier_pairs = 0;
  for (Type t : kAllTypes)
    for (Op op : kAllOps)
      if (pair_in_matrix(Coverage::Barriers, "localtree", 0, t, op)) {
        CHECK((t == Type::I32 || t == Type::F32));
        ++barrier_pairs;
      }
  // i32 sum and xor; f32: every float operator but nanmin, nanmax and nanargmin
  CHECK(barrier_pairs == 9);
}

TEST_CASE("tuning table: defaults at every level, the most specific entry wins per value") {
  auto cpu = fake_device(DeviceKind::CPU, "pthread-skylake Xeon");
  auto h200 = fake_device(DeviceKind::GPU, "NVIDIA H200");
  h200.vendor = "NVIDIA Corporation";
  h200.driver = "580.159.04";
  // Built-in: auto is fast_blocked on CPUs and fast_strided elsewhere.
  CHECK(make_plan(cpu, Type::F32, Op::Sum, 1 << 24, {}).strategy == "fast_blocked");
  CHECK(make_plan(h200, Type::F32, Op::Sum, 1 << 24, {}).strategy == "fast_strided");
  const Plan base = make_plan(h200, Type::F32, Op::Sum, 1 << 24, {});
  CHECK(param(base, "groups") == strided_default("groups_per_cu") * h200.compute_units);
  CHECK(param(base, "vector_width") == strided_default("vector_bytes") / sizeof(float));
  REQUIRE(strided_default("groups_per_cu") != 4);  // the entries below change what they set
  REQUIRE(strided_default("unroll") != 4);

  TuningTable t = builtin_tuning();
  TuneEntry vendor;  // a vendor level: 4 groups per CU for NVIDIA
  vendor.vendor = "nvidia";
  vendor.strategy = "fast_strided";
  vendor.values.set("groups_per_cu", 4);
  t.entries.push_back(vendor);
  TuneEntry dev;  // the device level, for f64 only: unroll 4
  dev.device = "NVIDIA H200";
  dev.driver = "580.159.04";
  dev.type = Type::F64;
  dev.strategy = "fast_strided";
  dev.values.set("unroll", 4);
  t.entries.push_back(dev);
  TuneEntry other_driver = dev;  // another driver's entry must not apply
  other_driver.driver = "1.0";
  other_driver.values.set("unroll", 1);
  other_driver.auto_runs = "fast_blocked";
  t.entries.push_back(other_driver);

  const Plan f32 = make_plan(h200, Type::F32, Op::Sum, 1 << 24, {}, t);
  CHECK(param(f32, "groups") == 4 * h200.compute_units);     // vendor level
  CHECK(param(f32, "unroll") == strided_default("unroll"));  // built-in
  const Plan f64 = make_plan(h200, Type::F64, Op::Sum, 1 << 24, {}, t);
  CHECK(param(f64, "groups") == 4 * h200.compute_units);
  CHECK(param(f64, "unroll") == 4);  // device level, for f64
  CHECK(f64.strategy == "fast_strided");
  // Options still override the table.
  Options o;
  o.tuning.set("unroll", 1).set("groups_per_cu", 2);
  const Plan forced = make_plan(h200, Type::F64, Op::Sum, 1 << 24, o, t);
  CHECK(param(forced, "unroll") == 1);
  CHECK(param(forced, "groups") == 2 * h200.compute_units);
  // A tunable the strategy does not have is refused; a strategy without tunables ignores them.
  Options typo;
  typo.tuning.set("groups_per_cux", 2);
  CHECK_THROWS_AS(make_plan(h200, Type::F32, Op::Sum, 1 << 24, typo, t), ArgumentError);
  typo.strategy = "localtree";
  CHECK(make_plan(h200, Type::F32, Op::Sum, 1 << 24, typo, t).params.empty());
  // A device entry can change what auto runs; other devices keep the defaults.
  TuneEntry choose;
  choose.device = "NVIDIA H200";
  choose.op = Op::Max;
  choose.auto_runs = "fast_blocked";
  t.entries.push_back(choose);
  CHECK(make_plan(h200, Type::F32, Op::Max, 1 << 24, {}, t).strategy == "fast_blocked");
  CHECK(make_plan(h200, Type::F32, Op::Sum, 1 << 24, {}, t).strategy == "fast_strided");
  CHECK(make_plan(cpu, Type::F32, Op::Max, 1 << 24, {}, t).strategy == "fast_blocked");
  auto other = fake_device(DeviceKind::GPU, "Other GPU");
  CHECK(make_plan(other, Type::F32, Op::Max, 1 << 24, {}, t).strategy == "fast_strided");
}

TEST_CASE("fast_strided spreads a small input: one round of loads per work-item") {
  const auto gpu = fake_device(DeviceKind::GPU, "NVIDIA H200");
  const auto cpu = fake_device(DeviceKind::CPU, "pthread-skylake Xeon");
  // f32: the default vectors (vector_bytes / 4 elements), unroll and work-group size: one round
  // of loads per work-item, `group` elements a group (2048).
  const std::uint64_t wg = strided_default("wg");
  const std::uint64_t group =
      strided_default("vector_bytes") / sizeof(float) * strided_default("unroll") * wg;
  const Plan p = make_plan(gpu, Type::F32, Op::Sum, 65536, {});
  REQUIRE(param(p, "vector_width") * param(p, "unroll") * p.work_group_size == group);
  CHECK(param(p, "groups") == 65536 / group);
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, 65537, {}), "groups") == 65536 / group + 1);
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, 1, {}), "groups") == 1);
  // The grid's cap still holds; an explicit minimum per work-item wins over the default.
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, 1 << 24, {}), "groups") ==
        strided_default("groups_per_cu") * gpu.compute_units);
  Options o;
  o.tuning.set("min_per_item", 64);
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, 65536, o), "groups") == 65536 / (64 * wg));
  // The host polls for a GPU's result and makes a blocking read on a CPU, for every strategy.
  CHECK(p.poll_result);
  Options tree;
  tree.strategy = "localtree";
  CHECK(make_plan(gpu, Type::I32, Op::Max, 100, tree).poll_result);
  CHECK_FALSE(make_plan(cpu, Type::F32, Op::Sum, 65536, {}).poll_result);
  CHECK_FALSE(make_plan(cpu, Type::I32, Op::Max, 100, tree).poll_result);
}

TEST_CASE("fast_strided: NVIDIA GPUs run inputs of 4 GiB or more in groups of 512, 32 a CU") {
  auto h200 = fake_device(DeviceKind::GPU, "NVIDIA H200");
  h200.vendor = "NVIDIA Corporation";
  h200.compute_units = 132;
  const std::uint64_t gib4 = std::uint64_t{1} << 32;
  const std::uint64_t default_wg = strided_default("wg");
  for (const Type type : {Type::F32, Type::I32, Type::F64}) {
    CAPTURE(type);
    const std::uint64_t from = gib4 / size_of(type);
    const Plan large = make_plan(h200, type, Op::Sum, from, {});
    CHECK(large.work_group_size == detail::kLargeWg);
    CHECK(param(large, "groups") == detail::kLargeGroupsPerCu * 132);
    CHECK_FALSE(param(large, "host_finish"));
    const Plan below = make_plan(h200, type, Op::Sum, from - 1, {});
    CHECK(below.work_group_size == default_wg);
    CHECK(param(below, "groups") == strided_default("groups_per_cu") * 132);
  }
  CHECK(make_plan(h200, Type::F32, Op::Max, gib4 / 4, {}).work_group_size == detail::kLargeWg);
  // Loads of one element (argmax), an asked-for grid and other vendors keep the default grid.
  CHECK(make_plan(h200, Type::F32, Op::ArgMax, gib4 / 4, {}).work_group_size == default_wg);
  Options wg;
  wg.work_group_size = 128;
  CHECK(make_plan(h200, Type::F32, Op::Sum, gib4 / 4, wg).work_group_size == 128);
  Options gpc;
  gpc.tuning.set("groups_per_cu", 4);
  const Plan asked = make_plan(h200, Type::F32, Op::Sum, gib4 / 4, gpc);
  CHECK(asked.work_group_size == default_wg);
  CHECK(param(asked, "groups") == 4 * 132);
  Options never;
  never.tuning.set("large_bytes", ~std::uint64_t{0});
  CHECK(make_plan(h200, Type::F32, Op::Sum, gib4 / 4, never).work_group_size == default_wg);
  auto other = h200;
  other.vendor = "Advanced Micro Devices, Inc.";
  CHECK(make_plan(other, Type::F32, Op::Sum, gib4 / 4, {}).work_group_size == default_wg);
  Options any;
  any.tuning.set("large_bytes", 1 << 20);
  CHECK(make_plan(other, Type::F32, Op::Sum, 1 << 18, any).work_group_size == detail::kLargeWg);
}

TEST_CASE("fast_*: a grid of at most one partial per work-item of a group finishes on the host") {
  auto gpu = fake_device(DeviceKind::GPU, "NVIDIA H200");
  gpu.compute_units = 132;  // a grid of up to 8 x 132 groups
  const auto cpu = fake_device(DeviceKind::CPU, "pthread-skylake Xeon");
  for (const std::uint64_t n : {std::uint64_t{1}, std::uint64_t{4096}, std::uint64_t{1} << 18,
                                (std::uint64_t{1} << 18) + 1, std::uint64_t{1} << 24}) {
    CAPTURE(n);
    for (const Op op : {Op::Sum, Op::ArgMax}) {
      const Plan p = make_plan(gpu, Type::F32, op, n, {});
      CHECK(param(p, "host_finish") == (param(p, "groups") <= p.work_group_size));
    }
  }
  // The numbers from fast_strided's table, not restated: an f32 sum's group reads `group`
  // elements (wg work-items, one round of unroll vector loads); a grid of more than wg groups is
  // capped at wg while each work-item reads at most host_finish_items elements.
  const std::uint64_t wg = detail::fast_default(false, "wg");
  const std::uint64_t items = detail::fast_default(false, "host_finish_items");
  const std::uint64_t round = detail::fast_default(false, "vector_bytes") / sizeof(float) *
                              detail::fast_default(false, "unroll");  // f32 a work-item a round
  const std::uint64_t group = wg * round;
  REQUIRE(wg <= detail::kMostHostPartials);
  REQUIRE(items <= detail::kMostCappedRounds * round);
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, wg * group, {}), "host_finish"));
  for (const Type type : {Type::F32, Type::F64, Type::I32}) {
    CAPTURE(type);
    const Plan most = make_plan(gpu, type, Op::Sum, wg * wg * items, {});
    CHECK(param(most, "groups") == wg);
    CHECK(param(most, "host_finish"));
    const Plan past = make_plan(gpu, type, Op::Sum, wg * wg * items + 1, {});
    CHECK(param(past, "groups") > wg);
    CHECK_FALSE(param(past, "host_finish"));
  }
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, wg * group + 1, {}), "groups") == wg);
  // At most kMostCappedRounds rounds of vector loads a work-item (f64: 2 loads of 2 elements a
  // round).
  CHECK(param(make_plan(gpu, Type::F64, Op::Sum, wg * wg * items, {}), "groups") == wg);
  // argmin/argmax load vectors as the sums do (cl/fast.cl combines each lane with its index):
  // the same vector width and grid as an f32 sum of the same n, on either side of the cap.
  for (const Op op : {Op::ArgMin, Op::ArgMax, Op::NanArgMax})
    for (const std::uint64_t n : {wg * wg * items, wg * wg * items + 1}) {
      CAPTURE(op);
      CAPTURE(n);
      const Plan a = make_plan(gpu, Type::F32, op, n, {}),
                 s = make_plan(gpu, Type::F32, Op::Sum, n, {});
      CHECK(param(a, "vector_width") == param(s, "vector_width"));
      CHECK(param(a, "groups") == param(s, "groups"));
      CHECK(param(a, "host_finish") == param(s, "host_finish"));
    }
  // On a CPU (blocked) they read one element at a time: their blocks load vectors themselves.
  CHECK(param(make_plan(cpu, Type::F32, Op::ArgMax, 1 << 20, {}), "vector_width") == 1);
  // The tunable moves the cap: at one round of loads a work-item, wg such rounds a grid.
  Options eight;
  eight.tuning.set("host_finish_items", round);
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, wg * wg * round, eight), "groups") == wg);
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, wg * wg * round + 1, eight), "groups") == wg + 1);
  CHECK_FALSE(param(make_plan(gpu, Type::F32, Op::Sum, wg * wg * round + 1, eight), "host_finish"));
  Options one;
  one.tuning.set("host_finish_items", 1);
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, wg * group + 1, one), "groups") == wg + 1);
  CHECK_FALSE(param(make_plan(gpu, Type::F32, Op::Sum, wg * group + 1, one), "host_finish"));
  // A larger value still stops at kMostCappedRounds rounds a work-item.
  Options many;
  many.tuning.set("host_finish_items", 1024);
  const std::uint64_t capped = wg * wg * detail::kMostCappedRounds * round;
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, capped, many), "groups") == wg);
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, capped + 1, many), "groups") ==
        capped / group + 1);
  // Groups of more than kMostHostPartials are never capped (the host would combine more
  // partials), nor is a grid whose minimum per work-item is asked for.
  Options wide;
  wide.work_group_size = 2 * detail::kMostHostPartials;
  const std::uint64_t wide_n = std::uint64_t{1} << 22;
  const Plan w = make_plan(gpu, Type::F32, Op::Sum, wide_n, wide);
  CHECK(param(w, "groups") == wide_n / (wide.work_group_size * round));
  CHECK_FALSE(param(w, "host_finish"));
  Options least;
  least.tuning.set("min_per_item", 4);
  CHECK(param(make_plan(gpu, Type::F32, Op::Sum, 1 << 20, least), "groups") ==
        (1 << 20) / (wg * 4));
  // fast_blocked (CPUs) has no such tunable.
  Options blocked = eight;
  blocked.strategy = "fast_blocked";
  CHECK_THROWS_AS(make_plan(cpu, Type::F32, Op::Sum, 1 << 20, blocked), ArgumentError);
  // CPUs run one work-item a group: only a grid of one group finishes on the host.
  const Plan small = make_plan(cpu, Type::F32, Op::Sum, 100, {});
  CHECK(param(small, "groups") == 1);
  CHECK(param(small, "host_finish"));
  CHECK_FALSE(param(make_plan(cpu, Type::F32, Op::Sum, 1 << 24, {}), "host_finish"));
  // The description says so.
  CHECK(small.describe().find("host_finish=1") != std::string::npos);
  // Other strategies never do.
  Options tree;
  tree.strategy = "localtree";
  CHECK_FALSE(param(make_plan(gpu, Type::F32, Op::Sum, 100, tree), "host_finish"));
}

TEST_CASE("atomic strategies: the device's native atomics, a bounded loop where there is none") {
  auto nvidia = fake_device(DeviceKind::GPU, "NVIDIA H200");
  nvidia.platform = "NVIDIA CUDA";
  nvidia.extensions = "cl_khr_int64_base_atomics cl_khr_int64_extended_atomics";
  nvidia.int64_atomics = true;
  auto plain = fake_device(DeviceKind::CPU, "pthread-skylake Xeon");
  plain.platform = "Portable Computing Language";
  plain.extensions = "cl_khr_int64_base_atomics";
  plain.int64_atomics = true;
  const std::string nv = strategy_form("atomic_global", nvidia);
  const std::string cpu = strategy_form("atomic_global", plain);
  // NVIDIA adds floats with PTX; a device without float atomics loops for float sums.
  CHECK(nv.find("float sums (PTX atom.global.add)") != std::string::npos);
  CHECK(nv.find("products: a compare-exchange loop once per work-item") != std::string::npos);
  CHECK(cpu.find("PTX") == std::string::npos);
  CHECK(cpu.find("products, float sums, 64-bit min/max/and/or/xor: a compare-exchange loop") !=
        std::string::npos);
  CHECK(strategy_form("atomic_local", nvidia).find("one global atomic per group") !=
        std::string::npos);
  // The loop's plan is the seed's: the same strategy, work-group size and depth bound.
  Options o;
  o.strategy = "atomic_global";
  CHECK(make_plan(plain, Type::F32, Op::Sum, 1000, o).depth == 1002);
}

TEST_CASE("tuning file: saved and loaded back; a malformed file is an ArgumentError") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("rdx_tuning_test_" + std::to_string(static_cast<long>(::getpid())));
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "sub" / "tuning.json").string();
  CHECK(load_tuning(path).entries.empty());  // no file: no entries
  TuningTable t;
  TuneEntry e;
  e.kind = DeviceKind::GPU;
  e.device = "NVIDIA H200";
  e.driver = "580.159.04";
  e.type = Type::F32;
  e.op = Op::Max;
  e.strategy = "fast_strided";
  e.auto_runs = "fast_strided";
  e.values =
      Params().set("wg", 512).set("groups_per_cu", 4).set("vector_bytes", 16).set("unroll", 4);
  e.note = "measured";
  t.entries.push_back(e);
  save_tuning(path, t);
  const TuningTable back = load_tuning(path);
  REQUIRE(back.entries.size() == 1);
  const TuneEntry& b = back.entries[0];
  CHECK(b.kind == e.kind);
  CHECK(b.device == e.device);
  CHECK(b.driver == e.driver);
  CHECK(b.type == e.type);
  CHECK(b.op == e.op);
  CHECK(b.strategy == e.strategy);
  CHECK(b.auto_runs == e.auto_runs);
  CHECK(b.values == e.values);  // every tunable, by name
  CHECK(b.values.get("wg") == 512);
  CHECK(b.values.get("unroll") == 4);
  CHECK(b.note == "measured");
  for (const char* bad :
       {"not json", "{\"entries\": 3}", "{\"entries\": [{\"wg\": -1}]}",
        "{\"entries\": [{\"colour\": \"red\"}]}", "{\"entries\": [{\"type\": \"f8\"}]}",
        "{\"entries\": [{\"auto\": \"localtree\"}]}",
        "{\"entries\": [{\"strategy\": \"localtree\", \"wg\": 64}]}"}) {
    CAPTURE(bad);
    std::ofstream(path) << bad;
    try {
      load_tuning(path);
      FAIL("accepted a malformed tuning file");
    } catch (const ArgumentError& err) {
      CHECK(std::string(err.what()).find(path) != std::string::npos);
    }
  }
  setenv("RDX_TUNING_FILE", path.c_str(), 1);
  CHECK(tuning_file() == path);
  CHECK_THROWS_AS(tuning_for(fake_device(DeviceKind::GPU, "x")), ArgumentError);
  setenv("RDX_TUNING_FILE", "off", 1);
  CHECK(tuning_file().empty());
  CHECK(tuning_for(fake_device(DeviceKind::GPU, "x")).entries.size() ==
        builtin_tuning().entries.size());
  unsetenv("RDX_TUNING_FILE");
  std::filesystem::remove_all(dir);
}

TEST_CASE("segmented plans: lanes from the mean length, parts for few long segments") {
  const DeviceInfo gpu = fake_device(DeviceKind::GPU, "gpu");
  const DeviceInfo cpu = fake_device(DeviceKind::CPU, "cpu");
  // GPUs: about 8 elements per lane, at most 8 lanes below 4096 elements, a group above.
  CHECK(plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 22).lanes == 2);  // length 16
  CHECK(plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 22).parts == 1);
  CHECK(plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 24).lanes == 1);  // length 4
  CHECK(plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 20).lanes == 8);  // length 64
  CHECK(plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 16).lanes == 8);  // length 1024
  CHECK(plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 14).lanes == 256);
  // Few long segments: split so that the grid has compute units x 8 groups.
  const SegmentedPlan one = plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1);
  CHECK(one.lanes == 256);
  CHECK(one.parts == 64);
  // Parts never leave a lane fewer than 16 elements.
  CHECK(plan_segments(gpu, Type::F32, Op::Sum, 1 << 12, 1).parts == 1);
  // CPUs: a work-item per segment; from 512 elements, for the operators whose lanes combine,
  // groups of 16 and 16-element loads into 4 vector accumulators; f32 min and max from 64,
  // 16-element loads in groups of 64 into 2; from 16, and for the others, groups of 64 and
  // 4-element loads (2 vector accumulators where lanes combine).
  // A CPU plan's form: its lanes, work-group size, elements per load, loads in flight and
  // whether it loads into vector accumulators.
  const auto form = [](const SegmentedPlan& p) {
    return rdx::detail::format("lanes {} wg {} vector {} unroll {} vacc {}", p.lanes,
                               p.work_group_size, p.vector, p.unroll, p.vector_acc);
  };
  const SegmentedPlan cpu_long = plan_segments(cpu, Type::F32, Op::Sum, 1 << 26, 1 << 10);
  CHECK(form(cpu_long) == "lanes 1 wg 16 vector 16 unroll 4 vacc true");
  // Its bound: a lane's chain, 15 tail elements, the edges, 4 accumulators and 4 fold levels.
  const std::uint64_t parts = cpu_long.parts;
  CHECK(cpu_long.depth_for(1 << 16) ==
        ((1 << 16) + parts - 1) / parts + 15 + 6 + 4 + 4 + (parts > 1 ? parts : 0));
  const SegmentedPlan cpu_256 = plan_segments(cpu, Type::F32, Op::Sum, 1 << 26, 1 << 18);
  CHECK(cpu_256.length == 256);
  CHECK(form(cpu_256) == "lanes 1 wg 64 vector 4 unroll 2 vacc true");
  for (const Op op : {Op::Min, Op::Max}) {
    const SegmentedPlan cpu_64 = plan_segments(cpu, Type::F32, op, 1 << 26, 1 << 20);
    CHECK(cpu_64.length == 64);
    CHECK(form(cpu_64) == "lanes 1 wg 64 vector 16 unroll 2 vacc true");
    CHECK(cpu_64.depth_for(64) == 64 + 15 + 6 + 2 + 4);
    CHECK(plan_segments(cpu, Type::F32, op, 63 << 10, 1 << 10).vector == 4);  // 63 elements
    CHECK(plan_segments(cpu, Type::F16, op, 64 << 10, 1 << 10).vector == 16);
    CHECK(form(plan_segments(cpu, Type::F32, op, 1 << 26, 1 << 16)) ==
          "lanes 1 wg 16 vector 16 unroll 4 vacc true");  // 1024 elements
    CHECK(plan_segments(cpu, Type::F64, op, 1 << 26, 1 << 18).vector == 4);
    CHECK(plan_segments(cpu, Type::I32, op, 1 << 26, 1 << 18).vector == 4);
  }
  for (const Op op : {Op::Sum, Op::NanMax, Op::Xor, Op::Prod})
    CHECK(plan_segments(cpu, op == Op::Xor ? Type::I32 : Type::F32, op, 1 << 26, 1 << 18).vector ==
          4);
  CHECK(plan_segments(gpu, Type::F32, Op::Max, 1 << 26, 1 << 20).vector == 4);
  const SegmentedPlan cpu_argmin = plan_segments(cpu, Type::F32, Op::ArgMin, 1 << 26, 1 << 10);
  CHECK_FALSE(cpu_argmin.vector_acc);
  CHECK(cpu_argmin.vector == 4);
  CHECK(cpu_argmin.work_group_size == 64);
  // Shorter segments, one element per load: groups of 64; lanes asked for widen the wide form's
  // group; a work-group size asked for is kept.
  CHECK(plan_segments(cpu, Type::F32, Op::Sum, 1 << 26, 1 << 24).work_group_size == 64);
  Options lanes64;
  lanes64.tuning.set("lanes", 64);
  CHECK(plan_segments(cpu, Type::F32, Op::Sum, 1 << 26, 1 << 10, lanes64).work_group_size == 64);
  Options wg32;
  wg32.work_group_size = 32;
  CHECK(plan_segments(cpu, Type::F32, Op::Sum, 1 << 26, 1 << 10, wg32).work_group_size == 32);
  CHECK_FALSE(plan_segments(cpu, Type::F32, Op::Prod, 1 << 26, 1 << 10).vector_acc);
  Options v16;
  v16.tuning.set("vector", 16);
  CHECK_THROWS_AS(plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 10, v16), ArgumentError);
  CHECK_THROWS_AS(plan_segments(cpu, Type::F32, Op::ArgMin, 1 << 26, 1 << 10, v16), ArgumentError);
  const std::uint64_t columns[] = {1000, 64};
  CHECK_THROWS_AS(plan_axis(cpu, Type::F32, Op::Sum, columns, 0, v16), ArgumentError);
  CHECK(plan_segments(cpu, Type::F32, Op::Sum, 1 << 26, 1 << 24).vector == 1);  // length 4
  CHECK_FALSE(plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 10).vector_acc);
  // Axis form: rows and columns of a 2-D array.
  const std::uint64_t shape[] = {1000, 64};
  const SegmentedPlan rows = plan_axis(gpu, Type::I32, Op::Max, shape, 1);
  CHECK(rows.segments == 1000);
  CHECK(rows.length == 64);
  CHECK(rows.inner == 1);
  const SegmentedPlan cols = plan_axis(gpu, Type::I32, Op::Max, shape, 0);
  CHECK(cols.segments == 64);
  CHECK(cols.length == 1000);
  CHECK(cols.inner == 64);
  CHECK(cols.lanes == 4);  // 64 neighbouring columns x 4 lanes in a group of 256
  const std::uint64_t wide[] = {100, 1 << 20};
  CHECK(plan_axis(gpu, Type::I32, Op::Max, wide, 0).lanes == 1);
  // CPUs: columns of 16 or more in blocks of up to 1024 columns per work-item, parts to fill
  // compute units x 4 work-items (here 8 x 4); fewer columns, rows and GPUs: the group form.
  CHECK(plan_axis(gpu, Type::I32, Op::Max, shape, 0).column_block == 0);
  const SegmentedPlan cpu_cols = plan_axis(cpu, Type::I32, Op::Max, shape, 0);
  CHECK(cpu_cols.column_block == 1024);  // one block size; the last block's columns fewer
  CHECK(cpu_cols.lanes == 1);
  CHECK(cpu_cols.parts == 32);
  CHECK(cpu_cols.depth_for(1000) == (1000 + 31) / 32 + 32);
  CHECK(plan_axis(cpu, Type::I32, Op::Max, wide, 0).column_block == 1024);
  CHECK(plan_axis(cpu, Type::I32, Op::Max, wide, 0).parts == 1);          // 1024 blocks
  CHECK(plan_axis(cpu, Type::I32, Op::Max, shape, 1).column_block == 0);  // rows
  // Fewer than 16 columns: blocks where they fold (2, 4, 8 columns, vector accumulators).
  const std::uint64_t narrow[] = {1000, 8}, three[] = {1000, 3};
  const SegmentedPlan fold = plan_axis(cpu, Type::I32, Op::Max, narrow, 0);
  CHECK(fold.column_block == 8);
  CHECK(fold.column_fold());
  CHECK(fold.depth_for(1000) == (1000 + 31) / 32 + 32 + 22);
  CHECK_FALSE(cpu_cols.column_fold());
  CHECK(plan_axis(cpu, Type::I32, Op::ArgMax, narrow, 0).column_block == 0);
  CHECK(plan_axis(cpu, Type::I32, Op::Max, three, 0).column_block == 0);
  Options with_lanes;
  with_lanes.tuning.set("lanes", 2);
  CHECK(plan_axis(cpu, Type::I32, Op::Max, shape, 0, with_lanes).column_block == 0);
  Options blocks;
  blocks.tuning.set("column_block", 16);
  CHECK(plan_axis(gpu, Type::I32, Op::Max, shape, 0, blocks).column_block == 16);
  CHECK_THROWS_AS(plan_axis(cpu, Type::I32, Op::Max, shape, 1, blocks), ArgumentError);
  CHECK_THROWS_AS(plan_segments(cpu, Type::I32, Op::Max, 100, 4, blocks), ArgumentError);
  blocks.tuning.set("lanes", 2);
  CHECK_THROWS_AS(plan_axis(cpu, Type::I32, Op::Max, shape, 0, blocks), ArgumentError);
  Options too_wide;
  too_wide.tuning.set("column_block", 8192);
  CHECK_THROWS_AS(plan_axis(cpu, Type::I32, Op::Max, wide, 0, too_wide), ArgumentError);
  // Depth: the lanes' sequential loads, their tree, and the parts' finish.
  CHECK(one.depth_for(1 << 26) == (1 << 26) / 64 / 256 + 8 + 64 + 5);  // + vector loads
  CHECK(plan_segments(cpu, Type::F32, Op::Sum, 100, 100).depth_for(1) == 1);
  // Passes: host inputs beyond one allocation (here 2^30 bytes), or the tunable chunk; a
  // segment's pieces add one combine each after the first.
  CHECK(one.chunk == (1 << 28));
  CHECK_FALSE(one.in_passes());
  CHECK(plan_segments(gpu, Type::F32, Op::Sum, std::uint64_t{1} << 30, 4).in_passes());
  Options chunked;
  chunked.tuning.set("chunk", 1000);
  const SegmentedPlan passes = plan_segments(gpu, Type::F32, Op::Sum, 10000, 10, chunked);
  const SegmentedPlan whole = plan_segments(gpu, Type::F32, Op::Sum, 10000, 10);
  CHECK(passes.chunk == 1000);
  CHECK(passes.in_passes());
  CHECK(passes.depth_for(2500) == whole.depth_for(1000) + 3);  // at most 4 pieces
  CHECK(passes.depth_for(1) == whole.depth_for(1));
  const std::uint64_t grid[] = {10, 400, 30};  // rows of 30: 33 rows per pass of 1000
  const SegmentedPlan axis_passes = plan_axis(gpu, Type::F32, Op::Sum, grid, 1, chunked);
  CHECK(axis_passes.depth_for(400) ==
        plan_axis(gpu, Type::F32, Op::Sum, grid, 1).depth_for(33) + (400 + 32) / 33 - 1);
  // Same facts, same plan.
  CHECK(plan_segments(gpu, Type::U8, Op::ArgMax, 12345, 67) ==
        plan_segments(gpu, Type::U8, Op::ArgMax, 12345, 67));
  // Requests a segmented plan refuses.
  CHECK_THROWS_AS(plan_segments(gpu, Type::F32, Op::Xor, 10, 1), ArgumentError);
  CHECK_THROWS_AS(
      plan_segments(fake_device(DeviceKind::GPU, "no fp64", false), Type::F64, Op::Sum, 10, 1),
      UnsupportedError);
  Options strategy;
  strategy.strategy = "localtree";
  CHECK_THROWS_AS(plan_segments(gpu, Type::F32, Op::Sum, 10, 1, strategy), ArgumentError);
  Options lanes;
  lanes.tuning.set("lanes", 3);
  CHECK_THROWS_AS(plan_segments(gpu, Type::F32, Op::Sum, 10, 1, lanes), ArgumentError);
  Options unknown;
  unknown.tuning.set("groups_per_cu", 2);
  CHECK_THROWS_AS(plan_segments(gpu, Type::F32, Op::Sum, 10, 1, unknown), ArgumentError);
  const std::uint64_t huge[] = {std::uint64_t{1} << 40, std::uint64_t{1} << 40};
  CHECK_THROWS_AS(plan_axis(gpu, Type::F32, Op::Sum, huge, 0), ArgumentError);
}

TEST_CASE("segmented plans on AVX-512 CPUs: sums of short segments in 16-element loads") {
  DeviceInfo avx512 = fake_device(DeviceKind::CPU, "Xeon");
  avx512.native_vector_bytes = 64;
  DeviceInfo avx2 = fake_device(DeviceKind::CPU, "EPYC");
  avx2.native_vector_bytes = 32;
  for (Type t : {Type::F32, Type::I32}) {
    CAPTURE(t);
    const SegmentedPlan p = plan_segments(avx512, t, Op::Sum, 1 << 26, 1 << 20);  // 64 each
    CHECK(p.vector == 16);
    CHECK(p.vector_acc);
    CHECK(p.unroll == 4);
    CHECK(p.work_group_size == 64);  // the groups of 16 start at 512
    CHECK(plan_segments(avx512, t, Op::Sum, 1 << 26, 1 << 18).vector == 16);  // 256 each
    CHECK(plan_segments(avx512, t, Op::Sum, 1 << 26, 1 << 21).vector == 4);   // 32 each
    CHECK(plan_segments(avx2, t, Op::Sum, 1 << 26, 1 << 20).vector == 4);
    CHECK(plan_segments(avx2, t, Op::Sum, 1 << 26, 1 << 20).unroll == 2);
  }
  // 8-byte accumulators and other operators keep the 4-element form below 512.
  CHECK(plan_segments(avx512, Type::F64, Op::Sum, 1 << 26, 1 << 20).vector == 4);
  CHECK(plan_segments(avx512, Type::I32, Op::Xor, 1 << 26, 1 << 20).vector == 4);
  CHECK(plan_segments(avx512, Type::F32, Op::Prod, 1 << 26, 1 << 20).vector == 4);
  // From 512 every device's wide form: groups of 16.
  CHECK(plan_segments(avx512, Type::F32, Op::Sum, 1 << 26, 1 << 17).work_group_size == 16);
}

TEST_CASE("segmented plans on NVIDIA: the tree's last levels by warp shuffles where they apply") {
  DeviceInfo nvidia = fake_device(DeviceKind::GPU, "NVIDIA H200");
  nvidia.platform = "NVIDIA CUDA";
  const DeviceInfo gpu = fake_device(DeviceKind::GPU, "gpu");
  const DeviceInfo cpu = fake_device(DeviceKind::CPU, "cpu");
  CHECK(nvidia.compiles_ptx());
  CHECK_FALSE(gpu.compiles_ptx());
  // Segments of 4096 (a group's 256 lanes), of 16 (2 lanes); 4- and 8-byte states.
  const SegmentedPlan long_sum = plan_segments(nvidia, Type::F32, Op::Sum, 1 << 26, 1 << 14);
  CHECK(long_sum.shuffle);
  CHECK(long_sum.describe().find(" shuffle=1") != std::string::npos);
  CHECK(plan_segments(nvidia, Type::F32, Op::Sum, 1 << 26, 1 << 22).shuffle);
  CHECK(plan_segments(nvidia, Type::F64, Op::Max, 1 << 26, 1 << 14).shuffle);
  CHECK(plan_segments(nvidia, Type::I64, Op::Sum, 1 << 26, 1 << 14).shuffle);
  // Not: one lane a segment, an index, a 1- or 2-byte state, columns, a user's reduction, the
  // exact form, another platform.
  CHECK_FALSE(plan_segments(nvidia, Type::F32, Op::Sum, 1 << 26, 1 << 24).shuffle);
  CHECK_FALSE(plan_segments(nvidia, Type::F32, Op::ArgMax, 1 << 26, 1 << 14).shuffle);
  CHECK(size_of(plan_segments(nvidia, Type::I8, Op::Max, 1 << 26, 1 << 14).acc) == 1);
  CHECK_FALSE(plan_segments(nvidia, Type::I8, Op::Max, 1 << 26, 1 << 14).shuffle);
  const std::uint64_t shape[] = {64, 1024, 16};
  CHECK(plan_axis(nvidia, Type::F32, Op::Sum, shape, 1).neighbours() == 16);
  CHECK_FALSE(plan_axis(nvidia, Type::F32, Op::Sum, shape, 1).shuffle);
  const std::uint64_t rows[] = {1024, 4096};
  CHECK(plan_axis(nvidia, Type::F32, Op::Sum, rows, 1).shuffle);
  Reduction r = Reduction::simple(Type::F32, "a + b", "0");
  const Type f32[] = {Type::F32};
  CHECK_FALSE(plan_segments(nvidia, r, f32, 1 << 26, 1 << 14).shuffle);
  Options any;
  any.determinism = Determinism::AnyDevice;
  CHECK(plan_segments(nvidia, Type::F32, Op::Sum, 1 << 26, 1 << 14, any).exact);
  CHECK_FALSE(plan_segments(nvidia, Type::F32, Op::Sum, 1 << 26, 1 << 14, any).shuffle);
  CHECK_FALSE(plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 14).shuffle);
  CHECK_FALSE(plan_segments(cpu, Type::F32, Op::Sum, 1 << 26, 1 << 14).shuffle);
  CHECK(plan_segments(cpu, Type::F32, Op::Sum, 1 << 26, 1 << 14).describe().find("shuffle") ==
        std::string::npos);
}

TEST_CASE("segmented plans of users' reductions: one element per load, the state's size") {
  const DeviceInfo gpu = fake_device(DeviceKind::GPU, "gpu");
  const DeviceInfo cpu = fake_device(DeviceKind::CPU, "cpu");
  Reduction r = Reduction::simple(Type::F32, "a + b", "0");
  r.name = "mine";
  const Type f32[] = {Type::F32};
  const SegmentedPlan p = plan_segments(cpu, r, f32, 1 << 26, 1 << 10);
  CHECK(p.user());
  CHECK(p.reduction == "mine");
  CHECK(p.state_bytes == 4);
  CHECK(p.vector == 1);  // the built-in sum's plan loads 4 (above)
  CHECK_FALSE(p.vector_acc);
  CHECK(p.describe().find("segmented mine f32") == 0);
  // The grid is the built-in operators' for the same shape.
  CHECK(plan_segments(gpu, r, f32, 1 << 26, 1 << 20).lanes ==
        plan_segments(gpu, Type::F32, Op::Sum, 1 << 26, 1 << 20).lanes);
  // CPU columns: blocks of up to 1024 columns, no fold (it needs vector accumulators).
  const std::uint64_t shape[] = {1000, 64}, narrow[] = {1000, 8};
  CHECK(plan_axis(cpu, r, f32, shape, 0).column_block == 1024);
  CHECK_FALSE(plan_axis(cpu, r, f32, shape, 0).vector_acc);
  CHECK(plan_axis(cpu, r, f32, narrow, 0).column_block == 0);
  // A wide state holds fewer columns in local memory.
  Reduction wide;
  for (const char* f : {"a0", "a1", "a2", "a3"})
    wide.fields.push_back({f, Type::F64, "0", "x", std::string("a.") + f + " + b." + f});
  DeviceInfo small = cpu;
  small.local_mem = 16384;
  CHECK(plan_axis(small, wide, f32, shape, 0).state_bytes == 32);
  CHECK(plan_axis(small, wide, f32, shape, 0).column_block == 512);
  // Refused: an accumulator option, vector loads, f64 without fp64.
  Options acc;
  acc.acc = Type::F64;
  CHECK_THROWS_AS(plan_segments(cpu, r, f32, 100, 4, acc), ArgumentError);
  Options vec;
  vec.tuning.set("vector", 4);
  CHECK_THROWS_AS(plan_segments(cpu, r, f32, 100, 4, vec), ArgumentError);
  DeviceInfo no_fp64 = cpu;
  no_fp64.fp64 = false;
  CHECK_THROWS_AS(plan_axis(no_fp64, wide, f32, shape, 0), UnsupportedError);
  // Passes: the smallest chunk of the inputs' types.
  const Type mixed[] = {Type::F32, Type::F64};
  CHECK(plan_segments(gpu, r, mixed, 1, 1).chunk ==
        plan_segments(gpu, Type::F64, Op::Sum, 1, 1).chunk);
}

TEST_CASE("segmented plans of chunk forms on GPUs: a whole chunk a lane, 4-element chunk loads") {
  const DeviceInfo gpu = fake_device(DeviceKind::GPU, "gpu");
  const DeviceInfo cpu = fake_device(DeviceKind::CPU, "cpu");
  const Type f32[] = {Type::F32};
  const Reduction var = detail::stat_reduction(Stat::Var, f32, Type::F32, "");
  REQUIRE_FALSE(var.chunk.empty());
  const auto rows = [&](const DeviceInfo& d, std::uint64_t w, const Options& o = {}) {
    const std::uint64_t shape[] = {(1u << 20) / w, w};
    return plan_axis(d, var, f32, shape, 1, o);
  };
  // Rows of 16: one lane each (two lanes of 8 would never fill a chunk of 16), its chunks read 4
  // elements a load; the built-in sum keeps 2 lanes of 8.
  const SegmentedPlan r16 = rows(gpu, 16);
  CHECK(r16.state_chunk == 16);
  CHECK(r16.lanes == 1);
  CHECK(r16.vector == 4);
  const std::uint64_t sum_shape[] = {1 << 16, 16};
  CHECK(plan_axis(gpu, Type::F32, Op::Sum, sum_shape, 1).lanes == 2);
  // Up to 64: one lane; longer rows: as many lanes as whole chunks, up to 8, loading one by one.
  CHECK(rows(gpu, 64).lanes == 1);
  CHECK(rows(gpu, 64).vector == 4);
  CHECK(rows(gpu, 128).lanes == 8);
  CHECK(rows(gpu, 128).vector == 1);
  CHECK(rows(gpu, 1024).lanes == 8);
  // From 4096: 16 lanes, not the whole group (a wide state's tree), up to 65536; the built-in
  // sum: the group.
  CHECK(rows(gpu, 4096).lanes == 16);
  CHECK(rows(gpu, 1 << 15).lanes == 16);
  CHECK(rows(gpu, 1 << 16).lanes == 256);
  const std::uint64_t long_rows[] = {256, 4096};
  CHECK(plan_axis(gpu, Type::F32, Op::Sum, long_rows, 1).lanes == 256);
  // Element by element (state_chunk 1): the built-in operators' lanes, one element a load.
  Options one;
  one.tuning.set("state_chunk", 1);
  CHECK(rows(gpu, 16, one).lanes == 2);
  CHECK(rows(gpu, 16, one).vector == 1);
  // CPUs load one element at a time (PoCL's loops were slower with 4), unless asked.
  CHECK(rows(cpu, 16).vector == 1);
  Options v4;
  v4.tuning.set("vector", 4);
  CHECK(rows(cpu, 16, v4).vector == 4);
  CHECK_THROWS_AS(rows(gpu, 128, v4), ArgumentError);  // 8 lanes: not one lane a segment
  // Columns load one element at a time.
  const std::uint64_t columns[] = {1024, 1024};
  CHECK(plan_axis(gpu, var, f32, columns, 0).vector == 1);
}

TEST_CASE(
    "views: NumPy's axis rules, axes merged where they are one run, the form that walks them") {
  using U = std::vector<std::uint64_t>;
  using I = std::vector<std::int64_t>;
  using Z = std::vector<std::size_t>;
  // Axes as NumPy takes them: negative from the end, each once, in any order.
  CHECK(normalized_axes(I{-1, 0}, 3) == Z{0, 2});
  CHECK(normalized_axes(I{}, 3).empty());
  CHECK_THROWS_AS(normalized_axes(I{3}, 3), ArgumentError);
  CHECK_THROWS_AS(normalized_axes(I{-4}, 3), ArgumentError);
  CHECK_THROWS_AS(normalized_axes(I{0, -3}, 3), ArgumentError);  // axis 0 twice
  CHECK(reduced_shape(U{3, 4, 5}, I{0, 2}) == U{4});
  CHECK(reduced_shape(U{3, 4, 5}, I{}) == U{3, 4, 5});
  CHECK(reduced_shape(U{3, 4, 5}, I{0, 1, 2}).empty());

  // C order (3, 4, 5) over (0, 2): one kept axis between two reduced ones, nothing merges.
  ViewForm f = view_form(View::contiguous(U{3, 4, 5}), I{0, 2});
  CHECK(f.kept_shape == U{4});
  CHECK(f.kept_strides == I{5});
  CHECK(f.reduced_shape == U{3, 5});
  CHECK(f.reduced_strides == I{20, 1});
  CHECK(f.segments == 4);
  CHECK(f.length == 15);
  // Over (1, 2): the reduced axes are one run of 20; axes of length 1 drop out.
  f = view_form(View::contiguous(U{3, 1, 4, 5}), I{2, 3});
  CHECK(f.kept_shape == U{3});
  CHECK(f.reduced_shape == U{20});
  CHECK(f.reduced_strides == I{1});
  // NumPy's a[::-1, 1::2] of a (5, 6) array: strides (-6, 2) from element 25.
  const View rev{{5, 3}, {-6, 2}, 25};
  CHECK(element_span(rev).lo == 1);
  CHECK(element_span(rev).hi == 30);
  f = view_form(rev, I{0, 1});
  CHECK(f.reduced_shape == U{5, 3});
  CHECK(f.segments == 1);
  // Broadcast axes merge into one of stride 0; an empty axis leaves no positions.
  CHECK(view_form({{2, 3, 4}, {0, 0, 1}, 0}, I{0, 1}).reduced_shape == U{6});
  CHECK(view_form({{2, 3, 4}, {0, 0, 1}, 0}, I{0, 1}).reduced_strides == I{0});
  CHECK(view_form(View::contiguous(U{2, 0, 3}), I{1}).length == 0);
  CHECK(view_form(View::contiguous(U{2, 0, 3}), I{0}).segments == 0);
  CHECK(element_span(View::contiguous(U{2, 0, 3}, 7)).lo ==
        element_span(View::contiguous(U{2, 0, 3}, 7)).hi);
  // Refused: strides of another length, an element before the data, counts beyond 64 bits.
  CHECK_THROWS_AS(view_form({{2, 3}, {1}, 0}, I{0}), ArgumentError);
  CHECK_THROWS_AS(view_form({{5}, {-1}, 3}, I{0}), ArgumentError);
  CHECK_THROWS_AS(view_form(View::contiguous(U{1ull << 32, 1ull << 32}), I{0}), ArgumentError);
  CHECK_THROWS_AS(view_form(View::contiguous(U(65, 1)), I{0}), ArgumentError);

  // Plans: the axis form wherever it walks the view, the view form elsewhere.
  const DeviceInfo gpu = fake_device(DeviceKind::GPU, "gpu");
  const DeviceInfo cpu = fake_device(DeviceKind::CPU, "cpu");
  const U cube = {6, 7, 8};
  for (const DeviceInfo& dev : {gpu, cpu})
    for (std::size_t axis = 0; axis < 3; ++axis) {
      const I one = {static_cast<std::int64_t>(axis)};
      CHECK(plan_axes(dev, Type::F32, Op::Sum, View::contiguous(cube), one) ==
            plan_axis(dev, Type::F32, Op::Sum, cube, axis));
    }
  // Over (1, 2) of C order: rows of 56.
  const SegmentedPlan rows = plan_axes(gpu, Type::F32, Op::Sum, View::contiguous(cube), I{1, 2});
  CHECK_FALSE(rows.by_view);
  CHECK(rows.length == 56);
  CHECK(rows.inner == 1);
  // A Fortran-order (4, 5) array over axis 0: rows of 4 (its columns are contiguous).
  const SegmentedPlan fortran = plan_axes(gpu, Type::F32, Op::Max, {{4, 5}, {1, 4}, 0}, I{0});
  CHECK_FALSE(fortran.by_view);
  CHECK(fortran.length == 4);
  CHECK(fortran.inner == 1);
  CHECK(fortran.segments == 5);
  // Axes apart, an offset, a step: the view form, one element per load, never column blocks.
  const SegmentedPlan apart = plan_axes(cpu, Type::F32, Op::Sum, View::contiguous(cube), I{0, 2});
  CHECK(apart.by_view);
  CHECK(apart.vector == 1);
  CHECK(apart.column_block == 0);
  CHECK(apart.describe().find("view kept=(7:8) reduced=(6:56,8:1) offset=0") != std::string::npos);
  const SegmentedPlan shifted = plan_axes(cpu, Type::F32, Op::Sum, View::contiguous(cube, 3), I{0});
  CHECK(shifted.by_view);
  CHECK(shifted.column_block == 0);
  CHECK(shifted.neighbours() == 56);  // the kept axes are one run, the reduced one apart
  CHECK(plan_axes(gpu, Type::F32, Op::Sum, View::contiguous(cube, 3), I{0}).lanes <= 1024 / 56);
  Options vec;
  vec.tuning.set("vector", 4);
  CHECK_THROWS_AS(plan_axes(gpu, Type::F32, Op::Sum, View::contiguous(cube), I{0, 2}, vec),
                  ArgumentError);
  Options blocks;
  blocks.tuning.set("column_block", 16);
  CHECK_THROWS_AS(plan_axes(cpu, Type::F32, Op::Sum, View::contiguous(cube, 3), I{0}, blocks),
                  ArgumentError);
  // A user's reduction plans the same forms.
  const Reduction r = Reduction::simple(Type::F32, "a + b", "0");
  const Type f32[] = {Type::F32};
  CHECK(plan_axes(gpu, r, f32, View::contiguous(cube), I{0, 2}).by_view);
  CHECK(plan_axes(gpu, r, f32, View::contiguous(cube), I{0, 2}).segments == 7);
}

TEST_CASE("plans under Determinism AnyDevice: float sums run the fixed bins") {
  const DeviceInfo gpu = fake_device(DeviceKind::GPU, "gpu");
  const DeviceInfo cpu = fake_device(DeviceKind::CPU, "cpu");
  Options o;
  o.determinism = Determinism::AnyDevice;
  const Plan g = make_plan(gpu, Type::F32, Op::Sum, 1 << 28, o);
  CHECK(g.strategy == "binned_sum");
  CHECK(g.state == StateForm::Bins);
  CHECK(g.params.get("groups") == gpu.compute_units * 4);
  CHECK(g.params.get("lanes") == 4);
  CHECK(g.params.get("unroll") == 4);
  CHECK(make_plan(gpu, Type::F64, Op::Sum, 1 << 28, o).params.get("lanes") == 4);
  CHECK(g.params.get("blocked") == 0);
  // ReproBLAS's n term, n * 2^-26 * max|x| (f32: eps 2^-23), doubled, and the rounding: 9 + n / 4.
  CHECK(g.depth == 8 + (std::uint64_t{1} << 26) + 1);
  // f64: 2^-80 = eps * 2^-28, doubled: 8 + n / 2^27.
  CHECK(make_plan(gpu, Type::F64, Op::Sum, 1 << 28, o).depth == 8 + 2 + 1);
  const Plan c = make_plan(cpu, Type::F16, Op::Sum, 1000, o);
  CHECK(c.strategy == "binned_sum");
  CHECK(c.state == StateForm::Bins);
  CHECK(c.acc == Type::F32);
  CHECK(c.work_group_size == 1);
  CHECK(c.params.get("blocked") == 1);
  // On CPUs one work-group a compute unit up to 256 KiB of input each, then one per 256 KiB, up
  // to 16 a compute unit.
  CHECK(c.params.get("groups") == cpu.compute_units);
  CHECK(make_plan(cpu, Type::F32, Op::Sum, 8 << 16, o).params.get("groups") == 8);
  CHECK(make_plan(cpu, Type::F32, Op::Sum, (8 << 16) + 1, o).params.get("groups") == 9);
  CHECK(make_plan(cpu, Type::F64, Op::Sum, 8 << 16, o).params.get("groups") == 16);
  CHECK(make_plan(cpu, Type::F16, Op::Sum, 40 << 17, o).params.get("groups") == 40);
  CHECK(make_plan(cpu, Type::F32, Op::Sum, 64 << 16, o).params.get("groups") == 64);
  CHECK(make_plan(cpu, Type::F32, Op::Sum, 128 << 16, o).params.get("groups") == 128);
  CHECK(make_plan(cpu, Type::F32, Op::Sum, std::uint64_t{1} << 40, o).params.get("groups") == 128);
  CHECK(make_plan(gpu, Type::F32, Op::Sum, 1000, o).params.get("groups") == gpu.compute_units * 4);
  // The groups' states merged by the host on CPUs, by binned_finish on GPUs; either by tuning.
  CHECK(c.params.get("host_finish") == 1);
  CHECK(g.params.get("host_finish") == 0);
  Options finish = o;
  finish.tuning.set("host_finish", 1);
  CHECK(make_plan(gpu, Type::F32, Op::Sum, 100, finish).params.get("host_finish") == 1);
  finish.tuning.set("host_finish", 0);
  CHECK(make_plan(cpu, Type::F32, Op::Sum, 100, finish).params.get("host_finish") == 0);
  finish.tuning.set("host_finish", 2);
  CHECK_THROWS_AS(make_plan(cpu, Type::F32, Op::Sum, 100, finish), ArgumentError);
  o.acc = Type::F64;
  CHECK(make_plan(cpu, Type::F32, Op::Sum, 100, o).acc == Type::F64);
  o.acc.reset();
  // The grid's tunables are the exact sum's (below), and lanes.
  Options lanes = o;
  lanes.tuning.set("lanes", 16).set("groups", 3);
  CHECK(make_plan(gpu, Type::F32, Op::Sum, 100, lanes).params.get("lanes") == 16);
  CHECK(make_plan(gpu, Type::F32, Op::Sum, 100, lanes).params.get("groups") == 3);
  lanes.tuning.set("lanes", 3);
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Sum, 100, lanes), ArgumentError);
  Options unroll = o;
  unroll.tuning.set("unroll", 4);
  CHECK(make_plan(gpu, Type::F32, Op::Sum, 100, unroll).params.get("unroll") == 4);
  unroll.tuning.set("unroll", 3);
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Sum, 100, unroll), ArgumentError);
  Options fold = o;  // the exact sum's tunable
  fold.tuning.set("fold", 1);
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Sum, 100, fold), ArgumentError);
  Options strategy = o;
  strategy.strategy = "fast_strided";
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Sum, 100, strategy), ArgumentError);
  // Order-independent operators: the plan RunToRun gives.
  for (auto [t2, op] : {std::pair{Type::I32, Op::Sum}, std::pair{Type::F32, Op::Max}})
    CHECK(make_plan(gpu, t2, op, 1 << 20, o) == make_plan(gpu, t2, op, 1 << 20, Options{}));
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Prod, 100, o), UnsupportedError);
}

TEST_CASE(
    "plans under Determinism Exact: float sums run the exact accumulator, the rest as before") {
  const DeviceInfo gpu = fake_device(DeviceKind::GPU, "gpu");
  const DeviceInfo cpu = fake_device(DeviceKind::CPU, "cpu");
  Options o;
  o.determinism = Determinism::Exact;
  const Plan g = make_plan(gpu, Type::F32, Op::Sum, 1 << 28, o);
  CHECK(g.strategy == "exact_sum");
  CHECK(g.state == StateForm::Digits);
  CHECK(g.params.get("groups") == gpu.compute_units * 8);

  CHECK(g.params.get("blocked") == 0);
  CHECK(g.depth == 1);
  const Plan c = make_plan(cpu, Type::F64, Op::Sum, 1 << 20, o);
  CHECK(c.params.get("groups") == cpu.compute_units);
  CHECK(c.params.get("blocked") == 1);
  o.acc = Type::F64;
  CHECK(make_plan(cpu, Type::F32, Op::Sum, 100, o).acc == Type::F64);
  o.acc.reset();
  // Order-independent operators: the plan RunToRun gives.
  for (auto [t, op] : {std::pair{Type::I32, Op::Sum}, std::pair{Type::F32, Op::Max},
                       std::pair{Type::F64, Op::ArgMin}, std::pair{Type::I64, Op::Prod}})
    CHECK(make_plan(gpu, t, op, 1 << 20, o) == make_plan(gpu, t, op, 1 << 20, Options{}));
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Prod, 100, o), UnsupportedError);
  Options widen = o;
  widen.acc = Type::F32;
  CHECK_THROWS_AS(make_plan(gpu, Type::I32, Op::Sum, 100, widen), UnsupportedError);
  Options strategy = o;
  strategy.strategy = "fast_strided";
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Sum, 100, strategy), ArgumentError);
  Options grid = o;
  grid.tuning.set("groups", 3).set("blocked", 1).set("chunk", 1000);
  const Plan t = make_plan(gpu, Type::F32, Op::Sum, 100, grid);
  CHECK(t.params.get("groups") == 3);
  CHECK(t.params.get("blocked") == 1);
  CHECK(t.params.get("chunk") == 1000);
  grid.tuning.set("groups", 0);
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Sum, 100, grid), ArgumentError);
  // The double windows: where the device has doubles, unless turned off.
  CHECK(g.params.get("fold") == (gpu.fp64 ? 1 : 0));
  DeviceInfo no_fp64 = gpu;
  no_fp64.fp64 = false;
  CHECK(make_plan(no_fp64, Type::F32, Op::Sum, 100, o).params.get("fold") == 0);
  Options fold = o;
  fold.tuning.set("fold", 1);
  CHECK_THROWS_AS(make_plan(no_fp64, Type::F32, Op::Sum, 100, fold), UnsupportedError);
  fold.tuning.set("fold", 2);
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Sum, 100, fold), ArgumentError);
  fold.tuning.set("fold", 0);
  CHECK(make_plan(gpu, Type::F32, Op::Sum, 100, fold).params.get("fold") == 0);
  Options other = o;
  other.tuning.set("lanes", 2);
  CHECK_THROWS_AS(make_plan(gpu, Type::F32, Op::Sum, 100, other), ArgumentError);
  CHECK(find_determinism("exact") == Determinism::Exact);
  CHECK_FALSE(find_determinism("bitwise"));
  for (Determinism d : kAllDeterminisms)
    CHECK(find_determinism(name(d)) == d);
  // Segmented float sums: the exact form (lanes from the mean length on GPUs, one per segment on
  // CPUs, correctly rounded: depth 1); products refuse the levels; min and max run as before.
  const std::uint64_t shape[] = {10, 10};
  const SegmentedPlan xs = plan_axis(gpu, Type::F32, Op::Sum, shape, 0, o);
  CHECK(xs.exact);
  CHECK(xs.depth_for(10) == 1);
  CHECK(xs.describe().find(" exact ") != std::string::npos);
  const std::uint64_t rows[] = {4, 100000};
  CHECK(plan_axis(gpu, Type::F32, Op::Sum, rows, 1, o).lanes == xs.work_group_size);
  const std::uint64_t short_rows[] = {1000, 64};
  CHECK(plan_axis(gpu, Type::F64, Op::Sum, short_rows, 1, o).lanes == 8);
  CHECK(plan_segments(cpu, Type::F32, Op::Sum, 1 << 20, 4, o).lanes == 1);
  CHECK_FALSE(plan_axis(gpu, Type::F32, Op::Sum, shape, 0).exact);
  CHECK_FALSE(plan_axis(gpu, Type::I32, Op::Sum, shape, 0, o).exact);
  CHECK_THROWS_AS(plan_axis(gpu, Type::F32, Op::Prod, shape, 0, o), UnsupportedError);
  Options seg = o;
  seg.tuning.set("chunk", 50);  // one pass only
  CHECK_THROWS_AS(plan_axis(gpu, Type::F32, Op::Sum, shape, 0, seg), UnsupportedError);
  seg = o;
  seg.tuning.set("parts", 2);
  CHECK_THROWS_AS(plan_axis(gpu, Type::F32, Op::Sum, shape, 0, seg), ArgumentError);
  CHECK(xs.fold == gpu.fp64);
  seg = o;
  seg.tuning.set("fold", 0);
  CHECK_FALSE(plan_axis(gpu, Type::F32, Op::Sum, shape, 0, seg).fold);
  seg.determinism = Determinism::RunToRun;  // fold is the exact form's
  CHECK_THROWS_AS(plan_axis(gpu, Type::F32, Op::Sum, shape, 0, seg), ArgumentError);
  CHECK_FALSE(plan_axis(gpu, Type::F32, Op::Max, shape, 0, o).exact);
  CHECK(plan_axis(gpu, Type::F32, Op::Max, shape, 0, o).segments == 10);
}
