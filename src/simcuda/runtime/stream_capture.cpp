// Stream capture: cudaStreamBeginCapture .. cudaStreamEndCapture record the work issued to the
// capturing streams as the nodes of a graph instead of running it. A capture sequence starts on one
// stream (its origin); other streams join it by waiting on an event recorded in it (a fork) and must
// be joined back into the origin stream, again through events, before the capture ends. Each stream
// of the sequence keeps the nodes its next node depends on (its tail).
//
// The capture modes decide which calls that are not stream-ordered (cudaMalloc, cudaMemcpy, ...) a
// host thread may make while captures are under way, as CUDA's documentation of
// cudaThreadExchangeStreamCaptureMode says: a thread in global mode may not while it has a capture of
// its own not begun in relaxed mode, or any thread has one begun in global mode; in thread-local mode
// only its own captures count; in relaxed mode nothing is prohibited. Such a call fails with
// cudaErrorStreamCaptureUnsupported and invalidates the captures that prohibit it, so that their
// cudaStreamEndCapture returns cudaErrorStreamCaptureInvalidated: the graph would not replay it.
#include "simcuda/runtime/stream_capture.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "simcuda/runtime/graph_model.hpp"
#include "simcuda/runtime/runtime_state.hpp"

namespace gpulab::sim::cuda::detail {

namespace {

using NodeList = std::vector<CUgraphNode_st*>;

struct CapturedStream {
  cudaStream_t handle = nullptr;
  bool blocking = true;  // synchronises with the legacy stream
  NodeList tail;
};

struct CaptureSequence {
  unsigned long long id = 0;
  cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
  std::thread::id thread;
  CUgraph_st* graph = nullptr;
  bool graph_is_programs = false;  // cudaStreamBeginCaptureToGraph: the program's graph, never destroyed here
  const void* origin = nullptr;
  bool invalidated = false;
  std::map<const void*, CapturedStream> streams;  // by stream_key
};

// What an event recorded in a capturing stream stands for: the nodes that were that stream's tail.
struct CapturedEvent {
  unsigned long long sequence = 0;
  NodeList nodes;
};

// All under graph_mutex().
std::map<unsigned long long, std::unique_ptr<CaptureSequence>> sequences;  // under way, by id
std::map<const void*, CaptureSequence*> sequence_of_stream;
std::map<CUevent_st*, CapturedEvent> captured_events;
unsigned long long next_sequence_id = 1;
// Read without the lock by the hooks' fast path: no capture under way and no event recorded in one.
std::atomic<int> captures_under_way{0};
std::atomic<int> events_recorded_in_captures{0};

thread_local cudaStreamCaptureMode thread_mode = cudaStreamCaptureModeGlobal;

const char* mode_name(cudaStreamCaptureMode m) {
  switch (m) {
    case cudaStreamCaptureModeGlobal:
      return "cudaStreamCaptureModeGlobal";
    case cudaStreamCaptureModeThreadLocal:
      return "cudaStreamCaptureModeThreadLocal";
    case cudaStreamCaptureModeRelaxed:
      return "cudaStreamCaptureModeRelaxed";
  }
  return "an unknown mode";
}

// A capturable stream's identity: the created stream, or the calling thread's per-thread stream;
// nullptr for the legacy stream, which cannot be captured.
const void* stream_key(cudaStream_t stream) {
  if (state().is_legacy(stream)) return nullptr;
  if (state().is_per_thread(stream)) {
    thread_local const char per_thread_stream_key = 0;
    return &per_thread_stream_key;
  }
  state().resolve(stream);  // throws for a handle that is not a stream
  return stream;
}

bool is_blocking(cudaStream_t stream) {
  return state().is_per_thread(stream) || (stream->flags & cudaStreamNonBlocking) == 0;
}

void invalidate(CaptureSequence& sequence) { sequence.invalidated = true; }

// Ends a sequence: its streams stop capturing.
void retire(CaptureSequence& sequence) {
  for (const auto& [key, s] : sequence.streams) sequence_of_stream.erase(key);
  captures_under_way.fetch_sub(1);
  sequences.erase(sequence.id);
}

// The capture `stream` is part of (nullptr if none), for work issued to it (lock held).
CaptureSequence* sequence_for_work(cudaStream_t stream, const char* call) {
  const void* key = stream_key(stream);
  if (key == nullptr) {
    // The legacy stream waits for every blocking stream, which a capturing one cannot be waited for.
    for (auto& [id, seq] : sequences) {
      for (const auto& [k, s] : seq->streams) {
        if (!s.blocking) continue;
        invalidate(*seq);
        throw ApiError(cudaErrorStreamCaptureImplicit,
                       fmt::format("{} on the legacy default stream while blocking stream {} is being captured: the "
                                   "legacy stream would wait for captured work (the capture is invalidated); use a "
                                   "stream created with cudaStreamNonBlocking, or another stream",
                                   call, static_cast<const void*>(s.handle)));
      }
    }
    return nullptr;
  }
  const auto it = sequence_of_stream.find(key);
  if (it == sequence_of_stream.end()) return nullptr;
  if (it->second->invalidated) {
    throw ApiError(cudaErrorStreamCaptureInvalidated,
                   fmt::format("{}: the capture of stream {} was invalidated by an earlier error; end it with "
                               "cudaStreamEndCapture",
                               call, static_cast<const void*>(stream)));
  }
  return it->second;
}

// Appends a node to the stream's place in its capture: it depends on the stream's tail, and becomes it.
CUgraphNode_st* append(CaptureSequence& sequence, cudaStream_t stream, cudaGraphNodeType type) {
  CapturedStream& s = sequence.streams.at(stream_key(stream));
  CUgraphNode_st* node = add_node(*sequence.graph, type, s.tail);
  s.tail.assign(1, node);
  return node;
}

bool nothing_to_capture() {
  return captures_under_way.load(std::memory_order_acquire) == 0 &&
         events_recorded_in_captures.load(std::memory_order_acquire) == 0;
}

// The node list without repeats, in first-seen order.
void add_unique(NodeList& to, const NodeList& from) {
  for (CUgraphNode_st* n : from) {
    if (std::find(to.begin(), to.end(), n) == to.end()) to.push_back(n);
  }
}

// The nodes `from` reaches backwards (themselves included).
std::set<const CUgraphNode_st*> ancestors(const NodeList& from);

// Removes the nodes that another node of the list depends on, directly or not.
void drop_redundant(NodeList& nodes) {
  NodeList deps;
  for (const CUgraphNode_st* n : nodes) deps.insert(deps.end(), n->dependencies.begin(), n->dependencies.end());
  const std::set<const CUgraphNode_st*> below = ancestors(deps);
  std::erase_if(nodes, [&](const CUgraphNode_st* n) { return below.count(n) != 0; });
}

std::set<const CUgraphNode_st*> ancestors(const NodeList& from) {
  std::set<const CUgraphNode_st*> seen;
  std::vector<const CUgraphNode_st*> todo(from.begin(), from.end());
  while (!todo.empty()) {
    const CUgraphNode_st* n = todo.back();
    todo.pop_back();
    if (!seen.insert(n).second) continue;
    todo.insert(todo.end(), n->dependencies.begin(), n->dependencies.end());
  }
  return seen;
}

CaptureSequence& checked_origin(cudaStream_t stream, const char* call) {
  const void* key = stream_key(stream);
  const auto it = key == nullptr ? sequence_of_stream.end() : sequence_of_stream.find(key);
  if (it == sequence_of_stream.end()) {
    throw ApiError(cudaErrorIllegalState, fmt::format("{}: stream {} is not capturing", call, static_cast<const void*>(stream)));
  }
  return *it->second;
}

}  // namespace

// ---- the hooks ---------------------------------------------------------------------------------------------------

bool capture_kernel(cudaStream_t stream, const gpulab::detail::KernelRecord& kernel, dim3 grid, dim3 block,
                    std::size_t shared_bytes, void* const* args, const gpulab::detail::ArgInfo* info,
                    std::size_t count, bool instrumented) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, "kernel launch");
  if (seq == nullptr) return false;
  KernelNodeData data = kernel_node_from_launch(kernel, grid, block, shared_bytes, args, info, count, instrumented);
  append(*seq, stream, cudaGraphNodeTypeKernel)->kernel = std::move(data);
  return true;
}

bool capture_memcpy_1d(cudaStream_t stream, void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                       const char* call) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, call);
  if (seq == nullptr) return false;
  MemcpyNodeData data = memcpy_node_1d(dst, src, count, kind, call);
  append(*seq, stream, cudaGraphNodeTypeMemcpy)->memcpy = data;
  return true;
}

bool capture_memcpy_2d(cudaStream_t stream, void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                       std::size_t width, std::size_t height, cudaMemcpyKind kind, const char* call) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, call);
  if (seq == nullptr) return false;
  cudaMemcpy3DParms p{};
  p.srcPtr = cudaPitchedPtr{const_cast<void*>(src), spitch, width, height};
  p.dstPtr = cudaPitchedPtr{dst, dpitch, width, height};
  p.extent = cudaExtent{width, height, 1};
  p.kind = kind;
  MemcpyNodeData data = memcpy_node_3d(p, call);
  append(*seq, stream, cudaGraphNodeTypeMemcpy)->memcpy = data;
  return true;
}

bool capture_memcpy_3d(cudaStream_t stream, const cudaMemcpy3DParms* params, const char* call) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, call);
  if (seq == nullptr) return false;
  require(params != nullptr, "the cudaMemcpy3DParms pointer is null");
  MemcpyNodeData data = memcpy_node_3d(*params, call);
  append(*seq, stream, cudaGraphNodeTypeMemcpy)->memcpy = data;
  return true;
}

bool capture_memset(cudaStream_t stream, void* dst, std::size_t pitch, int value, std::size_t width,
                    std::size_t height, const char* call) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, call);
  if (seq == nullptr) return false;
  if (width == 0 || height == 0) return true;  // nothing to record, as nothing would be set
  const cudaMemsetParams p = checked_memset_params(
      cudaMemsetParams{dst, height > 1 ? pitch : width, static_cast<unsigned char>(value), 1, width, height}, call);
  append(*seq, stream, cudaGraphNodeTypeMemset)->memset = p;
  return true;
}

bool capture_memset_3d(cudaStream_t stream, cudaPitchedPtr ptr, int value, cudaExtent extent, const char* call) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  if (extent.depth > 1 && ptr.ysize != extent.height) {
    refuse_in_capture(stream, call,
                      "a memset node is 2-D, and these slices are not contiguous rows (ysize differs from the "
                      "extent's height)");
    return false;
  }
  return capture_memset(stream, ptr.ptr, ptr.pitch, value, extent.width, extent.height * extent.depth, call);
}

bool capture_host_func(cudaStream_t stream, cudaHostFn_t fn, void* user_data) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, "cudaLaunchHostFunc");
  if (seq == nullptr) return false;
  require(fn != nullptr, "fn is null");
  append(*seq, stream, cudaGraphNodeTypeHost)->host = cudaHostNodeParams{fn, user_data};
  return true;
}

bool capture_mem_alloc(cudaStream_t stream, std::size_t bytes, void** ptr, const char* call) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, call);
  if (seq == nullptr) return false;
  cudaMemAllocNodeParams params{};
  params.poolProps.allocType = cudaMemAllocationTypePinned;
  params.poolProps.location = cudaMemLocation{cudaMemLocationTypeDevice, 0};
  params.bytesize = bytes;
  auto allocation = make_graph_allocation(params, call);
  append(*seq, stream, cudaGraphNodeTypeMemAlloc)->allocation = std::move(allocation);
  *ptr = params.dptr;
  return true;
}

bool capture_mem_free(cudaStream_t stream, void* ptr, const char* call) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, call);
  if (seq == nullptr) return false;
  auto allocation = graph_allocation_at(ptr, call);
  append(*seq, stream, cudaGraphNodeTypeMemFree)->allocation = std::move(allocation);
  return true;
}

bool capture_child_graph(cudaStream_t stream, const CUgraph_st& graph) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return false;
  // Called by cudaGraphLaunch with the lock held.
  CaptureSequence* seq = sequence_for_work(stream, "cudaGraphLaunch");
  if (seq == nullptr) return false;
  std::unique_ptr<CUgraph_st> copy = clone_graph(graph);
  copy->is_child = true;
  append(*seq, stream, cudaGraphNodeTypeGraph)->child = std::move(copy);
  return true;
}

bool capture_event_record(cudaEvent_t event, cudaStream_t stream, unsigned flags) {
  if (nothing_to_capture()) return false;
  std::lock_guard lock(graph_mutex());
  CUevent_st* e = checked_event(event);
  CaptureSequence* seq = sequence_for_work(stream, "cudaEventRecord");
  if (seq == nullptr) {
    if (captured_events.erase(e) != 0) events_recorded_in_captures.fetch_sub(1);
    return false;
  }
  if ((flags & cudaEventRecordExternal) != 0) {
    append(*seq, stream, cudaGraphNodeTypeEventRecord)->event = e;
    return true;
  }
  const auto [it, added] = captured_events.insert_or_assign(
      e, CapturedEvent{seq->id, seq->streams.at(stream_key(stream)).tail});
  if (added) events_recorded_in_captures.fetch_add(1);
  return true;
}

bool capture_event_wait(cudaStream_t stream, cudaEvent_t event, unsigned flags) {
  if (nothing_to_capture()) return false;
  std::lock_guard lock(graph_mutex());
  CUevent_st* e = checked_event(event);
  CaptureSequence* seq = sequence_for_work(stream, "cudaStreamWaitEvent");
  const auto captured = captured_events.find(e);
  if (captured == captured_events.end()) {
    if (seq == nullptr) return false;
    if ((flags & cudaEventWaitExternal) != 0) {
      append(*seq, stream, cudaGraphNodeTypeWaitEvent)->event = e;
      return true;
    }
    invalidate(*seq);
    throw ApiError(cudaErrorStreamCaptureIsolation,
                   fmt::format("capturing stream {} waits on an event not recorded in its "
                               "capture, a dependency the graph cannot hold (the capture is invalidated); pass "
                               "cudaEventWaitExternal to make an event wait node",
                               static_cast<const void*>(stream)));
  }
  const auto owner = sequences.find(captured->second.sequence);
  if (owner == sequences.end()) {
    throw ApiError(cudaErrorCapturedEvent, "the event was last recorded in a stream capture "
                                           "that has ended; record it again outside capture");
  }
  CaptureSequence& from = *owner->second;
  if (seq == nullptr) {
    const void* key = stream_key(stream);
    if (key == nullptr) {
      invalidate(from);
      throw ApiError(cudaErrorStreamCaptureImplicit,
                     "the legacy default stream cannot join a stream capture (the capture is "
                     "invalidated)");
    }
    if (from.invalidated) {
      throw ApiError(cudaErrorStreamCaptureInvalidated, "the event's capture was invalidated");
    }
    // A fork: the stream joins the capture, its work depending on what the event stands for.
    from.streams[key] = CapturedStream{stream, is_blocking(stream), captured->second.nodes};
    sequence_of_stream[key] = &from;
    return true;
  }
  if (seq != &from) {
    invalidate(*seq);
    invalidate(from);
    throw ApiError(cudaErrorStreamCaptureMerge, "the event belongs to another capture sequence "
                                                "than the stream's; the two cannot merge (both are invalidated)");
  }
  // A join: the stream's next work waits for both; a node the other set already waits for is dropped,
  // so that the graph holds no redundant edge.
  NodeList& tail = seq->streams.at(stream_key(stream)).tail;
  add_unique(tail, captured->second.nodes);
  drop_redundant(tail);
  return true;
}

void refuse_in_capture(cudaStream_t stream, const char* call, const char* why) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, call);
  if (seq == nullptr) return;
  invalidate(*seq);
  throw ApiError(cudaErrorStreamCaptureUnsupported,
                 fmt::format("{} in a capturing stream is not supported by the simulator's graphs: {} (the capture "
                             "is invalidated)",
                             call, why));
}

void refuse_unsafe_in_capture(const char* call, bool on_legacy_stream) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return;
  std::lock_guard lock(graph_mutex());
  const std::thread::id me = std::this_thread::get_id();
  std::vector<CaptureSequence*> prohibiting;
  if (thread_mode != cudaStreamCaptureModeRelaxed) {
    for (auto& [id, seq] : sequences) {
      const bool own = seq->thread == me && seq->mode != cudaStreamCaptureModeRelaxed;
      const bool others_global = thread_mode == cudaStreamCaptureModeGlobal && seq->thread != me &&
                                 seq->mode == cudaStreamCaptureModeGlobal;
      if (own || others_global) prohibiting.push_back(seq.get());
    }
  }
  if (!prohibiting.empty()) {
    for (CaptureSequence* seq : prohibiting) invalidate(*seq);
    throw ApiError(cudaErrorStreamCaptureUnsupported,
                   fmt::format("{} during stream capture (begun in {}): the call would run now and not be recorded "
                               "in the graph, so the capture is invalidated; make it before cudaStreamBeginCapture, "
                               "or allow it with cudaStreamCaptureModeRelaxed / cudaThreadExchangeStreamCaptureMode",
                               call, mode_name(prohibiting.front()->mode)));
  }
  if (on_legacy_stream) sequence_for_work(nullptr, call);  // cudaErrorStreamCaptureImplicit
}

void refuse_sync_in_capture(cudaStream_t stream, const char* call) {
  if (captures_under_way.load(std::memory_order_acquire) == 0) return;
  std::lock_guard lock(graph_mutex());
  CaptureSequence* seq = sequence_for_work(stream, call);
  if (seq == nullptr) return;
  invalidate(*seq);
  throw ApiError(cudaErrorStreamCaptureUnsupported,
                 fmt::format("{} of stream {}, which is capturing: its work is recorded, not run, so there is "
                             "nothing to wait for (the capture is invalidated)",
                             call, static_cast<const void*>(stream)));
}

void refuse_captured_event(cudaEvent_t event, const char* call) {
  if (events_recorded_in_captures.load(std::memory_order_acquire) == 0) return;
  std::lock_guard lock(graph_mutex());
  if (captured_events.count(event) == 0) return;
  throw ApiError(cudaErrorCapturedEvent, fmt::format("{}: the event was last recorded in a capturing stream, so it "
                                                     "stands for work in a graph, not work that runs",
                                                     call));
}

void forget_captured_event(cudaEvent_t event) noexcept {
  if (events_recorded_in_captures.load(std::memory_order_acquire) == 0) return;
  std::lock_guard lock(graph_mutex());
  if (captured_events.erase(event) != 0) events_recorded_in_captures.fetch_sub(1);
}

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

namespace {

void begin_capture(cudaStream_t stream, CUgraph_st* graph, bool graph_is_programs, const NodeList& dependencies,
                   cudaStreamCaptureMode mode, const char* call) {
  require(mode == cudaStreamCaptureModeGlobal || mode == cudaStreamCaptureModeThreadLocal ||
              mode == cudaStreamCaptureModeRelaxed,
          "mode is not a cudaStreamCaptureMode");
  const void* key = stream_key(stream);
  if (key == nullptr) {
    throw ApiError(cudaErrorStreamCaptureUnsupported,
                   fmt::format("{}: the legacy default stream cannot be captured; capture a created stream", call));
  }
  if (sequence_of_stream.count(key) != 0) {
    throw ApiError(cudaErrorIllegalState, fmt::format("{}: stream {} is already capturing", call, static_cast<const void*>(stream)));
  }
  auto seq = std::make_unique<CaptureSequence>();
  seq->id = next_sequence_id++;
  seq->mode = mode;
  seq->thread = std::this_thread::get_id();
  seq->graph = graph;
  seq->graph_is_programs = graph_is_programs;
  seq->origin = key;
  seq->streams[key] = CapturedStream{stream, is_blocking(stream), dependencies};
  sequence_of_stream[key] = seq.get();
  sequences[seq->id] = std::move(seq);
  captures_under_way.fetch_add(1);
}

}  // namespace

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return api_call("cudaStreamBeginCapture", [&] {
    std::lock_guard lock(graph_mutex());
    auto graph = std::make_unique<CUgraph_st>();
    begin_capture(stream, graph.get(), false, {}, mode, "cudaStreamBeginCapture");
    graph.release();  // owned by the capture until cudaStreamEndCapture hands it over
  });
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t* dependencies,
                                          const cudaGraphEdgeData* dependencyData, std::size_t numDependencies,
                                          cudaStreamCaptureMode mode) {
  return api_call("cudaStreamBeginCaptureToGraph", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraph_st& g = checked_graph(graph, "cudaStreamBeginCaptureToGraph");
    require(numDependencies == 0 || dependencies != nullptr, "dependencies is null");
    require_default_edges(dependencyData, numDependencies, "cudaStreamBeginCaptureToGraph");
    NodeList deps(dependencies, dependencies + numDependencies);
    for (CUgraphNode_st* d : deps) require(d != nullptr && d->graph == &g, "a dependency is not a node of the graph");
    begin_capture(stream, &g, true, deps, mode, "cudaStreamBeginCaptureToGraph");
  });
}

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode* mode) {
  return api_call("cudaThreadExchangeStreamCaptureMode", [&] {
    require(mode != nullptr, "mode is null");
    require(*mode == cudaStreamCaptureModeGlobal || *mode == cudaStreamCaptureModeThreadLocal ||
                *mode == cudaStreamCaptureModeRelaxed,
            "*mode is not a cudaStreamCaptureMode");
    std::swap(*mode, thread_mode);
  });
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
  return api_call("cudaStreamEndCapture", [&] {
    std::lock_guard lock(graph_mutex());
    CaptureSequence& seq = checked_origin(stream, "cudaStreamEndCapture");
    // A capture into the program's own graph (cudaStreamBeginCaptureToGraph) has no graph to hand back.
    require(pGraph != nullptr || seq.graph_is_programs,
            "pGraph is null (null is for captures begun by cudaStreamBeginCaptureToGraph)");
    if (seq.origin != stream_key(stream)) {
      // The capture stays under way: its origin stream can still end it.
      throw ApiError(cudaErrorStreamCaptureUnmatched,
                     fmt::format("the capture was not begun in stream {}, which joined it; "
                                 "end it in the stream that began it",
                                 static_cast<const void*>(stream)));
    }
    if (seq.mode != cudaStreamCaptureModeRelaxed && seq.thread != std::this_thread::get_id()) {
      throw ApiError(cudaErrorStreamCaptureWrongThread,
                     fmt::format("a capture begun in {} must be ended by the thread that began it",
                                 mode_name(seq.mode)));
    }
    if (pGraph != nullptr) *pGraph = nullptr;
    std::unique_ptr<CUgraph_st> owned(seq.graph_is_programs ? nullptr : seq.graph);
    CUgraph_st* graph = seq.graph;
    if (seq.invalidated) {
      retire(seq);
      throw ApiError(cudaErrorStreamCaptureInvalidated,
                     "the capture was invalidated by an earlier error; no graph");
    }
    // Every stream that joined must have been joined back: its tail among what the origin's tail waits for.
    const std::set<const CUgraphNode_st*> joined = ancestors(seq.streams.at(seq.origin).tail);
    for (const auto& [key, s] : seq.streams) {
      for (const CUgraphNode_st* n : s.tail) {
        if (joined.count(n) != 0) continue;
        const std::string what = fmt::format(
            "stream {} forked from the capture and has work the origin stream never waited "
            "for; record an event in it and cudaStreamWaitEvent on the origin stream before ending the capture",
            static_cast<const void*>(s.handle));
        retire(seq);  // the capture ends, its graph discarded
        throw ApiError(cudaErrorStreamCaptureUnjoined, what);
      }
    }
    retire(seq);
    owned.release();  // the program's now
    if (pGraph != nullptr) *pGraph = graph;
  });
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* pCaptureStatus) {
  return api_call("cudaStreamIsCapturing", [&] {
    require(pCaptureStatus != nullptr, "pCaptureStatus is null");
    std::lock_guard lock(graph_mutex());
    *pCaptureStatus = cudaStreamCaptureStatusNone;
    const void* key = stream_key(stream);
    if (key == nullptr) {
      sequence_for_work(stream, "cudaStreamIsCapturing");  // cudaErrorStreamCaptureImplicit
      return;
    }
    const auto it = sequence_of_stream.find(key);
    if (it == sequence_of_stream.end()) return;
    *pCaptureStatus = it->second->invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
  });
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* captureStatus_out,
                                     unsigned long long* id_out, cudaGraph_t* graph_out,
                                     const cudaGraphNode_t** dependencies_out, const cudaGraphEdgeData** edgeData_out,
                                     std::size_t* numDependencies_out) {
  return api_call("cudaStreamGetCaptureInfo", [&] {
    require(captureStatus_out != nullptr, "captureStatus_out is null");
    std::lock_guard lock(graph_mutex());
    *captureStatus_out = cudaStreamCaptureStatusNone;
    const void* key = stream_key(stream);
    if (key == nullptr) sequence_for_work(stream, "cudaStreamGetCaptureInfo");  // cudaErrorStreamCaptureImplicit
    const auto it = key == nullptr ? sequence_of_stream.end() : sequence_of_stream.find(key);
    if (it == sequence_of_stream.end()) return;
    CaptureSequence& seq = *it->second;
    *captureStatus_out = seq.invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    if (id_out != nullptr) *id_out = seq.id;
    if (graph_out != nullptr) *graph_out = seq.graph;
    // Valid until the stream's next captured work, as CUDA's are.
    const NodeList& tail = seq.streams.at(key).tail;
    if (dependencies_out != nullptr) *dependencies_out = tail.empty() ? nullptr : tail.data();
    if (edgeData_out != nullptr) *edgeData_out = nullptr;  // all default edges
    if (numDependencies_out != nullptr) *numDependencies_out = tail.size();
  });
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus* captureStatus_out,
                                     unsigned long long* id_out, cudaGraph_t* graph_out,
                                     const cudaGraphNode_t** dependencies_out, std::size_t* numDependencies_out) {
  return cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out, nullptr,
                                  numDependencies_out);
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                const cudaGraphEdgeData* dependencyData, std::size_t numDependencies,
                                                unsigned int flags) {
  return api_call("cudaStreamUpdateCaptureDependencies", [&] {
    require(flags == cudaStreamAddCaptureDependencies || flags == cudaStreamSetCaptureDependencies,
            "flags is not a cudaStreamUpdateCaptureDependenciesFlags");
    require(numDependencies == 0 || dependencies != nullptr, "dependencies is null");
    require_default_edges(dependencyData, numDependencies, "cudaStreamUpdateCaptureDependencies");
    std::lock_guard lock(graph_mutex());
    CaptureSequence* seq = sequence_for_work(stream, "cudaStreamUpdateCaptureDependencies");
    if (seq == nullptr) {
      throw ApiError(cudaErrorIllegalState, "the stream is not capturing");
    }
    NodeList nodes(dependencies, dependencies + numDependencies);
    for (CUgraphNode_st* n : nodes) {
      require(n != nullptr && n->graph == seq->graph, "a dependency is not a node of the capture's graph");
    }
    NodeList& tail = seq->streams.at(stream_key(stream)).tail;
    if (flags == cudaStreamSetCaptureDependencies) tail.clear();
    add_unique(tail, nodes);
  });
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                std::size_t numDependencies, unsigned int flags) {
  return cudaStreamUpdateCaptureDependencies(stream, dependencies, nullptr, numDependencies, flags);
}
