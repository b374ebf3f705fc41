// The control of the oclgrind test: a kernel with a real data race (every work-item of a group
// writes its own id to one word), which `oclgrind --data-races` must report; if it does not,
// a clean run of librdx's kernels proves nothing. Prints the word it read back.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstdio>

int main() {
  const char* src = "kernel void racy(global uint* out) { out[0] = get_global_id(0); }";
  cl_platform_id platform;
  cl_device_id device;
  cl_int err = clGetPlatformIDs(1, &platform, nullptr);
  if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "race_control: no OpenCL device (%d)\n", err);
    return 1;
  }
  cl_context ctx = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &src, nullptr, &err);
  if (clBuildProgram(prog, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
    std::fprintf(stderr, "race_control: build failed\n");
    return 1;
  }
  cl_kernel k = clCreateKernel(prog, "racy", &err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 4, nullptr, &err);
  clSetKernelArg(k, 0, sizeof out, &out);
  const size_t global = 64, local = 16;
  cl_uint word = 0;
  err = clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr);
  if (err == CL_SUCCESS)
    err = clEnqueueReadBuffer(q, out, CL_TRUE, 0, 4, &word, 0, nullptr, nullptr);
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "race_control: run failed (%d)\n", err);
    return 1;
  }
  std::printf("%u\n", word);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}
