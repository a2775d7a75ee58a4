// The registry of matmul implementations. Every listing (bench, tests, `auto`) comes from here, so a
// new implementation is one file and one register_matmul call.
#include <algorithm>
#include <deque>
#include <mutex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <gpulab/error.hpp>
#include <gpulab/matmul.hpp>

namespace gpulab {

namespace {

struct Registry {
  std::mutex mutex;
  std::deque<MatmulImpl> impls;  // stable addresses
};

Registry& registry() {
  static Registry r;
  return r;
}

std::string list_dtypes(const std::vector<Dtype>& dtypes) {
  std::vector<std::string> names;
  for (Dtype d : dtypes) names.emplace_back(to_string(d));
  return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

std::vector<DeviceKind> MatmulImpl::device_kinds() const {
  std::vector<DeviceKind> kinds;
  for (DeviceKind k : {DeviceKind::cuda, DeviceKind::sim, DeviceKind::host}) {
    if (runs_on(k)) kinds.push_back(k);
  }
  return kinds;
}

std::string MatmulImpl::why_not(const MatmulProblem& problem) const {
  if (!runs_on(problem.space.kind)) {
    std::vector<std::string> kinds;
    for (DeviceKind k : device_kinds()) kinds.emplace_back(to_string(k));
    return fmt::format("{} runs on {}, not on {}", name, fmt::join(kinds, ", "), to_string(problem.space));
  }
  if (std::find(dtypes.begin(), dtypes.end(), problem.dtype) == dtypes.end()) {
    return fmt::format("{} supports {}, not {}", name, list_dtypes(dtypes), to_string(problem.dtype));
  }
  return cannot_run ? cannot_run(problem) : std::string();
}

bool register_matmul(MatmulRegistration reg) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  auto it = std::find_if(r.impls.begin(), r.impls.end(), [&](const MatmulImpl& i) { return i.name == reg.name; });
  if (it == r.impls.end()) {
    r.impls.emplace_back();
    it = std::prev(r.impls.end());
    it->name = reg.name;
    it->description = reg.description;
    it->family = reg.family;
    it->order = reg.order;
    it->automatic = reg.automatic;
    it->float32_as_tf32 = reg.float32_as_tf32;
  }
  for (Dtype d : reg.dtypes) {
    if (std::find(it->dtypes.begin(), it->dtypes.end(), d) == it->dtypes.end()) it->dtypes.push_back(d);
  }
  if (!it->cannot_run && reg.cannot_run) it->cannot_run = std::move(reg.cannot_run);
  if (!it->after_bench_row && reg.after_bench_row) it->after_bench_row = std::move(reg.after_bench_row);
  it->run[static_cast<int>(reg.device_kind)] = std::move(reg.run);
  return true;
}

std::vector<const MatmulImpl*> matmul_impls() {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::vector<const MatmulImpl*> out;
  for (const MatmulImpl& i : r.impls) out.push_back(&i);
  std::sort(out.begin(), out.end(), [](const MatmulImpl* a, const MatmulImpl* b) {
    return a->order != b->order ? a->order < b->order : a->name < b->name;
  });
  return out;
}

const MatmulImpl* find_matmul(std::string_view name) {
  for (const MatmulImpl* i : matmul_impls()) {
    if (i->name == name) return i;
  }
  return nullptr;
}

const MatmulImpl& choose_matmul(const MatmulProblem& problem) {
  const auto impls = matmul_impls();
  const MatmulImpl* best = nullptr;
  auto consider = [&](auto&& wanted) {
    for (const MatmulImpl* i : impls) {
      if (!i->automatic || !wanted(*i) || !i->why_not(problem).empty()) continue;
      if (best == nullptr || i->order > best->order) best = i;
    }
  };
  switch (problem.space.kind) {
    case DeviceKind::cuda:
      consider([](const MatmulImpl& i) { return i.family == MatmulFamily::peer; });
      if (best == nullptr) consider([](const MatmulImpl& i) { return i.family == MatmulFamily::gpu; });
      break;
    case DeviceKind::sim:
      consider([](const MatmulImpl& i) { return i.family == MatmulFamily::gpu; });
      break;
    case DeviceKind::host:
      consider([](const MatmulImpl& i) { return i.family == MatmulFamily::cpu && i.order > 0; });
      if (best == nullptr) consider([](const MatmulImpl& i) { return i.family == MatmulFamily::peer; });
      if (best == nullptr) consider([](const MatmulImpl& i) { return i.family == MatmulFamily::cpu; });
      break;
  }
  if (best == nullptr) {
    throw InvalidArgument(fmt::format("no matmul implementation can run {}x{}x{} {} on {}", problem.m, problem.n,
                                      problem.k, to_string(problem.dtype), to_string(problem.space)));
  }
  return *best;
}

void run_matmul(const MatmulImpl& impl, const AnyMatmulArgs& args, const MatmulContext& context) {
  const MemorySpace space = std::visit([](const auto& a) { return a.c.space(); }, args);
  const auto& run = impl.run[static_cast<int>(space.kind)];
  if (!run) throw InvalidArgument(fmt::format("{} does not run on {}", impl.name, to_string(space)));
  run(args, context);
}

}  // namespace gpulab
