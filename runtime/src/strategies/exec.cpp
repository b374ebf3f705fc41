#include "strategies/exec.hpp"

#include <fmt/format.h>

#include "cl_check.hpp"

namespace rdx::detail {

Exec::~Exec() { ctx.queue.finish(); }

std::string Exec::defines(std::size_t wg) const {
  return fmt::format("-DT_CODE={} -DACC_CODE={} -DOP={} -DWG={}", static_cast<int>(plan.type),
                     static_cast<int>(plan.acc), static_cast<int>(plan.op), wg);
}

Kernel Exec::kernel(const std::string& file, const char* name, const std::string& extra) {
  for (std::size_t wg = plan.work_group_size;; wg /= 2) {
    const std::string opts = defines(wg) + (extra.empty() ? "" : " " + extra);
    cl::Program prog = ctx.programs.get(ctx.context, ctx.device, file, opts);
    cl_int err = CL_SUCCESS;
    cl::Kernel k(prog, name, &err);
    RDX_CHECK_OUT(err, fmt::format("clCreateKernel({})", name));
    std::size_t max_wg = 0;
    cl_ulong local = 0;
    RDX_CHECK(k.getWorkGroupInfo(ctx.device, CL_KERNEL_WORK_GROUP_SIZE, &max_wg));
    RDX_CHECK(k.getWorkGroupInfo(ctx.device, CL_KERNEL_LOCAL_MEM_SIZE, &local));
    if ((wg <= max_wg && local <= ctx.info.local_mem) || wg == 1) return {k, wg, name};
  }
}

States Exec::states(std::uint64_t count) {
  const std::uint64_t n = count ? count : 1;
  cl_int err = CL_SUCCESS;
  States s;
  s.count = n;
  s.values = cl::Buffer(ctx.context, CL_MEM_READ_WRITE, n * size_of(plan.acc), nullptr, &err);
  RDX_CHECK_OUT(err, fmt::format("clCreateBuffer({} bytes of scratch)", n * size_of(plan.acc)));
  if (indexed()) {
    s.indices = cl::Buffer(ctx.context, CL_MEM_READ_WRITE, n * sizeof(cl_ulong), nullptr, &err);
    RDX_CHECK_OUT(err, fmt::format("clCreateBuffer({} bytes of indices)", n * sizeof(cl_ulong)));
  } else {
    s.indices = s.values;
  }
  scratch_.push_back(s);
  return s;
}

void Exec::set_arg(Kernel& k, cl_uint i, const cl::Buffer& b) {
  const cl_int err = k.kernel.setArg(i, b);
  RDX_CHECK_OUT(err, fmt::format("clSetKernelArg({}, {})", k.name, i));
}

void Exec::set_arg(Kernel& k, cl_uint i, std::uint64_t v) {
  const cl_int err = k.kernel.setArg(i, static_cast<cl_ulong>(v));
  RDX_CHECK_OUT(err, fmt::format("clSetKernelArg({}, {})", k.name, i));
}

void Exec::launch(Kernel& k, std::uint64_t global, std::size_t local) {
  const std::uint64_t groups = (global + local - 1) / local;
  const cl_int err = ctx.queue.enqueueNDRangeKernel(
      k.kernel, cl::NullRange, cl::NDRange(static_cast<std::size_t>(groups * local)),
      cl::NDRange(local));
  RDX_CHECK_OUT(err, fmt::format("clEnqueueNDRangeKernel({}, global {}, local {})", k.name,
                                 groups * local, local));
}

Outcome Exec::read(const States& s, std::uint64_t k) {
  unsigned char bytes[8] = {};
  const std::size_t acc = size_of(plan.acc);
  RDX_CHECK(ctx.queue.enqueueReadBuffer(s.values, CL_TRUE, k * acc, acc, bytes));
  Outcome o{Scalar::from_bytes(plan.acc, bytes), std::nullopt};
  if (indexed()) {
    cl_ulong idx = 0;
    RDX_CHECK(ctx.queue.enqueueReadBuffer(s.indices, CL_TRUE, k * sizeof idx, sizeof idx, &idx));
    o.index = idx;
  }
  return o;
}

}  // namespace rdx::detail
