// A CUDA graph built by hand: a diamond of kernels (scale -> {offset, square} -> combine) fed by a
// 1-D copy and a memset node, followed by a 3-D copy back, a child graph (a kernel and a memset of
// 4-byte elements), a host node and an event record node, with some edges added afterwards by
// cudaGraphAddDependencies. Checks the structure queries, a clone, two launches against the host, a
// memset node changed in the executable graph, and the DOT file cudaGraphDebugDotPrint writes. Self-checking against the host.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void scaleKernel(float* y, const float* x, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = s * x[i];
}

__global__ void offsetKernel(float* y, const float* x, float c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + c;
}

__global__ void squareKernel(float* y, const float* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
}

__global__ void combineKernel(float* out, const float* a, const float* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] - 0.5f * b[i];
}

__global__ void countKernel(unsigned* counter, const unsigned* fill, int m) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) counter[i] += fill[i];
}

static void CUDART_CB countRun(void* user) { ++*static_cast<int*>(user); }

static void fail(const char* what) {
  std::fprintf(stderr, "%s\n", what);
  std::exit(1);
}

int main() {
  const int n = 54321, m = 333, block = 96;  // odd sizes; 96 does not divide either
  const int grid = (n + block - 1) / block;
  const size_t bytes = n * sizeof(float);
  float *hx, *hout;  // pinned, as graph copies of host memory should be
  CHECK(cudaMallocHost(&hx, bytes));
  CHECK(cudaMallocHost(&hout, bytes));
  unsigned seed = 2024u;
  for (int i = 0; i < n; ++i) {
    seed = seed * 1103515245u + 12345u;
    hx[i] = 0.25f + static_cast<float>(seed >> 9) / 8388608.0f;  // in [0.25, 1.25)
    hout[i] = NAN;
  }
  float *dx, *d1, *d2, *d3, *dout;
  unsigned *counter, *fill;
  CHECK(cudaMalloc(&dx, bytes));
  CHECK(cudaMalloc(&d1, bytes));
  CHECK(cudaMalloc(&d2, bytes));
  CHECK(cudaMalloc(&d3, bytes));
  CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMalloc(&counter, m * sizeof(unsigned)));
  CHECK(cudaMalloc(&fill, m * sizeof(unsigned)));
  CHECK(cudaMemset(counter, 0, m * sizeof(unsigned)));
  cudaStream_t stream;
  cudaEvent_t done;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaEventCreate(&done));

  // Launched once directly first: the reference for the graph's result.
  const float scale = 1.5f, offset = 3.0f;
  CHECK(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice));
  scaleKernel<<<grid, block>>>(d1, dx, scale, n);
  offsetKernel<<<grid, block>>>(d2, d1, offset, n);
  squareKernel<<<grid, block>>>(d3, d1, n);
  combineKernel<<<grid, block>>>(dout, d2, d3, n);
  countKernel<<<(m + 63) / 64, 64>>>(counter, counter, m);  // 0 += 0
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(hout, dout, bytes, cudaMemcpyDeviceToHost));
  std::vector<float> reference(hout, hout + n);
  for (int i = 0; i < n; ++i) {
    const float y = scale * hx[i], want = (y + offset) - 0.5f * y * y;
    if (!(std::fabs(reference[i] - want) <= 1e-5f * std::fmax(1.0f, std::fabs(want)))) fail("the direct launches are wrong");
  }

  cudaGraph_t graph, child;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphCreate(&child, 0));

  // The child graph: fill = 7 (a memset of 4-byte elements), then counter += fill.
  cudaGraphNode_t childSet, childCount;
  cudaMemsetParams fillParams{};
  fillParams.dst = fill;
  fillParams.value = 7;
  fillParams.elementSize = sizeof(unsigned);
  fillParams.width = m;
  fillParams.height = 1;
  CHECK(cudaGraphAddMemsetNode(&childSet, child, nullptr, 0, &fillParams));
  int mm = m;
  void* countArgs[] = {&counter, &fill, &mm};
  cudaKernelNodeParams countParams{};
  countParams.func = reinterpret_cast<void*>(countKernel);
  countParams.gridDim = dim3((m + 63) / 64);
  countParams.blockDim = dim3(64);
  countParams.kernelParams = countArgs;
  CHECK(cudaGraphAddKernelNode(&childCount, child, &childSet, 1, &countParams));

  // The diamond.
  cudaGraphNode_t copyIn, clearOut, scaleNode, offsetNode, squareNode, combineNode, copyOut, childNode, hostNode,
      joinNode, recordNode;
  CHECK(cudaGraphAddMemcpyNode1D(&copyIn, graph, nullptr, 0, dx, hx, bytes, cudaMemcpyHostToDevice));
  cudaMemsetParams clear{};
  clear.dst = dout;
  clear.value = 0xFF;  // NaN until combine writes it
  clear.elementSize = 1;
  clear.width = bytes;
  clear.height = 1;
  CHECK(cudaGraphAddMemsetNode(&clearOut, graph, nullptr, 0, &clear));

  float s = scale, c = offset;
  int nn = n;
  cudaKernelNodeParams p{};
  p.gridDim = dim3(grid);
  p.blockDim = dim3(block);
  void* scaleArgs[] = {&d1, &dx, &s, &nn};
  p.func = reinterpret_cast<void*>(scaleKernel);
  p.kernelParams = scaleArgs;
  CHECK(cudaGraphAddKernelNode(&scaleNode, graph, &copyIn, 1, &p));
  void* offsetArgs[] = {&d2, &d1, &c, &nn};
  p.func = reinterpret_cast<void*>(offsetKernel);
  p.kernelParams = offsetArgs;
  CHECK(cudaGraphAddKernelNode(&offsetNode, graph, &scaleNode, 1, &p));
  void* squareArgs[] = {&d3, &d1, &nn};
  p.func = reinterpret_cast<void*>(squareKernel);
  p.kernelParams = squareArgs;
  CHECK(cudaGraphAddKernelNode(&squareNode, graph, &scaleNode, 1, &p));
  void* combineArgs[] = {&dout, &d2, &d3, &nn};
  p.func = reinterpret_cast<void*>(combineKernel);
  p.kernelParams = combineArgs;
  CHECK(cudaGraphAddKernelNode(&combineNode, graph, nullptr, 0, &p));
  s = -100.0f;  // the nodes copied their arguments when they were made
  // combine's edges afterwards: without edge data, then with (default) edge data.
  const cudaGraphNode_t from[] = {offsetNode, squareNode}, to[] = {combineNode, combineNode};
  CHECK(cudaGraphAddDependencies(graph, from, to, nullptr, 2));
  const cudaGraphEdgeData defaultEdge{};
  CHECK(cudaGraphAddDependencies(graph, &clearOut, &combineNode, &defaultEdge, 1));

  cudaMemcpy3DParms back{};
  back.srcPtr = make_cudaPitchedPtr(dout, bytes, bytes, 1);
  back.dstPtr = make_cudaPitchedPtr(hout, bytes, bytes, 1);
  back.extent = make_cudaExtent(bytes, 1, 1);
  back.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaGraphAddMemcpyNode(&copyOut, graph, &combineNode, 1, &back));
  CHECK(cudaGraphAddChildGraphNode(&childNode, graph, &combineNode, 1, child));
  int runs = 0;
  cudaHostNodeParams hostParams{countRun, &runs};
  CHECK(cudaGraphAddHostNode(&hostNode, graph, &copyOut, 1, &hostParams));
  const cudaGraphNode_t tails[] = {hostNode, childNode};
  CHECK(cudaGraphAddEmptyNode(&joinNode, graph, tails, 2));
  CHECK(cudaGraphAddEventRecordNode(&recordNode, graph, &joinNode, 1, done));

  // Structure.
  size_t count = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &count));
  if (count != 11) fail("the graph does not have 11 nodes");
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &count));
  if (count != 2) fail("the graph does not have 2 roots (the copy in and the memset)");
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &count));
  if (count != 12) fail("the graph does not have 12 edges");
  CHECK(cudaGraphNodeGetDependencies(combineNode, nullptr, nullptr, &count));
  if (count != 3) fail("combine does not have 3 dependencies");
  CHECK(cudaGraphNodeGetDependentNodes(scaleNode, nullptr, nullptr, &count));
  if (count != 2) fail("scale does not have 2 dependents");
  cudaGraphNodeType type;
  CHECK(cudaGraphNodeGetType(childNode, &type));
  if (type != cudaGraphNodeTypeGraph) fail("the child graph node has another type");
  cudaGraph_t inner;
  CHECK(cudaGraphChildGraphNodeGetGraph(childNode, &inner));
  CHECK(cudaGraphGetNodes(inner, nullptr, &count));
  if (count != 2) fail("the child graph does not have 2 nodes");
  cudaGraph_t copy;
  cudaGraphNode_t combineInCopy;
  CHECK(cudaGraphClone(&copy, graph));
  CHECK(cudaGraphNodeFindInClone(&combineInCopy, combineNode, copy));
  CHECK(cudaGraphNodeGetDependencies(combineInCopy, nullptr, nullptr, &count));
  if (count != 3) fail("the clone's combine does not have 3 dependencies");
  std::printf("built a diamond graph of 11 nodes (child graph of 2), 12 edges; clone and queries agree\n");

  // Two launches.
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 2; ++launch) {
    std::fill(hout, hout + n, NAN);
    CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaEventSynchronize(done));
    CHECK(cudaStreamSynchronize(stream));
    if (std::memcmp(hout, reference.data(), bytes) != 0) fail("the graph's result differs from the direct launches");
  }
  if (runs != 2) fail("the host node did not run once per launch");
  std::vector<unsigned> hcounter(m);
  CHECK(cudaMemcpy(hcounter.data(), counter, m * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) {
    if (hcounter[i] != 14u) fail("the child graph's counter is not 2 x 7");
  }
  std::printf("2 launches match the direct launches bit for bit; the child graph ran twice\n");

  // A new value for the child's memset in the executable graph: counter += 1000.
  cudaGraphNode_t setInChild = nullptr;
  size_t one = 1;
  CHECK(cudaGraphGetRootNodes(inner, &setInChild, &one));
  fillParams.value = 1000;
  CHECK(cudaGraphExecMemsetNodeSetParams(exec, setInChild, &fillParams));
  CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  CHECK(cudaMemcpy(hcounter.data(), counter, m * sizeof(unsigned), cudaMemcpyDeviceToHost));
  for (int i = 0; i < m; ++i) {
    if (hcounter[i] != 1014u) fail("cudaGraphExecMemsetNodeSetParams did not reach the child graph");
  }
  std::printf("cudaGraphExecMemsetNodeSetParams changed the child graph's memset\n");

  // The DOT file names every node and its kind.
  char path[] = "/tmp/gpulab_graph_explicit_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) fail("mkstemp failed");
  close(fd);
  CHECK(cudaGraphDebugDotPrint(graph, path, cudaGraphDebugDotFlagsVerbose));
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string dot = text.str();
  std::remove(path);
  for (const char* word : {"digraph", "scaleKernel", "offsetKernel", "squareKernel", "combineKernel", "countKernel",
                           "MEMCPY", "MEMSET", "KERNEL", "HOST"}) {
    if (dot.find(word) == std::string::npos) {
      std::fprintf(stderr, "the DOT file does not mention %s:\n%s\n", word, dot.c_str());
      return 1;
    }
  }
  std::printf("cudaGraphDebugDotPrint wrote %zu bytes naming the nodes and their kinds\n", dot.size());

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(copy));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphDestroy(child));
  CHECK(cudaEventDestroy(done));
  CHECK(cudaStreamDestroy(stream));
  for (void* ptr : {static_cast<void*>(dx), static_cast<void*>(d1), static_cast<void*>(d2), static_cast<void*>(d3),
                    static_cast<void*>(dout), static_cast<void*>(counter), static_cast<void*>(fill)}) {
    CHECK(cudaFree(ptr));
  }
  CHECK(cudaFreeHost(hx));
  CHECK(cudaFreeHost(hout));
  std::printf("PASSED\n");
  return 0;
}
