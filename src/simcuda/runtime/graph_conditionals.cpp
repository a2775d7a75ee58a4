// Conditional graph nodes (graph_model.hpp): handles, the nodes and their bodies, and how a launch runs
// them. A GPU decides a conditional node on the device, with no host round trip; the simulator decides
// it on the launching host thread, after waiting for the work before the node in the stream (the
// kernels that set the handle). Nothing a program can observe differs but timing: the graph's work
// runs in the same order, and the host waits inside cudaGraphLaunch as it already does for host nodes.
#include <cstdint>
#include <mutex>
#include <set>
#include <utility>

#include <fmt/format.h>

#include <gpulab/sim/detail/engine_abi.hpp>

#include "simcuda/runtime/graph_model.hpp"
#include "simcuda/runtime/runtime_state.hpp"

namespace gpulab::sim::cuda::detail {

namespace {

// The handles alive, so that cudaGraphSetConditional can tell a handle from any other number. A lock of
// its own: kernels call it while cudaGraphLaunch runs, and graph calls on other threads hold graph_mutex.
struct HandleRegistry {
  std::mutex mutex;
  std::set<const ConditionalHandle*> live;
};

HandleRegistry& handles() {
  static auto* r = new HandleRegistry;  // never destroyed: graphs may outlive static destruction
  return *r;
}

std::shared_ptr<ConditionalHandle> make_handle(unsigned default_value, bool assign_default) {
  auto* h = new ConditionalHandle;
  h->value.store(default_value);
  h->default_value = default_value;
  h->assign_default = assign_default;
  {
    const std::lock_guard lock(handles().mutex);
    handles().live.insert(h);
  }
  return std::shared_ptr<ConditionalHandle>(h, [](ConditionalHandle* p) {
    {
      const std::lock_guard lock(handles().mutex);
      handles().live.erase(p);
    }
    delete p;
  });
}

bool is_live(const ConditionalHandle* h) {
  const std::lock_guard lock(handles().mutex);
  return handles().live.count(h) != 0;
}

const ConditionalHandle* as_handle(cudaGraphConditionalHandle value) {
  return reinterpret_cast<const ConditionalHandle*>(static_cast<std::uintptr_t>(value));
}

// The node kinds a body may hold, as CUDA documents them for conditional bodies (and, recursively,
// for the child graphs and bodies inside one).
bool allowed_in_body(cudaGraphNodeType t) {
  return t == cudaGraphNodeTypeKernel || t == cudaGraphNodeTypeEmpty || t == cudaGraphNodeTypeGraph ||
         t == cudaGraphNodeTypeMemset || t == cudaGraphNodeTypeMemcpy || t == cudaGraphNodeTypeConditional;
}

void check_body(const CUgraph_st& body, unsigned owner_index, std::size_t body_index) {
  for (const auto& n : body.nodes) {
    if (!allowed_in_body(n->type)) {
      throw ApiError(cudaErrorNotSupported,
                     fmt::format("body {} of conditional node {} holds a node of cudaGraphNodeType {}; "
                                 "conditional bodies hold kernel, empty, child graph, memset, memcpy and "
                                 "conditional nodes only",
                                 body_index, owner_index, static_cast<int>(n->type)));
    }
    if (n->child) check_body(*n->child, owner_index, body_index);
    for (std::size_t k = 0; k < n->bodies.size(); ++k) check_body(*n->bodies[k], n->index, k);
  }
}

}  // namespace

void make_conditional_node(CUgraphNode_st& node, const CUgraph_st& graph, const cudaConditionalNodeParams& params) {
  // The handle belongs to the graph the node joins or to one that holds it (a nested node may test its
  // parent's handle); the shared owner comes from whichever graph made it.
  std::shared_ptr<ConditionalHandle> handle;
  for (const CUgraph_st* g = &graph; g != nullptr && !handle; g = g->parent_graph) {
    for (const auto& h : g->conditional_handles) {
      if (h.get() == as_handle(params.handle)) handle = h;
    }
  }
  if (!handle) {
    throw ApiError(cudaErrorInvalidValue,
                   is_live(as_handle(params.handle))
                       ? fmt::format("handle {:#x} was made for another graph, neither the one the node joins nor "
                                     "one that holds it",
                                     params.handle)
                       : fmt::format("handle {:#x} was not made by cudaGraphConditionalHandleCreate", params.handle));
  }
  switch (params.type) {
    case cudaGraphCondTypeIf:
      require(params.size == 1 || params.size == 2, "cudaConditionalNodeParams::size must be 1 or 2 for an if node");
      break;
    case cudaGraphCondTypeWhile:
      require(params.size == 1, "cudaConditionalNodeParams::size must be 1 for a while node");
      break;
    case cudaGraphCondTypeSwitch:
      require(params.size >= 1, "cudaConditionalNodeParams::size must be at least 1 for a switch node");
      break;
    default:
      throw ApiError(cudaErrorInvalidValue, fmt::format("cudaConditionalNodeParams::type {} is not a "
                                                        "cudaGraphConditionalNodeType",
                                                        static_cast<int>(params.type)));
  }
  node.condition_type = params.type;
  node.condition = std::move(handle);
  for (unsigned k = 0; k < params.size; ++k) {
    auto body = std::make_unique<CUgraph_st>();
    body->is_child = true;  // owned by the node: cudaGraphDestroy refuses it
    body->parent_graph = &graph;
    node.body_handles.push_back(body.get());
    node.bodies.push_back(std::move(body));
  }
}

void check_conditional_bodies(const CUgraph_st& graph) {
  for (const auto& n : graph.nodes) {
    if (n->child) check_conditional_bodies(*n->child);
    for (std::size_t k = 0; k < n->bodies.size(); ++k) check_body(*n->bodies[k], n->index, k);
  }
}

void assign_conditional_defaults(const CUgraph_st& graph) {
  for (const auto& h : graph.conditional_handles) {
    if (h->assign_default) h->value.store(h->default_value);
  }
  for (const auto& n : graph.nodes) {
    if (n->child) assign_conditional_defaults(*n->child);
    for (const auto& body : n->bodies) assign_conditional_defaults(*body);
  }
}

void run_conditional(const CUgraphNode_st& node, cudaStream_t stream,
                     void (*run_graph)(const CUgraph_st& graph, cudaStream_t stream)) {
  // The value is read once the work before the node (which sets it) has finished.
  const auto read = [&] {
    const cudaError_t code = cudaStreamSynchronize(stream);
    if (code != cudaSuccess) {
      throw ApiError(code, fmt::format("CONDITIONAL node {}: the work before it failed: {}", node.index,
                                       cudaGetErrorName(code)));
    }
    return node.condition->value.load();
  };
  switch (node.condition_type) {
    case cudaGraphCondTypeIf: {
      const unsigned value = read();
      if (value != 0) {
        run_graph(*node.bodies[0], stream);
      } else if (node.bodies.size() == 2) {
        run_graph(*node.bodies[1], stream);
      }
      break;
    }
    case cudaGraphCondTypeWhile:
      while (read() != 0) run_graph(*node.bodies[0], stream);
      break;
    case cudaGraphCondTypeSwitch: {
      const unsigned value = read();
      if (value < node.bodies.size()) run_graph(*node.bodies[value], stream);
      break;
    }
  }
}

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue, unsigned int flags) {
  return api_call("cudaGraphConditionalHandleCreate", [&] {
    require(pHandle_out != nullptr, "pHandle_out is null");
    require((flags & ~static_cast<unsigned>(cudaGraphCondAssignDefault)) == 0,
            "flags must be 0 or cudaGraphCondAssignDefault");
    const std::lock_guard lock(graph_mutex());
    CUgraph_st& g = checked_graph(graph, "cudaGraphConditionalHandleCreate");
    auto h = make_handle(defaultLaunchValue, (flags & cudaGraphCondAssignDefault) != 0);
    *pHandle_out = static_cast<cudaGraphConditionalHandle>(reinterpret_cast<std::uintptr_t>(h.get()));
    g.conditional_handles.push_back(std::move(h));
  });
}

void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value, const std::source_location& where) {
  auto* h = const_cast<ConditionalHandle*>(as_handle(handle));
  if (!is_live(h)) {  // the lock released first: kernel_abort does not return
    const std::string what = fmt::format(
        "cudaGraphSetConditional: handle {:#x} was not made by cudaGraphConditionalHandleCreate (or its graph is gone)",
        handle);
    gpulab::sim::detail::kernel_abort(what.c_str(), where);
  }
  h->value.store(value);
}
