// The bench's small pieces: statistics of the repeats and the parsing of option values.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <gpulab/bench/options.hpp>
#include <gpulab/bench/report.hpp>
#include <gpulab/bench/stats.hpp>
#include <gpulab/error.hpp>
#include <gpulab/sim/checks.hpp>

namespace {

using gpulab::InvalidArgument;
using namespace gpulab::bench;

TEST(Stats, MedianMinMax) {
  const std::vector<double> odd = {5, 1, 4, 2, 3};
  const SampleStats s = summarize(odd);
  EXPECT_EQ(s.count, 5);
  EXPECT_EQ(s.median, 3);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 5);
  const std::vector<double> even = {10, 2, 8, 4};
  EXPECT_EQ(summarize(even).median, 6);
  const std::vector<double> one = {7.5};
  const SampleStats s1 = summarize(one);
  EXPECT_EQ(s1.median, 7.5);
  EXPECT_EQ(s1.min, 7.5);
  EXPECT_EQ(s1.max, 7.5);
  // An outlier moves the mean, not the median.
  const std::vector<double> outlier = {1, 1, 1, 1, 1000};
  EXPECT_EQ(summarize(outlier).median, 1);
}

TEST(Stats, RefusesEmptyAndNaN) {
  EXPECT_THROW(summarize(std::vector<double>{}), InvalidArgument);
  EXPECT_THROW(summarize(std::vector<double>{1, std::numeric_limits<double>::quiet_NaN()}), InvalidArgument);
}

TEST(Options, ParsesSizes) {
  const auto s = parse_shapes("1024,129x127x131, 7");
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0], (MatmulShape{1024, 1024, 1024}));
  EXPECT_EQ(s[1], (MatmulShape{129, 127, 131}));
  EXPECT_EQ(s[2], (MatmulShape{7, 7, 7}));
}

TEST(Options, RefusesBadSizesNamingThem) {
  for (const char* bad : {"", "abc", "0", "-5", "12x13", "1x2x3x4", "1024,", "1e3", "70000", "5x0x5", "3.5"}) {
    try {
      parse_shapes(bad);
      ADD_FAILURE() << "'" << bad << "' was accepted";
    } catch (const InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("--sizes"), std::string::npos) << e.what();
    }
  }
}

TEST(Options, RefusesUnknownFormatDeviceAndImplementation) {
  EXPECT_EQ(parse_report_format("json"), ReportFormat::json);
  EXPECT_EQ(parse_report_format("md"), ReportFormat::markdown);
  EXPECT_THROW(parse_report_format("xml"), InvalidArgument);
  EXPECT_THROW(parse_device_list("gpu7"), InvalidArgument);
  EXPECT_THROW(parse_device_list("cpu,,sim"), InvalidArgument);
  try {
    parse_impl_list("no-such-impl");
    ADD_FAILURE() << "an unknown implementation was accepted";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-impl"), std::string::npos);
  }
}

TEST(Options, ParsesSimCheckSets) {
  using namespace gpulab::sim;
  EXPECT_EQ(parse_sim_check_sets("memcheck,racecheck+initcheck, all,memcheck"),
            (std::vector<unsigned>{memcheck, racecheck | initcheck, check_all}));
  for (const char* bad : {"none", "memcheck,none", "racecheck+bogus", "memcheck,,racecheck", ""}) {
    SCOPED_TRACE(bad);
    try {
      parse_sim_check_sets(bad);
      ADD_FAILURE() << "accepted";
    } catch (const gpulab::InvalidArgument& e) {
      EXPECT_NE(std::string(e.what()).find("--sim-checks"), std::string::npos) << e.what();
    }
  }
}

TEST(Options, DeviceListDropsDuplicates) {
  const auto d = parse_device_list("cpu,cpu");
  ASSERT_EQ(d.size(), 1u);
  EXPECT_TRUE(d[0].is_host());
}

}  // namespace
