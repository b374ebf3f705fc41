// The operator and type descriptors (runtime/src/ops/): what the kernels are specialised with,
// and the host's combine, without a device.
#include <doctest/doctest.h>
#include <sstream>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <span>
#include <string>

#include "core/text.hpp"
#include "core/type_table.hpp"
#include "ops/cl_definitions.hpp"
#include "ops/exact_sum.hpp"
#include "ops/operators.hpp"
#include "ops/user_reduction.hpp"
#include "plan/request.hpp"
#include "rdx/rdx.hpp"

using namespace rdx;
using namespace rdx::detail;

namespace {

bool has(const std::string& s, const std::string& what) {
  return s.find(what) != std::string::npos;
}

std::string upper(std::string_view s) {
  std::string r(s);
  for (auto& c : r)
    c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
  return r;
}

}  // namespace

TEST_CASE("every case's definitions name its types and operator and define what common.h needs") {
  for (Type t : kAllTypes)
    for (Type a : kAllTypes)
      for (Op op : kAllOps) {
        if (!op_allows(op, a)) continue;
        CAPTURE(name(t));
        CAPTURE(name(a));
        CAPTURE(name(op));
        const std::string& d = cl_definitions(t, a, op);
        CHECK(&d == &cl_definitions(t, a, op));  // built once
        CHECK(has(d, "#define OP OP_" + upper(name(op)) + "\n"));
        CHECK(has(d, "#define VALUE_OP OP_" + upper(name(value_op(op))) + "\n"));
        CHECK(has(d, "#define T " + std::string(type_row(t).cl_storage) + "\n"));
        CHECK(has(d, "#define T_COMPUTE " + std::string(type_row(t).cl_name) + "\n"));
        CHECK(has(d, "#define ACC " + std::string(type_row(a).cl_name) + "\n"));
        CHECK(has(d, "#define ACC_BYTES " + std::to_string(size_of(a)) + "\n"));
        CHECK(has(d, "#define ACC_IS_FLOAT") == is_float(a));
        CHECK(has(d, "#define NEEDS_FP64") == (t == Type::F64 || a == Type::F64));
        CHECK(has(d, "#define COMBINE_VALUES(a, b) "));
        CHECK(has(d, "#define IDENTITY_VALUE "));
        CHECK(has(d, "#define INDEXED") == is_index_op(op));
        // Vector lanes combine unless the state has an index or marks float product infinities.
        CHECK(has(d, "#define VCOMBINE(a, b)") ==
              !(is_index_op(op) || (op == Op::Prod && is_float(a))));
        if (is_index_op(op))  // value, padding, 8-byte index: 16 bytes for every accumulator
          CHECK(has(d, "#define ST_PAD " +
                           std::to_string(8 - size_of(a) % 8 == 8 ? 0 : 8 - size_of(a) % 8)));
        std::set<std::string> codes;  // one code per operator, all distinct
        for (Op o : kAllOps) {
          const std::string line = "#define OP_" + upper(name(o)) + " ";
          REQUIRE(has(d, line));
          const auto at = d.find(line) + line.size();
          codes.insert(d.substr(at, d.find('\n', at) - at));
        }
        CHECK(codes.size() == std::size(kAllOps));
      }
}

TEST_CASE("the host's combine keeps the documented semantics") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // min/max propagate NaN from either side; nanmin/nanmax ignore it unless both are NaN
  CHECK(std::isnan(combine_values(Op::Min, nan, 2.0f)));
  CHECK(std::isnan(combine_values(Op::Min, 2.0f, nan)));
  CHECK(std::isnan(combine_values(Op::Max, 3.0f, nan)));
  CHECK(identity_value<float>(Op::Max) == -std::numeric_limits<float>::infinity());
  CHECK(combine_values(Op::NanMin, nan, 2.0f) == 2.0f);
  CHECK(combine_values(Op::NanMax, 3.0f, nan) == 3.0f);
  CHECK(std::isnan(combine_values(Op::NanMin, nan, nan)));
  CHECK(std::isnan(identity_value<float>(Op::NanMax)));
  // integer sums and products wrap modulo 2^bits of the accumulator
  CHECK(combine_values<std::int8_t>(Op::Sum, 127, 1) == -128);
  CHECK(combine_values<std::uint8_t>(Op::Prod, 16, 16) == 0);
  CHECK(combine_values<std::int32_t>(Op::Sum, std::numeric_limits<std::int32_t>::max(), 1) ==
        std::numeric_limits<std::int32_t>::min());
  CHECK(identity_value<std::uint16_t>(Op::And) == 0xffff);
  CHECK(identity_value<std::int16_t>(Op::Min) == std::numeric_limits<std::int16_t>::max());
  // argmin/argmax: the identity loses, NaN wins over a number (nanargmin/nanargmax: loses), ties
  // keep the first index
  using S = TypedState<float>;
  const S none{0.0f, kNoIndex};
  CHECK(combine_states(Op::ArgMin, none, S{5.0f, 7}).index == 7);
  CHECK(combine_states(Op::ArgMin, S{nan, 1}, S{5.0f, 7}).index == 1);
  CHECK(combine_states(Op::ArgMin, S{5.0f, 1}, S{nan, 7}).index == 7);
  CHECK(combine_states(Op::NanArgMin, S{nan, 1}, S{5.0f, 7}).index == 7);
  CHECK(combine_states(Op::NanArgMin, S{5.0f, 7}, S{nan, 1}).index == 7);
  CHECK(combine_states(Op::ArgMax, S{4.0f, 9}, S{4.0f, 3}).index == 3);
  CHECK(combine_states(Op::ArgMax, S{nan, 9}, S{nan, 3}).index == 3);
  CHECK(combine_states(Op::NanArgMax, S{nan, 9}, S{nan, 3}).index == 3);
  // float products: an input infinity times zero is NaN; an overflow times zero is zero
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(std::isnan(public_value(Op::Prod, combine_values(Op::Prod, input_value(Op::Prod, inf),
                                                         input_value(Op::Prod, 0.0f)))));
  const float big = combine_values(Op::Prod, 1e30f, 1e30f);
  CHECK(std::isinf(big));
  CHECK(combine_values(Op::Prod, big, 0.0f) == 0.0f);
  CHECK(public_value(Op::Prod, input_value(Op::Prod, -inf)) == -inf);
}

TEST_CASE("operator names round-trip and the identity of an empty input") {
  for (Op op : kAllOps)
    CHECK(parse_op(name(op)) == op);
  CHECK(parse_op("product") == Op::Prod);
  CHECK(rdx::identity(Op::Min, Type::F32).as<float>() == std::numeric_limits<float>::infinity());
  CHECK(rdx::identity(Op::Max, Type::I8).as<int>() == -128);
  CHECK(rdx::identity(Op::And, Type::U32).as<std::uint32_t>() == 0xffffffffu);
}

TEST_CASE("every operator's row states what the operator is") {
  // Written out here from docs/semantics.md, independently of kOpRows: a new operator needs its
  // line here too. fx: the operator on f32 1.5 and -2 (no float form: integer-only).
  struct Want {
    Op op;
    std::string_view name;
    Op value;
    bool indexed, element, int_only;
    std::int64_t i32;  // the operator on i32 6 and 3
    float fx;
    std::int64_t id_i8, id_u16;  // identity_value of i8 and u16 states
    float id_f32;                // rdx::identity of an empty f32 input (NaN: none)
    bool lanes_int, lanes_float;
    std::string_view atom_int, atom_float;  // the definitions' ATOMIC_FORM_*; "" none
    int exact;                              // exact_form on f32: 0 false, 1 true, 2 refused
  };
  const float inf = std::numeric_limits<float>::infinity();
  const float none = std::numeric_limits<float>::quiet_NaN();
  const Want want[] = {
      {Op::Sum, "sum", Op::Sum, false, false, false, 9, -0.5f, 0, 0, 0, true, true, "ADD", "ADD",
       1},
      {Op::Prod, "prod", Op::Prod, false, false, false, 18, -3, 1, 1, 1, true, false, "", "", 2},
      {Op::Min, "min", Op::Min, false, true, false, 3, -2, 127, 65535, inf, true, true, "MIN", "",
       0},
      {Op::Max, "max", Op::Max, false, true, false, 6, 1.5f, -128, 0, -inf, true, true, "MAX", "",
       0},
      {Op::And, "and", Op::And, false, false, true, 2, none, -1, 65535, none, true, false, "AND",
       "", 0},
      {Op::Or, "or", Op::Or, false, false, true, 7, none, 0, 0, none, true, false, "OR", "", 0},
      {Op::Xor, "xor", Op::Xor, false, false, true, 5, none, 0, 0, none, true, false, "XOR", "", 0},
      {Op::ArgMin, "argmin", Op::Min, true, true, false, 3, -2, 127, 65535, none, false, false,
       "MIN", "", 0},
      {Op::ArgMax, "argmax", Op::Max, true, true, false, 6, 1.5f, -128, 0, none, false, false,
       "MAX", "", 0},
      {Op::NanMin, "nanmin", Op::NanMin, false, true, false, 3, -2, 127, 65535, inf, true, true,
       "MIN", "MIN", 0},
      {Op::NanMax, "nanmax", Op::NanMax, false, true, false, 6, 1.5f, -128, 0, -inf, true, true,
       "MAX", "MAX", 0},
      {Op::NanArgMin, "nanargmin", Op::NanMin, true, true, false, 3, -2, 127, 65535, none, false,
       false, "MIN", "MIN", 0},
      {Op::NanArgMax, "nanargmax", Op::NanMax, true, true, false, 6, 1.5f, -128, 0, none, false,
       false, "MAX", "MAX", 0},
  };
  REQUIRE(std::size(want) == std::size(kAllOps));
  DeviceInfo dev;
  dev.fp64 = true;
  for (const Want& w : want) {
    CAPTURE(w.name);
    const OpRow& r = op_row(w.op);
    CHECK(r.op == w.op);
    CHECK(name(w.op) == w.name);
    CHECK(value_op(w.op) == w.value);
    CHECK(r.indexed == w.indexed);
    CHECK(r.indexed == is_index_op(w.op));  // the public predicates agree with the row
    CHECK(r.integer_only == is_bitwise(w.op));
    CHECK(op_allows(w.op, Type::F32) == !w.int_only);
    // the host's combine and identity
    CHECK(combine_values<std::int32_t>(w.op, 6, 3) == w.i32);
    if (!w.int_only) CHECK(combine_values<float>(w.op, 1.5f, -2.0f) == w.fx);
    CHECK(identity_value<std::int8_t>(w.op) == w.id_i8);
    CHECK(identity_value<std::uint16_t>(w.op) == w.id_u16);
    if (w.indexed || w.int_only) {
      if (w.indexed) CHECK_THROWS_AS(rdx::identity(w.op, Type::F32), ArgumentError);
    } else {
      CHECK(rdx::identity(w.op, Type::F32).as<float>() == w.id_f32);
    }
    // the OpenCL C: vector lanes, the atomic form, the float product's mark
    CHECK(lanes_combine(w.op, Type::I32) == w.lanes_int);
    CHECK(lanes_combine(w.op, Type::F32) == w.lanes_float);
    for (Type acc : {Type::I32, Type::F32}) {
      if (!op_allows(w.op, acc)) continue;
      CAPTURE(name(acc));
      const std::string& d = cl_definitions(acc, acc, w.op);
      const std::string_view atom = is_float(acc) ? w.atom_float : w.atom_int;
      CHECK(has(d, "#define ATOMIC_FORM_") == !atom.empty());
      if (!atom.empty()) CHECK(has(d, "#define ATOMIC_FORM_" + std::string(atom) + " 1\n"));
      CHECK(has(d, "#define PROD_MARK") == (w.op == Op::Prod && is_float(acc)));
      CHECK(has(d, "#define VCOMBINE(a, b)") == lanes_combine(w.op, acc));
    }
    // the accumulator rule: an element's value needs an accumulator that holds every one
    if (w.element && !w.indexed) {
      CHECK_THROWS_WITH_AS(checked_acc(dev, Type::I32, w.op, Type::F32),
                           doctest::Contains("returns an element's value"), ArgumentError);
      CHECK(checked_acc(dev, Type::I32, w.op, Type::F64) == Type::F64);
    } else if (!w.int_only && !w.indexed) {
      CHECK(checked_acc(dev, Type::I32, w.op, Type::F32) == Type::F32);
    }
    // the exact levels on a float accumulator
    for (Determinism d : {Determinism::Exact, Determinism::AnyDevice}) {
      if (w.exact == 2)
        CHECK_THROWS_AS(exact_form(d, Type::F32, Type::F32, w.op), UnsupportedError);
      else
        CHECK(exact_form(d, Type::F32, Type::F32, w.op) == (w.exact == 1));
    }
    CHECK_FALSE(exact_form(Determinism::RunToRun, Type::F32, Type::F32, w.op));
  }
  // cl_identity interprets the identity rule for the kernels
  CHECK(cl_identity(Op::And, Type::U16) == "(ushort)(~(ushort)0)");
  CHECK(cl_identity(Op::NanMin, Type::F64) == "(double)NAN");
  CHECK(cl_identity(Op::Min, Type::F64) == "(double)INFINITY");
  CHECK(cl_identity(Op::Max, Type::F32) == "(-(float)INFINITY)");
  CHECK(cl_identity(Op::ArgMax, Type::I8) == "(char)CHAR_MIN");
  CHECK(cl_identity(Op::Prod, Type::F32) == "(float)1");
}

// One accumulator rule: for every type, operator and requested accumulator, a refusal lists
// exactly the accumulators that the check accepts (derived by asking the check of each), names no
// CLI option, and the default (the computed type) is among them.
TEST_CASE("the accumulator rule: a refusal lists exactly the accumulators the check accepts") {
  DeviceInfo dev;
  dev.fp64 = true;
  std::size_t refusals = 0;
  for (Type type : kAllTypes)
    for (Op op : kAllOps) {
      if (!op_allows(op, type)) continue;
      std::set<std::string> accepted;
      for (Type acc : kAllTypes) {
        Type got = acc;
        try {
          got = checked_acc(dev, type, op, acc);
        } catch (const ArgumentError&) {
          continue;
        }
        CHECK(got == acc);
        accepted.insert(std::string(name(acc)));
      }
      CHECK(accepted.count(std::string(name(checked_acc(dev, type, op, std::nullopt)))));
      for (Type acc : kAllTypes) {
        if (accepted.count(std::string(name(acc)))) continue;
        CAPTURE(name(type));
        CAPTURE(name(op));
        CAPTURE(name(acc));
        std::string what;
        try {
          checked_acc(dev, type, op, acc);
        } catch (const ArgumentError& e) {
          what = e.what();
        }
        CAPTURE(what);
        ++refusals;
        const std::string key = "that can: ";
        const std::size_t at = what.find(key);
        REQUIRE(at != std::string::npos);
        const std::size_t end = what.find(')', at);
        REQUIRE(end != std::string::npos);
        std::istringstream listed(what.substr(at + key.size(), end - at - key.size()));
        std::set<std::string> named;
        for (std::string t; listed >> t;)
          named.insert(t);
        CHECK(named == accepted);
        CHECK(!has(what, "--"));
      }
    }
  CHECK(refusals > 100);
}

// User text in a message (a map, a field's name, a type's or an operator's name) reaches it with
// every byte below 0x20 escaped (detail::printable): no second line, no terminal escape, and no
// NUL that would cut what() short.
TEST_CASE("a request leaves the strategy to the plan by \"auto\" or by no name at all") {
  Options o;
  CHECK(rdx::detail::auto_strategy(o));  // the default
  o.strategy = "";
  CHECK(rdx::detail::auto_strategy(o));
  o.strategy = "fast_strided";
  CHECK_FALSE(rdx::detail::auto_strategy(o));
  o.strategy = "Auto";  // names are exact
  CHECK_FALSE(rdx::detail::auto_strategy(o));
}

TEST_CASE("messages quote user text with its control characters escaped") {
  const auto message = [](auto&& call) {
    try {
      call();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    FAIL("no error");
    return std::string();
  };
  const auto clean = [](const std::string& what) {
    return std::none_of(what.begin(), what.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20; });
  };
  const std::string map = std::string("x +\n1\x1b[31m") + '\0' + "tail";
  std::string what = message([&] { validate(Reduction::transform(Op::Sum, Type::F32, map), 1); });
  CAPTURE(what);
  CHECK(clean(what));
  CHECK(has(what, "x +\\n1\\x1b[31m\\x00tail"));  // whole: not cut at the NUL
  // A field's name, the reduction's fields named twice.
  Reduction r = Reduction::simple(Type::F32, "a + b", "0");
  r.fields[0].name = "s\n\x07";
  what = message([&] { validate(r, 1); });
  CHECK(clean(what));
  CHECK(has(what, "'s\\n\\x07' is not a field name"));
  // Names of types, operators and strategies.
  for (const std::string& bad :
       {std::string("f3\n2"), std::string("\x1b]0;x\x07"), std::string("s") + '\0' + "um"}) {
    CAPTURE(printable(bad));
    for (const std::string& w : {message([&] { parse_type(bad); }), message([&] { parse_op(bad); }),
                                 message([&] { strategy_form(bad, DeviceInfo{}); })}) {
      CHECK(clean(w));
      CHECK(has(w, printable(bad)));
    }
  }
}

TEST_CASE("the exact sum's layout follows from the float type's limits") {
  // f32: 2^-149 .. 2^128 plus 64 bits of carries, 341 bits in 11 digits of 32; f64: 2^-1074 ..
  // 2^1024 plus 64, 2162 bits in 68.
  CHECK(exact_layout(Type::F32).digits == 11);
  CHECK(exact_layout(Type::F32).lsb == -149);
  CHECK(exact_layout(Type::F64).digits == 68);
  CHECK(exact_layout(Type::F64).lsb == -1074);
  CHECK_THROWS_AS(exact_layout(Type::I32), std::logic_error);
}

TEST_CASE("the exact kernels' layout options are IEEE 754's binary32 and binary64 fields") {
  // The formats' field widths (IEEE 754-2008, table 3.5): binary32 8 exponent bits, 23 fraction
  // bits, bias 127; binary64 11, 52, 1023. The digits and lsb as the test above.
  CHECK(exact_cl_options(Type::F32, std::nullopt) ==
        "-DEXACT_T=float -DBITS_T=uint -DDIGITS=11 -DMANT_BITS=23 -DEXP_ONES=255 -DBIAS=127 "
        "-DLSB=-149 -DSIGN_SHIFT=31");
  CHECK(exact_cl_options(Type::F64, Type::F32) ==
        "-DEXACT_T=double -DBITS_T=ulong -DDIGITS=68 -DMANT_BITS=52 -DEXP_ONES=2047 -DBIAS=1023 "
        "-DLSB=-1074 -DSIGN_SHIFT=63 -DEXACT_ROUND -DR_T=float -DR_BITS_T=uint -DR_PREC=24 "
        "-DR_LSB=-149 -DR_BIAS=127 -DR_EXP_ONES=255ul");
  CHECK(exact_cl_options(Type::F32, Type::F64)
            .ends_with("-DR_T=double -DR_BITS_T=ulong -DR_PREC=53 -DR_LSB=-1074 -DR_BIAS=1023 "
                       "-DR_EXP_ONES=2047ul"));
  CHECK_THROWS_AS(exact_cl_options(Type::U16, std::nullopt), std::logic_error);
  CHECK_THROWS_AS(exact_cl_options(Type::F32, Type::I64), std::logic_error);
}

TEST_CASE("users' definitions: the line recorded for each expression holds it") {
  // NVIDIA's compiler reports physical lines (it ignores #line): rethrow_build_error maps a
  // message to its expression by these lines.
  rdx::Reduction r;
  r.fields = {{"s", rdx::Type::F64, "0", "x0 * x1", "a.s + b.s"},
              {"c", rdx::Type::U32, "1", "x1 > 0", "max(a.c, b.c)"}};
  const rdx::Type inputs[] = {rdx::Type::F32, rdx::Type::I16};
  std::vector<rdx::detail::ExpressionLine> lines;
  const std::string text = rdx::detail::user_definitions(r, inputs, &lines);
  std::vector<std::string> source_lines;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    source_lines.push_back(l);
  REQUIRE(lines.size() == 6);
  // and one field (its combine reads a and b as values)
  const rdx::Reduction one = rdx::Reduction::simple(rdx::Type::F32, "fmax(a, b)", "0", "x * 2");
  std::vector<rdx::detail::ExpressionLine> one_lines;
  const std::string one_text = rdx::detail::user_definitions(one, inputs, &one_lines);
  std::vector<std::string> one_source;
  std::istringstream one_in(one_text);
  for (std::string l; std::getline(one_in, l);)
    one_source.push_back(l);
  REQUIRE(one_lines.size() == 3);
  for (const auto& e : one_lines)
    CHECK(one_source.at(e.line - 1) == "(" +
                                           (e.kind == "identity" ? one.fields[0].identity
                                            : e.kind == "map"    ? one.fields[0].map
                                                                 : one.fields[0].combine) +
                                           ")");
  for (const auto& e : lines) {
    CAPTURE(e.kind);
    CAPTURE(e.field);
    REQUIRE(e.line >= 1);
    REQUIRE(e.line <= source_lines.size());
    const rdx::Field& f = r.fields[e.field];
    const std::string& want = e.kind == "identity" ? f.identity
                              : e.kind == "map"    ? f.map
                                                   : f.combine;
    CHECK(source_lines[e.line - 1] == "(" + want + ")");
  }
}

TEST_CASE("users' reductions: which have a vector form") {
  using rdx::Reduction;
  const Type f32[] = {Type::F32}, f32x2[] = {Type::F32, Type::F32}, f64[] = {Type::F64},
             i32[] = {Type::I32}, u64[] = {Type::U64}, i16[] = {Type::I16}, i64[] = {Type::I64};
  struct Case {
    Reduction r;
    std::span<const Type> inputs;
    bool vector;
  };
  const Case cases[] = {
      // arithmetic on the inputs, the built-in float sum, its integer sum (casts to the field's
      // type and its unsigned twin) and bitwise operators, and the allowed functions
      {Reduction::transform(Op::Sum, Type::F32, "x * x"), f32, true},
      {Reduction::transform(Op::Sum, Type::F32, "x0 * x1"), f32x2, true},
      {Reduction::transform(Op::Sum, Type::F32, "fabs(x0 - x1) / 2.5f + 1"), f32x2, true},
      {Reduction::transform(Op::Sum, Type::F64, "x * 0.5 + 1e-3"), f64, true},
      {Reduction::transform(Op::Sum, Type::I32, "x & 1023"), i32, true},
      {Reduction::transform(Op::Sum, Type::U64, "x % 7 * 3 - 1"), u64, true},
      {Reduction::transform(Op::Xor, Type::U64, "~x & 255"), u64, true},
      {Reduction::simple(Type::F32, "fmax(fabs(a), fabs(b))", "0"), f32, true},
      {Reduction::simple(Type::I32, "max(a, b)", "INT_MIN"), i32, true},
      // a double literal on f32 computes in double on scalars
      {Reduction::transform(Op::Sum, Type::F32, "x * 0.5"), f32, false},
      // comparisons are -1 on vectors and 1 on scalars; the ternary selects by sign bits
      {Reduction::transform(Op::Sum, Type::F32, "x > 0.5f"), f32, false},
      {Reduction::transform(Op::Max, Type::F32, "x"), f32, false},  // its combine tests isnan
      {Reduction::simple(Type::F32, "a < b ? a : b", "INFINITY"), f32, false},
      // the index, a float cast, functions outside the list, integer products' double casts
      {Reduction::transform(Op::Sum, Type::F32, "x * i"), f32, false},
      {Reduction::transform(Op::Sum, Type::F32, "(float)x"), f32, false},
      {Reduction::transform(Op::Sum, Type::F32, "exp(x)"), f32, false},
      {Reduction::transform(Op::Sum, Type::I32, "x << 2"), i32, false},
      {Reduction::transform(Op::Sum, Type::I32, "x * 1000000000000"), i32, false},
      {Reduction::transform(Op::Sum, Type::I32, "x * 1.5f"), i32, false},
      {Reduction::transform(Op::Sum, Type::I32, "x + (int)(1)"), i32, false},  // a scalar's cast
      // signed overflow is undefined: folded differently on vectors
      {Reduction::transform(Op::Xor, Type::I32, "x * 6 / 3"), i32, false},
      {Reduction::transform(Op::Sum, Type::I64, "-x"), i64, false},
      {Reduction::simple(Type::I32, "a + b", "0"), i32, false},
      // a literal too long to check
      {Reduction::transform(Op::Sum, Type::F32, "x * 1." + std::string(1000, '0') + "f"), f32,
       false},
      // inputs of another type than the field (converted on scalars), narrow integers (promoted
      // to int on scalars), several fields
      {Reduction::transform(Op::Sum, Type::F32, "x"), i32, false},
      {Reduction::transform(Op::Sum, Type::I16, "x"), i16, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.r.fields[0].map);
    CAPTURE(c.r.fields[0].combine);
    CHECK(has_vector_form(c.r, c.inputs) == c.vector);
    CHECK(has(user_definitions(c.r, c.inputs), "#define USER_VMAP_AT(k)") == c.vector);
  }
  Reduction two;
  two.fields = {{"s", Type::F32, "0", "x", "a.s + b.s"}, {"c", Type::F32, "0", "1", "a.c + b.c"}};
  CHECK_FALSE(has_vector_form(two, f32));
  // the integer sum's casts become reinterpretations of vectors of the field's width
  const std::string sum_i32 =
      user_definitions(Reduction::transform(Op::Sum, Type::I32, "x"), std::span<const Type>(i32));
  CHECK(has(sum_i32, "RDX_VN_(as_int, VW)(RDX_VN_(as_uint, VW)(a) + RDX_VN_(as_uint, VW)(b))"));
}

// The type rows against the host's own facts, never against themselves: each row's size,
// significand (or value) bits, signedness and exponent range are its C++ type's, its .npy dtype
// string is NumPy's rule (byte order '<', or '|' for one byte; kind f, i or u; bytes) and reads
// back, and the kernels' definitions load its elements through LOAD_T.
TEST_CASE("types: each row's facts are its C++ type's, and its .npy code reads back") {
  for (Type t : kAllTypes) {
    const TypeRow& r = type_row(t);
    CAPTURE(r.name);
    visit_type(t, [&](auto z) {
      using H = decltype(z);
      using L = std::numeric_limits<H>;
      CHECK(r.size == sizeof(H));
      CHECK(r.digits == L::digits);
      CHECK(r.is_float == is_float_v<H>);
      CHECK(r.is_signed == L::is_signed);
      CHECK(r.min_exp == (r.is_float ? L::min_exponent : 0));
      CHECK(r.max_exp == (r.is_float ? L::max_exponent : 0));
      CHECK((r.cl_extension == "cl_khr_fp64") == std::is_same_v<H, double>);
    });
    const std::string d(npy_descr(t));
    CAPTURE(d);
    if (d.empty()) {
      CHECK(t == Type::BF16);  // NumPy has no bfloat16 dtype
    } else {
      REQUIRE(d.size() >= 3);
      CHECK(d[0] == (r.size == 1 ? '|' : '<'));
      CHECK(d[1] == (r.is_float ? 'f' : r.is_signed ? 'i' : 'u'));
      CHECK(d.substr(2) == std::to_string(r.size));
      CHECK((type_of_npy(d) == t));
      // The same descriptor in native and big-endian byte order (a copy with its first character
      // replaced: GCC 12 warns falsely (-Wrestrict) on "=" + d.substr(1) at -O2).
      std::string native = d, big = d;
      native[0] = '=';
      big[0] = '>';
      CHECK((type_of_npy(native) == t));
      CHECK((type_of_npy(big) == (r.size == 1 ? std::optional<Type>(t) : std::nullopt)));
    }
    CHECK((parse_type(r.name) == t));
    const std::string& defs = cl_definitions(t, computed_type(t), Op::Sum);
    CHECK(has(defs, "#define T " + std::string(r.cl_storage) + "\n"));
    CHECK(has(defs, "#define T_COMPUTE " + std::string(r.cl_name) + "\n"));
    CHECK(has(defs, "#define LOAD_T(p, k) T_VALUE((p)[(k)])\n"));
    CHECK(has(defs, "#define T_VALUE(x) (x)\n") == (r.cl_storage == r.cl_name));
    CHECK(has(defs, "#define T_VALUES(N, x) (x)\n") == (r.cl_storage == r.cl_name));
  }
  for (const char* s : {">f2", ">f4", ">i8", "<b1", "<c8", "f4", "", "<f16"}) {
    CAPTURE(s);
    CHECK_FALSE(type_of_npy(s).has_value());
  }
  // holds_every_value reads the digits: 15 and 16 value bits fit f32's 24, 31 do not; 32 fit
  // f64's 53, 63 do not.
  CHECK(holds_every_value(Type::F32, Type::I16));
  CHECK(holds_every_value(Type::F32, Type::U16));
  CHECK_FALSE(holds_every_value(Type::F32, Type::I32));
  CHECK(holds_every_value(Type::F64, Type::U32));
  CHECK_FALSE(holds_every_value(Type::F64, Type::I64));
}
