#include "siglab/cpu_parallel.hpp"

#include <cstdint>
#include <cstring>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <type_traits>
#include <stdexcept>

#include "cpu_engine.hpp"
#include "siglab/filter_kinds.hpp"
#include "filter_kernels.hpp"
#include "parallel_range.hpp"
#include "siglab/work_progress.hpp"

// The vector helpers below are always inlined, so no vector crosses a call: the ABI note is moot.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace siglab {
namespace {

// GCC vector extensions: one vector holds kLanes<Acc> neighbouring outputs' accumulators.
template <typename Acc>
inline constexpr int kLanes = 32 / sizeof(Acc);
template <typename T, int Lanes>
struct VectorOf {
  typedef T type __attribute__((vector_size(Lanes * sizeof(T))));
};
template <typename T, int Lanes>
using Vector = typename VectorOf<T, Lanes>::type;

template <typename Acc, typename Sample>
[[gnu::always_inline]] inline Vector<Acc, kLanes<Acc>> loadAs(const Sample* p) {
  Vector<Sample, kLanes<Acc>> v;
  std::memcpy(&v, p, sizeof v);
  return __builtin_convertvector(v, Vector<Acc, kLanes<Acc>>);
}

// Stores bypassing the cache (as memcpy does for large copies): no read-for-ownership of output
// lines that nobody reads soon. `p` must be 16-byte aligned; SSE2 forms serve both clones.
template <typename Sample, int Lanes>
[[gnu::always_inline]] inline void streamStore(Sample* p, Vector<Sample, Lanes> v) {
#if defined(__x86_64__)
  constexpr int kPerStore = 16 / sizeof(Sample);
  for (int k = 0; k < Lanes; k += kPerStore) {
    Vector<Sample, kPerStore> part;
    std::memcpy(&part, reinterpret_cast<const char*>(&v) + k * sizeof(Sample), sizeof part);
    if constexpr (std::is_same_v<Sample, double>) {
      _mm_stream_pd(p + k, reinterpret_cast<__m128d&>(part));  // intrinsics: GCC and clang (the fuzz build) alike
    } else {
      _mm_stream_ps(p + k, reinterpret_cast<__m128&>(part));
    }
  }
#else
  std::memcpy(p, &v, sizeof v);
#endif
}

template <typename Acc, typename Sample>
[[gnu::always_inline]] inline void storeAs(Sample* p, Vector<Acc, kLanes<Acc>> v, bool stream) {
  const auto s = __builtin_convertvector(v, Vector<Sample, kLanes<Acc>>);
  if (stream) {
    streamStore<Sample, kLanes<Acc>>(p, s);
  } else {
    std::memcpy(p, &s, sizeof s);
  }
}

// `count` interior outputs, four vectors of neighbouring outputs at a time (then two): four
// independent sums in flight, so an add waits for no other add's result (with two, every add
// waited out the one before it: half the adds a cycle could take). Per output the operations are
// interiorOutput's: acc = 0, then acc += tap[j] * x[j] for j = 0..W-1 (no FMA).
// With `stream`, outputs go around the cache, from the first 64-byte-aligned one on.
template <typename Acc, typename Sample>
[[gnu::always_inline]] inline void interiorSimd(const Sample* x, const Acc* taps, std::size_t w, Sample* out,
                                                std::int64_t count, bool stream) {
  constexpr int L = kLanes<Acc>;
  using V = Vector<Acc, L>;
  std::int64_t i = 0;
  if (stream) {
    for (; i < count && reinterpret_cast<std::uintptr_t>(out + i) % 64 != 0; ++i) {
      out[i] = static_cast<Sample>(detail::interiorOutput(x + i, taps, w));
    }
  }
  for (; i + 4 * L <= count; i += 4 * L) {
    V acc0 = {}, acc1 = {}, acc2 = {}, acc3 = {};
    for (std::size_t j = 0; j < w; ++j) {
      V tap;
      for (int k = 0; k < L; ++k) tap[k] = taps[j];
      acc0 += tap * loadAs<Acc>(x + i + j);
      acc1 += tap * loadAs<Acc>(x + i + j + L);
      acc2 += tap * loadAs<Acc>(x + i + j + 2 * L);
      acc3 += tap * loadAs<Acc>(x + i + j + 3 * L);
    }
    storeAs<Acc>(out + i, acc0, stream);
    storeAs<Acc>(out + i + L, acc1, stream);
    storeAs<Acc>(out + i + 2 * L, acc2, stream);
    storeAs<Acc>(out + i + 3 * L, acc3, stream);
  }
  for (; i + 2 * L <= count; i += 2 * L) {
    V acc0 = {}, acc1 = {};
    for (std::size_t j = 0; j < w; ++j) {
      V tap;
      for (int k = 0; k < L; ++k) tap[k] = taps[j];
      acc0 += tap * loadAs<Acc>(x + i + j);
      acc1 += tap * loadAs<Acc>(x + i + j + L);
    }
    storeAs<Acc>(out + i, acc0, stream);
    storeAs<Acc>(out + i + L, acc1, stream);
  }
  for (; i < count; ++i) out[i] = static_cast<Sample>(detail::interiorOutput(x + i, taps, w));
#if defined(__x86_64__)
  if (stream) _mm_sfence();  // streamed stores are weakly ordered: publish them
#endif
}

// One clone per instruction set, picked at load time; none of them has FMA, so the bits agree.
[[gnu::target_clones("avx2", "default")]] void interiorF64(const double* x, const double* taps, std::size_t w,
                                                           double* out, std::int64_t count, bool stream) {
  interiorSimd(x, taps, w, out, count, stream);
}
[[gnu::target_clones("avx2", "default")]] void interiorF32(const float* x, const float* taps, std::size_t w,
                                                           float* out, std::int64_t count, bool stream) {
  interiorSimd(x, taps, w, out, count, stream);
}
[[gnu::target_clones("avx2", "default")]] void interiorF32AccF64(const float* x, const double* taps, std::size_t w,
                                                                 float* out, std::int64_t count, bool stream) {
  interiorSimd(x, taps, w, out, count, stream);
}

template <typename Acc, typename Sample>
std::vector<std::size_t> filterParallelAs(std::span<const Sample> in, const FilterSpec& spec, std::span<Sample> out,
                                          const Progress& progress) {
  validate(spec);
  if (in.size() != out.size()) throw std::invalid_argument("filterParallel: input and output sizes differ");
  const std::vector<Acc> taps = detail::tapsAs<Acc>(spec);
  const std::size_t w = taps.size();
  const auto n = static_cast<std::int64_t>(in.size());
  // An output larger than the caches is better written around them.
  const bool stream = in.size() * sizeof(Sample) > (std::size_t{8} << 20);
  const auto interior = [&](const Sample* x, Sample* y, std::int64_t count) {
    if constexpr (std::is_same_v<Sample, double>) {
      interiorF64(x, taps.data(), w, y, count, stream);
    } else if constexpr (std::is_same_v<Acc, float>) {
      interiorF32(x, taps.data(), w, y, count, stream);
    } else {
      interiorF32AccF64(x, taps.data(), w, y, count, stream);
    }
  };
  // Pieces short enough that a thread sees Cancel within a few milliseconds whatever W.
  const std::int64_t pieces = detail::piecesOf(n, detail::outputsPerCancelCheck(w));
  // Below about 64k multiply-adds, starting threads costs more than it saves.
  const bool worthThreads = static_cast<double>(n) * static_cast<double>(w) > 65536.0;
  WorkProgress work(progress, static_cast<std::uint64_t>(n));
  progress.throwIfCancelled();
#pragma omp parallel for schedule(dynamic, 1) if (worthThreads)
  for (std::int64_t p = 0; p < pieces; ++p) {
    if (work.cancelled()) continue;  // no break out of an OpenMP loop: the rest are skipped
    const detail::IndexRange piece = detail::chunkOf(n, pieces, p);
    detail::filterOutputs<Acc, Sample>(in, taps, spec.mode, out, piece.begin, piece.end, interior);
    work.add(static_cast<std::uint64_t>(piece.end - piece.begin));
  }
  work.throwIfCancelled();
  return detail::pieceStarts(n, pieces);
}

}  // namespace

std::vector<std::size_t> filterParallel(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                        const Progress& progress) {
  return filterParallelAs<double>(in, spec, out, progress);
}

std::vector<std::size_t> filterParallel(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                        const Progress& progress) {
  if (spec.accumulator == Accumulator::Float64) return filterParallelAs<double>(in, spec, out, progress);
  return filterParallelAs<float>(in, spec, out, progress);
}

// Every kind: correlations (Savitzky-Golay's interior included), the median's sliding sorted
// window (bit-identical) and the sections' block scan (within sosKindTolerance).
std::string CpuParallelBackend::whyNot(const FilterSpec& /*spec*/, SampleType type) const {
  return whyNotSampleType(type);
}

double CpuParallelBackend::tolerance(const FilterSpec& spec, double maxAbsInput) const {
  return sosKindTolerance(spec, maxAbsInput, false);
}

double CpuParallelBackend::toleranceFloat32(const FilterSpec& spec, double maxAbsInput) const {
  return sosKindTolerance(spec, maxAbsInput, true);
}

FilterPass CpuParallelBackend::filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                      const RunOptions& /*options*/, const Progress& progress) {
  std::vector<std::size_t> starts;
  if (!spec.isCorrelation()) {
    FilterPass pass = detail::timedCpuPass({}, [&] { starts = filterKindParallel(in, spec, out, progress); });
    pass.splits.at = std::move(starts);
    return pass;
  }
  FilterPass pass = detail::timedCpuPass({}, [&] { starts = filterParallel(in, spec, out, progress); });
  pass.splits.at = std::move(starts);
  return pass;
}

FilterPass CpuParallelBackend::filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                      const RunOptions& /*options*/, const Progress& progress) {
  std::vector<std::size_t> starts;
  if (!spec.isCorrelation()) {
    FilterPass pass = detail::timedCpuPass({}, [&] { starts = filterKindParallel(in, spec, out, progress); });
    pass.splits.at = std::move(starts);
    return pass;
  }
  FilterPass pass = detail::timedCpuPass({}, [&] { starts = filterParallel(in, spec, out, progress); });
  pass.splits.at = std::move(starts);
  return pass;
}

}  // namespace siglab
