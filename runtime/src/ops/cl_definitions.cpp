// The kernels' definitions for one case, generated from core/type_table.hpp and
// ops/operators.hpp (see cl/common.h for what each name means).
#include "ops/cl_definitions.hpp"

#include "core/format.hpp"

#include <array>
#include <cctype>
#include <mutex>

#include "core/type_table.hpp"
#include "ops/float_prod.hpp"
#include "ops/operators.hpp"

namespace rdx::detail {
namespace {

std::string upper(std::string_view s) {
  std::string r(s);
  for (auto& c : r)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return r;
}

std::string op_code_name(Op op) {
  return "OP_" + upper(name(op));
}

// Bits of a float product's input-infinity mark (float_prod.hpp's kInfMark) as OpenCL C.
std::string prod_mark(Type acc) {
  if (size_of(acc) == 4) return detail::format("0x{:08x}u", ProdBits<float>::kInfMark);
  return detail::format("0x{:016x}ul", ProdBits<double>::kInfMark);
}

// The element type as stored (T) and as computed (T_COMPUTE), how the kernels read an element
// (T_VALUE, T_VALUES, LOAD_T: cl/common.h), the accumulator, and the extensions the two need.
std::string type_definitions(const TypeRow& t, const TypeRow& a) {
  std::string s = detail::format("#define T {}\n#define T_COMPUTE {}\n", t.cl_storage, t.cl_name);
  s += detail::format("#define T_VALUE(x) {}\n", t.cl_value.empty() ? "(x)" : t.cl_value);
  s += detail::format("#define T_VALUES(N, x) {}\n", t.cl_values.empty() ? "(x)" : t.cl_values);
  s += "#define LOAD_T(p, k) T_VALUE((p)[(k)])\n";
  s += detail::format("#define ACC {}\n#define ACC_BYTES {}\n", a.cl_name, a.size);
  // cl_khr_fp64 as NEEDS_FP64, which cl/common.h enables (a user's reduction defines it too);
  // any other extension enabled here.
  if (t.cl_extension == "cl_khr_fp64" || a.cl_extension == "cl_khr_fp64")
    s += "#define NEEDS_FP64 1\n";
  for (const std::string_view ext : {t.cl_extension, a.cl_extension})
    if (!ext.empty() && ext != "cl_khr_fp64" && s.find(ext) == std::string::npos)
      s += detail::format("#pragma OPENCL EXTENSION {} : enable\n", ext);
  return s;
}

std::string generate(Type type, Type acc, Op op) {
  const TypeRow& t = type_row(type);
  const TypeRow& a = type_row(acc);
  std::string s = detail::format(
      "/* librdx definitions (runtime/src/ops/cl_definitions.cpp): {} elements, {} accumulator, "
      "{} */\n#define RDX_DEFINITIONS 1\n",
      t.name, a.name, name(op));
  for (Op o : kAllOps)
    s += detail::format("#define {} {}\n", op_code_name(o), static_cast<int>(o));
  s += detail::format("#define OP {}\n#define VALUE_OP {}\n", op_code_name(op),
                      op_code_name(value_op(op)));
  s += type_definitions(t, a);
  if (a.is_float) {
    s += "#define ACC_IS_FLOAT 1\n";
  } else {
    // UMUL: the unsigned type a product is computed in, at least as wide as int, so narrow
    // operands never promote to signed int.
    s += detail::format("#define UACC {}\n#define UMUL {}\n", a.cl_unsigned,
                        a.size == 8 ? "ulong" : "uint");
    if (a.is_signed) s += "#define ACC_IS_SIGNED 1\n";
  }
  const OpRow& o = op_row(op);
  if (o.indexed) {
    // The state: value, zeroed padding up to the 8-byte index, index.
    s += detail::format("#define INDEXED 1\n#define ST_PAD {}\n", (8 - a.size % 8) % 8);
  }
  if (nan_ignored(o.combine) && a.is_float) s += "#define NAN_IGNORED 1\n";
  if (o.combine == Combine::Mul && a.is_float)
    s += detail::format("#define PROD_MARK {}\n", prod_mark(acc));
  // The native atomic of the row, which cl/seeds/atomic_ops.h uses where the device has it.
  if (const Atomic at = atomic_of(op, acc); at != Atomic::None)
    s += detail::format("#define ATOMIC_FORM_{} 1\n", upper(atomic_name(at)));
  s += detail::format("#define COMBINE_VALUES(a, b) {}\n", cl_combine(op, acc));
  s += detail::format("#define IDENTITY_VALUE {}\n", cl_identity(op, acc));
  if (const std::string v = cl_vcombine(op, acc); !v.empty())
    s += detail::format("#define VCOMBINE(a, b) {}\n", v);
  // argmin/argmax: their value operator on vectors, for a block's extreme value (cl/fast.cl).
  if (const std::string v = cl_vcombine(value_op(op), acc); o.indexed && !v.empty())
    s += detail::format("#define VALUE_VCOMBINE(a, b) {}\n", v);
  return s;
}

}  // namespace

const std::string& cl_definitions(Type type, Type acc, Op op) {
  constexpr std::size_t nt = std::size(kAllTypes), no = std::size(kAllOps);
  static std::array<std::string, nt * nt * no> table;
  static std::once_flag once;
  std::call_once(once, [] {
    for (Type t : kAllTypes)
      for (Type a : kAllTypes)
        for (Op o : kAllOps)
          if (op_allows(o, a))
            table[(static_cast<std::size_t>(t) * nt + static_cast<std::size_t>(a)) * no +
                  static_cast<std::size_t>(o)] = generate(t, a, o);
  });
  return table[(static_cast<std::size_t>(type) * nt + static_cast<std::size_t>(acc)) * no +
               static_cast<std::size_t>(op)];
}

}  // namespace rdx::detail
