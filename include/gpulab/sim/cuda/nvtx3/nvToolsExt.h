#pragma once
// gpulab-simcc's shadow of NVTX 3 (<nvtx3/nvToolsExt.h>): the annotation API that marks ranges and
// events for a profiler. NVTX does nothing unless a tool attaches to the process, and none attaches to
// the simulator, so every call here is what NVTX is without a tool: a no-op that returns what the API
// documents for that case (push and pop report the nesting depth, kept per host thread).
#ifndef NVTOOLSEXT_H_
#define NVTOOLSEXT_H_

#include <stdint.h>
#include <wchar.h>

#ifdef __cplusplus
#define GPULAB_NVTX_FN inline
#else
#define GPULAB_NVTX_FN static inline
#endif

#define NVTX_VERSION 3
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)sizeof(nvtxEventAttributes_t))
#define NVTX_NO_PUSH_POP_TRACKING ((int)-2)

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st* nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st* nvtxStringHandle_t;

typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;
typedef enum nvtxMessageType_t {
  NVTX_MESSAGE_UNKNOWN = 0, NVTX_MESSAGE_TYPE_ASCII = 1, NVTX_MESSAGE_TYPE_UNICODE = 2,
  NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;
typedef enum nvtxPayloadType_t {
  NVTX_PAYLOAD_UNKNOWN = 0, NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1, NVTX_PAYLOAD_TYPE_INT64 = 2,
  NVTX_PAYLOAD_TYPE_DOUBLE = 3, NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4, NVTX_PAYLOAD_TYPE_INT32 = 5,
  NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;

typedef union nvtxMessageValue_t {
  const char* ascii;
  const wchar_t* unicode;
  nvtxStringHandle_t registered;
} nvtxMessageValue_t;

typedef struct nvtxEventAttributes_v2 {
  uint16_t version;
  uint16_t size;
  uint32_t category;
  int32_t colorType;
  uint32_t color;
  int32_t payloadType;
  int32_t reserved0;
  union payload_t {
    uint64_t ullValue;
    int64_t llValue;
    double dValue;
    uint32_t uiValue;
    int32_t iValue;
    float fValue;
  } payload;
  int32_t messageType;
  nvtxMessageValue_t message;
} nvtxEventAttributes_v2;
typedef struct nvtxEventAttributes_v2 nvtxEventAttributes_t;

#ifdef __cplusplus
extern "C" {
#endif

// The nesting depth of this host thread's push/pop ranges: pushes return the depth of the new range
// (0 for the outermost), pops the depth left, and a pop with none open returns a negative value.
GPULAB_NVTX_FN int* gpulab_nvtx_depth(void) {
  static __thread int depth = 0;
  return &depth;
}
GPULAB_NVTX_FN int gpulab_nvtx_push(void) { return (*gpulab_nvtx_depth())++; }
GPULAB_NVTX_FN int gpulab_nvtx_pop(void) {
  int* depth = gpulab_nvtx_depth();
  if (*depth == 0) return -1;
  return --*depth;
}

GPULAB_NVTX_FN void nvtxMarkA(const char* message) { (void)message; }
GPULAB_NVTX_FN void nvtxMarkW(const wchar_t* message) { (void)message; }
GPULAB_NVTX_FN void nvtxMarkEx(const nvtxEventAttributes_t* attributes) { (void)attributes; }
GPULAB_NVTX_FN int nvtxRangePushA(const char* message) { (void)message; return gpulab_nvtx_push(); }
GPULAB_NVTX_FN int nvtxRangePushW(const wchar_t* message) { (void)message; return gpulab_nvtx_push(); }
GPULAB_NVTX_FN int nvtxRangePushEx(const nvtxEventAttributes_t* attributes) {
  (void)attributes;
  return gpulab_nvtx_push();
}
GPULAB_NVTX_FN int nvtxRangePop(void) { return gpulab_nvtx_pop(); }
// Start/end ranges may cross threads; with no tool there is nothing to pair, and 0 is never returned by
// a tool for a real range, so a program comparing ids sees them all alike.
GPULAB_NVTX_FN nvtxRangeId_t nvtxRangeStartA(const char* message) { (void)message; return 0; }
GPULAB_NVTX_FN nvtxRangeId_t nvtxRangeStartW(const wchar_t* message) { (void)message; return 0; }
GPULAB_NVTX_FN nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t* attributes) {
  (void)attributes;
  return 0;
}
GPULAB_NVTX_FN void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }
GPULAB_NVTX_FN void nvtxNameOsThreadA(uint32_t thread_id, const char* name) { (void)thread_id; (void)name; }
GPULAB_NVTX_FN void nvtxNameOsThreadW(uint32_t thread_id, const wchar_t* name) { (void)thread_id; (void)name; }
GPULAB_NVTX_FN void nvtxNameCategoryA(uint32_t category, const char* name) { (void)category; (void)name; }
GPULAB_NVTX_FN void nvtxNameCategoryW(uint32_t category, const wchar_t* name) { (void)category; (void)name; }
GPULAB_NVTX_FN nvtxDomainHandle_t nvtxDomainCreateA(const char* name) { (void)name; return 0; }
GPULAB_NVTX_FN nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t* name) { (void)name; return 0; }
GPULAB_NVTX_FN void nvtxDomainDestroy(nvtxDomainHandle_t domain) { (void)domain; }
GPULAB_NVTX_FN void nvtxDomainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  (void)domain;
  (void)attributes;
}
GPULAB_NVTX_FN int nvtxDomainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  (void)domain;
  (void)attributes;
  return gpulab_nvtx_push();
}
GPULAB_NVTX_FN int nvtxDomainRangePop(nvtxDomainHandle_t domain) {
  (void)domain;
  return gpulab_nvtx_pop();
}
GPULAB_NVTX_FN nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t domain,
                                                    const nvtxEventAttributes_t* attributes) {
  (void)domain;
  (void)attributes;
  return 0;
}
GPULAB_NVTX_FN void nvtxDomainRangeEnd(nvtxDomainHandle_t domain, nvtxRangeId_t id) {
  (void)domain;
  (void)id;
}
GPULAB_NVTX_FN nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t domain, const char* s) {
  (void)domain;
  (void)s;
  return 0;
}
GPULAB_NVTX_FN void nvtxDomainNameCategoryA(nvtxDomainHandle_t domain, uint32_t category, const char* name) {
  (void)domain;
  (void)category;
  (void)name;
}
GPULAB_NVTX_FN void nvtxInitialize(const void* reserved) { (void)reserved; }

#ifdef __cplusplus
}
#endif
#undef GPULAB_NVTX_FN

#endif
