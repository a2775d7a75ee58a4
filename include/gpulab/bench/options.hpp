#pragma once
// Parsing of `gpulab bench`'s option values. Each throws InvalidArgument with a message that names the
// text and what is accepted; the command turns it into one line on stderr and exit status 2.
#include <string_view>
#include <vector>

#include <gpulab/bench/bench.hpp>

namespace gpulab::bench {

// "1024,129x127x131": n means n x n x n; MxNxK. Every extent in [1, 65536].
std::vector<MatmulShape> parse_shapes(std::string_view text);
// "cpu,sim,cuda:0", duplicates removed.
std::vector<Device> parse_device_list(std::string_view text);
// Registry names, comma separated, each must exist.
std::vector<const MatmulImpl*> parse_impl_list(std::string_view text);
// --sim-checks: sets of the simulator's checks, comma separated, the checks of one set joined by '+'
// ("memcheck,racecheck,memcheck+racecheck,all"), duplicates removed. "none" is refused: the unchecked
// run is always timed beside them.
std::vector<unsigned> parse_sim_check_sets(std::string_view text);

}  // namespace gpulab::bench
