// Conditional graph nodes: if, if/else, while and switch nodes made with cudaGraphAddNode, their handles
// set by kernels of the graph with cudaGraphSetConditional, launched many times on random inputs; a
// conditional node added to a graph under stream capture and its body captured with
// cudaStreamBeginCaptureToGraph; a while node nested around an if node; cudaGraphCondAssignDefault; and
// the parameters CUDA refuses. Every result is checked exactly against the host.
#include <cstdio>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "cuda_check.h"

constexpr int kN = 4099;  // a prime: no block size divides it

__global__ void setFromByte(const unsigned* flag, cudaGraphConditionalHandle handle) {
  if (threadIdx.x == 0 && blockIdx.x == 0) cudaGraphSetConditional(handle, *flag);
}

__global__ void addTo(int* data, int amount, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += amount * (i % 7 + 1);
}

// One step of a loop: data += step, and the loop goes on while the counter, decremented, stays non-zero.
__global__ void countDown(unsigned* counter, cudaGraphConditionalHandle handle) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    *counter -= 1;
    cudaGraphSetConditional(handle, *counter != 0 ? 1u : 0u);
  }
}

static int failures = 0;
static void expect(bool ok, const char* what, long long got, long long want) {
  if (!ok) {
    std::fprintf(stderr, "FAILED: %s: got %lld, want %lld\n", what, got, want);
    ++failures;
  }
}

static cudaGraphNodeParams kernel_node(void* func, void** args, unsigned blocks, unsigned threads) {
  cudaGraphNodeParams p = {cudaGraphNodeTypeKernel};
  p.kernel.func = func;
  p.kernel.gridDim = dim3(blocks);
  p.kernel.blockDim = dim3(threads);
  p.kernel.kernelParams = args;
  return p;
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t* deps, size_t ndeps, void* func, void** args,
                                  unsigned blocks, unsigned threads) {
  cudaGraphNode_t node;
  cudaGraphNodeParams p = kernel_node(func, args, blocks, threads);
  CHECK(cudaGraphAddNode(&node, g, deps, nullptr, ndeps, &p));
  return node;
}

static std::vector<int> to_host(const int* d) {
  std::vector<int> h(kN);
  CHECK(cudaMemcpy(h.data(), d, kN * sizeof(int), cudaMemcpyDeviceToHost));
  return h;
}

static void add_on_host(std::vector<int>& h, int amount) {
  for (int i = 0; i < kN; ++i) h[i] += amount * (i % 7 + 1);
}

static void check_same(const std::vector<int>& got, const std::vector<int>& want, const char* what) {
  for (int i = 0; i < kN; ++i) {
    if (got[i] != want[i]) {
      expect(false, what, got[i], want[i]);
      return;
    }
  }
}

// One check's memory: kN random ints in [lo, lo + span) on the device and their copy on the host, and two
// control words that kernels of the graph read (a flag, a counter).
struct Buffers {
  int* data = nullptr;
  unsigned* control[2] = {nullptr, nullptr};
  std::vector<int> host;
  Buffers(std::mt19937& rng, int lo, unsigned span) : host(kN) {
    CHECK(cudaMalloc(&data, kN * sizeof(int)));
    for (unsigned*& c : control) CHECK(cudaMalloc(&c, sizeof(unsigned)));
    for (int& v : host) v = lo + static_cast<int>(rng() % span);
    CHECK(cudaMemcpy(data, host.data(), kN * sizeof(int), cudaMemcpyHostToDevice));
  }
  ~Buffers() {
    CHECK(cudaFree(data));
    for (unsigned* c : control) CHECK(cudaFree(c));
  }
  void set(int which, unsigned value) { CHECK(cudaMemcpy(control[which], &value, sizeof value, cudaMemcpyHostToDevice)); }
  void check(const char* what) const { check_same(to_host(data), host, what); }
};

// A conditional node's parameters; cudaGraphAddNode fills in its bodies.
static cudaGraphNodeParams conditional(cudaGraphConditionalHandle handle, cudaGraphConditionalNodeType type, unsigned size) {
  cudaGraphNodeParams c = {cudaGraphNodeTypeConditional};
  c.conditional.handle = handle;
  c.conditional.type = type;
  c.conditional.size = size;
  return c;
}

// if (size 1) and if/else (size 2): body 0 adds 3 when the flag is non-zero; body 1 (else) adds 5.
static void check_if(std::mt19937& rng, unsigned bodies) {
  Buffers b(rng, -1000, 2001);
  int* data = b.data;
  unsigned* flag = b.control[0];

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph));
  void* setArgs[] = {&flag, &handle};
  const cudaGraphNode_t setter = add_kernel(graph, nullptr, 0, (void*)setFromByte, setArgs, 1, 32);
  cudaGraphNodeParams c = conditional(handle, cudaGraphCondTypeIf, bodies);
  cudaGraphNode_t cond;
  CHECK(cudaGraphAddNode(&cond, graph, &setter, nullptr, 1, &c));
  int n = kN, three = 3, five = 5;
  void* thenArgs[] = {&data, &three, &n};
  add_kernel(c.conditional.phGraph_out[0], nullptr, 0, (void*)addTo, thenArgs, (kN + 127) / 128, 128);
  void* elseArgs[] = {&data, &five, &n};
  if (bodies == 2) add_kernel(c.conditional.phGraph_out[1], nullptr, 0, (void*)addTo, elseArgs, (kN + 63) / 64, 64);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  int taken = 0, skipped = 0;
  for (int launch = 0; launch < 12; ++launch) {
    const unsigned value = rng() % 3 == 0 ? 0u : static_cast<unsigned>(rng() % 1000 + 1);
    b.set(0, value);
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    if (value != 0) {
      add_on_host(b.host, 3);
      ++taken;
    } else {
      if (bodies == 2) add_on_host(b.host, 5);
      ++skipped;
    }
    b.check(bodies == 2 ? "if/else node" : "if node");
  }
  std::printf("if node with %u bod%s: 12 launches (%d taken, %d not), data as the host's\n", bodies,
              bodies == 1 ? "y" : "ies", taken, skipped);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
}

// while: the body adds 2 and counts down; the handle starts at 1 (cudaGraphCondAssignDefault) at every
// launch, so the body runs `counter` times.
static void check_while(std::mt19937& rng) {
  Buffers b(rng, -10000, 20001);
  int* data = b.data;
  unsigned* counter = b.control[0];

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams c = conditional(handle, cudaGraphCondTypeWhile, 1);
  cudaGraphNode_t cond;
  CHECK(cudaGraphAddNode(&cond, graph, nullptr, nullptr, 0, &c));
  const cudaGraph_t body = c.conditional.phGraph_out[0];
  int n = kN, two = 2;
  void* addArgs[] = {&data, &two, &n};
  const cudaGraphNode_t add = add_kernel(body, nullptr, 0, (void*)addTo, addArgs, (kN + 255) / 256, 256);
  void* downArgs[] = {&counter, &handle};
  add_kernel(body, &add, 1, (void*)countDown, downArgs, 1, 1);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  int total = 0;
  for (int launch = 0; launch < 5; ++launch) {
    const unsigned trips = rng() % 9 + 1;
    b.set(0, trips);
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaDeviceSynchronize());
    add_on_host(b.host, 2 * static_cast<int>(trips));
    total += static_cast<int>(trips);
    unsigned left = 99;
    CHECK(cudaMemcpy(&left, counter, sizeof left, cudaMemcpyDeviceToHost));
    expect(left == 0, "while node: the counter at the loop's end", left, 0);
    b.check("while node");
  }
  std::printf("while node: 5 launches, %d trips of its body in all, data as the host's\n", total);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
}

// switch with 3 bodies: body k adds k + 1; a value of 3 or more runs none.
static void check_switch(std::mt19937& rng) {
  Buffers b(rng, -499, 999);
  int* data = b.data;
  unsigned* flag = b.control[0];

  cudaGraph_t graph;
  CHECK(cudaGraphCreate(&graph, 0));
  cudaGraphConditionalHandle handle;
  CHECK(cudaGraphConditionalHandleCreate(&handle, graph));
  void* setArgs[] = {&flag, &handle};
  const cudaGraphNode_t setter = add_kernel(graph, nullptr, 0, (void*)setFromByte, setArgs, 1, 1);
  cudaGraphNodeParams c = conditional(handle, cudaGraphCondTypeSwitch, 3);
  cudaGraphNode_t cond;
  CHECK(cudaGraphAddNode(&cond, graph, &setter, nullptr, 1, &c));
  int n = kN;
  int amounts[3] = {1, 2, 3};
  void* args[3][3];
  for (int k = 0; k < 3; ++k) {
    args[k][0] = &data;
    args[k][1] = &amounts[k];
    args[k][2] = &n;
    add_kernel(c.conditional.phGraph_out[k], nullptr, 0, (void*)addTo, args[k], (kN + 127) / 128, 128);
  }
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  int ran[4] = {0, 0, 0, 0};
  for (int launch = 0; launch < 16; ++launch) {
    const unsigned value = static_cast<unsigned>(rng() % 5);
    b.set(0, value);
    CHECK(cudaGraphLaunch(exec, 0));
    CHECK(cudaStreamSynchronize(0));
    if (value < 3) add_on_host(b.host, static_cast<int>(value) + 1);
    ++ran[value < 3 ? value : 3];
    b.check("switch node");
  }
  std::printf("switch node of 3 bodies: 16 launches (bodies 0/1/2/none: %d/%d/%d/%d), data as the host's\n", ran[0],
              ran[1], ran[2], ran[3]);
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
}

// A conditional node added by hand to a graph being captured, its body captured from another stream,
// and a while node whose body holds an if node (nested conditionals).
static void check_captured_and_nested(std::mt19937& rng) {
  Buffers b(rng, 0, 777);
  int* data = b.data;
  unsigned *counter = b.control[0], *flag = b.control[1];
  int n = kN, seven = 7, eleven = 11;

  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  cudaStreamCaptureStatus status;
  cudaGraph_t graph;
  const cudaGraphNode_t* deps = nullptr;
  size_t ndeps = 0;
  CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &graph, &deps, nullptr, &ndeps));
  cudaGraphConditionalHandle loop;
  CHECK(cudaGraphConditionalHandleCreate(&loop, graph, 1, cudaGraphCondAssignDefault));
  addTo<<<(kN + 127) / 128, 128, 0, s>>>(data, seven, n);  // before the loop
  CHECK(cudaStreamGetCaptureInfo(s, &status, nullptr, &graph, &deps, nullptr, &ndeps));
  cudaGraphNodeParams c = conditional(loop, cudaGraphCondTypeWhile, 1);
  cudaGraphNode_t cond;
  CHECK(cudaGraphAddNode(&cond, graph, deps, nullptr, ndeps, &c));
  const cudaGraph_t body = c.conditional.phGraph_out[0];
  CHECK(cudaStreamUpdateCaptureDependencies(s, &cond, nullptr, 1, cudaStreamSetCaptureDependencies));
  addTo<<<(kN + 255) / 256, 256, 0, s>>>(data, eleven, n);  // after the loop
  cudaGraph_t captured;
  CHECK(cudaStreamEndCapture(s, &captured));

  // The body: an if node on `flag`, then a count-down. Captured into the body graph.
  cudaGraphConditionalHandle inner;
  CHECK(cudaGraphConditionalHandleCreate(&inner, body));
  void* setArgs[] = {&flag, &inner};
  const cudaGraphNode_t setter = add_kernel(body, nullptr, 0, (void*)setFromByte, setArgs, 1, 1);
  cudaGraphNodeParams ifp = conditional(inner, cudaGraphCondTypeIf, 1);
  cudaGraphNode_t ifNode;
  CHECK(cudaGraphAddNode(&ifNode, body, &setter, nullptr, 1, &ifp));
  cudaStream_t bs;
  CHECK(cudaStreamCreateWithFlags(&bs, cudaStreamNonBlocking));
  CHECK(cudaStreamBeginCaptureToGraph(bs, ifp.conditional.phGraph_out[0], nullptr, nullptr, 0,
                                      cudaStreamCaptureModeGlobal));
  addTo<<<(kN + 127) / 128, 128, 0, bs>>>(data, seven, n);
  CHECK(cudaStreamEndCapture(bs, nullptr));
  void* downArgs[] = {&counter, &loop};
  add_kernel(body, &ifNode, 1, (void*)countDown, downArgs, 1, 1);

  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, captured, 0));
  for (int launch = 0; launch < 4; ++launch) {
    const unsigned trips = rng() % 6 + 1, on = rng() % 2;
    b.set(0, trips);
    b.set(1, on);
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    add_on_host(b.host, 7 + (on != 0 ? 7 * static_cast<int>(trips) : 0) + 11);
    b.check("captured while node around an if node");
  }
  std::printf("captured graph: a while node around an if node, 4 launches, data as the host's\n");
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(captured));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaStreamDestroy(bs));
}

// What CUDA refuses: a while node of two bodies, an if node of three, a handle of another graph, a host
// node inside a body (at the node or at instantiation).
static void hostWork(void*) {}

static void check_refusals() {
  cudaGraph_t graph, other;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphCreate(&other, 0));
  cudaGraphConditionalHandle mine, theirs;
  CHECK(cudaGraphConditionalHandleCreate(&mine, graph));
  CHECK(cudaGraphConditionalHandleCreate(&theirs, other));
  cudaGraphNode_t node;
  cudaGraphNodeParams c = conditional(mine, cudaGraphCondTypeWhile, 2);
  expect(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &c) != cudaSuccess, "a while node of 2 bodies refused", 0, 1);
  cudaGetLastError();
  c.conditional.type = cudaGraphCondTypeIf;
  c.conditional.size = 3;
  expect(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &c) != cudaSuccess, "an if node of 3 bodies refused", 0, 1);
  cudaGetLastError();
  c.conditional.size = 1;
  c.conditional.handle = theirs;
  expect(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &c) != cudaSuccess, "another graph's handle refused", 0, 1);
  cudaGetLastError();
  c.conditional.handle = mine;
  CHECK(cudaGraphAddNode(&node, graph, nullptr, nullptr, 0, &c));
  cudaGraphNodeParams h = {cudaGraphNodeTypeHost};
  h.host.fn = hostWork;
  cudaGraphNode_t hostNode;
  bool refused = cudaGraphAddNode(&hostNode, c.conditional.phGraph_out[0], nullptr, nullptr, 0, &h) != cudaSuccess;
  cudaGetLastError();
  if (!refused) {
    cudaGraphExec_t exec;
    refused = cudaGraphInstantiate(&exec, graph, 0) != cudaSuccess;
    cudaGetLastError();
    if (!refused) CHECK(cudaGraphExecDestroy(exec));
  }
  expect(refused, "a host node in a conditional body refused", 0, 1);
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaGraphDestroy(other));
  std::printf("refused: a while node of 2 bodies, an if node of 3, another graph's handle, a host node in a body\n");
}

int main() {
  std::mt19937 rng(std::random_device{}());
  check_if(rng, 1);
  check_if(rng, 2);
  check_while(rng);
  check_switch(rng);
  check_captured_and_nested(rng);
  check_refusals();
  if (failures != 0) {
    std::printf("FAILED: %d checks\n", failures);
    return 1;
  }
  std::printf("PASSED: conditional graph nodes\n");
  return 0;
}
