// JSON forms of librdx values shared by the subcommands.
#pragma once
#include "core/format.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "rdx/rdx.hpp"

namespace clrdx {

// A float Scalar's exact bits as a hexadecimal float (C's %a: 0x1.8p+1, -0x0p+0, inf, nan).
inline std::string hex_float(const rdx::Scalar& s) {
  const double v = s.as<double>();  // exact: a float widens without rounding
  if (std::isnan(v)) return "nan";
  return rdx::detail::format("{:a}", v);
}

// A result as a JSON number (integers exact), or a string for NaN and infinities.
inline nlohmann::json to_json(const rdx::Scalar& s) {
  return rdx::visit_type(s.type, [&](auto z) -> nlohmann::json {
    using T = decltype(z);
    const T v = s.as<T>();
    if constexpr (rdx::is_float_v<T>) {
      if (!std::isfinite(static_cast<float>(v))) return s.to_string();
      return static_cast<double>(v);
    } else if constexpr (std::is_signed_v<T>) {
      return static_cast<std::int64_t>(v);
    } else {
      return static_cast<std::uint64_t>(v);
    }
  });
}

// A result that is a bool (any, all: rdx::is_logical; a u8 0 or 1) as JSON's true or false, and
// as the text "true" or "false"; any other result as above and as Scalar::to_string.
inline nlohmann::json to_json(const rdx::Scalar& s, bool logical) {
  return logical ? nlohmann::json(s.as<std::uint8_t>() != 0) : to_json(s);
}
inline std::string to_text(const rdx::Scalar& s, bool logical) {
  return logical ? (s.as<std::uint8_t>() != 0 ? "true" : "false") : s.to_string();
}

// A whole input's result on standard output: with `json`, the object j with the index
// (argmin/argmax) and, for a float, its exact bits as a hexadecimal float (C's %a); else the
// value and the index (cmd_reduce.cpp).
void print_result(nlohmann::json j, const rdx::Scalar& value,
                  const std::optional<std::uint64_t>& index, bool json);

inline nlohmann::json to_json(const rdx::DeviceInfo& d) {
  return {{"index", d.index},
          {"selector", std::to_string(d.platform_index) + ":" + std::to_string(d.device_index)},
          {"platform", d.platform},
          {"name", d.name},
          {"vendor", d.vendor},
          {"kind", std::string(rdx::name(d.kind))},
          {"version", d.version},
          {"driver", d.driver},
          {"opencl_c", d.opencl_c},
          {"compute_units", d.compute_units},
          {"max_work_group", d.max_work_group},
          {"local_mem", d.local_mem},
          {"global_mem", d.global_mem},
          {"max_alloc", d.max_alloc},
          {"fp64", d.fp64},
          {"int64_atomics", d.int64_atomics},
          {"subgroups", d.subgroups},
          {"native_vector_bytes", d.native_vector_bytes}};
}

}  // namespace clrdx
