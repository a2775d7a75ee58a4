// The report as JSON: the stable interface of `gpulab bench` (schema in docs/benchmarking.md). Every
// row has every field; values that do not apply (a skipped row's times, an unknown peak) are null.
#include <cmath>

#include <nlohmann/json.hpp>

#include <gpulab/bench/report.hpp>

namespace gpulab::bench {

namespace {

using nlohmann::json;

json number_or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }
json optional_number(const std::optional<double>& x) { return x ? number_or_null(*x) : json(nullptr); }

const char* family_name(MatmulFamily f) {
  switch (f) {
    case MatmulFamily::cpu: return "cpu";
    case MatmulFamily::gpu: return "gpu";
    case MatmulFamily::peer: return "peer";
  }
  return "?";
}

const char* status_name(const BenchResult& r) {
  if (r.skipped) return "skipped";
  if (!r.error.empty()) return "error";
  return r.failed() ? "failed" : "ok";
}

json result_json(const BenchResult& r) {
  const bool ran = !r.skipped && r.error.empty();
  const auto when_ran = [&](double x) { return ran ? number_or_null(x) : json(nullptr); };
  json j = {
      {"impl", r.impl},
      {"description", r.impl_description},
      {"family", family_name(r.family)},
      {"device", r.device},
      {"device_name", r.device_name},
      {"simulated", r.simulated},
      {"dtype", to_string(r.dtype)},
      {"compute_type", to_string(r.compute_type)},
      {"m", r.m},
      {"n", r.n},
      {"k", r.k},
      {"status", status_name(r)},
      {"skip_reason", r.skipped ? json(r.skip_reason) : json(nullptr)},
      {"error", r.error.empty() ? json(nullptr) : json(r.error)},
      {"first_call_ms", when_ran(r.first_call_ms)},
      {"median_ms", when_ran(r.median_ms)},
      {"min_ms", when_ran(r.min_ms)},
      {"max_ms", when_ran(r.max_ms)},
      {"samples_ms", r.samples_ms},
      {"repeats", r.repeats},
      {"warmup", r.warmup},
      {"input_sets", r.input_sets},
      {"gflops", when_ran(r.gflops)},
      {"peak_gflops", optional_number(r.peak_gflops)},
      {"percent_of_peak", optional_number(r.percent_of_peak)},
      {"speedup", optional_number(r.speedup)},
      {"peer", r.peer.empty() ? json(nullptr) : json(r.peer)},
      {"ratio_to_peer", optional_number(r.ratio_to_peer)},
      {"rel_error", when_ran(r.rel_error)},
      {"tolerance", when_ran(r.tolerance)},
      {"verified", ran && r.verified},
      {"verify_method", ran ? json(r.verify_method) : json(nullptr)},
      {"transfers", nullptr},
      {"streams", nullptr},
      {"checked", json::array()},
  };
  for (const CheckedTimes& c : r.checked) {
    j["checked"].push_back({{"checks", c.checks},
                            {"median_ms", number_or_null(c.median_ms)},
                            {"min_ms", number_or_null(c.min_ms)},
                            {"max_ms", number_or_null(c.max_ms)},
                            {"samples_ms", c.samples_ms},
                            {"over_unchecked", number_or_null(c.over_unchecked)},
                            {"rel_error", number_or_null(c.rel_error)},
                            {"tolerance", number_or_null(c.tolerance)},
                            {"verified", c.verified}});
  }
  j["profile"] = nullptr;
  if (r.profile) {
    const RowProfile& p = *r.profile;
    const RooflineEstimate& e = p.estimate;
    j["profile"] = {{"kernels", p.kernels},
                    {"metrics", p.metrics},
                    {"hooks_ms", number_or_null(p.hooks_ms)},
                    {"profiled_ms", number_or_null(p.profiled_ms)},
                    {"hooks_over_unchecked", number_or_null(p.hooks_over_unchecked)},
                    {"profiled_over_unchecked", number_or_null(p.profiled_over_unchecked)},
                    {"rel_error", number_or_null(p.rel_error)},
                    {"verified", p.verified},
                    {"estimate", {{"gpu", e.gpu},
                                  {"is_estimate", true},
                                  {"compute_ms", e.compute_ms},
                                  {"dram_ms", e.dram_ms},
                                  {"l1_ms", e.l1_ms},
                                  {"estimate_ms", e.estimate_ms},
                                  {"bound", e.bound},
                                  {"gflops", e.gflops}}}};
  }
  if (r.transfers) {
    j["transfers"] = {{"h2d_ms", r.transfers->h2d_ms},
                      {"kernel_ms", r.transfers->kernel_ms},
                      {"d2h_ms", r.transfers->d2h_ms},
                      {"end_to_end_ms", r.transfers->end_to_end_ms}};
  }
  if (r.streams) {
    const StreamsResult& s = *r.streams;
    j["streams"] = {{"streams", s.streams},          {"panels", s.panels},
                    {"end_to_end_ms", s.end_to_end_ms}, {"h2d_ms", s.h2d_ms},
                    {"compute_ms", s.compute_ms},    {"d2h_ms", s.d2h_ms},
                    {"parts_ms", s.parts_ms},        {"overlap", s.overlap},
                    {"rel_error", number_or_null(s.rel_error)}, {"verified", s.verified}};
  }
  return j;
}

json context_json(const BenchContext& c) {
  json devices = json::array();
  for (const DeviceSummary& d : c.devices) {
    devices.push_back({{"id", d.id}, {"name", d.name}, {"detail", d.detail}, {"peak_gflops", optional_number(d.peak_gflops)}});
  }
  json env = json::object();
  for (const auto& [name, value] : c.environment) env[name] = value.empty() ? json(nullptr) : json(value);
  return {{"devices", devices},
          {"driver", c.driver},
          {"runtime", c.runtime},
          {"compiler", c.compiler},
          {"flags", c.flags},
          {"build_type", c.build_type},
          {"commit", c.commit},
          {"version", c.version},
          {"date", c.date},
          {"host", c.host},
          {"threads", c.threads},
          {"hardware_threads", c.hardware_threads},
          {"environment", env},
          {"sim_checks", c.sim_checks},
          {"sim_profile", c.sim_profile},
          {"profile", c.profile},
          {"estimate_gpu", c.estimate_gpu.empty() ? json(nullptr) : json(c.estimate_gpu)},
          {"command", c.command},
          {"dtype", c.dtype},
          {"seed", c.seed},
          {"repeat", c.repeat},
          {"warmup", c.warmup},
          {"warmup_ms", c.warmup_ms},
          {"sim_check_sets", c.sim_check_sets},
          {"time_budget_ms", c.time_budget_ms},
          {"include_transfers", c.include_transfers},
          {"streams", c.streams},
          {"baseline", c.baseline}};
}

}  // namespace

std::string format_json(const BenchReport& report) {
  json results = json::array();
  for (const BenchResult& r : report.results) results.push_back(result_json(r));
  const json doc = {{"schema", "gpulab-bench/1"}, {"results", results}, {"context", context_json(report.context)}};
  return doc.dump(2) + "\n";
}

}  // namespace gpulab::bench
