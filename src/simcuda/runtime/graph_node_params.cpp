// CUDA's generic node calls (cudaGraphAddNode, cudaGraphNodeSetParams, cudaGraphExecNodeSetParams): each
// node kind's cudaGraphNodeParams member, turned into the call of that kind (graphs.cpp,
// graph_conditionals.cpp), so that a node made either way is the same node.
#include <cstddef>

#include <fmt/format.h>

#include "simcuda/runtime/graph_model.hpp"
#include "simcuda/runtime/runtime_state.hpp"

using namespace gpulab::sim::cuda::detail;  // NOLINT: the API below is CUDA's, at global scope

namespace {

cudaKernelNodeParams kernel_params(const cudaKernelNodeParamsV2& k) {
  return cudaKernelNodeParams{k.func, k.gridDim, k.blockDim, k.sharedMemBytes, k.kernelParams, k.extra};
}

cudaMemsetParams memset_params(const cudaMemsetParamsV2& m) {
  return cudaMemsetParams{m.dst, m.pitch, m.value, m.elementSize, m.width, m.height};
}

cudaHostNodeParams host_params(const cudaHostNodeParamsV2& h) { return cudaHostNodeParams{h.fn, h.userData}; }

// The reserved fields are zero, as CUDA requires, so that a later CUDA's fields are never silently lost.
void check_reserved(const cudaGraphNodeParams& p) {
  for (const int r : p.reserved0) {
    if (r != 0) throw ApiError(cudaErrorInvalidValue, "cudaGraphNodeParams::reserved0 is not zero");
  }
  if (p.reserved2 != 0) {
    throw ApiError(cudaErrorInvalidValue, "cudaGraphNodeParams::reserved2 is not zero");
  }
}

cudaError_t refuse(const char* call, const std::string& why, cudaError_t code = cudaErrorInvalidValue) {
  return api_call(call, [&] { throw ApiError(code, why); });
}

}  // namespace

cudaError_t cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                             const cudaGraphEdgeData* dependencyData, std::size_t numDependencies,
                             cudaGraphNodeParams* nodeParams) {
  constexpr const char* call = "cudaGraphAddNode";
  const cudaError_t checked = api_call(call, [&] {
    require(nodeParams != nullptr, "nodeParams is null");
    require_default_edges(dependencyData, numDependencies, call);
    check_reserved(*nodeParams);
  });
  if (checked != cudaSuccess) return checked;
  cudaGraphNodeParams& p = *nodeParams;
  switch (p.type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams k = kernel_params(p.kernel);
      return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &k);
    }
    case cudaGraphNodeTypeMemcpy:
      if (p.memcpy.flags != 0) return refuse(call, "cudaMemcpyNodeParams::flags must be 0");
      return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies, &p.memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams m = memset_params(p.memset);
      return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &m);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams h = host_params(p.host);
      return cudaGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &h);
    }
    case cudaGraphNodeTypeGraph:
      if (p.graph.ownership != cudaGraphChildGraphOwnershipClone) {
        // Moving would hand the program's graph to the node; the simulator clones only, and says so.
        return api_call(call, [] {
          throw Unsupported("cudaGraphAddNode of a child graph with cudaGraphChildGraphOwnershipMove (use Clone)");
        });
      }
      return cudaGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, p.graph.graph);
    case cudaGraphNodeTypeEmpty:
      return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies);
    case cudaGraphNodeTypeWaitEvent:
      return cudaGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies, p.eventWait.event);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies, p.eventRecord.event);
    case cudaGraphNodeTypeMemAlloc: {
      cudaMemAllocNodeParams a{p.alloc.poolProps, p.alloc.accessDescs, p.alloc.accessDescCount, p.alloc.bytesize,
                               nullptr};
      const cudaError_t code = cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies, &a);
      if (code == cudaSuccess) p.alloc.dptr = a.dptr;
      return code;
    }
    case cudaGraphNodeTypeMemFree:
      return cudaGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, p.free.dptr);
    case cudaGraphNodeTypeConditional:
      return add_conditional_node(pGraphNode, graph, pDependencies, numDependencies, p.conditional);
    case cudaGraphNodeTypeExtSemaphoreSignal:
    case cudaGraphNodeTypeExtSemaphoreWait:
      return api_call(call, [] {
        throw Unsupported("cudaGraphAddNode of an external-semaphore node (the simulator has no external semaphores)");
      });
    default:
      return refuse(call, fmt::format("cudaGraphNodeParams::type {} is not a cudaGraphNodeType", static_cast<int>(p.type)));
  }
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph, const cudaGraphNode_t* pDependencies,
                             std::size_t numDependencies, cudaGraphNodeParams* nodeParams) {
  return cudaGraphAddNode(pGraphNode, graph, pDependencies, nullptr, numDependencies, nodeParams);
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, cudaGraphNodeParams* nodeParams) {
  constexpr const char* call = "cudaGraphNodeSetParams";
  cudaGraphNodeType type{};
  const cudaError_t checked = api_call(call, [&] {
    require(nodeParams != nullptr, "nodeParams is null");
    check_reserved(*nodeParams);
  });
  if (checked != cudaSuccess) return checked;
  if (const cudaError_t code = cudaGraphNodeGetType(node, &type); code != cudaSuccess) return code;
  const cudaGraphNodeParams& p = *nodeParams;
  if (p.type != type) {
    return refuse(call, fmt::format("nodeParams is of type {}, the node of type {}", static_cast<int>(p.type),
                                    static_cast<int>(type)));
  }
  switch (p.type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams k = kernel_params(p.kernel);
      return cudaGraphKernelNodeSetParams(node, &k);
    }
    case cudaGraphNodeTypeMemcpy:
      return cudaGraphMemcpyNodeSetParams(node, &p.memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams m = memset_params(p.memset);
      return cudaGraphMemsetNodeSetParams(node, &m);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams h = host_params(p.host);
      return cudaGraphHostNodeSetParams(node, &h);
    }
    case cudaGraphNodeTypeWaitEvent:
      return cudaGraphEventWaitNodeSetEvent(node, p.eventWait.event);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphEventRecordNodeSetEvent(node, p.eventRecord.event);
    default:
      // CUDA changes the parameters of these kinds only; the others are fixed when the node is made.
      return refuse(call, fmt::format("a node of type {} has no parameters to set after it is made",
                                      static_cast<int>(p.type)),
                    cudaErrorNotSupported);
  }
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node, cudaGraphNodeParams* nodeParams) {
  constexpr const char* call = "cudaGraphExecNodeSetParams";
  const cudaError_t checked = api_call(call, [&] {
    require(nodeParams != nullptr, "nodeParams is null");
    check_reserved(*nodeParams);
  });
  if (checked != cudaSuccess) return checked;
  const cudaGraphNodeParams& p = *nodeParams;
  switch (p.type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParams k = kernel_params(p.kernel);
      return cudaGraphExecKernelNodeSetParams(graphExec, node, &k);
    }
    case cudaGraphNodeTypeMemcpy:
      return cudaGraphExecMemcpyNodeSetParams(graphExec, node, &p.memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParams m = memset_params(p.memset);
      return cudaGraphExecMemsetNodeSetParams(graphExec, node, &m);
    }
    case cudaGraphNodeTypeHost: {
      const cudaHostNodeParams h = host_params(p.host);
      return cudaGraphExecHostNodeSetParams(graphExec, node, &h);
    }
    case cudaGraphNodeTypeWaitEvent:
      return cudaGraphExecEventWaitNodeSetEvent(graphExec, node, p.eventWait.event);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphExecEventRecordNodeSetEvent(graphExec, node, p.eventRecord.event);
    default:
      return refuse(call, fmt::format("a node of type {} has no parameters to set in an executable graph",
                                      static_cast<int>(p.type)),
                    cudaErrorNotSupported);
  }
}
