// Host arrays as librdx input, and results as Python objects (arrays.hpp).
#include "arrays.hpp"

#include <cstring>
#include <string>
#include <type_traits>
#include <utility>

#include "rdx/errors.hpp"
#include "rdx/half.hpp"

namespace nb = nanobind;

namespace rdxpy {
namespace {

// DLPack's kind of each element type: a switch without a default, so that a new rdx::Type is a
// compile error here (-Werror=switch) until it has its kind.
nb::dlpack::dtype_code code_of(rdx::Type t) {
  using Code = nb::dlpack::dtype_code;
  switch (t) {
    case rdx::Type::I8:
    case rdx::Type::I16:
    case rdx::Type::I32:
    case rdx::Type::I64:
      return Code::Int;
    case rdx::Type::U8:
    case rdx::Type::U16:
    case rdx::Type::U32:
    case rdx::Type::U64:
      return Code::UInt;
    case rdx::Type::F16:
    case rdx::Type::F32:
    case rdx::Type::F64:
      return Code::Float;
    case rdx::Type::BF16:
      return Code::Bfloat;
  }
  throw rdx::ArgumentError("an element type without a DLPack kind");  // not an enumerator
}

nb::dlpack::dtype dtype_of(rdx::Type t) {
  nb::dlpack::dtype d;
  d.lanes = 1;
  d.bits = static_cast<std::uint8_t>(8 * rdx::size_of(t));
  d.code = static_cast<std::uint8_t>(code_of(t));
  return d;
}

// The element type of a DLPack dtype: the type whose dtype_of it is (rdx::kAllTypes), or u8 for
// bool (bytes of 0 and 1); anything else is a TypeError listing the types.
rdx::Type type_of(nb::dlpack::dtype d) {
  const nb::dlpack::dtype bool8{static_cast<std::uint8_t>(nb::dlpack::dtype_code::Bool), 8, 1};
  if (d == bool8) return rdx::Type::U8;
  std::string names;
  for (rdx::Type t : rdx::kAllTypes) {
    if (dtype_of(t) == d) return t;
    names += (names.empty() ? "" : ", ") + std::string(rdx::name(t));
  }
  throw nb::type_error(
      ("rdx reduces arrays of bool and of librdx's types " + names + " (bf16 through DLPack)")
          .c_str());
}

nb::object numpy_array(void* data, nb::capsule owner, nb::dlpack::dtype d,
                       const std::vector<std::uint64_t>& shape) {
  std::vector<std::size_t> dims(shape.begin(), shape.end());
  return nb::ndarray<nb::numpy>(data, dims.size(), dims.data(), owner, nullptr, d).cast();
}

}  // namespace

HostInput host_input(const HostArray& a) {
  HostInput in;
  in.type = type_of(a.dtype());
  const std::size_t dims = a.ndim();
  in.view.shape.resize(dims);
  in.view.strides.resize(dims);
  in.count = 1;
  for (std::size_t k = 0; k < dims; ++k) {
    in.view.shape[k] = a.shape(k);
    in.count *= a.shape(k);
  }
  // Strides in elements (nanobind's), or C order where the producer gave none.
  std::int64_t c_stride = 1;
  for (std::size_t k = dims; k-- > 0;) {
    in.view.strides[k] = a.stride_ptr() ? a.stride(k) : c_stride;
    c_stride *= static_cast<std::int64_t>(a.shape(k));
  }
  const auto* first = static_cast<const unsigned char*>(a.data());
  std::uint64_t back = 0;  // elements from the lowest address to the first element
  in.c_contiguous = true;
  std::int64_t expected = 1;
  for (std::size_t k = dims; k-- > 0;) {
    const std::int64_t s = in.view.strides[k];
    if (in.view.shape[k] != 1 && s != expected) in.c_contiguous = false;
    expected *= static_cast<std::int64_t>(in.view.shape[k]);
    if (in.count > 0 && s < 0) back += (in.view.shape[k] - 1) * static_cast<std::uint64_t>(-s);
  }
  if (in.count <= 1) in.c_contiguous = true;
  in.view.offset = back;
  in.base = first - back * rdx::size_of(in.type);
  return in;
}

DeviceInput device_input(std::uintptr_t mem, const std::string& type, std::uint64_t offset,
                         std::vector<std::uint64_t> shape, std::vector<std::int64_t> strides) {
  DeviceInput in;
  in.type = rdx::parse_type(type);
  in.buffer = cl::Buffer(reinterpret_cast<cl_mem>(mem), /*retainObject=*/true);
  const std::size_t dims = shape.size();
  if (strides.empty()) {
    strides.resize(dims);
    std::int64_t c_stride = 1;
    for (std::size_t k = dims; k-- > 0;) {
      strides[k] = c_stride;
      c_stride *= static_cast<std::int64_t>(shape[k]);
    }
  }
  if (strides.size() != dims) throw rdx::ArgumentError("strides and shape differ in length");
  in.count = 1;
  for (std::uint64_t n : shape)
    in.count *= n;
  in.c_contiguous = true;
  std::int64_t expected = 1;
  for (std::size_t k = dims; k-- > 0;) {
    if (shape[k] != 1 && strides[k] != expected) in.c_contiguous = false;
    expected *= static_cast<std::int64_t>(shape[k]);
  }
  if (in.count <= 1) in.c_contiguous = true;
  in.view = rdx::View{std::move(shape), std::move(strides), offset};
  return in;
}

rdx::Options options_of(const std::string& acc, const std::string& determinism) {
  rdx::Options o;
  if (!acc.empty()) o.acc = rdx::parse_type(acc);
  const auto d = rdx::find_determinism(determinism);
  if (!d)
    throw rdx::ArgumentError("unknown determinism '" + determinism +
                             "' (expected one of: run_to_run any_device exact)");
  o.determinism = *d;
  return o;
}

nb::object scalar_object(const rdx::Scalar& s) {
  return rdx::visit_type(s.type, [&](auto z) -> nb::object {
    using T = decltype(z);
    T v;
    std::memcpy(&v, &s.bits, sizeof v);
    if constexpr (rdx::is_half_v<T>)
      return nb::float_(static_cast<double>(static_cast<float>(v)));
    else if constexpr (std::is_floating_point_v<T>)
      return nb::float_(static_cast<double>(v));
    else
      return nb::int_(v);
  });
}

nb::object index_object(std::optional<std::uint64_t> i) {
  return i ? nb::object(nb::int_(*i)) : nb::object(nb::none());
}

nb::object numpy_of(rdx::Type t, std::vector<unsigned char>&& bytes,
                    const std::vector<std::uint64_t>& shape) {
  if (t == rdx::Type::BF16) {  // NumPy has no bfloat16: its values as float32, exactly
    const std::size_t n = bytes.size() / 2;
    std::vector<unsigned char> wide(n * 4);
    for (std::size_t k = 0; k < n; ++k) {
      rdx::bf16 h;
      std::memcpy(&h, bytes.data() + 2 * k, 2);
      const float f = static_cast<float>(h);
      std::memcpy(wide.data() + 4 * k, &f, 4);
    }
    return numpy_of(rdx::Type::F32, std::move(wide), shape);
  }
  if (bytes.empty()) bytes.resize(8);  // an empty result still needs a valid address
  auto* owned = new std::vector<unsigned char>(std::move(bytes));
  nb::capsule owner(owned,
                    [](void* p) noexcept { delete static_cast<std::vector<unsigned char>*>(p); });
  return numpy_array(owned->data(), owner, dtype_of(t), shape);
}

nb::object numpy_of(std::vector<std::uint64_t>&& indexes, const std::vector<std::uint64_t>& shape) {
  if (indexes.empty()) indexes.resize(1);
  auto* owned = new std::vector<std::uint64_t>(std::move(indexes));
  nb::capsule owner(owned,
                    [](void* p) noexcept { delete static_cast<std::vector<std::uint64_t>*>(p); });
  return numpy_array(owned->data(), owner, dtype_of(rdx::Type::I64), shape);
}

void register_types(nb::module_& m) {
  m.def(
      "types",
      [] {
        nb::list rows;
        for (rdx::Type t : rdx::kAllTypes)
          rows.append(nb::make_tuple(nb::str(rdx::name(t).data(), rdx::name(t).size()),
                                     nb::str(rdx::npy_descr(t).data(), rdx::npy_descr(t).size()),
                                     rdx::size_of(t)));
        return rows;
      },
      "librdx's element types, one (name, NumPy's dtype string or \"\" where NumPy has none, "
      "item size) per rdx::Type: the one map of dtypes the package reads (rdx/_inputs.py)");
  m.def(
      "ops",
      [] {
        nb::list rows;
        for (rdx::Op op : rdx::kAllOps)
          rows.append(nb::make_tuple(nb::str(rdx::name(op).data(), rdx::name(op).size()),
                                     rdx::is_index_op(op)));
        return rows;
      },
      "librdx's built-in operators, one (name, whether its results are indexes) per rdx::Op: "
      "the package's list of index operators (rdx/_inputs.py)");
}

}  // namespace rdxpy
