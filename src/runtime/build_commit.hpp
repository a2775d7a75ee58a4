#pragma once
// The commit libgpulab was built from ("unknown" outside a git checkout, "-dirty" appended when tracked
// files had uncommitted changes), written at every build by cmake/GpulabCommit.cmake.
namespace gpulab::detail {
extern const char* const build_commit;
}  // namespace gpulab::detail
