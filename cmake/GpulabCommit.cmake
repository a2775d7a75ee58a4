# Script mode (cmake -DSOURCE_DIR=... -DOUT=... -P GpulabCommit.cmake), run at every build: writes the
# commit the build is made from into OUT, a C++ source, and rewrites it only when it changed. A commit
# read once at configure time went stale with every later commit, and `gpulab --version` and the bench
# reports named a commit older than the binary. "-dirty" marks a build with uncommitted changes to
# tracked files.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY "${SOURCE_DIR}"
                OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed OR NOT commit)
  set(commit "unknown")
else()
  execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE changes OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(changes)
    string(APPEND commit "-dirty")
  endif()
endif()
set(text "// Generated at every build by cmake/GpulabCommit.cmake.
#include \"runtime/build_commit.hpp\"

const char* const gpulab::detail::build_commit = \"${commit}\";
")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
