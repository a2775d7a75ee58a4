#pragma once
// What CUDA's graph handles are in the simulator: a graph is a list of nodes with their edges, a node
// holds its own copy of what it will do (a kernel node owns a copy of its argument values, as CUDA
// copies kernel parameters when the node is made), and an executable graph is a snapshot of a graph
// with its nodes in a topological order. Shared by graphs.cpp (the explicit API, instantiation and
// launches) and stream_capture.cpp (which builds graphs from the work issued to capturing streams).
#include <atomic>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include <gpulab/kernel_registry.hpp>
#include <gpulab/launch.hpp>
#include <gpulab/sim/detail/kernel_entry.hpp>

#include "simcuda/runtime/graph_memory.hpp"
#include "simcuda/runtime/runtime_state.hpp"

namespace gpulab::sim::cuda::detail {

struct KernelNodeData {
  const gpulab::detail::KernelRecord* kernel = nullptr;
  const void* function = nullptr;  // cudaKernelNodeParams::func: the kernel's address in the program
  dim3 grid{1, 1, 1}, block{1, 1, 1};
  unsigned shared_bytes = 0;
  // The node's copy of the argument values, never written after it is made (a new set of parameters
  // makes a new copy), so a graph, its clones and its instantiations share it.
  std::shared_ptr<gpulab::sim::ArgStorage> args;
  // What the checks know of each argument (empty when the kernel's parameters were never seen in a
  // launch: the checks then name buffers without the parameter that passed them).
  std::vector<gpulab::detail::ArgInfo> info;
  bool instrumented = false;  // the kernel was compiled with -G
};

struct MemcpyNodeData {
  bool one_d = false;  // cudaMemcpyAsync, cudaGraphAddMemcpyNode1D: dst, src, count; else params
  void* dst = nullptr;
  const void* src = nullptr;
  std::size_t count = 0;
  cudaMemcpyKind kind = cudaMemcpyDefault;
  cudaMemcpy3DParms params{};
};

// A conditional node's handle (graph_conditionals.cpp): the value kernels set, shared by the graph that
// made it, its clones and instantiations, since the handle travels as a kernel argument's value.
struct ConditionalHandle {
  std::atomic<unsigned> value{0};
  unsigned default_value = 0;
  bool assign_default = false;  // cudaGraphCondAssignDefault: value = default_value as each launch begins
};

}  // namespace gpulab::sim::cuda::detail

struct CUuserObject_st {
  void* ptr = nullptr;
  cudaHostFn_t destroy = nullptr;
  std::atomic<unsigned long long> references{0};
};

struct CUgraphNode_st {
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  CUgraph_st* graph = nullptr;  // the graph that owns it
  unsigned index = 0;           // its place among its graph's nodes in the order they were added
  gpulab::sim::cuda::detail::KernelNodeData kernel;
  gpulab::sim::cuda::detail::MemcpyNodeData memcpy;
  cudaMemsetParams memset{};
  cudaHostNodeParams host{};
  cudaEvent_t event = nullptr;        // event record and event wait nodes
  std::unique_ptr<CUgraph_st> child;  // child graph nodes: the node's own copy of the graph
  // Memory alloc and free nodes: the allocation, shared with the node's copies.
  std::shared_ptr<gpulab::sim::cuda::detail::GraphAllocation> allocation;
  // Conditional nodes: the kind, the handle and the bodies (owned by the node, as child graphs are).
  cudaGraphConditionalNodeType condition_type = cudaGraphCondTypeIf;
  std::shared_ptr<gpulab::sim::cuda::detail::ConditionalHandle> condition;
  std::vector<std::unique_ptr<CUgraph_st>> bodies;
  std::vector<cudaGraph_t> body_handles;  // what cudaConditionalNodeParams::phGraph_out points to
  std::vector<CUgraphNode_st*> dependencies;  // incoming edges, in the order they were added
  std::vector<CUgraphNode_st*> dependents;    // outgoing edges
  const CUgraphNode_st* cloned_from = nullptr;  // for cudaGraphNodeFindInClone and instantiation
};

struct CUgraph_st {
  std::vector<std::unique_ptr<CUgraphNode_st>> nodes;
  unsigned long long id = 0;
  bool is_child = false;  // owned by a child graph node or a conditional node, not by the program
  const CUgraph_st* parent_graph = nullptr;  // a conditional body's: the graph holding its node
  std::map<CUuserObject_st*, unsigned long long> user_objects;  // references the graph holds
  // The conditional handles made for this graph (cudaGraphConditionalHandleCreate), for their defaults.
  std::vector<std::shared_ptr<gpulab::sim::cuda::detail::ConditionalHandle>> conditional_handles;
  CUgraph_st();
  ~CUgraph_st();  // releases its user objects' references
  CUgraph_st(const CUgraph_st&) = delete;
  CUgraph_st& operator=(const CUgraph_st&) = delete;
};

struct CUgraphExec_st {
  std::unique_ptr<CUgraph_st> graph;  // the instantiated snapshot
  // A node of the graph it was instantiated from (child graphs' nodes included) -> its copy here.
  std::map<const CUgraphNode_st*, CUgraphNode_st*> copy_of;
  unsigned long long flags = 0;
};

namespace gpulab::sim::cuda::detail {

// One lock for every graph, node, executable graph and capture sequence: graph calls are not on any
// hot path, and a node added by a capture touches the graph and the capture state together.
std::mutex& graph_mutex();

// Node building blocks, validated as CUDA validates them when a node is made (the lock held).
CUgraphNode_st* add_node(CUgraph_st& graph, cudaGraphNodeType type, const std::vector<CUgraphNode_st*>& dependencies);
KernelNodeData kernel_node_from_launch(const gpulab::detail::KernelRecord& kernel, dim3 grid, dim3 block,
                                       std::size_t shared_bytes, void* const* args,
                                       const gpulab::detail::ArgInfo* info, std::size_t count, bool instrumented);
MemcpyNodeData memcpy_node_1d(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind, const char* call);
MemcpyNodeData memcpy_node_3d(const cudaMemcpy3DParms& params, const char* call);
cudaMemsetParams checked_memset_params(const cudaMemsetParams& params, const char* call);
// A deep copy (nodes, edges, child graphs), each copy's cloned_from naming its original; with `copy_of`,
// every original node (children's too) -> its copy.
std::unique_ptr<CUgraph_st> clone_graph(const CUgraph_st& graph,
                                        std::map<const CUgraphNode_st*, CUgraphNode_st*>* copy_of = nullptr);
// A live graph handle (a child graph node's graph included), else ApiError(cudaErrorInvalidValue).
CUgraph_st& checked_graph(cudaGraph_t graph, const char* call);
// Default edges only: anything else is refused, naming the call.
void require_default_edges(const cudaGraphEdgeData* edges, std::size_t count, const char* call);

// Conditional nodes (graph_conditionals.cpp). A node's kind, handle and empty bodies from CUDA's
// parameters, validated (the lock held).
void make_conditional_node(CUgraphNode_st& node, const CUgraph_st& graph, const cudaConditionalNodeParams& params);
// cudaGraphAddNode's conditional form (graphs.cpp): the node, its bodies in params.phGraph_out.
cudaError_t add_conditional_node(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                                 std::size_t numDependencies, cudaConditionalNodeParams& params);
// Every body of every conditional node holds only the node kinds CUDA allows there, else ApiError.
void check_conditional_bodies(const CUgraph_st& graph);
// As a launch of the graph begins: the handles made with cudaGraphCondAssignDefault take their default.
void assign_conditional_defaults(const CUgraph_st& graph);
// Runs a conditional node at its place in `stream`: waits for the work before it, reads the handle, and
// runs its bodies with `run_graph` as its kind says.
void run_conditional(const CUgraphNode_st& node, cudaStream_t stream,
                     void (*run_graph)(const CUgraph_st& graph, cudaStream_t stream));

}  // namespace gpulab::sim::cuda::detail
