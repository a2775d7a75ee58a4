// CUDA graphs by stream capture, as CUDA programs write them: a pipeline forked over three streams
// with events and joined back (copy in, memset, three kernels, copy out, a host function) is captured
// once, instantiated, and launched three times on new inputs; then a kernel's parameters are changed
// in the executable graph (cudaGraphExecKernelNodeSetParams) and the whole graph is updated from a
// second capture (cudaGraphExecUpdate). Also checks the capture status queries on the forked streams
// (graph_capture_rules.cu checks what a capture refuses). Self-checking against the host.
#include <cmath>
#include <cstdio>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

__global__ void addScaled(float* b, const float* a, float alpha, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] += alpha * a[i];  // b was cleared by the memset node
}

__global__ void square(float* c, const float* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * a[i];
}

__global__ void combine(float* out, const float* b, const float* c, float beta, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = b[i] + beta * c[i];
}

struct Buffers {
  int n;
  float *hA, *hOut;         // pinned host memory
  float *dA, *dB, *dC, *dOut;
};

static void CUDART_CB countRun(void* user) { ++*static_cast<int*>(user); }

static unsigned lcg = 12345u;
static float randomValue() {  // in [0.5, 1.5): never zero
  lcg = lcg * 1664525u + 1013904223u;
  return 0.5f + static_cast<float>(lcg >> 8) / 16777216.0f;
}

// Captures the pipeline on s[0], forking to s[1] and s[2] and joining back.
static cudaGraph_t capturePipeline(const Buffers& m, float alpha, float beta, cudaStream_t s[3], int* runs) {
  cudaEvent_t fork, join1, join2;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join1, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join2, cudaEventDisableTiming));
  const int block = 128, grid = (m.n + block - 1) / block;
  const size_t bytes = m.n * sizeof(float);

  CHECK(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CHECK(cudaStreamIsCapturing(s[0], &status));
  if (status != cudaStreamCaptureStatusActive) {
    std::fprintf(stderr, "stream 0 is not capturing after cudaStreamBeginCapture\n");
    std::exit(1);
  }
  CHECK(cudaMemcpyAsync(m.dA, m.hA, bytes, cudaMemcpyHostToDevice, s[0]));
  CHECK(cudaEventRecord(fork, s[0]));

  CHECK(cudaStreamWaitEvent(s[1], fork, 0));  // s[1] joins the capture
  CHECK(cudaStreamIsCapturing(s[1], &status));
  unsigned long long id0 = 0, id1 = 0;
  CHECK(cudaStreamGetCaptureInfo(s[0], &status, &id0));
  CHECK(cudaStreamGetCaptureInfo(s[1], &status, &id1));
  if (status != cudaStreamCaptureStatusActive || id0 != id1) {
    std::fprintf(stderr, "the forked stream is not in the same capture (status %d, ids %llu %llu)\n",
                 static_cast<int>(status), id0, id1);
    std::exit(1);
  }
  CHECK(cudaMemsetAsync(m.dB, 0, bytes, s[1]));
  addScaled<<<grid, block, 0, s[1]>>>(m.dB, m.dA, alpha, m.n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(join1, s[1]));

  CHECK(cudaStreamWaitEvent(s[2], fork, 0));
  square<<<grid, block, 0, s[2]>>>(m.dC, m.dA, m.n);
  CHECK(cudaGetLastError());
  CHECK(cudaEventRecord(join2, s[2]));

  CHECK(cudaStreamWaitEvent(s[0], join1, 0));
  CHECK(cudaStreamWaitEvent(s[0], join2, 0));
  // The dependencies of the next node of s[0]: the two forked branches' last nodes.
  const cudaGraphNode_t* deps = nullptr;
  size_t numDeps = 0;
  cudaGraph_t capturing = nullptr;
  CHECK(cudaStreamGetCaptureInfo(s[0], &status, &id0, &capturing, &deps, nullptr, &numDeps));
  if (numDeps != 2 || capturing == nullptr) {
    std::fprintf(stderr, "after the joins stream 0 depends on %zu nodes, expected 2\n", numDeps);
    std::exit(1);
  }
  combine<<<37, block, 0, s[0]>>>(m.dOut, m.dB, m.dC, beta, m.n);  // a grid-stride loop over fewer blocks
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpyAsync(m.hOut, m.dOut, bytes, cudaMemcpyDeviceToHost, s[0]));
  CHECK(cudaLaunchHostFunc(s[0], countRun, runs));
  cudaGraph_t graph = nullptr;
  CHECK(cudaStreamEndCapture(s[0], &graph));
  CHECK(cudaStreamIsCapturing(s[1], &status));
  if (status != cudaStreamCaptureStatusNone) {
    std::fprintf(stderr, "stream 1 still captures after cudaStreamEndCapture\n");
    std::exit(1);
  }
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(join1));
  CHECK(cudaEventDestroy(join2));
  return graph;
}

static void launchAndCheck(cudaGraphExec_t exec, const Buffers& m, float alpha, float beta, cudaStream_t s,
                           const char* what) {
  for (int i = 0; i < m.n; ++i) {
    m.hA[i] = randomValue();
    m.hOut[i] = NAN;
  }
  CHECK(cudaMemset(m.dOut, 0xFF, m.n * sizeof(float)));  // NaN until the graph writes it
  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  int bad = 0;
  for (int i = 0; i < m.n; ++i) {
    const float a = m.hA[i], want = alpha * a + beta * a * a;
    if (!(std::fabs(m.hOut[i] - want) <= 1e-5f * std::fabs(want))) {
      if (bad++ < 5) std::fprintf(stderr, "%s: out[%d] = %g, expected %g\n", what, i, m.hOut[i], want);
    }
  }
  if (bad != 0) {
    std::fprintf(stderr, "%s: %d wrong values\n", what, bad);
    std::exit(1);
  }
}

int main() {
  Buffers m{};
  m.n = 100003;  // odd: the last block is partial
  const size_t bytes = m.n * sizeof(float);
  CHECK(cudaMallocHost(&m.hA, bytes));
  CHECK(cudaMallocHost(&m.hOut, bytes));
  CHECK(cudaMalloc(&m.dA, bytes));
  CHECK(cudaMalloc(&m.dB, bytes));
  CHECK(cudaMalloc(&m.dC, bytes));
  CHECK(cudaMalloc(&m.dOut, bytes));
  cudaStream_t s[3];
  for (cudaStream_t& st : s) CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));

  int runs = 0;
  float alpha = 1.75f, beta = -0.625f;
  cudaGraph_t graph = capturePipeline(m, alpha, beta, s, &runs);
  size_t nodes = 0, roots = 0, edges = 0;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  CHECK(cudaGraphGetRootNodes(graph, nullptr, &roots));
  CHECK(cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges));
  // memcpy -> {memset -> addScaled, square} -> combine -> memcpy -> host
  if (nodes != 7 || roots != 1 || edges != 7) {
    std::fprintf(stderr, "captured graph: %zu nodes, %zu roots, %zu edges; expected 7, 1, 7\n", nodes, roots, edges);
    return 1;
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int launch = 0; launch < 3; ++launch) launchAndCheck(exec, m, alpha, beta, s[0], "captured graph");
  if (runs != 3) {
    std::fprintf(stderr, "the host node ran %d times, expected 3\n", runs);
    return 1;
  }
  std::printf("captured a fork/join pipeline of %zu nodes over 3 streams; 3 launches match the host\n", nodes);

  // A new beta for the combine kernel in the executable graph only.
  std::vector<cudaGraphNode_t> all(nodes);
  CHECK(cudaGraphGetNodes(graph, all.data(), &nodes));
  cudaGraphNode_t combineNode = nullptr;
  cudaKernelNodeParams params{};
  for (cudaGraphNode_t node : all) {
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(node, &type));
    if (type != cudaGraphNodeTypeKernel) continue;
    CHECK(cudaGraphKernelNodeGetParams(node, &params));
    if (params.func == reinterpret_cast<void*>(combine)) {
      combineNode = node;
      break;
    }
  }
  if (combineNode == nullptr) {
    std::fprintf(stderr, "no kernel node runs combine\n");
    return 1;
  }
  float newBeta = 2.5f;
  int n = m.n;
  void* args[] = {&m.dOut, &m.dB, &m.dC, &newBeta, &n};
  params.kernelParams = args;
  CHECK(cudaGraphExecKernelNodeSetParams(exec, combineNode, &params));
  newBeta = 1000.0f;  // the node copied the value: changing it now changes nothing
  launchAndCheck(exec, m, alpha, 2.5f, s[0], "after cudaGraphExecKernelNodeSetParams");
  std::printf("cudaGraphExecKernelNodeSetParams: beta 2.5 in the executable graph\n");

  // A second capture with other scalars updates the executable graph in place.
  alpha = -3.25f;
  beta = 0.375f;
  cudaGraph_t second = capturePipeline(m, alpha, beta, s, &runs);
  cudaGraphExecUpdateResultInfo info{};
  CHECK(cudaGraphExecUpdate(exec, second, &info));
  if (info.result != cudaGraphExecUpdateSuccess) {
    std::fprintf(stderr, "cudaGraphExecUpdate result %d\n", static_cast<int>(info.result));
    return 1;
  }
  launchAndCheck(exec, m, alpha, beta, s[1], "after cudaGraphExecUpdate");
  if (runs != 5) {
    std::fprintf(stderr, "the host node ran %d times, expected 5\n", runs);
    return 1;
  }
  std::printf("cudaGraphExecUpdate from a second capture: alpha %g, beta %g\n", alpha, beta);

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphDestroy(second));
  for (cudaStream_t st : s) CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(m.dA));
  CHECK(cudaFree(m.dB));
  CHECK(cudaFree(m.dC));
  CHECK(cudaFree(m.dOut));
  CHECK(cudaFreeHost(m.hA));
  CHECK(cudaFreeHost(m.hOut));
  std::printf("PASSED\n");
  return 0;
}
