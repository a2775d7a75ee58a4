// Which checks are on (src/sim/checks/check_selection.cpp): GPULAB_SIM_CHECK's words parsed, in any
// case and with spaces, format_checks read back, the checks that need a kernel's instrumented
// compilation, and the refusal of an unknown word.
#include <cctype>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include <gpulab/error.hpp>
#include <gpulab/sim/checks.hpp>

namespace gpulab {
namespace {

TEST(SimChecks, ParsesComputeSanitizerNames) {
  EXPECT_EQ(sim::parse_checks("memcheck, RACECHECK"), sim::memcheck | sim::racecheck);
  EXPECT_EQ(sim::parse_checks("all"), static_cast<unsigned>(sim::check_all));
  EXPECT_EQ(sim::parse_checks("none"), 0u);
  EXPECT_THROW(sim::parse_checks("memcheck,bogus"), InvalidArgument);
}

// Every name GPULAB_SIM_CHECK accepts, alone, in any case and with spaces around it.
TEST(SimChecks, ParsesEveryRegisteredName) {
  const std::pair<const char*, unsigned> names[] = {
      {"memcheck", sim::memcheck}, {"racecheck", sim::racecheck}, {"initcheck", sim::initcheck},
      {"synccheck", sim::synccheck}, {"all", sim::check_all},     {"none", sim::check_none},
  };
  for (const auto& [name, flag] : names) {
    std::string upper(name), spaced = std::string("  ") + name + "\t ";
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(sim::parse_checks(name), flag) << name;
    EXPECT_EQ(sim::parse_checks(upper), flag) << upper;
    EXPECT_EQ(sim::parse_checks(spaced), flag) << "'" << spaced << "'";
  }
  EXPECT_EQ(sim::parse_checks(" InitCheck ,SyncCheck,  memcheck"), sim::initcheck | sim::synccheck | sim::memcheck);
  EXPECT_EQ(sim::parse_checks("none,racecheck"), static_cast<unsigned>(sim::racecheck));
  EXPECT_EQ(sim::parse_checks("all,none"), static_cast<unsigned>(sim::check_all));
  EXPECT_EQ(sim::parse_checks(""), 0u);
  EXPECT_EQ(sim::parse_checks("memcheck,,racecheck,"), sim::memcheck | sim::racecheck);
}

// format_checks names each check the way parse_checks reads it back, for every set of checks.
TEST(SimChecks, FormatChecksRoundTripsEverySet) {
  EXPECT_EQ(sim::format_checks(sim::check_none), "none");
  EXPECT_EQ(sim::format_checks(sim::memcheck), "memcheck");
  EXPECT_EQ(sim::format_checks(sim::racecheck), "racecheck");
  EXPECT_EQ(sim::format_checks(sim::initcheck), "initcheck");
  EXPECT_EQ(sim::format_checks(sim::synccheck), "synccheck");
  for (unsigned set = 0; set <= sim::check_all; ++set) {
    const std::string text = sim::format_checks(set);
    EXPECT_EQ(sim::parse_checks(text), set) << text;
  }
}

TEST(SimChecks, TheInstrumentedChecksAreMemcheckRacecheckAndInitcheck) {
  EXPECT_EQ(sim::checks_needing_instrumentation(), sim::memcheck | sim::racecheck | sim::initcheck);
}

// An unknown word is refused naming it and every word that is accepted.
TEST(SimChecks, AnUnknownWordIsRefusedListingEveryName) {
  try {
    sim::parse_checks("memcheck, bogus");
    ADD_FAILURE() << "'bogus' was accepted";
  } catch (const InvalidArgument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("'bogus'"), std::string::npos) << msg;
    for (const char* name : {"memcheck", "racecheck", "initcheck", "synccheck", "all", "none"}) {
      EXPECT_NE(msg.find(name), std::string::npos) << name << " is not named in: " << msg;
    }
  }
}

}  // namespace
}  // namespace gpulab
