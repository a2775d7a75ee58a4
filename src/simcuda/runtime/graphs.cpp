// CUDA graphs on the simulator: the explicit graph API, instantiation, launches, executable-graph
// updates, DOT output and user objects (graph_model.hpp says what the handles hold; stream capture
// is in stream_capture.cpp).
//
// A launch issues the executable graph's nodes onto the launch's stream one after another, in a
// topological order of the graph: every dependency holds, the graph runs after the stream's earlier
// work and before its later work, and independent nodes run one after the other (an order a GPU may
// also choose). Each node runs as the runtime call it stands for (a kernel launch, cudaMemcpyAsync,
// cudaLaunchHostFunc, ...), so the simulator's checks see graph work as they see any other.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/cuda/gpulab_cuda_launch.hpp>

#include "runtime/backend.hpp"
#include "simcuda/runtime/graph_model.hpp"
#include "simcuda/runtime/runtime_state.hpp"
#include "simcuda/runtime/stream_capture.hpp"

namespace gpulab::sim::cuda::detail {

namespace {

// Under graph_mutex().
std::set<const CUgraph_st*> live_graphs;
std::set<const CUgraphNode_st*> live_nodes;
std::set<const CUgraphExec_st*> live_execs;
std::set<const CUuserObject_st*> live_user_objects;
unsigned long long next_graph_id = 1;
// What the launches of each captured kernel showed of its parameters, for nodes the program makes
// itself from a kernel's address (whose parameter types the call does not carry).
std::map<const gpulab::detail::KernelRecord*, std::vector<gpulab::detail::ArgInfo>> parameter_layouts;

const char* type_name(cudaGraphNodeType t) {
  switch (t) {
    case cudaGraphNodeTypeKernel:
      return "KERNEL";
    case cudaGraphNodeTypeMemcpy:
      return "MEMCPY";
    case cudaGraphNodeTypeMemset:
      return "MEMSET";
    case cudaGraphNodeTypeHost:
      return "HOST";
    case cudaGraphNodeTypeGraph:
      return "GRAPH";
    case cudaGraphNodeTypeEmpty:
      return "EMPTY";
    case cudaGraphNodeTypeWaitEvent:
      return "WAIT_EVENT";
    case cudaGraphNodeTypeEventRecord:
      return "EVENT_RECORD";
    case cudaGraphNodeTypeMemAlloc:
      return "MEM_ALLOC";
    case cudaGraphNodeTypeMemFree:
      return "MEM_FREE";
    case cudaGraphNodeTypeConditional:
      return "CONDITIONAL";
    default:
      return "UNKNOWN";
  }
}

const char* kind_name(cudaMemcpyKind k) {
  switch (k) {
    case cudaMemcpyHostToHost:
      return "HtoH";
    case cudaMemcpyHostToDevice:
      return "HtoD";
    case cudaMemcpyDeviceToHost:
      return "DtoH";
    case cudaMemcpyDeviceToDevice:
      return "DtoD";
    case cudaMemcpyDefault:
      return "Default";
  }
  return "?";
}

void release_user_object(CUuserObject_st* object, unsigned long long count) {
  if (object->references.fetch_sub(count) != count) return;
  live_user_objects.erase(object);
  object->destroy(object->ptr);
  delete object;
}

CUgraphNode_st& checked_node(cudaGraphNode_t node, const char* call) {
  if (node == nullptr || live_nodes.count(node) == 0) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: not a node of a live graph", call));
  }
  return *node;
}

CUgraphNode_st& checked_node_of(cudaGraphNode_t node, cudaGraphNodeType type, const char* call) {
  CUgraphNode_st& n = checked_node(node, call);
  if (n.type != type) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: the node is a {} node, not a {} node", call, type_name(n.type), type_name(type)));
  }
  return n;
}

CUgraphExec_st& checked_exec(cudaGraphExec_t exec, const char* call) {
  if (exec == nullptr || live_execs.count(exec) == 0) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: not an executable graph (or destroyed)", call));
  }
  return *exec;
}

// The executable graph's copy of a node of the graph it was instantiated from.
CUgraphNode_st& exec_copy(CUgraphExec_st& exec, cudaGraphNode_t node, cudaGraphNodeType type, const char* call) {
  const auto it = exec.copy_of.find(node);
  if (it == exec.copy_of.end()) {
    throw ApiError(cudaErrorInvalidValue,
                   fmt::format("{}: the node is not one of the graph the executable graph was instantiated from", call));
  }
  if (it->second->type != type) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: the node is a {} node, not a {} node", call,
                                                      type_name(it->second->type), type_name(type)));
  }
  return *it->second;
}

std::vector<CUgraphNode_st*> checked_dependencies(CUgraph_st& graph, const cudaGraphNode_t* deps, std::size_t n,
                                                  const char* call) {
  require(n == 0 || deps != nullptr, "pDependencies is null");
  std::vector<CUgraphNode_st*> out;
  for (std::size_t i = 0; i < n; ++i) {
    CUgraphNode_st& d = checked_node(deps[i], call);
    if (d.graph != &graph) throw ApiError(cudaErrorInvalidValue, fmt::format("{}: dependency {} is a node of another graph", call, i));
    if (std::find(out.begin(), out.end(), &d) != out.end()) {
      throw ApiError(cudaErrorInvalidValue, fmt::format("{}: dependency {} is given twice", call, i));
    }
    out.push_back(&d);
  }
  return out;
}

// The kernel a node's func names; only kernels the simulator has seen can be run from an address.
const gpulab::detail::KernelRecord& kernel_of_address(const void* func, const char* call) {
  require(func != nullptr, "cudaKernelNodeParams::func is null");
  const gpulab::detail::KernelRecord* record = find_registered(func);
  if (record == nullptr) {
    throw ApiError(cudaErrorInvalidDeviceFunction,
                   fmt::format("{}: the kernel at {} is unknown to the simulator, which learns a kernel's parameter "
                               "types where the program launches it (<<<>>>, cudaLaunchKernel or cudaLaunchKernelEx "
                               "with the kernel itself) or captures a launch of it; a node made from the kernel's "
                               "address alone needs one such launch earlier in the program",
                               call, func));
  }
  return *record;
}

void check_configuration(dim3 grid, dim3 block, std::size_t shared_bytes, const char* kernel, const char* call) {
  LaunchConfig config;
  config.grid = Dim3(grid.x, grid.y, grid.z);
  config.block = Dim3(block.x, block.y, block.z);
  config.shared_bytes = shared_bytes;
  try {
    gpulab::detail::validate_launch(state().device().properties(), config);
  } catch (const InvalidArgument& e) {
    throw ApiError(cudaErrorInvalidConfiguration, fmt::format("{}: kernel {}: {}", call, kernel, e.what()));
  }
}

KernelNodeData kernel_node_from_params(const cudaKernelNodeParams& p, const char* call) {
  if (p.extra != nullptr) {
    throw Unsupported(fmt::format("{} with cudaKernelNodeParams::extra (arguments as one packed buffer); pass them "
                                  "in kernelParams",
                                  call));
  }
  const gpulab::detail::KernelRecord& kernel = kernel_of_address(p.func, call);
  check_configuration(p.gridDim, p.blockDim, p.sharedMemBytes, kernel.name.c_str(), call);
  KernelNodeData data;
  data.kernel = &kernel;
  data.function = p.func;
  data.grid = p.gridDim;
  data.block = p.blockDim;
  data.shared_bytes = p.sharedMemBytes;
  data.instrumented = kernel.has(gpulab::detail::KernelBackend::sim_checked);
  if (p.kernelParams == nullptr && *kernel.signature != typeid(void())) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: kernel {} takes parameters but kernelParams is null", call, kernel.name));
  }
  static void* const no_arguments[1] = {nullptr};
  data.args.reset(entry_of(kernel).clone_args(p.kernelParams != nullptr ? p.kernelParams : no_arguments));
  // The checks' view of the new values: a pointer parameter's value is read from the node's copy.
  if (const auto it = parameter_layouts.find(&kernel); it != parameter_layouts.end()) {
    data.info = it->second;
    void* const* values = data.args->pointers();
    for (std::size_t i = 0; i < data.info.size(); ++i) {
      gpulab::detail::ArgInfo& a = data.info[i];
      a.pointer = a.is_pointer ? *static_cast<const void* const*>(values[i]) : nullptr;
      a.has_space = false;  // a gpulab view's space is not readable without its type
    }
  }
  return data;
}

void check_memcpy_kind(cudaMemcpyKind kind, const char* call) {
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) {
    throw ApiError(cudaErrorInvalidMemcpyDirection, fmt::format("{}: {} is not a cudaMemcpyKind", call, static_cast<int>(kind)));
  }
}

cudaMemcpy3DParms as_3d(const MemcpyNodeData& m) {
  if (!m.one_d) return m.params;
  cudaMemcpy3DParms p{};
  p.srcPtr = cudaPitchedPtr{const_cast<void*>(m.src), m.count, m.count, 1};
  p.dstPtr = cudaPitchedPtr{m.dst, m.count, m.count, 1};
  p.extent = cudaExtent{m.count, 1, 1};
  p.kind = m.kind;
  return p;
}

// ---- running --------------------------------------------------------------------------------------------------

// Kahn's algorithm, taking ready nodes in the order they were added; fails on a cycle.
std::vector<const CUgraphNode_st*> topological_order(const CUgraph_st& graph) {
  std::map<const CUgraphNode_st*, std::size_t> waiting;
  std::vector<const CUgraphNode_st*> ready, order;
  for (const auto& n : graph.nodes) {
    waiting[n.get()] = n->dependencies.size();
    if (n->dependencies.empty()) ready.push_back(n.get());
  }
  for (std::size_t next = 0; next < ready.size(); ++next) {
    const CUgraphNode_st* n = ready[next];
    order.push_back(n);
    for (const CUgraphNode_st* d : n->dependents) {
      if (--waiting[d] == 0) ready.push_back(d);
    }
  }
  if (order.size() != graph.nodes.size()) {
    throw ApiError(cudaErrorInvalidValue, "the graph has a cycle, so no order honours its edges");
  }
  return order;
}

void check_acyclic(const CUgraph_st& graph) {
  for (const CUgraphNode_st* n : topological_order(graph)) {
    if (n->child) check_acyclic(*n->child);
    for (const auto& body : n->bodies) check_acyclic(*body);
  }
}

void check_node_call(cudaError_t code, const CUgraphNode_st& node) {
  if (code != cudaSuccess) {
    throw ApiError(code, fmt::format("{} node {} failed: {}", type_name(node.type), node.index,
                                     cudaGetErrorName(code)));
  }
}

// A memset of 2- or 4-byte elements: a copy of the pattern per row, in stream order. The pattern is
// host memory of this call, so the call waits for the copies.
void run_wide_memset(const cudaMemsetParams& m, cudaStream_t stream, const CUgraphNode_st& node) {
  std::vector<unsigned char> row(m.width * m.elementSize);
  for (std::size_t i = 0; i < m.width; ++i) std::memcpy(row.data() + i * m.elementSize, &m.value, m.elementSize);
  for (std::size_t y = 0; y < m.height; ++y) {
    check_node_call(cudaMemcpyAsync(static_cast<char*>(m.dst) + y * m.pitch, row.data(), row.size(),
                                    cudaMemcpyHostToDevice, stream),
                    node);
  }
  check_node_call(cudaStreamSynchronize(stream), node);
}

void run_graph(const CUgraph_st& graph, cudaStream_t stream);

void run_node(const CUgraphNode_st& node, cudaStream_t stream) {
  switch (node.type) {
    case cudaGraphNodeTypeKernel: {
      const KernelNodeData& k = node.kernel;
      check_node_call(launch(*k.kernel, k.grid, k.block, k.shared_bytes, stream, k.args->pointers(),
                             k.info.empty() ? nullptr : k.info.data(), k.info.size(), k.instrumented),
                      node);
      break;
    }
    case cudaGraphNodeTypeMemcpy: {
      const MemcpyNodeData& m = node.memcpy;
      check_node_call(m.one_d ? cudaMemcpyAsync(m.dst, m.src, m.count, m.kind, stream) : cudaMemcpy3DAsync(&m.params, stream),
                      node);
      break;
    }
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams& m = node.memset;
      if (m.elementSize != 1) {
        run_wide_memset(m, stream, node);
      } else if (m.height == 1) {
        check_node_call(cudaMemsetAsync(m.dst, static_cast<int>(m.value), m.width, stream), node);
      } else {
        check_node_call(cudaMemset2DAsync(m.dst, m.pitch, static_cast<int>(m.value), m.width, m.height, stream), node);
      }
      break;
    }
    case cudaGraphNodeTypeHost:
      check_node_call(cudaLaunchHostFunc(stream, node.host.fn, node.host.userData), node);
      break;
    case cudaGraphNodeTypeGraph:
      run_graph(*node.child, stream);
      break;
    case cudaGraphNodeTypeEventRecord:
      check_node_call(cudaEventRecord(node.event, stream), node);
      break;
    case cudaGraphNodeTypeWaitEvent:
      check_node_call(cudaStreamWaitEvent(stream, node.event, 0), node);
      break;
    case cudaGraphNodeTypeMemAlloc:
      allocate_at_launch(*node.allocation);
      break;
    case cudaGraphNodeTypeMemFree:
      free_at_launch(*node.allocation);
      break;
    case cudaGraphNodeTypeConditional:
      run_conditional(node, stream, run_graph);
      break;
    default:
      break;  // empty nodes only order others
  }
}

void run_graph(const CUgraph_st& graph, cudaStream_t stream) {
  for (const CUgraphNode_st* n : topological_order(graph)) run_node(*n, stream);
}

// ---- updates ----------------------------------------------------------------------------------------------------

struct UpdateRefusal {
  cudaGraphExecUpdateResult result;
  const CUgraphNode_st* node;
  const CUgraphNode_st* from;
  std::string why;
};

std::vector<std::size_t> dependency_indices(const CUgraphNode_st& n) {
  std::vector<std::size_t> out;
  for (const CUgraphNode_st* d : n.dependencies) out.push_back(d->index);
  std::sort(out.begin(), out.end());
  return out;
}

// Nodes pair by their place in the order they were added, as CUDA pairs them; the topology and the
// node types must be the same.
void check_update(const CUgraph_st& exec, const CUgraph_st& with) {
  if (exec.nodes.size() != with.nodes.size()) {
    const CUgraphNode_st* extra = with.nodes.size() > exec.nodes.size() ? with.nodes[exec.nodes.size()].get() : nullptr;
    throw UpdateRefusal{cudaGraphExecUpdateErrorTopologyChanged, extra, nullptr,
                        fmt::format("{} nodes instead of {}", with.nodes.size(), exec.nodes.size())};
  }
  for (std::size_t i = 0; i < with.nodes.size(); ++i) {
    const CUgraphNode_st& a = *exec.nodes[i];
    const CUgraphNode_st& b = *with.nodes[i];
    if (a.type != b.type) {
      throw UpdateRefusal{cudaGraphExecUpdateErrorNodeTypeChanged, &b, nullptr,
                          fmt::format("node {} is a {} node, was a {} node", i, type_name(b.type), type_name(a.type))};
    }
    if (dependency_indices(a) != dependency_indices(b)) {
      throw UpdateRefusal{cudaGraphExecUpdateErrorTopologyChanged, &b,
                          b.dependencies.empty() ? nullptr : b.dependencies.front(),
                          fmt::format("node {} has other dependencies", i)};
    }
    if (a.type == cudaGraphNodeTypeMemcpy && a.memcpy.one_d != b.memcpy.one_d) {
      throw UpdateRefusal{cudaGraphExecUpdateErrorParametersChanged, &b, nullptr,
                          fmt::format("memcpy node {} changes between a 1-D and a 3-D copy", i)};
    }
    if (a.type == cudaGraphNodeTypeGraph) check_update(*a.child, *b.child);
    if (a.type == cudaGraphNodeTypeConditional) {
      if (a.condition_type != b.condition_type || a.bodies.size() != b.bodies.size()) {
        throw UpdateRefusal{cudaGraphExecUpdateErrorParametersChanged, &b, nullptr,
                            fmt::format("conditional node {} changes its kind or its number of bodies", i)};
      }
      if (a.condition != b.condition) {
        throw UpdateRefusal{cudaGraphExecUpdateErrorParametersChanged, &b, nullptr,
                            fmt::format("conditional node {} changes its handle", i)};
      }
      for (std::size_t k = 0; k < a.bodies.size(); ++k) check_update(*a.bodies[k], *b.bodies[k]);
    }
  }
}

void apply_update(CUgraph_st& exec, const CUgraph_st& with) {
  for (std::size_t i = 0; i < with.nodes.size(); ++i) {
    CUgraphNode_st& a = *exec.nodes[i];
    const CUgraphNode_st& b = *with.nodes[i];
    a.kernel = b.kernel;
    a.memcpy = b.memcpy;
    a.memset = b.memset;
    a.host = b.host;
    a.event = b.event;
    if (a.child) apply_update(*a.child, *b.child);
    for (std::size_t k = 0; k < a.bodies.size(); ++k) apply_update(*a.bodies[k], *b.bodies[k]);
  }
}

// ---- DOT ---------------------------------------------------------------------------------------------------------

std::string dot_escape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out;
}

std::string dot_label(const CUgraphNode_st& n, unsigned flags) {
  std::string label = fmt::format("{} node {}", type_name(n.type), n.index);
  const bool verbose = (flags & cudaGraphDebugDotFlagsVerbose) != 0;
  switch (n.type) {
    case cudaGraphNodeTypeKernel: {
      const KernelNodeData& k = n.kernel;
      label += fmt::format("\\n{}\\n<<<({},{},{}), ({},{},{}), {}>>>", dot_escape(k.kernel->name), k.grid.x, k.grid.y,
                           k.grid.z, k.block.x, k.block.y, k.block.z, k.shared_bytes);
      break;
    }
    case cudaGraphNodeTypeMemcpy: {
      const cudaMemcpy3DParms p = as_3d(n.memcpy);
      label += fmt::format("\\n{} {}x{}x{} bytes", kind_name(p.kind), p.extent.width, p.extent.height, p.extent.depth);
      if (verbose) label += fmt::format("\\n{} -> {}", p.srcPtr.ptr, p.dstPtr.ptr);
      break;
    }
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams& m = n.memset;
      label += fmt::format("\\nvalue {:#x}, {} x {} elements of {} bytes", m.value, m.width, m.height, m.elementSize);
      if (verbose) label += fmt::format("\\nat {}, pitch {}", m.dst, m.pitch);
      break;
    }
    case cudaGraphNodeTypeHost:
      label += fmt::format("\\nfunction {}", reinterpret_cast<const void*>(n.host.fn));
      break;
    case cudaGraphNodeTypeEventRecord:
    case cudaGraphNodeTypeWaitEvent:
      label += fmt::format("\\nevent {}", static_cast<const void*>(n.event));
      break;
    case cudaGraphNodeTypeMemAlloc:
      label += fmt::format("\\n{} bytes at {}", graph_allocation_bytes(*n.allocation), n.allocation->ptr());
      break;
    case cudaGraphNodeTypeMemFree:
      label += fmt::format("\\nfrees {}", n.allocation->ptr());
      break;
    case cudaGraphNodeTypeConditional: {
      static const char* kinds[] = {"if", "while", "switch"};
      label += fmt::format("\\n{}, {} bod{}", kinds[n.condition_type], n.bodies.size(), n.bodies.size() == 1 ? "y" : "ies");
      if (verbose) label += fmt::format("\\nhandle {}", static_cast<const void*>(n.condition.get()));
      break;
    }
    default:
      break;
  }
  return label;
}

void write_dot(std::string& out, const CUgraph_st& graph, const std::string& prefix, unsigned flags, int depth) {
  const std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
  for (const auto& n : graph.nodes) {
    const std::string name = fmt::format("{}n{}", prefix, n->index);
    out += fmt::format("{}\"{}\" [label=\"{}\"{}];\n", indent, name, dot_label(*n, flags),
                       n->type == cudaGraphNodeTypeGraph ? ", shape=box3d" : "");
    if (n->child) {
      const std::string inner = name + "_";
      out += fmt::format("{}subgraph \"cluster_{}\" {{\n{}  label=\"child graph of node {}\";\n", indent, name, indent,
                         n->index);
      write_dot(out, *n->child, inner, flags, depth + 1);
      out += indent + "}\n";
      for (const auto& c : n->child->nodes) {
        if (c->dependencies.empty()) out += fmt::format("{}\"{}\" -> \"{}n{}\" [style=dashed];\n", indent, name, inner, c->index);
      }
    }
    for (std::size_t k = 0; k < n->bodies.size(); ++k) {
      const std::string inner = fmt::format("{}_b{}_", name, k);
      out += fmt::format("{}subgraph \"cluster_{}_b{}\" {{\n{}  label=\"body {} of node {}\";\n", indent, name, k, indent, k,
                         n->index);
      write_dot(out, *n->bodies[k], inner, flags, depth + 1);
      out += indent + "}\n";
      for (const auto& c : n->bodies[k]->nodes) {
        if (c->dependencies.empty()) out += fmt::format("{}\"{}\" -> \"{}n{}\" [style=dotted];\n", indent, name, inner, c->index);
      }
    }
  }
  for (const auto& n : graph.nodes) {
    for (const CUgraphNode_st* d : n->dependencies) {
      out += fmt::format("{}\"{}n{}\" -> \"{}n{}\";\n", indent, prefix, d->index, prefix, n->index);
    }
  }
}

}  // namespace

std::mutex& graph_mutex() {
  static std::mutex* m = new std::mutex;  // never destroyed: graphs may outlive static destruction
  return *m;
}

CUgraphNode_st* add_node(CUgraph_st& graph, cudaGraphNodeType type, const std::vector<CUgraphNode_st*>& dependencies) {
  auto node = std::make_unique<CUgraphNode_st>();
  node->type = type;
  node->graph = &graph;
  node->index = static_cast<unsigned>(graph.nodes.size());
  node->dependencies = dependencies;
  for (CUgraphNode_st* d : dependencies) d->dependents.push_back(node.get());
  live_nodes.insert(node.get());
  graph.nodes.push_back(std::move(node));
  return graph.nodes.back().get();
}

KernelNodeData kernel_node_from_launch(const gpulab::detail::KernelRecord& kernel, dim3 grid, dim3 block,
                                       std::size_t shared_bytes, void* const* args,
                                       const gpulab::detail::ArgInfo* info, std::size_t count, bool instrumented) {
  check_configuration(grid, block, shared_bytes, kernel.name.c_str(), "kernel launch in a capturing stream");
  KernelNodeData data;
  data.kernel = &kernel;
  // The kernel's address in the compilation that launched it (what cudaGraphKernelNodeGetParams gives).
  const auto mine = instrumented ? gpulab::detail::KernelBackend::sim_checked : gpulab::detail::KernelBackend::sim;
  const auto other = instrumented ? gpulab::detail::KernelBackend::sim : gpulab::detail::KernelBackend::sim_checked;
  data.function = kernel.function[static_cast<int>(mine)];
  if (data.function == nullptr) data.function = kernel.function[static_cast<int>(other)];
  data.grid = grid;
  data.block = block;
  data.shared_bytes = static_cast<unsigned>(shared_bytes);
  data.args.reset(entry_of(kernel).clone_args(args));  // CUDA copies the parameters at capture too
  if (info != nullptr) data.info.assign(info, info + count);
  data.instrumented = instrumented;
  parameter_layouts[&kernel] = data.info;
  return data;
}

MemcpyNodeData memcpy_node_1d(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, const char* call) {
  check_memcpy_kind(kind, call);
  require(count == 0 || (dst != nullptr && src != nullptr), "a null pointer");
  // A range running past a device buffer is refused now, as the copy would be.
  state().device_range(dst, count, call);
  state().device_range(src, count, call);
  MemcpyNodeData m;
  m.one_d = true;
  m.dst = dst;
  m.src = src;
  m.count = count;
  m.kind = kind;
  return m;
}

MemcpyNodeData memcpy_node_3d(const cudaMemcpy3DParms& params, const char* call) {
  check_memcpy_kind(params.kind, call);
  if (params.srcArray == nullptr) require(params.srcPtr.ptr != nullptr, "srcPtr.ptr is null");
  if (params.dstArray == nullptr) require(params.dstPtr.ptr != nullptr, "dstPtr.ptr is null");
  const cudaExtent& e = params.extent;
  require(e.width > 0 && e.height > 0 && e.depth > 0, "the copy's extent is empty");
  if ((params.srcArray == nullptr && params.srcPos.x + e.width > params.srcPtr.pitch) ||
      (params.dstArray == nullptr && params.dstPos.x + e.width > params.dstPtr.pitch)) {
    throw ApiError(cudaErrorInvalidPitchValue, fmt::format("{}: x + width is more than a pitch", call));
  }
  MemcpyNodeData m;
  m.params = params;
  return m;
}

cudaMemsetParams checked_memset_params(const cudaMemsetParams& p, const char* call) {
  require(p.elementSize == 1 || p.elementSize == 2 || p.elementSize == 4, "elementSize must be 1, 2 or 4");
  require(p.width > 0 && p.height > 0, "width and height must be at least 1");
  require(p.dst != nullptr, "dst is null");
  require(reinterpret_cast<std::uintptr_t>(p.dst) % p.elementSize == 0, "dst is not aligned to elementSize");
  const std::size_t row = p.width * p.elementSize;
  if (p.height > 1 && p.pitch < row) {
    throw ApiError(cudaErrorInvalidPitchValue,
                   fmt::format("{}: pitch {} is less than a row of {} bytes", call, p.pitch, row));
  }
  if (p.elementSize < 4) {
    require(p.value < (1u << (8 * p.elementSize)), "value does not fit in elementSize bytes");
  }
  if (state().device_range(p.dst, (p.height - 1) * p.pitch + row, call) == nullptr) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: {} is not device memory", call, p.dst));
  }
  cudaMemsetParams out = p;
  if (out.height == 1) out.pitch = std::max(out.pitch, row);
  return out;
}

std::unique_ptr<CUgraph_st> clone_graph(const CUgraph_st& graph, std::map<const CUgraphNode_st*, CUgraphNode_st*>* copy_of) {
  auto out = std::make_unique<CUgraph_st>();
  out->is_child = graph.is_child;
  std::map<const CUgraphNode_st*, CUgraphNode_st*> mine;
  for (const auto& n : graph.nodes) {
    std::vector<CUgraphNode_st*> deps;
    for (const CUgraphNode_st* d : n->dependencies) deps.push_back(mine.at(d));
    CUgraphNode_st* c = add_node(*out, n->type, deps);
    c->kernel = n->kernel;
    c->memcpy = n->memcpy;
    c->memset = n->memset;
    c->host = n->host;
    c->event = n->event;
    c->allocation = n->allocation;
    c->cloned_from = n.get();
    if (n->child) c->child = clone_graph(*n->child, copy_of);
    c->condition_type = n->condition_type;
    c->condition = n->condition;
    for (const auto& body : n->bodies) {
      c->bodies.push_back(clone_graph(*body, copy_of));
      c->bodies.back()->parent_graph = out.get();
      c->body_handles.push_back(c->bodies.back().get());
    }
    mine[n.get()] = c;
    if (copy_of != nullptr) (*copy_of)[n.get()] = c;
  }
  for (const auto& [object, count] : graph.user_objects) {
    object->references.fetch_add(count);
    out->user_objects[object] = count;
  }
  out->conditional_handles = graph.conditional_handles;
  return out;
}

CUgraph_st& checked_graph(cudaGraph_t graph, const char* call) {
  if (graph == nullptr || live_graphs.count(graph) == 0) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: not a graph (or destroyed)", call));
  }
  return *graph;
}

void require_default_edges(const cudaGraphEdgeData* edges, std::size_t count, const char* call) {
  if (edges == nullptr) return;
  for (std::size_t i = 0; i < count; ++i) {
    const cudaGraphEdgeData& e = edges[i];
    if (e.from_port != 0 || e.to_port != 0 || e.type != cudaGraphDependencyTypeDefault) {
      throw Unsupported(fmt::format("{} with edge data other than default edges (programmatic dependent launch "
                                    "ports and edge types)",
                                    call));
    }
    for (const unsigned char r : e.reserved) require(r == 0, "cudaGraphEdgeData::reserved must be zero");
  }
}

}  // namespace gpulab::sim::cuda::detail

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

CUgraph_st::CUgraph_st() : id(next_graph_id++) { live_graphs.insert(this); }

CUgraph_st::~CUgraph_st() {
  for (const auto& n : nodes) live_nodes.erase(n.get());
  live_graphs.erase(this);
  for (const auto& [object, count] : user_objects) release_user_object(object, count);
}

// ---- graphs --------------------------------------------------------------------------------------------------------

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
  return api_call("cudaGraphCreate", [&] {
    require(pGraph != nullptr, "pGraph is null");
    require(flags == 0, "flags must be 0");
    std::lock_guard lock(graph_mutex());
    *pGraph = new CUgraph_st;
  });
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  return api_call("cudaGraphDestroy", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraph_st& g = checked_graph(graph, "cudaGraphDestroy");
    require(!g.is_child, "the graph belongs to a child graph or conditional node; destroy the graph that holds it");
    delete &g;
  });
}

cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
  return api_call("cudaGraphClone", [&] {
    require(pGraphClone != nullptr, "pGraphClone is null");
    std::lock_guard lock(graph_mutex());
    std::unique_ptr<CUgraph_st> copy = clone_graph(checked_graph(originalGraph, "cudaGraphClone"));
    copy->is_child = false;
    *pGraphClone = copy.release();
  });
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t* pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph) {
  return api_call("cudaGraphNodeFindInClone", [&] {
    require(pNode != nullptr, "pNode is null");
    std::lock_guard lock(graph_mutex());
    const CUgraph_st& g = checked_graph(clonedGraph, "cudaGraphNodeFindInClone");
    checked_node(originalNode, "cudaGraphNodeFindInClone");
    for (const auto& n : g.nodes) {
      if (n->cloned_from == originalNode) {
        *pNode = n.get();
        return;
      }
    }
    throw ApiError(cudaErrorInvalidValue, "the graph is not a clone of the node's graph");
  });
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
  return api_call("cudaGraphDestroyNode", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphNode_st& n = checked_node(node, "cudaGraphDestroyNode");
    for (CUgraphNode_st* d : n.dependencies) std::erase(d->dependents, &n);
    for (CUgraphNode_st* d : n.dependents) std::erase(d->dependencies, &n);
    CUgraph_st& g = *n.graph;
    live_nodes.erase(&n);
    std::erase_if(g.nodes, [&](const auto& p) { return p.get() == &n; });
    for (std::size_t i = 0; i < g.nodes.size(); ++i) g.nodes[i]->index = static_cast<unsigned>(i);
  });
}

// ---- adding nodes ---------------------------------------------------------------------------------------------------

namespace {

template <class Fill>
cudaError_t add_node_call(const char* call, cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                          const cudaGraphNode_t* pDependencies, std::size_t numDependencies, cudaGraphNodeType type,
                          Fill&& fill) {
  return api_call(call, [&] {
    require(pGraphNode != nullptr, "pGraphNode is null");
    std::lock_guard lock(graph_mutex());
    CUgraph_st& g = checked_graph(graph, call);
    const auto deps = checked_dependencies(g, pDependencies, numDependencies, call);
    CUgraphNode_st scratch;  // filled (and validated) before the node joins the graph
    fill(scratch);
    CUgraphNode_st* n = add_node(g, type, deps);
    n->kernel = std::move(scratch.kernel);
    n->memcpy = scratch.memcpy;
    n->memset = scratch.memset;
    n->host = scratch.host;
    n->event = scratch.event;
    n->child = std::move(scratch.child);
    n->allocation = std::move(scratch.allocation);
    n->condition_type = scratch.condition_type;
    n->condition = std::move(scratch.condition);
    n->bodies = std::move(scratch.bodies);
    n->body_handles = std::move(scratch.body_handles);
    *pGraphNode = n;
  });
}

}  // namespace

cudaError_t gpulab::sim::cuda::detail::add_conditional_node(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                                          const cudaGraphNode_t* pDependencies,
                                                          std::size_t numDependencies, cudaConditionalNodeParams& params) {
  return add_node_call("cudaGraphAddNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeConditional, [&](CUgraphNode_st& n) {
                         make_conditional_node(n, *graph, params);
                         params.phGraph_out = n.body_handles.data();  // stays put: the vector moves whole
                       });
}

namespace {

cudaHostNodeParams checked_host_params(const cudaHostNodeParams* p) {
  require(p != nullptr, "pNodeParams is null");
  require(p->fn != nullptr, "cudaHostNodeParams::fn is null");
  return *p;
}

}  // namespace

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   std::size_t numDependencies, const cudaKernelNodeParams* pNodeParams) {
  return add_node_call("cudaGraphAddKernelNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeKernel, [&](CUgraphNode_st& n) {
                         require(pNodeParams != nullptr, "pNodeParams is null");
                         n.kernel = kernel_node_from_params(*pNodeParams, "cudaGraphAddKernelNode");
                       });
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   std::size_t numDependencies, const cudaMemcpy3DParms* pCopyParams) {
  return add_node_call("cudaGraphAddMemcpyNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeMemcpy, [&](CUgraphNode_st& n) {
                         require(pCopyParams != nullptr, "pCopyParams is null");
                         n.memcpy = memcpy_node_3d(*pCopyParams, "cudaGraphAddMemcpyNode");
                       });
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, std::size_t numDependencies, void* dst,
                                     const void* src, std::size_t count, cudaMemcpyKind kind) {
  return add_node_call("cudaGraphAddMemcpyNode1D", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeMemcpy, [&](CUgraphNode_st& n) {
                         n.memcpy = memcpy_node_1d(dst, src, count, kind, "cudaGraphAddMemcpyNode1D");
                       });
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                   std::size_t numDependencies, const cudaMemsetParams* pMemsetParams) {
  return add_node_call("cudaGraphAddMemsetNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeMemset, [&](CUgraphNode_st& n) {
                         require(pMemsetParams != nullptr, "pMemsetParams is null");
                         n.memset = checked_memset_params(*pMemsetParams, "cudaGraphAddMemsetNode");
                       });
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 std::size_t numDependencies, const cudaHostNodeParams* pNodeParams) {
  return add_node_call("cudaGraphAddHostNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeHost, [&](CUgraphNode_st& n) { n.host = checked_host_params(pNodeParams); });
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t* pDependencies, std::size_t numDependencies,
                                       cudaGraph_t childGraph) {
  return add_node_call("cudaGraphAddChildGraphNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeGraph, [&](CUgraphNode_st& n) {
                         const CUgraph_st& child = checked_graph(childGraph, "cudaGraphAddChildGraphNode");
                         require(&child != graph, "a graph cannot be its own child");
                         n.child = clone_graph(child);  // CUDA clones the child graph into the node
                         n.child->is_child = true;
                       });
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                  std::size_t numDependencies) {
  return add_node_call("cudaGraphAddEmptyNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeEmpty, [](CUgraphNode_st&) {});
}

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, std::size_t numDependencies,
                                     cudaMemAllocNodeParams* nodeParams) {
  return add_node_call("cudaGraphAddMemAllocNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeMemAlloc, [&](CUgraphNode_st& n) {
                         require(nodeParams != nullptr, "nodeParams is null");
                         n.allocation = make_graph_allocation(*nodeParams, "cudaGraphAddMemAllocNode");
                       });
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams* params_out) {
  return api_call("cudaGraphMemAllocNodeGetParams", [&] {
    require(params_out != nullptr, "params_out is null");
    std::lock_guard lock(graph_mutex());
    const CUgraphNode_st& n = checked_node_of(node, cudaGraphNodeTypeMemAlloc, "cudaGraphMemAllocNodeGetParams");
    *params_out = cudaMemAllocNodeParams{};
    params_out->poolProps.allocType = cudaMemAllocationTypePinned;
    params_out->poolProps.location = cudaMemLocation{cudaMemLocationTypeDevice, 0};
    params_out->bytesize = graph_allocation_bytes(*n.allocation);
    params_out->dptr = n.allocation->ptr();
  });
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t* pDependencies, std::size_t numDependencies, void* dptr) {
  return add_node_call("cudaGraphAddMemFreeNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeMemFree, [&](CUgraphNode_st& n) {
                         n.allocation = graph_allocation_at(dptr, "cudaGraphAddMemFreeNode");
                       });
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr_out) {
  return api_call("cudaGraphMemFreeNodeGetParams", [&] {
    require(dptr_out != nullptr, "dptr_out is null");
    std::lock_guard lock(graph_mutex());
    const CUgraphNode_st& n = checked_node_of(node, cudaGraphNodeTypeMemFree, "cudaGraphMemFreeNodeGetParams");
    *static_cast<void**>(dptr_out) = n.allocation->ptr();
  });
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t* pDependencies, std::size_t numDependencies,
                                        cudaEvent_t event) {
  return add_node_call("cudaGraphAddEventRecordNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeEventRecord, [&](CUgraphNode_st& n) { n.event = checked_event(event); });
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t* pDependencies, std::size_t numDependencies,
                                      cudaEvent_t event) {
  return add_node_call("cudaGraphAddEventWaitNode", pGraphNode, graph, pDependencies, numDependencies,
                       cudaGraphNodeTypeWaitEvent, [&](CUgraphNode_st& n) { n.event = checked_event(event); });
}

// ---- node parameters --------------------------------------------------------------------------------------------------

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams* pNodeParams) {
  return api_call("cudaGraphKernelNodeGetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    const KernelNodeData& k = checked_node_of(node, cudaGraphNodeTypeKernel, "cudaGraphKernelNodeGetParams").kernel;
    // kernelParams points to the node's own copy of the values, as CUDA's does.
    *pNodeParams = cudaKernelNodeParams{const_cast<void*>(k.function), k.grid, k.block, k.shared_bytes,
                                        const_cast<void**>(k.args->pointers()), nullptr};
  });
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams* pNodeParams) {
  return api_call("cudaGraphKernelNodeSetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    CUgraphNode_st& n = checked_node_of(node, cudaGraphNodeTypeKernel, "cudaGraphKernelNodeSetParams");
    n.kernel = kernel_node_from_params(*pNodeParams, "cudaGraphKernelNodeSetParams");
  });
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, cudaMemcpy3DParms* pNodeParams) {
  return api_call("cudaGraphMemcpyNodeGetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    *pNodeParams = as_3d(checked_node_of(node, cudaGraphNodeTypeMemcpy, "cudaGraphMemcpyNodeGetParams").memcpy);
  });
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const cudaMemcpy3DParms* pNodeParams) {
  return api_call("cudaGraphMemcpyNodeSetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    CUgraphNode_st& n = checked_node_of(node, cudaGraphNodeTypeMemcpy, "cudaGraphMemcpyNodeSetParams");
    n.memcpy = memcpy_node_3d(*pNodeParams, "cudaGraphMemcpyNodeSetParams");
  });
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src, std::size_t count,
                                           cudaMemcpyKind kind) {
  return api_call("cudaGraphMemcpyNodeSetParams1D", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphNode_st& n = checked_node_of(node, cudaGraphNodeTypeMemcpy, "cudaGraphMemcpyNodeSetParams1D");
    n.memcpy = memcpy_node_1d(dst, src, count, kind, "cudaGraphMemcpyNodeSetParams1D");
  });
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, cudaMemsetParams* pNodeParams) {
  return api_call("cudaGraphMemsetNodeGetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    *pNodeParams = checked_node_of(node, cudaGraphNodeTypeMemset, "cudaGraphMemsetNodeGetParams").memset;
  });
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const cudaMemsetParams* pNodeParams) {
  return api_call("cudaGraphMemsetNodeSetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    CUgraphNode_st& n = checked_node_of(node, cudaGraphNodeTypeMemset, "cudaGraphMemsetNodeSetParams");
    n.memset = checked_memset_params(*pNodeParams, "cudaGraphMemsetNodeSetParams");
  });
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, cudaHostNodeParams* pNodeParams) {
  return api_call("cudaGraphHostNodeGetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    *pNodeParams = checked_node_of(node, cudaGraphNodeTypeHost, "cudaGraphHostNodeGetParams").host;
  });
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const cudaHostNodeParams* pNodeParams) {
  return api_call("cudaGraphHostNodeSetParams", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphNode_st& n = checked_node_of(node, cudaGraphNodeTypeHost, "cudaGraphHostNodeSetParams");
    n.host = checked_host_params(pNodeParams);
  });
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* pGraph) {
  return api_call("cudaGraphChildGraphNodeGetGraph", [&] {
    require(pGraph != nullptr, "pGraph is null");
    std::lock_guard lock(graph_mutex());
    // Not a copy: changes to it change the node, which keeps owning it.
    *pGraph = checked_node_of(node, cudaGraphNodeTypeGraph, "cudaGraphChildGraphNodeGetGraph").child.get();
  });
}

namespace {

cudaError_t get_event(cudaGraphNode_t node, cudaEvent_t* event_out, cudaGraphNodeType type, const char* call) {
  return api_call(call, [&] {
    require(event_out != nullptr, "event_out is null");
    std::lock_guard lock(graph_mutex());
    *event_out = checked_node_of(node, type, call).event;
  });
}

cudaError_t set_event(cudaGraphNode_t node, cudaEvent_t event, cudaGraphNodeType type, const char* call) {
  return api_call(call, [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphNode_st& n = checked_node_of(node, type, call);
    n.event = checked_event(event);
  });
}

}  // namespace

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return get_event(node, event_out, cudaGraphNodeTypeEventRecord, "cudaGraphEventRecordNodeGetEvent");
}
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(node, event, cudaGraphNodeTypeEventRecord, "cudaGraphEventRecordNodeSetEvent");
}
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
  return get_event(node, event_out, cudaGraphNodeTypeWaitEvent, "cudaGraphEventWaitNodeGetEvent");
}
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
  return set_event(node, event, cudaGraphNodeTypeWaitEvent, "cudaGraphEventWaitNodeSetEvent");
}

// ---- structure ---------------------------------------------------------------------------------------------------

namespace {

// CUDA's convention for the listing calls: with a null array, the count; else up to *count entries,
// the rest of the array nulled, and *count set to the number written.
template <class T, class Get>
void list_out(const std::vector<T>& all, T* out, cudaGraphEdgeData* edges, std::size_t* count, Get&& get) {
  require(count != nullptr, "the count pointer is null");
  if (out == nullptr) {
    *count = all.size();
    return;
  }
  const std::size_t n = std::min(*count, all.size());
  for (std::size_t i = 0; i < *count; ++i) {
    out[i] = i < n ? get(all[i]) : T{};
    if (edges != nullptr) edges[i] = cudaGraphEdgeData{};
  }
  *count = n;
}

}  // namespace

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType* pType) {
  return api_call("cudaGraphNodeGetType", [&] {
    require(pType != nullptr, "pType is null");
    std::lock_guard lock(graph_mutex());
    *pType = checked_node(node, "cudaGraphNodeGetType").type;
  });
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, std::size_t* numNodes) {
  return api_call("cudaGraphGetNodes", [&] {
    std::lock_guard lock(graph_mutex());
    std::vector<cudaGraphNode_t> all;
    for (const auto& n : checked_graph(graph, "cudaGraphGetNodes").nodes) all.push_back(n.get());
    list_out(all, nodes, nullptr, numNodes, [](cudaGraphNode_t n) { return n; });
  });
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes, std::size_t* pNumRootNodes) {
  return api_call("cudaGraphGetRootNodes", [&] {
    std::lock_guard lock(graph_mutex());
    std::vector<cudaGraphNode_t> roots;
    for (const auto& n : checked_graph(graph, "cudaGraphGetRootNodes").nodes) {
      if (n->dependencies.empty()) roots.push_back(n.get());
    }
    list_out(roots, pRootNodes, nullptr, pNumRootNodes, [](cudaGraphNode_t n) { return n; });
  });
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to, cudaGraphEdgeData* edgeData,
                              std::size_t* numEdges) {
  return api_call("cudaGraphGetEdges", [&] {
    require((from == nullptr) == (to == nullptr), "from and to must be both null or both given");
    std::lock_guard lock(graph_mutex());
    std::vector<std::pair<cudaGraphNode_t, cudaGraphNode_t>> edges;
    for (const auto& n : checked_graph(graph, "cudaGraphGetEdges").nodes) {
      for (CUgraphNode_st* d : n->dependencies) edges.emplace_back(d, n.get());
    }
    require(numEdges != nullptr, "numEdges is null");
    if (from == nullptr) {
      *numEdges = edges.size();
      return;
    }
    const std::size_t n = std::min(*numEdges, edges.size());
    for (std::size_t i = 0; i < *numEdges; ++i) {
      from[i] = i < n ? edges[i].first : nullptr;
      to[i] = i < n ? edges[i].second : nullptr;
      if (edgeData != nullptr) edgeData[i] = cudaGraphEdgeData{};
    }
    *numEdges = n;
  });
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* pDependencies,
                                         cudaGraphEdgeData* edgeData, std::size_t* pNumDependencies) {
  return api_call("cudaGraphNodeGetDependencies", [&] {
    std::lock_guard lock(graph_mutex());
    const CUgraphNode_st& n = checked_node(node, "cudaGraphNodeGetDependencies");
    list_out(n.dependencies, pDependencies, edgeData, pNumDependencies, [](CUgraphNode_st* d) { return d; });
  });
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* pDependentNodes,
                                           cudaGraphEdgeData* edgeData, std::size_t* pNumDependentNodes) {
  return api_call("cudaGraphNodeGetDependentNodes", [&] {
    std::lock_guard lock(graph_mutex());
    const CUgraphNode_st& n = checked_node(node, "cudaGraphNodeGetDependentNodes");
    list_out(n.dependents, pDependentNodes, edgeData, pNumDependentNodes, [](CUgraphNode_st* d) { return d; });
  });
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     const cudaGraphEdgeData* edgeData, std::size_t numDependencies) {
  return api_call("cudaGraphAddDependencies", [&] {
    require(numDependencies == 0 || (from != nullptr && to != nullptr), "from or to is null");
    require_default_edges(edgeData, numDependencies, "cudaGraphAddDependencies");
    std::lock_guard lock(graph_mutex());
    CUgraph_st& g = checked_graph(graph, "cudaGraphAddDependencies");
    for (std::size_t i = 0; i < numDependencies; ++i) {
      CUgraphNode_st& a = checked_node(from[i], "cudaGraphAddDependencies");
      CUgraphNode_st& b = checked_node(to[i], "cudaGraphAddDependencies");
      require(a.graph == &g && b.graph == &g, "a node is not in the graph");
      require(&a != &b, "a node cannot depend on itself");
      require(std::find(b.dependencies.begin(), b.dependencies.end(), &a) == b.dependencies.end(),
              "the edge exists already");
      b.dependencies.push_back(&a);
      a.dependents.push_back(&b);
    }
  });
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                        const cudaGraphEdgeData* edgeData, std::size_t numDependencies) {
  return api_call("cudaGraphRemoveDependencies", [&] {
    require(numDependencies == 0 || (from != nullptr && to != nullptr), "from or to is null");
    require_default_edges(edgeData, numDependencies, "cudaGraphRemoveDependencies");
    std::lock_guard lock(graph_mutex());
    CUgraph_st& g = checked_graph(graph, "cudaGraphRemoveDependencies");
    for (std::size_t i = 0; i < numDependencies; ++i) {
      CUgraphNode_st& a = checked_node(from[i], "cudaGraphRemoveDependencies");
      CUgraphNode_st& b = checked_node(to[i], "cudaGraphRemoveDependencies");
      require(a.graph == &g && b.graph == &g, "a node is not in the graph");
      require(std::find(b.dependencies.begin(), b.dependencies.end(), &a) != b.dependencies.end(),
              "there is no such edge");
      std::erase(b.dependencies, &a);
      std::erase(a.dependents, &b);
    }
  });
}

// CUDA 12's forms, without edge data.
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                     std::size_t numDependencies) {
  return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);
}
cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from, const cudaGraphNode_t* to,
                                        std::size_t numDependencies) {
  return cudaGraphRemoveDependencies(graph, from, to, nullptr, numDependencies);
}
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to, std::size_t* numEdges) {
  return cudaGraphGetEdges(graph, from, to, nullptr, numEdges);
}
cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* pDependencies,
                                         std::size_t* pNumDependencies) {
  return cudaGraphNodeGetDependencies(node, pDependencies, nullptr, pNumDependencies);
}
cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* pDependentNodes,
                                           std::size_t* pNumDependentNodes) {
  return cudaGraphNodeGetDependentNodes(node, pDependentNodes, nullptr, pNumDependentNodes);
}

// ---- executable graphs ----------------------------------------------------------------------------------------------

namespace {

constexpr unsigned long long accepted_instantiate_flags =
    cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload | cudaGraphInstantiateFlagUseNodePriority;

// Graphs without memory nodes have nothing to free on launch; priorities are not scheduled by the
// simulator; an upload has nothing to move (the sim device's memory is the host's).
CUgraphExec_st* instantiate(CUgraph_st& graph, unsigned long long flags, const char* call) {
  if ((flags & cudaGraphInstantiateFlagDeviceLaunch) != 0) {
    throw Unsupported(fmt::format("{} with cudaGraphInstantiateFlagDeviceLaunch (graphs launched from device code)", call));
  }
  require((flags & ~accepted_instantiate_flags) == 0, "unknown cudaGraphInstantiateFlags");
  check_acyclic(graph);
  check_conditional_bodies(graph);
  auto exec = std::make_unique<CUgraphExec_st>();
  exec->graph = clone_graph(graph, &exec->copy_of);
  exec->flags = flags;
  live_execs.insert(exec.get());
  return exec.release();
}

}  // namespace

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  return api_call("cudaGraphInstantiate", [&] {
    require(pGraphExec != nullptr, "pGraphExec is null");
    std::lock_guard lock(graph_mutex());
    *pGraphExec = instantiate(checked_graph(graph, "cudaGraphInstantiate"), flags, "cudaGraphInstantiate");
  });
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  return api_call("cudaGraphInstantiateWithFlags", [&] {
    require(pGraphExec != nullptr, "pGraphExec is null");
    std::lock_guard lock(graph_mutex());
    *pGraphExec =
        instantiate(checked_graph(graph, "cudaGraphInstantiateWithFlags"), flags, "cudaGraphInstantiateWithFlags");
  });
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams* instantiateParams) {
  if (instantiateParams == nullptr || pGraphExec == nullptr) {
    return api_call("cudaGraphInstantiateWithParams", [] { require(false, "pGraphExec or instantiateParams is null"); });
  }
  instantiateParams->errNode_out = nullptr;
  const cudaError_t code = api_call("cudaGraphInstantiateWithParams", [&] {
    std::lock_guard lock(graph_mutex());
    *pGraphExec = instantiate(checked_graph(graph, "cudaGraphInstantiateWithParams"), instantiateParams->flags,
                              "cudaGraphInstantiateWithParams");
  });
  instantiateParams->result_out = code == cudaSuccess                            ? cudaGraphInstantiateSuccess
                                  : code == cudaErrorInvalidValue                 ? cudaGraphInstantiateInvalidStructure
                                  : code == cudaErrorNotSupported                 ? cudaGraphInstantiateNodeOperationNotSupported
                                                                                  : cudaGraphInstantiateError;
  if (code == cudaSuccess && (instantiateParams->flags & cudaGraphInstantiateFlagUpload) != 0) {
    return cudaGraphUpload(*pGraphExec, instantiateParams->uploadStream);
  }
  return code;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, cudaGraphNode_t* pErrorNode,
                                 char* pLogBuffer, std::size_t bufferSize) {
  note_once("cudaGraphInstantiate(pGraphExec, graph, pErrorNode, pLogBuffer, bufferSize)",
            "is CUDA 11's form, removed by CUDA 12; it runs as cudaGraphInstantiate(pGraphExec, graph, 0)");
  if (pErrorNode != nullptr) *pErrorNode = nullptr;
  const cudaError_t code = cudaGraphInstantiate(pGraphExec, graph, 0ULL);
  if (pLogBuffer != nullptr && bufferSize > 0) {
    std::snprintf(pLogBuffer, bufferSize, "%s", code == cudaSuccess ? "" : cudaGetErrorString(code));
  }
  return code;
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long* flags) {
  return api_call("cudaGraphExecGetFlags", [&] {
    require(flags != nullptr, "flags is null");
    std::lock_guard lock(graph_mutex());
    *flags = checked_exec(graphExec, "cudaGraphExecGetFlags").flags;
  });
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  return api_call("cudaGraphExecDestroy", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphExec_st& exec = checked_exec(graphExec, "cudaGraphExecDestroy");
    live_execs.erase(&exec);
    // A user object's destructor runs once the launches that may use it are done.
    if (!exec.graph->user_objects.empty()) gpulab::detail::backend_for(gpulab::DeviceKind::sim).synchronize_device(0);
    delete &exec;
  });
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return api_call("cudaGraphUpload", [&] {
    std::lock_guard lock(graph_mutex());
    checked_exec(graphExec, "cudaGraphUpload");
    state().resolve(stream);  // a valid stream; there is nothing to upload to the sim device
  });
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  return api_call("cudaGraphLaunch", [&] {
    const CUgraph_st* graph = nullptr;
    {
      std::lock_guard lock(graph_mutex());
      const CUgraphExec_st& exec = checked_exec(graphExec, "cudaGraphLaunch");
      graph = exec.graph.get();
      state().resolve(stream);
      if (capture_child_graph(stream, *graph)) return;  // launched into a capture: a child graph node
      assign_conditional_defaults(*graph);
      if ((exec.flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0) {
        for (const auto& n : graph->nodes) {
          if (n->type == cudaGraphNodeTypeMemAlloc) free_before_relaunch(*n->allocation);
        }
      }
    }
    // Without the lock: the nodes are runtime calls, which take part in captures of other streams.
    run_graph(*graph, stream);
  });
}

// ---- executable graph updates -----------------------------------------------------------------------------------------

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams* pNodeParams) {
  return api_call("cudaGraphExecKernelNodeSetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    CUgraphExec_st& exec = checked_exec(hGraphExec, "cudaGraphExecKernelNodeSetParams");
    CUgraphNode_st& n = exec_copy(exec, node, cudaGraphNodeTypeKernel, "cudaGraphExecKernelNodeSetParams");
    n.kernel = kernel_node_from_params(*pNodeParams, "cudaGraphExecKernelNodeSetParams");
  });
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaMemcpy3DParms* pNodeParams) {
  return api_call("cudaGraphExecMemcpyNodeSetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    CUgraphExec_st& exec = checked_exec(hGraphExec, "cudaGraphExecMemcpyNodeSetParams");
    CUgraphNode_st& n = exec_copy(exec, node, cudaGraphNodeTypeMemcpy, "cudaGraphExecMemcpyNodeSetParams");
    n.memcpy = memcpy_node_3d(*pNodeParams, "cudaGraphExecMemcpyNodeSetParams");
  });
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void* dst,
                                               const void* src, std::size_t count, cudaMemcpyKind kind) {
  return api_call("cudaGraphExecMemcpyNodeSetParams1D", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphExec_st& exec = checked_exec(hGraphExec, "cudaGraphExecMemcpyNodeSetParams1D");
    CUgraphNode_st& n = exec_copy(exec, node, cudaGraphNodeTypeMemcpy, "cudaGraphExecMemcpyNodeSetParams1D");
    n.memcpy = memcpy_node_1d(dst, src, count, kind, "cudaGraphExecMemcpyNodeSetParams1D");
  });
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaMemsetParams* pNodeParams) {
  return api_call("cudaGraphExecMemsetNodeSetParams", [&] {
    require(pNodeParams != nullptr, "pNodeParams is null");
    std::lock_guard lock(graph_mutex());
    CUgraphExec_st& exec = checked_exec(hGraphExec, "cudaGraphExecMemsetNodeSetParams");
    CUgraphNode_st& n = exec_copy(exec, node, cudaGraphNodeTypeMemset, "cudaGraphExecMemsetNodeSetParams");
    n.memset = checked_memset_params(*pNodeParams, "cudaGraphExecMemsetNodeSetParams");
  });
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const cudaHostNodeParams* pNodeParams) {
  return api_call("cudaGraphExecHostNodeSetParams", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphExec_st& exec = checked_exec(hGraphExec, "cudaGraphExecHostNodeSetParams");
    exec_copy(exec, node, cudaGraphNodeTypeHost, "cudaGraphExecHostNodeSetParams").host = checked_host_params(pNodeParams);
  });
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event) {
  return api_call("cudaGraphExecEventRecordNodeSetEvent", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphExec_st& exec = checked_exec(hGraphExec, "cudaGraphExecEventRecordNodeSetEvent");
    exec_copy(exec, hNode, cudaGraphNodeTypeEventRecord, "cudaGraphExecEventRecordNodeSetEvent").event =
        checked_event(event);
  });
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode, cudaEvent_t event) {
  return api_call("cudaGraphExecEventWaitNodeSetEvent", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphExec_st& exec = checked_exec(hGraphExec, "cudaGraphExecEventWaitNodeSetEvent");
    exec_copy(exec, hNode, cudaGraphNodeTypeWaitEvent, "cudaGraphExecEventWaitNodeSetEvent").event =
        checked_event(event);
  });
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphExecUpdateResultInfo* resultInfo) {
  return api_call("cudaGraphExecUpdate", [&] {
    std::lock_guard lock(graph_mutex());
    CUgraphExec_st& exec = checked_exec(hGraphExec, "cudaGraphExecUpdate");
    const CUgraph_st& with = checked_graph(hGraph, "cudaGraphExecUpdate");
    if (resultInfo != nullptr) *resultInfo = cudaGraphExecUpdateResultInfo{cudaGraphExecUpdateSuccess, nullptr, nullptr};
    try {
      check_update(*exec.graph, with);
    } catch (const UpdateRefusal& r) {
      if (resultInfo != nullptr) {
        *resultInfo = cudaGraphExecUpdateResultInfo{r.result, const_cast<CUgraphNode_st*>(r.node),
                                                    const_cast<CUgraphNode_st*>(r.from)};
      }
      throw ApiError(cudaErrorGraphExecUpdateFailure, fmt::format("{}; the executable graph "
                                                                  "is unchanged",
                                                                  r.why));
    }
    apply_update(*exec.graph, with);
  });
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph, cudaGraphNode_t* hErrorNode_out,
                                cudaGraphExecUpdateResult* updateResult_out) {
  note_once("cudaGraphExecUpdate(hGraphExec, hGraph, hErrorNode_out, updateResult_out)",
            "is CUDA 11's form, removed by CUDA 12; it runs as the form with cudaGraphExecUpdateResultInfo");
  cudaGraphExecUpdateResultInfo info{};
  const cudaError_t code = cudaGraphExecUpdate(hGraphExec, hGraph, &info);
  if (hErrorNode_out != nullptr) *hErrorNode_out = info.errorNode;
  if (updateResult_out != nullptr) *updateResult_out = info.result;
  return code;
}

// ---- DOT --------------------------------------------------------------------------------------------------------------

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char* path, unsigned int flags) {
  return api_call("cudaGraphDebugDotPrint", [&] {
    require(path != nullptr, "path is null");
    std::string text;
    {
      std::lock_guard lock(graph_mutex());
      const CUgraph_st& g = checked_graph(graph, "cudaGraphDebugDotPrint");
      const std::string prefix = fmt::format("graph_{}_", g.id);
      text = fmt::format("digraph \"graph_{}\" {{\n  label=\"graph {} ({} nodes)\";\n  node [shape=rectangle];\n", g.id,
                         g.id, g.nodes.size());
      write_dot(text, g, prefix, flags, 1);
      text += "}\n";
    }
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      throw ApiError(cudaErrorOperatingSystem, fmt::format("cudaGraphDebugDotPrint: cannot write {}", path));
    }
  });
}

// ---- user objects ------------------------------------------------------------------------------------------------------

namespace {

CUuserObject_st& checked_user_object(cudaUserObject_t object, const char* call) {
  if (object == nullptr || live_user_objects.count(object) == 0) {
    throw ApiError(cudaErrorInvalidValue, fmt::format("{}: not a user object (or released)", call));
  }
  return *object;
}

}  // namespace

cudaError_t cudaUserObjectCreate(cudaUserObject_t* object_out, void* ptr, cudaHostFn_t destroy,
                                 unsigned int initialRefcount, unsigned int flags) {
  return api_call("cudaUserObjectCreate", [&] {
    require(object_out != nullptr, "object_out is null");
    require(destroy != nullptr, "destroy is null");
    require(initialRefcount > 0, "initialRefcount must be at least 1");
    // CUDA requires this flag: the destructor may run on any thread, with no CUDA call in it.
    require(flags == cudaUserObjectNoDestructorSync, "flags must be cudaUserObjectNoDestructorSync");
    std::lock_guard lock(graph_mutex());
    auto* object = new CUuserObject_st;
    object->ptr = ptr;
    object->destroy = destroy;
    object->references = initialRefcount;
    live_user_objects.insert(object);
    *object_out = object;
  });
}

cudaError_t cudaUserObjectRetain(cudaUserObject_t object, unsigned int count) {
  return api_call("cudaUserObjectRetain", [&] {
    require(count > 0, "count must be at least 1");
    std::lock_guard lock(graph_mutex());
    checked_user_object(object, "cudaUserObjectRetain").references.fetch_add(count);
  });
}

cudaError_t cudaUserObjectRelease(cudaUserObject_t object, unsigned int count) {
  return api_call("cudaUserObjectRelease", [&] {
    require(count > 0, "count must be at least 1");
    std::lock_guard lock(graph_mutex());
    CUuserObject_st& o = checked_user_object(object, "cudaUserObjectRelease");
    require(o.references.load() >= count, "count is more than the references held");
    release_user_object(&o, count);
  });
}

cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count, unsigned int flags) {
  return api_call("cudaGraphRetainUserObject", [&] {
    require(count > 0, "count must be at least 1");
    require(flags == 0 || flags == cudaGraphUserObjectMove, "flags must be 0 or cudaGraphUserObjectMove");
    std::lock_guard lock(graph_mutex());
    CUgraph_st& g = checked_graph(graph, "cudaGraphRetainUserObject");
    CUuserObject_st& o = checked_user_object(object, "cudaGraphRetainUserObject");
    // With cudaGraphUserObjectMove the caller's references pass to the graph; otherwise new ones.
    if (flags != cudaGraphUserObjectMove) o.references.fetch_add(count);
    g.user_objects[&o] += count;
  });
}

cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t object, unsigned int count) {
  return api_call("cudaGraphReleaseUserObject", [&] {
    require(count > 0, "count must be at least 1");
    std::lock_guard lock(graph_mutex());
    CUgraph_st& g = checked_graph(graph, "cudaGraphReleaseUserObject");
    CUuserObject_st& o = checked_user_object(object, "cudaGraphReleaseUserObject");
    const auto it = g.user_objects.find(&o);
    require(it != g.user_objects.end() && it->second >= count, "the graph holds fewer references to the object");
    if ((it->second -= count) == 0) g.user_objects.erase(it);
    release_user_object(&o, count);
  });
}
