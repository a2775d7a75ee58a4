#pragma once
// The order in which the host threads of the block pool (sim_backend.cpp) take a launch's blocks.
//
// Blocks next to each other in the grid read the same data (a matmul's blocks of one row read the same
// rows of A, those of one column the same columns of B), and host threads taking blocks from one
// counter in grid order run neighbours at the same time, in step. racecheck's first reads of a word
// in a launch write its cell and its settled-map entry (src/sim/checks/racecheck/global_shadow.hpp), so
// two host threads in step on the same words pass those cache lines back and forth between cores. So
// the tickets of the counter are dealt round robin over `segments` equal parts of the grid (one per
// host thread), part s rotated by s/segments of a grid row: tickets taken at the same time then name
// blocks in other rows and columns of the grid (on two threads, half a row apart in x and mostly half
// the grid apart in y). Measured in docs/simulator.md (naive matmul at 256, racecheck on two
// host threads). One segment (GPULAB_SIM_THREADS=1) keeps grid order. A race is found whatever order
// the blocks run in, so the order changes no finding, only when the blocks run.
#include <cstdint>

namespace gpulab::sim::detail {

// The block (linear index in the grid) that ticket `ticket` of [0, blocks) runs: a permutation of
// [0, blocks). `grid_x` is the grid's x extent.
inline std::uint64_t block_for_ticket(std::uint64_t ticket, std::uint64_t blocks, std::uint64_t grid_x,
                                      std::uint64_t segments) {
  if (segments < 2 || blocks < 2 * segments) return ticket;
  const std::uint64_t per_segment = blocks / segments;
  if (ticket >= per_segment * segments) return ticket;  // the remainder, last, in grid order
  const std::uint64_t segment = ticket % segments, position = ticket / segments;
  const std::uint64_t rotation = segment * (grid_x / segments);
  return segment * per_segment + (position + rotation) % per_segment;
}

}  // namespace gpulab::sim::detail
