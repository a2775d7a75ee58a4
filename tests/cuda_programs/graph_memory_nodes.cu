// Graph memory: memory alloc and free nodes built by hand and captured from cudaMallocAsync /
// cudaFreeAsync, launched more than once; an allocation freed outside its graph by cudaFree;
// cudaGraphInstantiateFlagAutoFreeOnLaunch; and the footprint CUDA reports for graph memory (used
// and reserved, current and high water, before and after cudaDeviceGraphMemTrim). Random inputs of an
// odd size, checked exactly against the host.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

constexpr int kN = 100003;
constexpr size_t kBytes = kN * sizeof(float);

__global__ void scaleInto(float* y, const float* x, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = s * x[i];
}

__global__ void addSquare(float* out, const float* a, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + x[i] * x[i];
}

static int failures = 0;
static void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s\n", what);
    ++failures;
  }
}

static uint64_t graph_mem(cudaGraphMemAttributeType attr) {
  uint64_t v = 0;
  CHECK(cudaDeviceGetGraphMemAttribute(0, attr, &v));
  return v;
}

static cudaMemAllocNodeParams alloc_params(size_t bytes) {
  cudaMemAllocNodeParams p = {};
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location.type = cudaMemLocationTypeDevice;
  p.poolProps.location.id = 0;
  p.bytesize = bytes;
  return p;
}

static cudaKernelNodeParams kernel_params(void* func, void** args) {
  cudaKernelNodeParams k = {};
  k.func = func;
  k.gridDim = dim3((kN + 255) / 256);
  k.blockDim = dim3(256);
  k.kernelParams = args;
  return k;
}

static bool same_as_host(const std::vector<float>& got, const std::vector<float>& x, float s) {
  for (int i = 0; i < kN; ++i) {
    const float want = s * x[i] + x[i] * x[i];
    if (got[i] != want) {
      std::fprintf(stderr, "element %d: %g, expected %g\n", i, got[i], want);
      return false;
    }
  }
  return true;
}

int main() {
  std::mt19937 rng(std::random_device{}());
  // Multiples of 1/8 below 250 in magnitude: every product and sum below is exact in float, so the
  // results are the same however the compiler contracts them into fused multiply-adds.
  std::uniform_int_distribution<int> dist(-2000, 2000);
  std::vector<float> hx(kN), hout(kN);
  for (float& v : hx) v = static_cast<float>(dist(rng)) / 8.0f;
  float* dx = nullptr;
  float* dout = nullptr;
  CHECK(cudaMalloc(&dx, kBytes));
  CHECK(cudaMalloc(&dout, kBytes));
  CHECK(cudaMemcpy(dx, hx.data(), kBytes, cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  CHECK(cudaDeviceGraphMemTrim(0));
  uint64_t zero = 0;  // resets the high-water mark
  CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));

  // 1. By hand: alloc -> scale into it -> add the square into dout -> free.
  float s = 3.0f;
  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaMemAllocNodeParams ap = alloc_params(kBytes);
  cudaGraphNode_t alloc, scale, add, free_node;
  CHECK(cudaGraphAddMemAllocNode(&alloc, graph, nullptr, 0, &ap));
  float* tmp = static_cast<float*>(ap.dptr);
  expect(tmp != nullptr, "cudaGraphAddMemAllocNode set dptr");
  int n = kN;
  void* scale_args[] = {&tmp, &dx, &s, &n};
  cudaKernelNodeParams kp = kernel_params(reinterpret_cast<void*>(scaleInto), scale_args);
  CHECK(cudaGraphAddKernelNode(&scale, graph, &alloc, 1, &kp));
  void* add_args[] = {&dout, &tmp, &dx, &n};
  kp = kernel_params(reinterpret_cast<void*>(addSquare), add_args);
  CHECK(cudaGraphAddKernelNode(&add, graph, &scale, 1, &kp));
  CHECK(cudaGraphAddMemFreeNode(&free_node, graph, &add, 1, tmp));

  cudaMemAllocNodeParams got_alloc = {};
  CHECK(cudaGraphMemAllocNodeGetParams(alloc, &got_alloc));
  expect(got_alloc.bytesize == kBytes && got_alloc.dptr == tmp, "cudaGraphMemAllocNodeGetParams");
  void* got_free = nullptr;
  CHECK(cudaGraphMemFreeNodeGetParams(free_node, &got_free));
  expect(got_free == tmp, "cudaGraphMemFreeNodeGetParams");
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(alloc, &type));
  expect(type == cudaGraphNodeTypeMemAlloc, "the alloc node's type");

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 2; ++launch) {  // freed in the graph, so it may run again
    CHECK(cudaMemsetAsync(dout, 0xff, kBytes, stream));
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaMemcpy(hout.data(), dout, kBytes, cudaMemcpyDeviceToHost));
    expect(same_as_host(hout, hx, s), "the graph with alloc and free nodes computed the wrong values");
  }
  expect(graph_mem(cudaGraphMemAttrUsedMemCurrent) == 0, "nothing is allocated after the free node ran");
  expect(graph_mem(cudaGraphMemAttrUsedMemHigh) >= kBytes, "the used high-water mark saw the allocation");
  expect(graph_mem(cudaGraphMemAttrReservedMemCurrent) >= kBytes, "freed graph memory stays reserved until trimmed");
  CHECK(cudaDeviceGraphMemTrim(0));
  expect(graph_mem(cudaGraphMemAttrReservedMemCurrent) == 0, "trimming released the freed memory");
  std::printf("alloc/free nodes by hand: two launches correct, footprint used 0, reserved 0 after trim\n");

  // 2. An allocation the graph does not free: it stays allocated after the launch, until cudaFree.
  cudaGraph_t keep;
  CHECK(cudaGraphCreate(&keep, 0));
  cudaMemAllocNodeParams kp2 = alloc_params(kBytes);
  cudaGraphNode_t keep_alloc, keep_scale;
  CHECK(cudaGraphAddMemAllocNode(&keep_alloc, keep, nullptr, 0, &kp2));
  float* kept = static_cast<float*>(kp2.dptr);
  float s2 = -1.5f;
  void* keep_args[] = {&kept, &dx, &s2, &n};
  cudaKernelNodeParams kk = kernel_params(reinterpret_cast<void*>(scaleInto), keep_args);
  CHECK(cudaGraphAddKernelNode(&keep_scale, keep, &keep_alloc, 1, &kk));
  cudaGraphExec_t keep_exec;
  CHECK(cudaGraphInstantiate(&keep_exec, keep, 0));
  CHECK(cudaGraphDestroy(keep));  // the executable graph keeps its nodes, and the allocation
  CHECK(cudaGraphLaunch(keep_exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  expect(graph_mem(cudaGraphMemAttrUsedMemCurrent) == kBytes, "the unfreed allocation is in use after the launch");
  addSquare<<<(kN + 255) / 256, 256, 0, stream>>>(dout, kept, dx, kN);  // ordinary work may use it
  CHECK(cudaMemcpyAsync(hout.data(), dout, kBytes, cudaMemcpyDeviceToHost, stream));
  CHECK(cudaStreamSynchronize(stream));
  expect(same_as_host(hout, hx, s2), "the kept allocation held the graph's results");
  CHECK(cudaFree(kept));  // freed outside the graph
  expect(graph_mem(cudaGraphMemAttrUsedMemCurrent) == 0, "cudaFree freed the graph allocation");
  CHECK(cudaGraphLaunch(keep_exec, stream));  // so it may be launched again
  CHECK(cudaFreeAsync(kept, stream));
  CHECK(cudaStreamSynchronize(stream));
  std::printf("an unfreed graph allocation: in use after the launch, freed by cudaFree and by cudaFreeAsync\n");

  // 3. AutoFreeOnLaunch: a relaunch frees what the last launch left allocated.
  cudaGraph_t auto_graph;
  CHECK(cudaGraphCreate(&auto_graph, 0));
  cudaMemAllocNodeParams ap3 = alloc_params(4096);
  cudaGraphNode_t auto_alloc;
  CHECK(cudaGraphAddMemAllocNode(&auto_alloc, auto_graph, nullptr, 0, &ap3));
  cudaGraphExec_t auto_exec;
  CHECK(cudaGraphInstantiateWithFlags(&auto_exec, auto_graph, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  for (int launch = 0; launch < 3; ++launch) CHECK(cudaGraphLaunch(auto_exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  expect(graph_mem(cudaGraphMemAttrUsedMemCurrent) == 4096, "AutoFreeOnLaunch: one allocation live after three launches");
  CHECK(cudaFree(ap3.dptr));
  std::printf("cudaGraphInstantiateFlagAutoFreeOnLaunch: three launches, one allocation\n");

  // 4. Captured: cudaMallocAsync and cudaFreeAsync in a capturing stream become memory nodes.
  float s4 = 0.25f;
  cudaGraph_t captured;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  float* scratch = nullptr;
  CHECK(cudaMallocAsync(reinterpret_cast<void**>(&scratch), kBytes, stream));
  scaleInto<<<(kN + 255) / 256, 256, 0, stream>>>(scratch, dx, s4, kN);
  addSquare<<<(kN + 255) / 256, 256, 0, stream>>>(dout, scratch, dx, kN);
  CHECK(cudaFreeAsync(scratch, stream));
  CHECK(cudaStreamEndCapture(stream, &captured));
  size_t count = 0;
  CHECK(cudaGraphGetNodes(captured, nullptr, &count));
  std::vector<cudaGraphNode_t> nodes(count);
  CHECK(cudaGraphGetNodes(captured, nodes.data(), &count));
  int allocs = 0, frees = 0;
  for (cudaGraphNode_t node : nodes) {
    CHECK(cudaGraphNodeGetType(node, &type));
    allocs += type == cudaGraphNodeTypeMemAlloc;
    frees += type == cudaGraphNodeTypeMemFree;
  }
  expect(count == 4 && allocs == 1 && frees == 1, "the capture made alloc, two kernels and free nodes");
  cudaGraphExec_t captured_exec;
  CHECK(cudaGraphInstantiate(&captured_exec, captured, 0));
  for (int launch = 0; launch < 2; ++launch) {
    CHECK(cudaMemsetAsync(dout, 0xff, kBytes, stream));
    CHECK(cudaGraphLaunch(captured_exec, stream));
    CHECK(cudaMemcpyAsync(hout.data(), dout, kBytes, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    expect(same_as_host(hout, hx, s4), "the captured graph with memory nodes computed the wrong values");
  }
  std::printf("captured cudaMallocAsync/cudaFreeAsync: %zu nodes (1 alloc, 1 free), two launches correct\n", count);

  CHECK(cudaGraphExecDestroy(captured_exec));
  CHECK(cudaGraphDestroy(captured));
  CHECK(cudaGraphExecDestroy(auto_exec));
  CHECK(cudaGraphDestroy(auto_graph));
  CHECK(cudaGraphExecDestroy(keep_exec));
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaDeviceGraphMemTrim(0));
  expect(graph_mem(cudaGraphMemAttrUsedMemCurrent) == 0 && graph_mem(cudaGraphMemAttrReservedMemCurrent) == 0,
         "no graph memory is left once every graph is gone");
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dout));
  if (failures != 0) return 1;
  std::printf("PASSED\n");
  return 0;
}
