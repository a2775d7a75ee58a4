#include "sim/engine/address_ranges.hpp"

#include <link.h>

#include <mutex>

namespace gpulab::sim::detail {

std::vector<AddressRange> thread_tls_ranges() {
  std::vector<AddressRange> out;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto& ranges = *static_cast<std::vector<AddressRange>*>(data);
        if (info->dlpi_tls_data == nullptr) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          if (info->dlpi_phdr[i].p_type == PT_TLS) {
            ranges.push_back({reinterpret_cast<std::uintptr_t>(info->dlpi_tls_data), info->dlpi_phdr[i].p_memsz});
          }
        }
        return 0;
      },
      &out);
  return out;
}

namespace {

struct ModuleMap {
  std::mutex mutex;
  std::vector<AddressRange> ranges;
  unsigned long long loads = 0;  // dlpi_adds when scanned
};

ModuleMap& modules() {
  static ModuleMap m;
  return m;
}

void scan(ModuleMap& m) {
  m.ranges.clear();
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto& map = *static_cast<ModuleMap*>(data);
        map.loads = info->dlpi_adds;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          if (info->dlpi_phdr[i].p_type == PT_LOAD) {
            map.ranges.push_back({info->dlpi_addr + info->dlpi_phdr[i].p_vaddr, info->dlpi_phdr[i].p_memsz});
          }
        }
        return 0;
      },
      &m);
}

}  // namespace

bool in_loaded_module(const void* p) {
  ModuleMap& m = modules();
  std::lock_guard lock(m.mutex);
  if (m.ranges.empty()) scan(m);
  for (const AddressRange& r : m.ranges) {
    if (r.contains(p)) return true;
  }
  // A library loaded since the last scan.
  const unsigned long long before = m.loads;
  scan(m);
  if (m.loads == before) return false;
  for (const AddressRange& r : m.ranges) {
    if (r.contains(p)) return true;
  }
  return false;
}

}  // namespace gpulab::sim::detail
