// docs/examples/reduce_buffer.cpp: reductions of device-resident input; exits 1 on a wrong result.
#include <rdx/rdx.hpp>

#include <cstdio>
#include <vector>

int main() {
  rdx::Context ctx("cpu");
  std::vector<float> host(1000);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<float>(i % 7);  // 0 1 2 3 4 5 6 0 1 ...: the sum is 2997
  host[500] = -1.0f;                      // was 3: the sum is 2993, the minimum -1 at 500

  // n elements of T at the start of a buffer of ctx's OpenCL context.
  const std::size_t n = host.size();
  cl::Buffer buf(ctx.cl_context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                 host.data());
  float u = rdx::reduce_buffer<float>(ctx, buf, n, rdx::Op::Sum);
  auto k = rdx::reduce_index_buffer<float>(ctx, buf, n, rdx::Op::ArgMin);  // k.value, k.index

  // A slice in place: 100 elements from element 450 on (rdx::BufferAt, any offset); the index
  // counts from the slice's start.
  auto s = rdx::reduce_index_buffer<float>(ctx, rdx::BufferAt(buf, 450), 100, rdx::Op::ArgMin);

  std::printf("sum %g, argmin %g at %llu, in the slice at %llu\n", u, k.value,
              static_cast<unsigned long long>(k.index), static_cast<unsigned long long>(s.index));
  return u == 2993.0f && k.value == -1.0f && k.index == 500 && s.index == 50 ? 0 : 1;
}
