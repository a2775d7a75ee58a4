#include <gpulab/error.hpp>
#include <gpulab/kernel_registry.hpp>

#include <gtest/gtest.h>

namespace {

using gpulab::detail::KernelBackend;

void cuda_version_of_k(int) {}
void sim_version_of_k(int) {}
void other(float) {}

const void* addr(void (*f)(int)) { return reinterpret_cast<const void*>(f); }

TEST(KernelRegistry, VersionsOfOneKernelMergeUnderItsName) {
  gpulab::detail::export_kernel("file_a.cu", "registry_test_k", typeid(void(int)), KernelBackend::cuda,
                                addr(&cuda_version_of_k), nullptr);
  gpulab::detail::export_kernel("file_a.cu", "registry_test_k", typeid(void(int)), KernelBackend::sim,
                                addr(&sim_version_of_k), nullptr);
  const auto& r = gpulab::detail::find_kernel("registry_test_k", typeid(void(int)));
  EXPECT_TRUE(r.has(KernelBackend::cuda));
  EXPECT_TRUE(r.has(KernelBackend::sim));
  EXPECT_FALSE(r.has(KernelBackend::sim_checked));
  // Either version's address finds the record: a launch through a pointer reaches the other backend.
  EXPECT_EQ(gpulab::detail::find_kernel(addr(&cuda_version_of_k)), &r);
  EXPECT_EQ(gpulab::detail::find_kernel(addr(&sim_version_of_k)), &r);
}

TEST(KernelRegistry, LookupsByNameSayWhatIsWrong) {
  gpulab::detail::export_kernel("file_b.cu", "registry_test_other", typeid(void(float)), KernelBackend::sim,
                                reinterpret_cast<const void*>(&other), nullptr);
  try {
    gpulab::detail::find_kernel("registry_test_other", typeid(void(int)));
    FAIL();
  } catch (const gpulab::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("another signature"), std::string::npos) << e.what();
  }
  try {
    gpulab::detail::find_kernel("registry_test_missing", typeid(void(int)));
    FAIL();
  } catch (const gpulab::InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("GPULAB_EXPORT_KERNEL(registry_test_missing)"), std::string::npos)
        << e.what();
  }
}

TEST(KernelRegistry, UnexportedPointersGetARecordOnce) {
  auto fn = [](double) {};
  void (*p)(double) = fn;
  const auto& a = gpulab::detail::kernel_for_pointer(KernelBackend::cuda, reinterpret_cast<const void*>(p), nullptr,
                                                     typeid(void(double)));
  const auto& b = gpulab::detail::kernel_for_pointer(KernelBackend::cuda, reinterpret_cast<const void*>(p), nullptr,
                                                     typeid(void(double)));
  EXPECT_EQ(&a, &b);
  EXPECT_FALSE(a.exported);
  EXPECT_TRUE(a.has(KernelBackend::cuda));
}

}  // namespace
