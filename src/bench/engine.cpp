// The bench engine: plans the rows, prepares inputs and references once per shape, times each row and
// verifies it, then fills in the comparisons (speed-up over the baseline, ratio to the peer, % of peak).
// One concept, the run of a benchmark plan, in one file of over 500 lines: the stages share the plan's
// state and split into files only at the cost of passing it all around.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <type_traits>

#include <fmt/format.h>

#include <gpulab/array.hpp>
#include <gpulab/bench/bench.hpp>
#include <gpulab/bench/stats.hpp>
#include <gpulab/cpu/cpu_info.hpp>
#include <gpulab/error.hpp>
#include <gpulab/random/distributions.hpp>
#include <gpulab/sim/checks.hpp>
#include <gpulab/sim/profile.hpp>
#include <gpulab/stream.hpp>

namespace gpulab::bench {

bool BenchReport::all_verified() const {
  return std::none_of(results.begin(), results.end(), [](const BenchResult& r) { return r.failed(); });
}

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Whether warm-up run `done` + 1 is due: fewer than --warmup runs so far (the first call counts), or
// less than --warmup-ms since the first call began.
bool warming_up(const BenchConfig& config, int done, Clock::time_point first_call) {
  return done < config.warmup || ms_since(first_call) < config.warmup_ms;
}

// The baseline of the speed-up column: the registry's first CPU implementation, the guide's triple
// loop (cpu-naive).
const MatmulImpl* baseline_impl() {
  for (const MatmulImpl* impl : matmul_impls()) {
    if (impl->family == MatmulFamily::cpu && impl->runs_on(DeviceKind::host)) return impl;
  }
  return nullptr;
}

// TF32 implementations round float32 inputs to 10 mantissa bits, so their tolerance is TF32's.
ComputeType compute_type_for(const MatmulImpl& impl, Dtype dtype) {
  return dtype == Dtype::float32 && impl.float32_as_tf32 ? ComputeType::tf32 : compute_type_of(dtype);
}

std::size_t cache_bytes(const Device& d) {
  if (d.is_cuda()) return d.properties().l2_cache_bytes;
  const cpu::CpuInfo& info = cpu::cpu_info();
  return info.l3_bytes + info.l2_bytes * static_cast<std::size_t>(std::max(info.cores, 1));
}

// Integer inputs in [-limit, limit] without 0, small enough that every K-term dot product is exact
// in int32.
int int32_input_limit(int k) {
  const double cap = std::sqrt(static_cast<double>(std::numeric_limits<std::int32_t>::max()) / std::max(k, 1));
  return std::clamp(static_cast<int>(cap), 1, 8);
}

template <class T>
T poison_value() {
  if constexpr (std::numeric_limits<T>::has_quiet_NaN) {
    return std::numeric_limits<T>::quiet_NaN();
  } else {
    return std::numeric_limits<T>::min();
  }
}

// Fills `values` from Philox(seed, subsequence): floats uniform in (-1, 1) without 0 (float64 gets the
// same values, exactly), int32 small nonzero integers.
template <class T>
void fill_philox(std::span<T> values, std::uint64_t seed, std::uint64_t subsequence, int int_limit) {
  const random::Philox philox(seed, subsequence);
  const std::size_t n = values.size();
  for (std::size_t block = 0; block * 4 < n; ++block) {
    const random::Philox4x32Counter words = philox.block(block);
    for (std::size_t lane = 0; lane < 4 && block * 4 + lane < n; ++lane) {
      const std::uint32_t w = words.v[lane];
      if constexpr (std::is_integral_v<T>) {
        values[block * 4 + lane] = random::uniform_nonzero_int(w, int_limit);
      } else {
        values[block * 4 + lane] = static_cast<T>(random::uniform_symmetric(w));
      }
    }
  }
}

// Inputs and the reference for one shape, shared by every row of that shape.
template <class T>
struct Workspace {
  MatmulShape shape;
  std::vector<HostArray<T, 2>> a, b;  // rotated input sets; set 0 is the one verified
  std::unique_ptr<MatmulReference<T>> reference;
};

template <class T>
std::unique_ptr<Workspace<T>> make_workspace(const MatmulShape& s, int sets, const BenchConfig& config) {
  auto ws = std::make_unique<Workspace<T>>();
  ws->shape = s;
  const int limit = int32_input_limit(s.k);
  for (int set = 0; set < sets; ++set) {
    ws->a.emplace_back(s.m, s.k);
    ws->b.emplace_back(s.k, s.n);
    fill_philox<T>(std::span<T>(ws->a.back().data(), ws->a.back().size()), config.seed, 2 * static_cast<std::uint64_t>(set), limit);
    fill_philox<T>(std::span<T>(ws->b.back().data(), ws->b.back().size()), config.seed, 2 * static_cast<std::uint64_t>(set) + 1, limit);
  }
  VerifyOptions vo = config.verify;
  vo.seed ^= config.seed;
  ws->reference = std::make_unique<MatmulReference<T>>(ws->a[0].cview(), ws->b[0].cview(), vo);
  return ws;
}

// How many timed runs fit: at most config.repeat, at least one, by the per-row time budget.
int repeats_within_budget(const BenchConfig& config, double estimate_ms) {
  int reps = std::max(config.repeat, 1);
  if (config.time_budget_ms > 0 && estimate_ms > 0) {
    reps = std::clamp(static_cast<int>(config.time_budget_ms / estimate_ms), 1, reps);
  }
  return reps;
}

// Rotating through the sets so that the last repeat uses set 0, whose result is verified.
int set_for_repeat(int rep, int reps, int sets) { return (reps - 1 - rep) % sets; }

void summarize_into(BenchResult& r, const std::vector<double>& samples) {
  const SampleStats st = summarize(samples);
  r.samples_ms = samples;
  r.repeats = st.count;
  r.median_ms = st.median;
  r.min_ms = st.min;
  r.max_ms = st.max;
  const double flops = 2.0 * r.m * r.n * static_cast<double>(r.k);
  r.gflops = r.median_ms > 0 ? flops / (r.median_ms * 1e6) : 0;
}

template <class T>
MatmulArgs<T> args_for(matrix_view<const T> a, matrix_view<const T> b, matrix_view<T> c) {
  return MatmulArgs<T>{a, b, c, T{1}, T{0}};
}

// The result of a check against the reference, in a row, a --sim-checks set or a --streams run.
template <class Row>
void record_verification(Row& row, const VerifyResult& v) {
  row.rel_error = v.rel_error;
  row.verified = v.passed;
  if constexpr (requires { row.tolerance; }) row.tolerance = v.tolerance;
  if constexpr (requires { row.verify_method; }) row.verify_method = v.method;
}

// ---- the timing skeleton of every row ------------------------------------------------------------

// What a row does, for time_row: how it runs and times one call, and what it adds around the repeats.
struct RowCalls {
  // One call on input set `set`, returning once it has finished (the first call, timed on the host
  // clock: it may include compilation, module loading or library handles).
  std::function<void(int set)> run;
  // One call, returning its time in ms: the host clock on the CPU, device events elsewhere.
  std::function<double(int set)> timed;
  // A repeat's timed call, when it differs from `timed` (with the transfers around it, say).
  std::function<double(int set)> repeat;
  // The first call is a steady one (nothing compiled or loaded): the estimate needs no second call.
  bool first_call_steady = true;
  // After warm-up: untimed work done once (the check sets' first calls), returning the ms each repeat
  // spends beyond its timed call.
  std::function<double()> per_repeat_extra;
  // Before the last repeat, whose result is verified: the output poisoned.
  std::function<void()> poison;
  // After each repeat: the last one's check, and the work timed beside it (the check sets).
  std::function<void(int rep, int set, bool last)> after_repeat;
};

// The first call apart, warm-up (--warmup calls, at least --warmup-ms, within half the row's budget),
// then the repeats the budget allows, rotating the input sets so that the last uses set 0, whose result
// is poisoned before and verified after. Fills the row's timings.
void time_row(BenchResult& r, const BenchConfig& config, int sets, const RowCalls& calls) {
  const auto t_first = Clock::now();
  calls.run(0);
  r.first_call_ms = ms_since(t_first);
  double estimate = r.first_call_ms;
  r.warmup = 1;
  const auto t_warm = Clock::now();
  for (int w = 1; warming_up(config, w, t_first); ++w) {
    if (config.time_budget_ms > 0 && ms_since(t_warm) + estimate > config.time_budget_ms / 2) break;
    estimate = calls.timed(w % sets);
    ++r.warmup;
  }
  if (!calls.first_call_steady && r.warmup == 1) {
    // One more call, to estimate a steady run: the first may include compilation.
    estimate = calls.timed(0);
    ++r.warmup;
  }
  const double repeat_ms = estimate + (calls.per_repeat_extra ? calls.per_repeat_extra() : 0.0);
  const int reps = repeats_within_budget(config, repeat_ms);
  const auto& repeat = calls.repeat ? calls.repeat : calls.timed;
  std::vector<double> samples;
  for (int rep = 0; rep < reps; ++rep) {
    const bool last = rep == reps - 1;
    const int set = set_for_repeat(rep, reps, sets);
    if (last && calls.poison) calls.poison();
    samples.push_back(repeat(set));
    if (calls.after_repeat) calls.after_repeat(rep, set, last);
  }
  summarize_into(r, samples);
}

// ---- a row on the host -------------------------------------------------------------------------

template <class T>
void run_host_row(BenchResult& r, const MatmulImpl& impl, Workspace<T>& ws, const BenchConfig& config) {
  const MatmulShape s = ws.shape;
  HostArray<T, 2> c(s.m, s.n);
  std::fill(c.begin(), c.end(), poison_value<T>());
  const MatmulContext ctx{Stream{}, config.threads};
  RowCalls calls;
  calls.run = [&](int set) {
    run_matmul(impl, AnyMatmulArgs{args_for<T>(ws.a[set].cview(), ws.b[set].cview(), c.view())}, ctx);
  };
  calls.timed = [&](int set) {
    const auto t0 = Clock::now();
    calls.run(set);
    return ms_since(t0);
  };
  calls.poison = [&] { std::fill(c.begin(), c.end(), poison_value<T>()); };
  time_row(r, config, static_cast<int>(ws.a.size()), calls);
  record_verification(r, ws.reference->check(c.cview(), r.compute_type));
}

// ---- a row on a device (CUDA or the simulator) ---------------------------------------------------

double event_ms(const Event& start, const Event& end) {
  return static_cast<double>(end.elapsed_ms_since(start));
}

template <class T>
StreamsResult run_streams(const MatmulImpl& impl, Workspace<T>& ws, const BenchConfig& config, const Device& device,
                          DeviceArray<T, 2>& da, DeviceArray<T, 2>& db, DeviceArray<T, 2>& dc, int reps,
                          ComputeType type) {
  const MatmulShape s = ws.shape;
  StreamsResult out;
  out.streams = config.streams;
  out.panels = std::min(s.m, 2 * config.streams);
  const int rows_per_panel = (s.m + out.panels - 1) / out.panels;
  out.panels = (s.m + rows_per_panel - 1) / rows_per_panel;

  PinnedArray<T, 2> pa(s.m, s.k), pb(s.k, s.n), pc(s.m, s.n);
  std::copy(ws.a[0].begin(), ws.a[0].end(), pa.begin());
  std::copy(ws.b[0].begin(), ws.b[0].end(), pb.begin());

  std::vector<Stream> streams;
  for (int i = 0; i < config.streams; ++i) streams.emplace_back(device);
  const MatmulContext base_ctx{Stream{}, config.threads};
  const auto panel_rows = [&](int p) { return std::min(rows_per_panel, s.m - p * rows_per_panel); };
  const auto h2d_a = [&](int p, const Stream& st) {
    const std::size_t offset = static_cast<std::size_t>(p) * rows_per_panel * s.k;
    detail::copy_bytes(da.data() + offset, da.space(), pa.data() + offset, host_space,
                       static_cast<std::size_t>(panel_rows(p)) * s.k * sizeof(T), st);
  };
  const auto compute = [&](int p, const Stream& st) {
    MatmulContext ctx = base_ctx;
    ctx.stream = st;
    const int r0 = p * rows_per_panel, rows = panel_rows(p);
    run_matmul(impl,
               AnyMatmulArgs{args_for<T>(da.cview().block(r0, 0, rows, s.k), db.cview(), dc.view().block(r0, 0, rows, s.n))},
               ctx);
  };
  const auto d2h_c = [&](int p, const Stream& st) {
    const std::size_t offset = static_cast<std::size_t>(p) * rows_per_panel * s.n;
    detail::copy_bytes(pc.data() + offset, host_space, dc.data() + offset, dc.space(),
                       static_cast<std::size_t>(panel_rows(p)) * s.n * sizeof(T), st);
  };

  const int stream_reps = std::clamp(reps, 1, 5);
  std::vector<double> h2d, comp, d2h, e2e;
  Event e0(device), e1(device), e2(device), e3(device);
  for (int rep = 0; rep < stream_reps; ++rep) {
    // The parts, one after another on one stream: nothing overlaps.
    const Stream& st = streams[0];
    e0.record(st);
    detail::copy_bytes(db.data(), db.space(), pb.data(), host_space, pb.bytes(), st);
    for (int p = 0; p < out.panels; ++p) h2d_a(p, st);
    e1.record(st);
    for (int p = 0; p < out.panels; ++p) compute(p, st);
    e2.record(st);
    for (int p = 0; p < out.panels; ++p) d2h_c(p, st);
    e3.record(st);
    e3.synchronize();
    h2d.push_back(event_ms(e0, e1));
    comp.push_back(event_ms(e1, e2));
    d2h.push_back(event_ms(e2, e3));

    // The pipeline: panel p's copy in, product and copy out on stream p % K, so the copy in of one
    // panel overlaps the product of the previous one and the copy out of the one before.
    std::fill(pc.begin(), pc.end(), poison_value<T>());
    Event start(device), b_ready(device), end(device);
    start.record(streams[0]);
    detail::copy_bytes(db.data(), db.space(), pb.data(), host_space, pb.bytes(), streams[0]);
    b_ready.record(streams[0]);
    for (std::size_t i = 1; i < streams.size(); ++i) streams[i].wait(b_ready);
    for (int p = 0; p < out.panels; ++p) {
      const Stream& sp = streams[static_cast<std::size_t>(p) % streams.size()];
      h2d_a(p, sp);
      compute(p, sp);
      d2h_c(p, sp);
    }
    for (std::size_t i = 1; i < streams.size(); ++i) {
      Event done(device);
      done.record(streams[i]);
      streams[0].wait(done);
    }
    end.record(streams[0]);
    end.synchronize();
    for (const Stream& sp : streams) sp.synchronize();
    e2e.push_back(event_ms(start, end));
  }
  out.h2d_ms = summarize(h2d).median;
  out.compute_ms = summarize(comp).median;
  out.d2h_ms = summarize(d2h).median;
  out.parts_ms = out.h2d_ms + out.compute_ms + out.d2h_ms;
  out.end_to_end_ms = summarize(e2e).median;
  out.overlap = out.parts_ms > 0 ? 1.0 - out.end_to_end_ms / out.parts_ms : 0;
  record_verification(out, ws.reference->check(pc.cview(), type));
  return out;
}

template <class T>
void run_device_row(BenchResult& r, const MatmulImpl& impl, Workspace<T>& ws, const BenchConfig& config,
                    const Device& device) {
  const MatmulShape s = ws.shape;
  const int sets = static_cast<int>(ws.a.size());
  Stream stream(device);
  const MatmulContext ctx{stream, config.threads};
  // --sim-checks: the sets of checks timed beside the unchecked runs (simulator rows only).
  const std::vector<unsigned> check_sets = device.is_sim() ? config.sim_check_sets : std::vector<unsigned>{};
  // --profile: the hooks alone and the profiler counting, timed the same way (simulator rows only).
  const bool profiling = device.is_sim() && config.profile;
  std::vector<DeviceArray<T, 2>> da, db;
  for (int set = 0; set < sets; ++set) {
    da.push_back(to_device(device, ws.a[set], stream));
    db.push_back(to_device(device, ws.b[set], stream));
  }
  DeviceArray<T, 2> dc(device, Shape<2>{s.m, s.n});
  dc.fill(poison_value<T>(), stream);
  stream.synchronize();
  const auto check_product = [&] {
    const HostArray<T, 2> host_c = dc.copy_to_host(stream);
    return ws.reference->check(host_c.cview(), r.compute_type);
  };

  std::optional<std::vector<PinnedArray<T, 2>>> pinned_a, pinned_b;
  std::optional<PinnedArray<T, 2>> pinned_c;
  if (config.include_transfers) {
    pinned_a.emplace();
    pinned_b.emplace();
    for (int set = 0; set < sets; ++set) {
      pinned_a->emplace_back(s.m, s.k);
      pinned_b->emplace_back(s.k, s.n);
      std::copy(ws.a[set].begin(), ws.a[set].end(), pinned_a->back().begin());
      std::copy(ws.b[set].begin(), ws.b[set].end(), pinned_b->back().begin());
    }
    pinned_c.emplace(s.m, s.n);
  }

  Event e0(device), e1(device), e2(device), e3(device);
  std::vector<double> h2d, d2h, e2e;
  std::vector<CheckedTimes> checked(check_sets.size());
  std::vector<double> hooks_samples, profiled_samples;
  RowProfile row_profile;
  RowCalls calls;
  calls.first_call_steady = false;
  calls.run = [&](int set) {
    run_matmul(impl, AnyMatmulArgs{args_for<T>(da[set].cview(), db[set].cview(), dc.view())}, ctx);
    stream.synchronize();
  };
  calls.timed = [&](int set) {
    e1.record(stream);
    run_matmul(impl, AnyMatmulArgs{args_for<T>(da[set].cview(), db[set].cview(), dc.view())}, ctx);
    e2.record(stream);
    e2.synchronize();
    return event_ms(e1, e2);
  };
  if (config.include_transfers) {
    calls.repeat = [&](int set) {
      e0.record(stream);
      da[set].copy_from((*pinned_a)[set], stream);
      db[set].copy_from((*pinned_b)[set], stream);
      e1.record(stream);
      run_matmul(impl, AnyMatmulArgs{args_for<T>(da[set].cview(), db[set].cview(), dc.view())}, ctx);
      e2.record(stream);
      dc.copy_to_host(*pinned_c, stream);
      e3.record(stream);
      e3.synchronize();
      h2d.push_back(event_ms(e0, e1));
      d2h.push_back(event_ms(e2, e3));
      e2e.push_back(event_ms(e0, e3));
      return event_ms(e1, e2);
    };
  }
  // Each check set's first call (its checks' state is set up then), which also says how long a repeat
  // of all of them takes.
  calls.per_repeat_extra = [&] {
    double extra = 0;
    for (unsigned checks : check_sets) {
      const sim::ScopedChecks scoped(checks);
      extra += calls.timed(0);
    }
    if (profiling) {
      for (unsigned sections : {unsigned{sim::profile_hooks_only}, unsigned{sim::profile_all}}) {
        const sim::ScopedProfile scoped(sections);
        extra += calls.timed(0);
      }
    }
    return extra;
  };
  calls.poison = [&] { dc.fill(poison_value<T>(), stream); };
  calls.after_repeat = [&](int, int set, bool last) {
    // The last repeat's product, poisoned before it: verified before the check sets overwrite it.
    if (last) record_verification(r, check_product());
    // The same repeat under each set of checks, right after the unchecked one: both see the machine
    // in the same state, so their ratio holds where separate runs drift apart.
    for (std::size_t c = 0; c < check_sets.size(); ++c) {
      const sim::ScopedChecks scoped(check_sets[c]);
      if (last) dc.fill(poison_value<T>(), stream);
      checked[c].samples_ms.push_back(calls.timed(set));
      if (last) record_verification(checked[c], check_product());
    }
    if (profiling) {
      {
        const sim::ScopedProfile scoped(sim::profile_hooks_only);
        hooks_samples.push_back(calls.timed(set));
      }
      const sim::ScopedProfile scoped(sim::profile_all);
      sim::reset_profile();
      if (last) dc.fill(poison_value<T>(), stream);
      profiled_samples.push_back(calls.timed(set));
      if (last) {
        record_verification(row_profile, check_product());
        // One call's counts, summed over its kernels (the ratios recomputed from the sums).
        for (const sim::KernelProfile& k : sim::profile_results()) {
          row_profile.kernels.push_back(k.name);
          for (const auto& [name, value] : k.metrics) {
            if (name.ends_with(".sum")) row_profile.metrics[name] += value;
          }
        }
        for (const char* op : {"ld", "st"}) {
          const std::string o = op;
          const double requests = row_profile.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_" + o + ".sum"];
          row_profile.metrics["l1tex__t_sectors_per_request_pipe_lsu_mem_global_op_" + o + ".ratio"] =
              requests > 0 ? row_profile.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_" + o + ".sum"] / requests : 0;
        }
        sim::reset_profile();
      }
    }
  };
  time_row(r, config, sets, calls);

  for (std::size_t c = 0; c < check_sets.size(); ++c) {
    const SampleStats st = summarize(checked[c].samples_ms);
    checked[c].checks = sim::format_checks(check_sets[c]);
    checked[c].median_ms = st.median;
    checked[c].min_ms = st.min;
    checked[c].max_ms = st.max;
    checked[c].over_unchecked = r.median_ms > 0 ? st.median / r.median_ms : 0;
  }
  r.checked = std::move(checked);
  if (profiling && !profiled_samples.empty()) {
    row_profile.hooks_ms = summarize(hooks_samples).median;
    row_profile.profiled_ms = summarize(profiled_samples).median;
    row_profile.hooks_over_unchecked = r.median_ms > 0 ? row_profile.hooks_ms / r.median_ms : 0;
    row_profile.profiled_over_unchecked = r.median_ms > 0 ? row_profile.profiled_ms / r.median_ms : 0;
    row_profile.estimate = roofline_estimate(find_gpu_spec(config.estimate_gpu), 2.0 * s.m * s.n * static_cast<double>(s.k),
                                             dtype_of<T>(), row_profile.metrics);
    r.profile = std::move(row_profile);
  }
  if (config.include_transfers) {
    r.transfers = TransferTimes{summarize(h2d).median, r.median_ms, summarize(d2h).median, summarize(e2e).median};
  }

  if (config.streams > 0) {
    MatmulProblem panel{};
    panel.m = std::max(1, s.m / std::max(1, 2 * config.streams));
    panel.n = s.n;
    panel.k = s.k;
    panel.dtype = dtype_of<T>();
    panel.lda = s.k;
    panel.ldb = s.n;
    panel.ldc = s.n;
    panel.space = device.space();
    if (impl.why_not(panel).empty()) {
      r.streams = run_streams<T>(impl, ws, config, device, da[0], db[0], dc, r.repeats, r.compute_type);
    }
  }
}

MatmulProblem problem_for(const MatmulShape& s, Dtype dtype, const Device& d) {
  MatmulProblem p;
  p.m = s.m;
  p.n = s.n;
  p.k = s.k;
  p.dtype = dtype;
  p.lda = s.k;
  p.ldb = s.n;
  p.ldc = s.n;
  p.space = d.space();
  p.beta_is_zero = true;
  return p;
}

// The default devices: every CUDA device, or the simulator where there is none; and the host.
std::vector<Device> default_devices() {
  std::vector<Device> out;
  bool any_cuda = false;
  for (const Device& d : devices()) {
    if (d.is_cuda()) {
      out.push_back(d);
      any_cuda = true;
    }
  }
  if (!any_cuda) out.push_back(sim_device());
  out.push_back(host_device());
  return out;
}

BenchResult base_result(const MatmulImpl& impl, const Device& device, const MatmulShape& s, const BenchConfig& config) {
  BenchResult r;
  r.impl = impl.name;
  r.impl_description = impl.description;
  r.family = impl.family;
  r.device = device.id();
  r.device_kind = device.kind();
  r.device_name = device.properties().name;
  r.simulated = device.is_sim();
  r.dtype = config.dtype;
  r.compute_type = compute_type_for(impl, config.dtype);
  r.m = s.m;
  r.n = s.n;
  r.k = s.k;
  return r;
}

template <class T>
void run_rows(const BenchConfig& config, const std::vector<PlannedRow>& plan, BenchReport& report,
              const BenchProgress& progress) {
  std::size_t i = 0;
  int done = 0;
  while (i < plan.size()) {
    // Rows of one shape are consecutive in the plan: one workspace for all of them.
    std::size_t end = i;
    std::size_t cache = 0;
    while (end < plan.size() && plan[end].shape == plan[i].shape) {
      cache = std::max(cache, cache_bytes(plan[end].device));
      ++end;
    }
    const MatmulShape s = plan[i].shape;
    const std::size_t input_bytes = (static_cast<std::size_t>(s.m) * s.k + static_cast<std::size_t>(s.k) * s.n) * sizeof(T);
    int sets = 1;
    if (input_bytes < cache) {
      const auto want = static_cast<int>((2 * cache + input_bytes - 1) / input_bytes);
      const auto memory_cap = static_cast<int>(std::max<std::size_t>(1, (std::size_t{512} << 20) / input_bytes));
      sets = std::clamp(want, 1, std::min(8, memory_cap));
    }
    std::unique_ptr<Workspace<T>> ws;
    for (; i < end; ++i) {
      const PlannedRow& row = plan[i];
      BenchResult r = base_result(*row.impl, row.device, s, config);
      const std::string reason = row.impl->why_not(problem_for(s, config.dtype, row.device));
      if (!reason.empty()) {
        r.skipped = true;
        r.skip_reason = reason;
      } else {
        try {
          if (!ws) ws = make_workspace<T>(s, sets, config);
          r.input_sets = sets;
          if (row.device.is_host()) {
            run_host_row<T>(r, *row.impl, *ws, config);
          } else {
            run_device_row<T>(r, *row.impl, *ws, config, row.device);
          }
          if (row.impl->after_bench_row) row.impl->after_bench_row();
        } catch (const std::exception& e) {
          r.error = e.what();
          r.verified = false;
        }
      }
      report.results.push_back(std::move(r));
      ++done;
      if (progress) {
        progress(done, static_cast<int>(plan.size()),
                 fmt::format("{} on {} {}x{}x{}", row.impl->name, row.device.id(), s.m, s.n, s.k));
      }
    }
  }
}

// Speed-up over the baseline, ratio to the peer and % of peak, from the finished rows.
void compare(BenchReport& report, const BenchConfig& config) {
  const MatmulImpl* base = baseline_impl();
  const auto ran = [](const BenchResult& r) { return !r.skipped && r.error.empty() && r.median_ms > 0; };
  const auto same_problem = [](const BenchResult& a, const BenchResult& b) {
    return a.m == b.m && a.n == b.n && a.k == b.k && a.dtype == b.dtype;
  };
  std::map<std::string, std::optional<double>> peaks;
  for (BenchResult& r : report.results) {
    if (!ran(r)) continue;
    if (base != nullptr) {
      for (const BenchResult& b : report.results) {
        if (ran(b) && b.impl == base->name && b.device_kind == DeviceKind::host && same_problem(b, r)) {
          r.speedup = b.median_ms / r.median_ms;
        }
      }
    }
    const BenchResult* peer = nullptr;
    int peer_order = std::numeric_limits<int>::max();
    for (const BenchResult& p : report.results) {
      if (!ran(p) || p.family != MatmulFamily::peer || p.device != r.device || !same_problem(p, r)) continue;
      const MatmulImpl* impl = find_matmul(p.impl);
      const int order = impl != nullptr ? impl->order : 0;
      if (order < peer_order) {
        peer = &p;
        peer_order = order;
      }
    }
    if (peer != nullptr && peer->gflops > 0) {
      r.peer = peer->impl;
      r.ratio_to_peer = r.gflops / peer->gflops;
    }
    const std::string key = r.device + "/" + to_string(r.compute_type);
    if (!peaks.count(key)) peaks[key] = device_peak_gflops(parse_device(r.device), r.compute_type, config.threads);
    r.peak_gflops = peaks[key];
    if (r.peak_gflops && *r.peak_gflops > 0) r.percent_of_peak = 100.0 * r.gflops / *r.peak_gflops;
  }
}

}  // namespace

std::vector<PlannedRow> plan_bench(const BenchConfig& config) {
  std::vector<const MatmulImpl*> impls = config.impls;
  if (impls.empty()) impls = matmul_impls();
  std::sort(impls.begin(), impls.end(), [](const MatmulImpl* a, const MatmulImpl* b) { return a->order < b->order; });
  const bool default_devices_used = config.devices.empty();
  std::vector<Device> devs = default_devices_used ? default_devices() : config.devices;
  const MatmulImpl* base = baseline_impl();

  // With no --sizes: 1024 on CUDA and the CPU, the simulator's size on the simulator, and the baseline
  // at every size, so that each row has its speed-up.
  struct Slot {
    MatmulShape shape;
    std::vector<Device> devices;
  };
  std::vector<Slot> slots;
  if (!config.shapes.empty()) {
    for (const MatmulShape& s : config.shapes) slots.push_back({s, devs});
  } else {
    std::vector<Device> big, sim;
    for (const Device& d : devs) (d.is_sim() ? sim : big).push_back(d);
    if (!big.empty()) slots.push_back({{default_size, default_size, default_size}, big});
    if (!sim.empty()) slots.push_back({{default_sim_size, default_sim_size, default_sim_size}, sim});
  }

  std::vector<PlannedRow> plan;
  for (const Slot& slot : slots) {
    std::vector<Device> slot_devices = slot.devices;
    const bool baseline_wanted = base != nullptr && std::find(impls.begin(), impls.end(), base) != impls.end();
    const bool has_host = std::any_of(slot_devices.begin(), slot_devices.end(), [](const Device& d) { return d.is_host(); });
    if (config.shapes.empty() && baseline_wanted && !has_host) {
      // The baseline's row at the simulator's size.
      plan.push_back({base, host_device(), slot.shape});
    }
    for (const Device& d : slot_devices) {
      for (const MatmulImpl* impl : impls) {
        const bool runs_here = impl->runs_on(d.kind());
        const bool runs_on_some = std::any_of(devs.begin(), devs.end(), [&](const Device& x) { return impl->runs_on(x.kind()); });
        // A refusal shows as a skipped row only when the user named the implementation and it runs on
        // none of the chosen devices; otherwise devices it does not run on are simply not its rows.
        if (runs_here || (config.impls_explicit && !runs_on_some)) plan.push_back({impl, d, slot.shape});
      }
    }
  }
  return plan;
}

BenchReport run_bench(const BenchConfig& config, const BenchProgress& progress) {
  if (config.repeat < 1) throw InvalidArgument(fmt::format("--repeat {}: needs at least 1", config.repeat));
  if (!config.sim_check_sets.empty() && sim::enabled_checks() != sim::check_none) {
    throw InvalidArgument(fmt::format("--sim-checks times each set beside an unchecked run, but GPULAB_SIM_CHECK "
                                      "turns checks on for every run ('{}'): unset it",
                                      sim::format_checks(sim::enabled_checks())));
  }
  if (config.profile && sim::profile_sections() != sim::profile_none) {
    throw InvalidArgument("--profile times the profiler beside an unprofiled run, but GPULAB_SIM_PROFILE turns it on "
                          "for every run: unset it");
  }
  if (config.profile) find_gpu_spec(config.estimate_gpu);  // an unknown GPU is refused before anything runs
  if (config.warmup < 1) throw InvalidArgument(fmt::format("--warmup {}: needs at least 1 (the first call)", config.warmup));
  if (config.streams < 0) throw InvalidArgument(fmt::format("--streams {}: needs 0 or more", config.streams));
  const std::vector<PlannedRow> plan = plan_bench(config);
  if (plan.empty()) throw InvalidArgument("bench: nothing to run (no implementation runs on the chosen devices)");
  std::vector<Device> used;
  for (const PlannedRow& row : plan) {
    if (std::find(used.begin(), used.end(), row.device) == used.end()) used.push_back(row.device);
  }
  BenchReport report;
  report.context = collect_context(config, used);
  if (const MatmulImpl* base = baseline_impl()) report.context.baseline = base->name;
  switch (config.dtype) {
    case Dtype::float32: run_rows<float>(config, plan, report, progress); break;
    case Dtype::float64: run_rows<double>(config, plan, report, progress); break;
    case Dtype::int32: run_rows<std::int32_t>(config, plan, report, progress); break;
  }
  compare(report, config);
  return report;
}

}  // namespace gpulab::bench
