// cuFFT's plan calls on the simulator: handles, plans in 1, 2, 3 dimensions and cuFFT's advanced
// layout (PlanMany), work-area sizes, streams, versions, and the shared pieces of cufft_context.hpp.
//
// The arguments are checked as cuFFT checks them: a handle no cufftCreate made is CUFFT_INVALID_PLAN,
// an extent or batch below 1 or a rank outside 1..3 CUFFT_INVALID_SIZE, an unknown type
// CUFFT_INVALID_TYPE, a null pointer or a layout that does not hold its arrays CUFFT_INVALID_VALUE.
// The work runs on the host with its own scratch memory, so every work size is 0.
#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>

#include "simcuda/cufft/cufft_context.hpp"

namespace gpulab::sim::cufft {

namespace {

std::mutex plans_mutex;
std::map<cufftHandle, PlanState>& plans() {
  static auto* p = new std::map<cufftHandle, PlanState>;  // never destroyed: handles may outlive statics
  return *p;
}
cufftHandle next_handle = 1;

struct ResultText {
  cufftResult result;
  const char* name;
};
constexpr ResultText result_names[] = {
    {CUFFT_SUCCESS, "CUFFT_SUCCESS"},
    {CUFFT_INVALID_PLAN, "CUFFT_INVALID_PLAN"},
    {CUFFT_ALLOC_FAILED, "CUFFT_ALLOC_FAILED"},
    {CUFFT_INVALID_TYPE, "CUFFT_INVALID_TYPE"},
    {CUFFT_INVALID_VALUE, "CUFFT_INVALID_VALUE"},
    {CUFFT_INTERNAL_ERROR, "CUFFT_INTERNAL_ERROR"},
    {CUFFT_EXEC_FAILED, "CUFFT_EXEC_FAILED"},
    {CUFFT_SETUP_FAILED, "CUFFT_SETUP_FAILED"},
    {CUFFT_INVALID_SIZE, "CUFFT_INVALID_SIZE"},
    {CUFFT_UNALIGNED_DATA, "CUFFT_UNALIGNED_DATA"},
    {CUFFT_INVALID_DEVICE, "CUFFT_INVALID_DEVICE"},
    {CUFFT_NO_WORKSPACE, "CUFFT_NO_WORKSPACE"},
    {CUFFT_NOT_IMPLEMENTED, "CUFFT_NOT_IMPLEMENTED"},
    {CUFFT_NOT_SUPPORTED, "CUFFT_NOT_SUPPORTED"},
    {CUFFT_MISSING_DEPENDENCY, "CUFFT_MISSING_DEPENDENCY"},
    {CUFFT_NVRTC_FAILURE, "CUFFT_NVRTC_FAILURE"},
    {CUFFT_NVJITLINK_FAILURE, "CUFFT_NVJITLINK_FAILURE"},
    {CUFFT_NVSHMEM_FAILURE, "CUFFT_NVSHMEM_FAILURE"},
};

bool is_real_to_complex(cufftType t) { return t == CUFFT_R2C || t == CUFFT_D2Z; }
bool is_complex_to_real(cufftType t) { return t == CUFFT_C2R || t == CUFFT_Z2D; }
bool is_double(cufftType t) { return t == CUFFT_Z2Z || t == CUFFT_D2Z || t == CUFFT_Z2D; }

void check_type(cufftType type) {
  switch (type) {
    case CUFFT_R2C:
    case CUFFT_C2R:
    case CUFFT_C2C:
    case CUFFT_D2Z:
    case CUFFT_Z2D:
    case CUFFT_Z2Z:
      return;
  }
  throw StatusError(CUFFT_INVALID_TYPE,
                    fmt::format("type = {:#x} is not CUFFT_C2C, R2C, C2R, Z2Z, D2Z or Z2D", static_cast<int>(type)));
}

std::size_t product(const std::vector<std::size_t>& v) {
  std::size_t p = 1;
  for (auto e : v) p *= e;
  return p;
}

// An advanced layout (embed given) as the CPU FFT takes it; embed[0] only bounds the array.
fft::Layout advanced(const char* side, const long long* embed, long long stride, long long dist,
                     const std::vector<std::size_t>& extents) {
  const std::size_t rank = extents.size();
  fft::Layout layout;
  for (std::size_t k = 0; k < rank; ++k) {
    require(embed[k] >= 1 && (k == 0 || static_cast<std::size_t>(embed[k]) >= extents[k]), CUFFT_INVALID_VALUE,
            [&] {
              return fmt::format("{}embed[{}] = {} is less than the array's extent {} there", side, k, embed[k],
                                 extents[k]);
            });
    layout.embed.push_back(static_cast<std::size_t>(embed[k]));
  }
  require(stride >= 1, CUFFT_INVALID_VALUE, [&] { return fmt::format("{}stride = {} is less than 1", side, stride); });
  require(dist >= 0, CUFFT_INVALID_VALUE, [&] { return fmt::format("{}dist = {} is negative", side, dist); });
  layout.stride = static_cast<std::ptrdiff_t>(stride);
  layout.distance = static_cast<std::ptrdiff_t>(dist);
  return layout;
}

// Checks a plan's arguments and builds its transform (with `make`, the CPU plans too).
std::shared_ptr<Transform> build(int rank, const long long* n, const long long* inembed, long long istride,
                                 long long idist, const long long* onembed, long long ostride, long long odist,
                                 cufftType type, long long batch, bool make) {
  require(rank >= 1 && rank <= 3, CUFFT_INVALID_SIZE, [&] { return fmt::format("rank = {} is not 1, 2 or 3", rank); });
  require(n != nullptr, CUFFT_INVALID_VALUE, [] { return std::string("n is null"); });
  std::vector<std::size_t> shape;
  for (int k = 0; k < rank; ++k) {
    require(n[k] >= 1, CUFFT_INVALID_SIZE, [&] { return fmt::format("n[{}] = {} is less than 1", k, n[k]); });
    shape.push_back(static_cast<std::size_t>(n[k]));
  }
  require(batch >= 1, CUFFT_INVALID_SIZE, [&] { return fmt::format("batch = {} is less than 1", batch); });
  check_type(type);
  auto t = std::make_shared<Transform>();
  t->type = type;
  t->batch = static_cast<std::size_t>(batch);
  const bool r2c = is_real_to_complex(type), c2r = is_complex_to_real(type);
  const auto spectrum = (r2c || c2r) ? fft::complex_shape(shape) : shape;
  const std::size_t real_bytes = is_double(type) ? sizeof(double) : sizeof(float);
  t->in.extents = c2r ? spectrum : shape;
  t->out.extents = r2c ? spectrum : shape;
  t->in.element_bytes = c2r || !r2c ? 2 * real_bytes : real_bytes;
  t->out.element_bytes = r2c || !c2r ? 2 * real_bytes : real_bytes;
  const bool basic = inembed == nullptr || onembed == nullptr;  // cuFFT then ignores the strides and distances
  if (basic) {
    t->in.layout = fft::Layout::packed(t->in.extents);
    t->out.layout = fft::Layout::packed(t->out.extents);
    if (r2c || c2r) {
      // In place, the reals are padded to the complex rows' size: 2 (n/2 + 1) a row.
      Side& real_side = r2c ? t->in_padded : t->out_padded;
      Side& complex_side = r2c ? t->out_padded : t->in_padded;
      complex_side = r2c ? t->out : t->in;
      real_side = r2c ? t->in : t->out;
      auto padded = shape;
      padded.back() = 2 * spectrum.back();
      real_side.layout = fft::Layout::packed(padded);
    }
  } else {
    t->in.layout = advanced("i", inembed, istride, idist, t->in.extents);
    t->out.layout = advanced("o", onembed, ostride, odist, t->out.extents);
  }
  if (!make) return t;
  const fft::Kind kind = r2c ? fft::Kind::r2c : c2r ? fft::Kind::c2r : fft::Kind::c2c;
  const bool padded = basic && (r2c || c2r);
  if (is_double(type)) {
    t->dual = std::make_shared<fft::ManyPlan<double>>(shape, kind, t->in.layout, t->out.layout, t->batch);
    if (padded) {
      t->dual_padded = std::make_shared<fft::ManyPlan<double>>(shape, kind, t->in_padded.layout,
                                                               t->out_padded.layout, t->batch);
    }
  } else {
    t->single = std::make_shared<fft::ManyPlan<float>>(shape, kind, t->in.layout, t->out.layout, t->batch);
    if (padded) {
      t->single_padded = std::make_shared<fft::ManyPlan<float>>(shape, kind, t->in_padded.layout,
                                                                t->out_padded.layout, t->batch);
    }
  }
  return t;
}

std::vector<long long> widen(int rank, const int* v) {
  if (v == nullptr || rank < 1 || rank > 3) return {};
  return std::vector<long long>(v, v + rank);
}
const long long* data_or_null(const std::vector<long long>& v) { return v.empty() ? nullptr : v.data(); }

// Makes the plan of an existing handle; a handle that already has one is refused (cuFFT's plans are
// made once).
void make_plan(cufftHandle handle, int rank, const long long* n, const long long* inembed, long long istride,
               long long idist, const long long* onembed, long long ostride, long long odist, cufftType type,
               long long batch, std::size_t* work_size) {
  const PlanState state = plan_of(handle);
  require(state.transform == nullptr, CUFFT_INVALID_PLAN,
          [&] { return fmt::format("plan {} already has a plan made (cufftCreate a new handle)", handle); });
  auto t = build(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, true);
  update_plan(handle, [&](PlanState& s) { s.transform = std::move(t); });
  if (work_size != nullptr) *work_size = 0;
}

// A cufftPlan* call: a new handle with its plan, given back only when the plan is made.
void new_plan(cufftHandle* plan, int rank, const long long* n, const long long* inembed, long long istride,
              long long idist, const long long* onembed, long long ostride, long long odist, cufftType type,
              long long batch) {
  require(plan != nullptr, CUFFT_INVALID_VALUE, [] { return std::string("plan is null"); });
  auto t = build(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, true);
  std::lock_guard lock(plans_mutex);
  const cufftHandle h = next_handle++;
  plans()[h].transform = std::move(t);
  *plan = h;
}

void estimate(int rank, const long long* n, const long long* inembed, long long istride, long long idist,
              const long long* onembed, long long ostride, long long odist, cufftType type, long long batch,
              std::size_t* work_size) {
  require(work_size != nullptr, CUFFT_INVALID_VALUE, [] { return std::string("workSize is null"); });
  build(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, false);
  *work_size = 0;
}

}  // namespace

const char* result_name(cufftResult result) noexcept {
  for (const auto& r : result_names) {
    if (r.result == result) return r.name;
  }
  return "CUFFT_UNKNOWN";
}

PlanState plan_of(cufftHandle handle) {
  std::lock_guard lock(plans_mutex);
  const auto it = plans().find(handle);
  if (it == plans().end()) {
    throw StatusError(CUFFT_INVALID_PLAN,
                      fmt::format("plan {} is not a handle cufftCreate or cufftPlan* made (or it was destroyed)", handle));
  }
  return it->second;
}

void update_plan(cufftHandle handle, const std::function<void(PlanState&)>& update) {
  std::lock_guard lock(plans_mutex);
  const auto it = plans().find(handle);
  if (it == plans().end()) {
    throw StatusError(CUFFT_INVALID_PLAN, fmt::format("plan {} was destroyed meanwhile", handle));
  }
  update(it->second);
}

std::vector<DeviceRegion> side_regions(const void* base, const Side& side, std::size_t batch, const char* operand) {
  const auto* p = static_cast<const unsigned char*>(base);
  const std::size_t e = side.element_bytes, d = side.extents.size();
  const fft::Layout& l = side.layout;
  const auto stride = static_cast<std::size_t>(l.stride), dist = static_cast<std::size_t>(l.distance);
  // Each array contiguous (stride 1, embeds equal to the extents): a run per array.
  bool contiguous = stride == 1;
  for (std::size_t k = 1; k < d; ++k) contiguous = contiguous && l.embed[k] == side.extents[k];
  const std::size_t elements = product(side.extents);
  if (contiguous) {
    if (batch == 1 || dist == elements) return {DeviceRegion{p, batch * elements * e, 1, 0, operand}};
    return {DeviceRegion{p, elements * e, batch, dist * e, operand}};
  }
  // Else a run per line along the last dimension (its elements `stride` apart).
  std::vector<DeviceRegion> regions;
  const std::size_t last = side.extents[d - 1];
  const std::size_t rows = elements / last;
  for (std::size_t b = 0; b < batch; ++b) {
    for (std::size_t r = 0; r < rows; ++r) {
      std::size_t offset = 0, rest = r, pitch = stride;  // the row's offset from its multi-index
      for (std::size_t k = d - 1; k-- > 0;) {
        pitch *= l.embed[k + 1];
        offset += (rest % side.extents[k]) * pitch;
        rest /= side.extents[k];
      }
      const unsigned char* line = p + (b * dist + offset) * e;
      regions.push_back(stride == 1 ? DeviceRegion{line, last * e, 1, 0, operand}
                                    : DeviceRegion{line, e, last, stride * e, operand});
    }
  }
  return regions;
}

}  // namespace gpulab::sim::cufft

using namespace gpulab::sim::cufft;  // NOLINT: the API below is cuFFT's, at global scope

extern "C" {

cufftResult cufftCreate(cufftHandle* handle) {
  return api("cufftCreate", CUFFT_INTERNAL_ERROR, [&] {
    require(handle != nullptr, CUFFT_INVALID_VALUE, [] { return std::string("handle is null"); });
    std::lock_guard lock(plans_mutex);
    const cufftHandle h = next_handle++;
    plans()[h] = PlanState{};
    *handle = h;
  });
}

cufftResult cufftDestroy(cufftHandle plan) {
  return api("cufftDestroy", CUFFT_INTERNAL_ERROR, [&] {
    if (plan == CUFFT_PLAN_NULL) return;  // cuFFT's "no plan", safe to destroy
    std::lock_guard lock(plans_mutex);
    // Work already queued keeps its transform alive (it holds its own reference).
    require(plans().erase(plan) == 1, CUFFT_INVALID_PLAN,
            [&] { return fmt::format("plan {} is not a handle cufftCreate or cufftPlan* made (or it was destroyed)", plan); });
  });
}

cufftResult cufftPlan1d(cufftHandle* plan, int nx, cufftType type, int batch) {
  return api("cufftPlan1d", CUFFT_SETUP_FAILED, [&] {
    require(nx >= 1, CUFFT_INVALID_SIZE, [&] { return fmt::format("nx = {} is less than 1", nx); });
    const long long n[] = {nx};
    new_plan(plan, 1, n, nullptr, 1, 0, nullptr, 1, 0, type, batch);
  });
}

cufftResult cufftPlan2d(cufftHandle* plan, int nx, int ny, cufftType type) {
  return api("cufftPlan2d", CUFFT_SETUP_FAILED, [&] {
    require(nx >= 1 && ny >= 1, CUFFT_INVALID_SIZE, [&] { return fmt::format("nx = {}, ny = {}: each must be at least 1", nx, ny); });
    const long long n[] = {nx, ny};
    new_plan(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1);
  });
}

cufftResult cufftPlan3d(cufftHandle* plan, int nx, int ny, int nz, cufftType type) {
  return api("cufftPlan3d", CUFFT_SETUP_FAILED, [&] {
    require(nx >= 1 && ny >= 1 && nz >= 1, CUFFT_INVALID_SIZE,
            [&] { return fmt::format("nx = {}, ny = {}, nz = {}: each must be at least 1", nx, ny, nz); });
    const long long n[] = {nx, ny, nz};
    new_plan(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1);
  });
}

cufftResult cufftPlanMany(cufftHandle* plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                          int ostride, int odist, cufftType type, int batch) {
  return api("cufftPlanMany", CUFFT_SETUP_FAILED, [&] {
    const auto nn = widen(rank, n), ie = widen(rank, inembed), oe = widen(rank, onembed);
    new_plan(plan, rank, n == nullptr ? nullptr : data_or_null(nn), data_or_null(ie), istride, idist, data_or_null(oe),
             ostride, odist, type, batch);
  });
}

cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t* workSize) {
  return api("cufftMakePlan1d", CUFFT_SETUP_FAILED, [&] {
    require(nx >= 1, CUFFT_INVALID_SIZE, [&] { return fmt::format("nx = {} is less than 1", nx); });
    const long long n[] = {nx};
    make_plan(plan, 1, n, nullptr, 1, 0, nullptr, 1, 0, type, batch, workSize);
  });
}

cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t* workSize) {
  return api("cufftMakePlan2d", CUFFT_SETUP_FAILED, [&] {
    require(nx >= 1 && ny >= 1, CUFFT_INVALID_SIZE, [&] { return fmt::format("nx = {}, ny = {}: each must be at least 1", nx, ny); });
    const long long n[] = {nx, ny};
    make_plan(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
  });
}

cufftResult cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t* workSize) {
  return api("cufftMakePlan3d", CUFFT_SETUP_FAILED, [&] {
    require(nx >= 1 && ny >= 1 && nz >= 1, CUFFT_INVALID_SIZE,
            [&] { return fmt::format("nx = {}, ny = {}, nz = {}: each must be at least 1", nx, ny, nz); });
    const long long n[] = {nx, ny, nz};
    make_plan(plan, 3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
  });
}

cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                              int ostride, int odist, cufftType type, int batch, size_t* workSize) {
  return api("cufftMakePlanMany", CUFFT_SETUP_FAILED, [&] {
    const auto nn = widen(rank, n), ie = widen(rank, inembed), oe = widen(rank, onembed);
    make_plan(plan, rank, n == nullptr ? nullptr : data_or_null(nn), data_or_null(ie), istride, idist,
              data_or_null(oe), ostride, odist, type, batch, workSize);
  });
}

cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long int* n, long long int* inembed,
                                long long int istride, long long int idist, long long int* onembed,
                                long long int ostride, long long int odist, cufftType type, long long int batch,
                                size_t* workSize) {
  return api("cufftMakePlanMany64", CUFFT_SETUP_FAILED, [&] {
    make_plan(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
  });
}

cufftResult cufftEstimate1d(int nx, cufftType type, int batch, size_t* workSize) {
  return api("cufftEstimate1d", CUFFT_INTERNAL_ERROR, [&] {
    const long long n[] = {nx};
    estimate(1, n, nullptr, 1, 0, nullptr, 1, 0, type, batch, workSize);
  });
}

cufftResult cufftEstimate2d(int nx, int ny, cufftType type, size_t* workSize) {
  return api("cufftEstimate2d", CUFFT_INTERNAL_ERROR, [&] {
    const long long n[] = {nx, ny};
    estimate(2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
  });
}

cufftResult cufftEstimate3d(int nx, int ny, int nz, cufftType type, size_t* workSize) {
  return api("cufftEstimate3d", CUFFT_INTERNAL_ERROR, [&] {
    const long long n[] = {nx, ny, nz};
    estimate(3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
  });
}

cufftResult cufftEstimateMany(int rank, int* n, int* inembed, int istride, int idist, int* onembed, int ostride,
                              int odist, cufftType type, int batch, size_t* workSize) {
  return api("cufftEstimateMany", CUFFT_INTERNAL_ERROR, [&] {
    const auto nn = widen(rank, n), ie = widen(rank, inembed), oe = widen(rank, onembed);
    estimate(rank, n == nullptr ? nullptr : data_or_null(nn), data_or_null(ie), istride, idist, data_or_null(oe),
             ostride, odist, type, batch, workSize);
  });
}

cufftResult cufftGetSize1d(cufftHandle handle, int nx, cufftType type, int batch, size_t* workSize) {
  return api("cufftGetSize1d", CUFFT_INTERNAL_ERROR, [&] {
    plan_of(handle);
    const long long n[] = {nx};
    estimate(1, n, nullptr, 1, 0, nullptr, 1, 0, type, batch, workSize);
  });
}

cufftResult cufftGetSize2d(cufftHandle handle, int nx, int ny, cufftType type, size_t* workSize) {
  return api("cufftGetSize2d", CUFFT_INTERNAL_ERROR, [&] {
    plan_of(handle);
    const long long n[] = {nx, ny};
    estimate(2, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
  });
}

cufftResult cufftGetSize3d(cufftHandle handle, int nx, int ny, int nz, cufftType type, size_t* workSize) {
  return api("cufftGetSize3d", CUFFT_INTERNAL_ERROR, [&] {
    plan_of(handle);
    const long long n[] = {nx, ny, nz};
    estimate(3, n, nullptr, 1, 0, nullptr, 1, 0, type, 1, workSize);
  });
}

cufftResult cufftGetSizeMany(cufftHandle handle, int rank, int* n, int* inembed, int istride, int idist, int* onembed,
                             int ostride, int odist, cufftType type, int batch, size_t* workArea) {
  return api("cufftGetSizeMany", CUFFT_INTERNAL_ERROR, [&] {
    plan_of(handle);
    const auto nn = widen(rank, n), ie = widen(rank, inembed), oe = widen(rank, onembed);
    estimate(rank, n == nullptr ? nullptr : data_or_null(nn), data_or_null(ie), istride, idist, data_or_null(oe),
             ostride, odist, type, batch, workArea);
  });
}

cufftResult cufftGetSizeMany64(cufftHandle plan, int rank, long long int* n, long long int* inembed,
                               long long int istride, long long int idist, long long int* onembed,
                               long long int ostride, long long int odist, cufftType type, long long int batch,
                               size_t* workSize) {
  return api("cufftGetSizeMany64", CUFFT_INTERNAL_ERROR, [&] {
    plan_of(plan);
    estimate(rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch, workSize);
  });
}

cufftResult cufftGetSize(cufftHandle handle, size_t* workSize) {
  return api("cufftGetSize", CUFFT_INTERNAL_ERROR, [&] {
    plan_of(handle);
    require(workSize != nullptr, CUFFT_INVALID_VALUE, [] { return std::string("workSize is null"); });
    *workSize = 0;
  });
}

cufftResult cufftSetWorkArea(cufftHandle plan, void* workArea) {
  return api("cufftSetWorkArea", CUFFT_INTERNAL_ERROR,
             [&] { update_plan(plan, [&](PlanState& s) { s.work_area = workArea; }); });
}

cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate) {
  return api("cufftSetAutoAllocation", CUFFT_INTERNAL_ERROR,
             [&] { update_plan(plan, [&](PlanState& s) { s.auto_allocate = autoAllocate != 0; }); });
}

cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream) {
  return api("cufftSetStream", CUFFT_INTERNAL_ERROR,
             [&] { update_plan(plan, [&](PlanState& s) { s.stream = stream; }); });
}

cufftResult cufftGetVersion(int* version) {
  return api("cufftGetVersion", CUFFT_INTERNAL_ERROR, [&] {
    require(version != nullptr, CUFFT_INVALID_VALUE, [] { return std::string("version is null"); });
    *version = CUFFT_VERSION;
  });
}

cufftResult cufftGetProperty(libraryPropertyType type, int* value) {
  return api("cufftGetProperty", CUFFT_INTERNAL_ERROR, [&] {
    require(value != nullptr, CUFFT_INVALID_VALUE, [] { return std::string("value is null"); });
    switch (type) {
      case MAJOR_VERSION:
        *value = CUFFT_VER_MAJOR;
        break;
      case MINOR_VERSION:
        *value = CUFFT_VER_MINOR;
        break;
      case PATCH_LEVEL:
        *value = CUFFT_VER_PATCH;
        break;
      default:
        throw StatusError(CUFFT_INVALID_TYPE, fmt::format("type = {} is not MAJOR_VERSION, MINOR_VERSION or PATCH_LEVEL",
                                                          static_cast<int>(type)));
    }
  });
}

}  // extern "C"
