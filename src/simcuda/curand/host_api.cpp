// cuRAND's host API (<curand.h>, gpulab-simcc's shadow) on the simulator: C linkage, as libcurand's.
// A generator from curandCreateGeneratorHost writes host memory during the call; one from
// curandCreateGenerator queues its work on its stream as a host task that declares the output it writes,
// so memcheck sees a bad pointer and initcheck the bytes written, and the work is ordered as a kernel on
// that stream would be. Either fills its output from the generator's Sequence (generator.hpp).
#include <cstdio>
#include <memory>
#include <new>
#include <string>

#include <gpulab/sim/cuda/curand.h>

#include "simcuda/curand/generator.hpp"
#include "simcuda/curand/status.hpp"
#include "simcuda/runtime/library_tasks.hpp"

struct curandGenerator_st {
  gpulab::sim::curand::Generator generator;
  bool host;                // curandCreateGeneratorHost
  cudaStream_t stream = 0;  // curandSetStream (device generators)
};

namespace {

using gpulab::sim::curand::Batch;
using gpulab::sim::curand::Dist;
using gpulab::sim::curand::Generator;
using gpulab::sim::curand::Refusal;
using gpulab::sim::curand::RngKind;
using gpulab::sim::curand::Sequence;
using gpulab::sim::curand::Status;

curandStatus_t to_c(Status s) { return static_cast<curandStatus_t>(static_cast<int>(s)); }

// What cuRAND refuses silently is returned silently; what the simulator refuses where cuRAND would not
// is also said on stderr, as a note (it is not a finding of the checks).
void note(const char* call, const std::string& why) {
  std::fprintf(stderr, "gpulab-sim: note: %s: %s\n", call, why.c_str());
}

curandStatus_t create(curandGenerator_t* generator, curandRngType_t type, bool host, const char* call) {
  if (generator == nullptr) return CURAND_STATUS_OUT_OF_RANGE;  // cuRAND dereferences it
  RngKind kind;
  switch (type) {
    case CURAND_RNG_PSEUDO_DEFAULT:
    case CURAND_RNG_PSEUDO_XORWOW: kind = RngKind::xorwow; break;
    case CURAND_RNG_PSEUDO_PHILOX4_32_10: kind = RngKind::philox4_32_10; break;
    case CURAND_RNG_PSEUDO_MRG32K3A: kind = RngKind::mrg32k3a; break;
    case CURAND_RNG_TEST:
    case CURAND_RNG_PSEUDO_MTGP32:
    case CURAND_RNG_PSEUDO_MT19937:
    case CURAND_RNG_QUASI_DEFAULT:
    case CURAND_RNG_QUASI_SOBOL32:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL32:
    case CURAND_RNG_QUASI_SOBOL64:
    case CURAND_RNG_QUASI_SCRAMBLED_SOBOL64:
      note(call, "curandRngType " + std::to_string(static_cast<int>(type)) +
                     " is not simulated (the simulator provides CURAND_RNG_PSEUDO_XORWOW, "
                     "CURAND_RNG_PSEUDO_PHILOX4_32_10 and CURAND_RNG_PSEUDO_MRG32K3A): CURAND_STATUS_TYPE_ERROR");
      return CURAND_STATUS_TYPE_ERROR;
    default: return CURAND_STATUS_TYPE_ERROR;
  }
  try {
    *generator = new curandGenerator_st{Generator(kind), host};
    return CURAND_STATUS_SUCCESS;
  } catch (const std::bad_alloc&) {
    return CURAND_STATUS_ALLOCATION_FAILED;
  }
}

// Runs one generating call of n results of `d`: `fill(sequence, batch, out)` writes them.
template <class T, class Fill>
curandStatus_t generate(const char* call, curandGenerator_t g, Dist d, T* out, std::size_t n, Fill fill) {
  if (g == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  if (n == 0) return CURAND_STATUS_SUCCESS;
  try {
    Generator next = g->generator;  // moved past this call only once the call is made
    std::shared_ptr<const Sequence> sequence = next.sequence();
    const Batch batch = next.plan(d, n);
    if (g->host) {
      if (out == nullptr) return CURAND_STATUS_OUT_OF_RANGE;  // cuRAND writes through it and crashes
      fill(*sequence, batch, out);
    } else {
      if (gpulab::sim::cuda::detail::library_context_error() != cudaSuccess) return CURAND_STATUS_PREEXISTING_FAILURE;
      // By value: the task runs later, on the stream's thread, while the program goes on.
      gpulab::sim::cuda::detail::run_library_task(
          g->stream, call, [sequence, batch, out, fill](gpulab::sim::cuda::detail::HostTaskAccess& access) {
            access.write(gpulab::sim::cuda::detail::DeviceRegion{out, batch.n * sizeof(T), 1, 0, "outputPtr"});
            fill(*sequence, batch, out);
          });
    }
    g->generator = std::move(next);
    return CURAND_STATUS_SUCCESS;
  } catch (const Refusal& r) {
    return to_c(r.status());
  } catch (const std::bad_alloc&) {
    return CURAND_STATUS_ALLOCATION_FAILED;
  } catch (...) {
    gpulab::sim::cuda::detail::record_library_error(call);
    return CURAND_STATUS_LAUNCH_FAILURE;
  }
}

curandStatus_t refuse_unsimulated(const char* call, const char* what) {
  note(call, std::string(what) + " is not simulated: CURAND_STATUS_TYPE_ERROR");
  return CURAND_STATUS_TYPE_ERROR;
}

}  // namespace

extern "C" {

curandStatus_t curandCreateGenerator(curandGenerator_t* generator, curandRngType_t rng_type) {
  return create(generator, rng_type, false, "curandCreateGenerator");
}

curandStatus_t curandCreateGeneratorHost(curandGenerator_t* generator, curandRngType_t rng_type) {
  return create(generator, rng_type, true, "curandCreateGeneratorHost");
}

curandStatus_t curandDestroyGenerator(curandGenerator_t generator) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  delete generator;  // queued work holds its Sequence itself
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetVersion(int* version) {
  if (version == nullptr) return CURAND_STATUS_OUT_OF_RANGE;
  *version = CURAND_VERSION;
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetProperty(libraryPropertyType type, int* value) {
  if (value == nullptr) return CURAND_STATUS_OUT_OF_RANGE;
  switch (type) {
    case MAJOR_VERSION: *value = CURAND_VER_MAJOR; return CURAND_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CURAND_VER_MINOR; return CURAND_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CURAND_VER_PATCH; return CURAND_STATUS_SUCCESS;
  }
  return CURAND_STATUS_OUT_OF_RANGE;
}

curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->stream = stream;  // checked when work is queued on it
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->generator.set_seed(seed);
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  generator->generator.set_offset(offset);
  return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  // The toolkit's host generators refuse DYNAMIC (and every generator refuses the quasi ordering).
  if (order == CURAND_ORDERING_PSEUDO_DYNAMIC && generator->host) return CURAND_STATUS_OUT_OF_RANGE;
  if (order == CURAND_ORDERING_PSEUDO_SEEDED && generator->generator.kind() != RngKind::xorwow) {
    return CURAND_STATUS_OUT_OF_RANGE;
  }
  if (order == CURAND_ORDERING_PSEUDO_DYNAMIC) {
    note("curandSetGeneratorOrdering", "CURAND_ORDERING_PSEUDO_DYNAMIC is not simulated (its layout depends on the "
                                       "GPU): CURAND_STATUS_OUT_OF_RANGE");
    return CURAND_STATUS_OUT_OF_RANGE;
  }
  if (order < CURAND_ORDERING_PSEUDO_BEST || order > CURAND_ORDERING_PSEUDO_DYNAMIC) return CURAND_STATUS_OUT_OF_RANGE;
  try {
    generator->generator.set_ordering(static_cast<int>(order));
    return CURAND_STATUS_SUCCESS;
  } catch (const Refusal& r) {
    note("curandSetGeneratorOrdering", r.what());
    return to_c(r.status());
  }
}

curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator, unsigned int) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  return CURAND_STATUS_TYPE_ERROR;  // every simulated generator is pseudo-random
}

curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int* outputPtr, size_t num) {
  return generate("curandGenerate", generator, Dist::raw, outputPtr, num,
                  [](const Sequence& s, const Batch& b, unsigned int* out) { s.bits(b, out); });
}

curandStatus_t curandGenerateLongLong(curandGenerator_t generator, unsigned long long*, size_t) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  return CURAND_STATUS_TYPE_ERROR;  // 64-bit words come from the Sobol64 generators only
}

curandStatus_t curandGenerateUniform(curandGenerator_t generator, float* outputPtr, size_t num) {
  return generate("curandGenerateUniform", generator, Dist::uniform, outputPtr, num,
                  [](const Sequence& s, const Batch& b, float* out) { s.uniform(b, out); });
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double* outputPtr, size_t num) {
  return generate("curandGenerateUniformDouble", generator, Dist::uniform_double, outputPtr, num,
                  [](const Sequence& s, const Batch& b, double* out) { s.uniform_double(b, out); });
}

curandStatus_t curandGenerateNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean,
                                    float stddev) {
  if (generator != nullptr && n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  return generate("curandGenerateNormal", generator, Dist::normal, outputPtr, n,
                  [mean, stddev](const Sequence& s, const Batch& b, float* out) { s.normal(b, out, mean, stddev); });
}

curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n, double mean,
                                          double stddev) {
  if (generator != nullptr && n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  return generate("curandGenerateNormalDouble", generator, Dist::normal_double, outputPtr, n,
                  [mean, stddev](const Sequence& s, const Batch& b, double* out) { s.normal_double(b, out, mean, stddev); });
}

curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float* outputPtr, size_t n, float mean,
                                       float stddev) {
  if (generator != nullptr && n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  return generate("curandGenerateLogNormal", generator, Dist::normal, outputPtr, n,
                  [mean, stddev](const Sequence& s, const Batch& b, float* out) { s.log_normal(b, out, mean, stddev); });
}

curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double* outputPtr, size_t n,
                                             double mean, double stddev) {
  if (generator != nullptr && n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
  return generate("curandGenerateLogNormalDouble", generator, Dist::normal_double, outputPtr, n,
                  [mean, stddev](const Sequence& s, const Batch& b, double* out) { s.log_normal_double(b, out, mean, stddev); });
}

curandStatus_t curandGeneratePoisson(curandGenerator_t generator, unsigned int* outputPtr, size_t n,
                                     double lambda) {
  if (generator != nullptr && !(lambda > 0)) return CURAND_STATUS_OUT_OF_RANGE;
  return generate("curandGeneratePoisson", generator, Dist::poisson, outputPtr, n,
                  [lambda](const Sequence& s, const Batch& b, unsigned int* out) { s.poisson(b, out, lambda); });
}

curandStatus_t curandGeneratePoissonMethod(curandGenerator_t generator, unsigned int* outputPtr, size_t n,
                                           double lambda, curandMethod_t method) {
  if (method != CURAND_CHOOSE_BEST) {
    return refuse_unsimulated("curandGeneratePoissonMethod", "a method other than CURAND_CHOOSE_BEST");
  }
  return curandGeneratePoisson(generator, outputPtr, n, lambda);
}

curandStatus_t curandGenerateBinomial(curandGenerator_t, unsigned int*, size_t, unsigned int, double) {
  return refuse_unsimulated("curandGenerateBinomial", "the binomial distribution");
}

curandStatus_t curandGenerateBinomialMethod(curandGenerator_t, unsigned int*, size_t, unsigned int, double,
                                            curandMethod_t) {
  return refuse_unsimulated("curandGenerateBinomialMethod", "the binomial distribution");
}

curandStatus_t curandCreatePoissonDistribution(double, curandDiscreteDistribution_t*) {
  return refuse_unsimulated("curandCreatePoissonDistribution", "a discrete distribution for the device API");
}

curandStatus_t curandDestroyDistribution(curandDiscreteDistribution_t) {
  return refuse_unsimulated("curandDestroyDistribution", "a discrete distribution for the device API");
}

curandStatus_t curandGenerateSeeds(curandGenerator_t generator) {
  if (generator == nullptr) return CURAND_STATUS_NOT_INITIALIZED;
  try {
    (void)generator->generator.sequence();  // the subsequences' starting states, made now
    return CURAND_STATUS_SUCCESS;
  } catch (const std::bad_alloc&) {
    return CURAND_STATUS_ALLOCATION_FAILED;
  }
}

curandStatus_t curandGetDirectionVectors32(curandDirectionVectors32_t*[], curandDirectionVectorSet_t) {
  return refuse_unsimulated("curandGetDirectionVectors32", "Sobol's direction vectors (quasi-random generators)");
}

curandStatus_t curandGetScrambleConstants32(unsigned int**) {
  return refuse_unsimulated("curandGetScrambleConstants32", "Sobol's scramble constants (quasi-random generators)");
}

curandStatus_t curandGetDirectionVectors64(curandDirectionVectors64_t*[], curandDirectionVectorSet_t) {
  return refuse_unsimulated("curandGetDirectionVectors64", "Sobol's direction vectors (quasi-random generators)");
}

curandStatus_t curandGetScrambleConstants64(unsigned long long**) {
  return refuse_unsimulated("curandGetScrambleConstants64", "Sobol's scramble constants (quasi-random generators)");
}

}  // extern "C"
