// The rules of stream capture, as CUDA states them: a cudaMalloc during a global-mode capture fails
// with cudaErrorStreamCaptureUnsupported and invalidates the capture; the thread may relax its own mode
// (cudaThreadExchangeStreamCaptureMode) or begin the capture in relaxed mode to allow it; a capture
// cannot be ended in a stream that only joined it, nor with a fork never joined back; an executable
// graph is not updated from a graph of another topology. The expected
// errors are reported on stderr by the simulator, so this program is not among the correct programs.
#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#include "cuda_check.h"

static void expect(cudaError_t got, cudaError_t want, const char* what) {
  if (got != want) {
    std::fprintf(stderr, "%s: got %s, expected %s\n", what, cudaGetErrorName(got), cudaGetErrorName(want));
    std::exit(1);
  }
  cudaGetLastError();  // the expected error is not the program's
}

// The capture rules: what a capture refuses, and what each mode allows.
static void checkCaptureRules(cudaStream_t s[3]) {
  cudaGraph_t graph = nullptr;
  float* extra = nullptr;
  // Global mode: an allocation during the capture invalidates it.
  CHECK(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal));
  expect(cudaMalloc(&extra, 64), cudaErrorStreamCaptureUnsupported, "cudaMalloc during a global capture");
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  CHECK(cudaStreamIsCapturing(s[0], &status));
  if (status != cudaStreamCaptureStatusInvalidated) {
    std::fprintf(stderr, "the capture is not invalidated after cudaMalloc\n");
    std::exit(1);
  }
  expect(cudaStreamEndCapture(s[0], &graph), cudaErrorStreamCaptureInvalidated, "ending an invalidated capture");
  if (graph != nullptr) {
    std::fprintf(stderr, "an invalidated capture returned a graph\n");
    std::exit(1);
  }

  // The thread may relax its own mode: then the allocation is allowed (and not captured).
  CHECK(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeGlobal));
  cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
  CHECK(cudaMalloc(&extra, 64));
  CHECK(cudaThreadExchangeStreamCaptureMode(&mode));  // back to global
  if (mode != cudaStreamCaptureModeRelaxed) {
    std::fprintf(stderr, "cudaThreadExchangeStreamCaptureMode did not return the previous mode\n");
    std::exit(1);
  }
  CHECK(cudaStreamEndCapture(s[0], &graph));
  size_t nodes = 1;
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  if (nodes != 0) {
    std::fprintf(stderr, "an empty capture has %zu nodes\n", nodes);
    std::exit(1);
  }
  CHECK(cudaGraphDestroy(graph));

  // Relaxed mode: cudaMalloc is allowed.
  float* relaxed = nullptr;
  CHECK(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeRelaxed));
  CHECK(cudaMalloc(&relaxed, 64));
  CHECK(cudaMemsetAsync(relaxed, 1, 64, s[0]));
  CHECK(cudaStreamEndCapture(s[0], &graph));
  CHECK(cudaGraphGetNodes(graph, nullptr, &nodes));
  if (nodes != 1) {
    std::fprintf(stderr, "a capture of one memset has %zu nodes\n", nodes);
    std::exit(1);
  }
  CHECK(cudaGraphDestroy(graph));

  // A forked stream that is never joined back.
  cudaEvent_t fork;
  CHECK(cudaEventCreate(&fork));
  CHECK(cudaStreamBeginCapture(s[0], cudaStreamCaptureModeThreadLocal));
  CHECK(cudaEventRecord(fork, s[0]));
  CHECK(cudaStreamWaitEvent(s[1], fork, 0));
  CHECK(cudaMemsetAsync(extra, 2, 64, s[1]));
  expect(cudaStreamEndCapture(s[1], &graph), cudaErrorStreamCaptureUnmatched, "ending a capture in a forked stream");
  // Unjoined (or invalidated by the unmatched end, which CUDA may also do): no graph either way.
  const cudaError_t ended = cudaStreamEndCapture(s[0], &graph);
  cudaGetLastError();
  if (ended != cudaErrorStreamCaptureUnjoined && ended != cudaErrorStreamCaptureInvalidated) {
    std::fprintf(stderr, "ending a capture with an unjoined fork: got %s\n", cudaGetErrorName(ended));
    std::exit(1);
  }
  CHECK(cudaStreamIsCapturing(s[1], &status));
  if (status != cudaStreamCaptureStatusNone) {
    std::fprintf(stderr, "the forked stream still captures after the failed cudaStreamEndCapture\n");
    std::exit(1);
  }
  CHECK(cudaEventDestroy(fork));
  CHECK(cudaFree(extra));
  CHECK(cudaFree(relaxed));
  std::printf("capture rules: cudaMalloc invalidates a global capture, allowed after "
              "cudaThreadExchangeStreamCaptureMode and in relaxed mode; an unjoined fork fails the capture\n");
}

// An executable graph cannot be updated from a graph of another topology.
static void checkUpdateRefusal() {
  cudaGraph_t two, one;
  cudaGraphNode_t a, b, lone;
  CHECK(cudaGraphCreate(&two, 0));
  CHECK(cudaGraphAddEmptyNode(&a, two, nullptr, 0));
  CHECK(cudaGraphAddEmptyNode(&b, two, &a, 1));
  CHECK(cudaGraphCreate(&one, 0));
  CHECK(cudaGraphAddEmptyNode(&lone, one, nullptr, 0));
  cudaGraphExec_t exec;
  CHECK(cudaGraphInstantiate(&exec, two, 0));
  cudaGraphExecUpdateResultInfo info{};
  expect(cudaGraphExecUpdate(exec, one, &info), cudaErrorGraphExecUpdateFailure, "an update with another topology");
  if (info.result == cudaGraphExecUpdateSuccess) {
    std::fprintf(stderr, "the refused update reports success\n");
    std::exit(1);
  }
  CHECK(cudaGraphLaunch(exec, 0));  // still the graph of two nodes
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(two));
  CHECK(cudaGraphDestroy(one));
  std::printf("cudaGraphExecUpdate refuses another topology (result %d)\n", static_cast<int>(info.result));
}

int main() {
  cudaStream_t s[3];
  for (cudaStream_t& st : s) CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  checkCaptureRules(s);
  checkUpdateRefusal();
  for (cudaStream_t st : s) CHECK(cudaStreamDestroy(st));
  std::printf("PASSED\n");
  return 0;
}
