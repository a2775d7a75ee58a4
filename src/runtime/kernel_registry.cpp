#include <gpulab/error.hpp>
#include <gpulab/kernel_registry.hpp>

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

namespace gpulab::detail {

namespace {

const char* backend_name(KernelBackend b) {
  switch (b) {
    case KernelBackend::cuda:
      return "cuda";
    case KernelBackend::sim:
      return "sim";
    case KernelBackend::sim_checked:
      return "sim (instrumented)";
  }
  return "?";
}

struct Registry {
  std::mutex mutex;
  std::deque<KernelRecord> records;  // a deque keeps records at stable addresses
  std::map<std::pair<std::string, std::string>, KernelRecord*> by_file_and_name;
  std::unordered_map<const void*, KernelRecord*> by_address;
  // Problems found while exporting at static initialisation, where nothing may throw; reported by the
  // first lookup.
  std::vector<std::string> errors;
};

Registry& registry() {
  static Registry r;
  return r;
}

void throw_pending_errors(Registry& r) {
  if (!r.errors.empty()) throw InvalidArgument(r.errors.front());
}

}  // namespace

bool export_kernel(const char* file, const char* name, const std::type_info& signature, KernelBackend backend,
                   const void* function, const void* entry) noexcept {
  try {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    auto key = std::make_pair(std::string(file), std::string(name));
    KernelRecord*& record = r.by_file_and_name[key];
    if (record == nullptr) {
      r.records.emplace_back();
      record = &r.records.back();
      record->name = name;
      record->file = file;
      record->signature = &signature;
      record->exported = true;
    }
    const int slot = static_cast<int>(backend);
    if (auto it = r.by_address.find(function); it != r.by_address.end() && it->second != record) {
      r.errors.push_back(fmt::format("kernel {} ({}) has the same address as {} ({}): a kernel file's kernels must be in "
                                     "an anonymous namespace, since the file is compiled once per backend",
                                     name, file, it->second->name, it->second->file));
    }
    for (int other = 0; other < kernel_backend_count; ++other) {
      if (other != slot && record->function[other] == function) {
        r.errors.push_back(fmt::format(
            "kernel {} ({}): its {} and {} versions are one function, so the linker merged them; put the kernel "
            "in an anonymous namespace",
            name, file, backend_name(static_cast<KernelBackend>(other)), backend_name(backend)));
      }
    }
    record->function[slot] = function;
    record->entry[slot] = entry;
    r.by_address[function] = record;
  } catch (...) {
    // Out of memory at static initialisation: the kernel is simply not found later.
  }
  return true;
}

const KernelRecord* find_kernel(const void* function) noexcept {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  auto it = r.by_address.find(function);
  return it == r.by_address.end() ? nullptr : it->second;
}

const KernelRecord& find_kernel(std::string_view name, const std::type_info& signature) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  throw_pending_errors(r);
  std::vector<const KernelRecord*> matches;
  std::vector<std::string> same_name;
  for (const KernelRecord& record : r.records) {
    if (!record.exported || record.name != name) continue;
    if (*record.signature == signature) {
      matches.push_back(&record);
    } else {
      same_name.push_back(record.file);
    }
  }
  if (matches.size() == 1) return *matches.front();
  if (matches.empty()) {
    if (!same_name.empty()) {
      throw InvalidArgument(fmt::format("kernel '{}' (exported in {}) has another signature than the one asked for",
                                        name, same_name.front()));
    }
    throw InvalidArgument(fmt::format("no kernel exported as '{}': add GPULAB_EXPORT_KERNEL({}) to its .cu file and "
                                      "build that file with gpulab_add_kernels",
                                      name, name));
  }
  throw InvalidArgument(fmt::format("kernel name '{}' is exported by {} files ({} and {}): rename one", name,
                                    matches.size(), matches[0]->file, matches[1]->file));
}

const KernelRecord& kernel_for_pointer(KernelBackend backend, const void* function, const void* entry,
                                       const std::type_info& signature) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  throw_pending_errors(r);
  if (auto it = r.by_address.find(function); it != r.by_address.end()) return *it->second;
  r.records.emplace_back();
  KernelRecord& record = r.records.back();
  record.name = fmt::format("kernel@{}", function);
  record.signature = &signature;
  record.function[static_cast<int>(backend)] = function;
  record.entry[static_cast<int>(backend)] = entry;
  r.by_address[function] = &record;
  return record;
}

}  // namespace gpulab::detail
