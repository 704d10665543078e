#include "siglab/polyphase.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "parallel_range.hpp"
#include "siglab/work_progress.hpp"

namespace siglab {
namespace {

using Phases = std::vector<std::vector<double>>;

// Four running sums (lane k: the products r = k mod 4, in order), then (a0 + a1) + (a2 + a3): one
// 4-wide vector where AVX2 is compiled in (fillOutputs' clone), two SSE halves elsewhere; no
// contraction into multiply-adds, so the same bits in both.
using Four = double __attribute__((vector_size(32)));

// (By reference throughout: an AVX vector passed by value would change the default clone's ABI.)
[[gnu::always_inline]] inline void addFourProducts(Four& sums, const double* h, const double* v) {
  Four a, b;
  std::memcpy(&a, h, sizeof a);
  std::memcpy(&b, v, sizeof b);
  sums += a * b;
}

// The sums carried on from product r (a multiple of 4) to the end, then added up.
[[gnu::always_inline]] inline double finishFourSums(Four& sums, const double* h, const double* v, std::int64_t r,
                                                   std::int64_t length) {
  for (; r + 4 <= length; r += 4) addFourProducts(sums, h + r, v + r);
  double first = sums[0];  // the last few products go to the first sum, in a register rather than a lane
  for (; r < length; ++r) first += h[r] * v[r];
  return (first + sums[1]) + (sums[2] + sums[3]);
}

[[gnu::always_inline]] inline double fourSumDot(const double* h, const double* v, std::int64_t length) {
  Four sums = {0, 0, 0, 0};
  return finishFourSums(sums, h, v, 0, length);
}

// One output's dot product: its taps, its inputs, their count.
struct DotSpan {
  const double* h = nullptr;
  const double* v = nullptr;
  std::int64_t length = 0;
};

// Four outputs' dot products side by side: each keeps its own sums in its own order (so the bits
// of fourSumDot), but the four chains of additions overlap instead of waiting on one another.
[[gnu::always_inline]] inline void fourDotsAtOnce(const DotSpan (&d)[4], double* out) {
  const std::int64_t common = std::min(std::min(d[0].length, d[1].length), std::min(d[2].length, d[3].length)) & ~std::int64_t{3};
  Four s0 = {0, 0, 0, 0}, s1 = s0, s2 = s0, s3 = s0;
  for (std::int64_t r = 0; r < common; r += 4) {
    addFourProducts(s0, d[0].h + r, d[0].v + r);
    addFourProducts(s1, d[1].h + r, d[1].v + r);
    addFourProducts(s2, d[2].h + r, d[2].v + r);
    addFourProducts(s3, d[3].h + r, d[3].v + r);
  }
  out[0] = finishFourSums(s0, d[0].h, d[0].v, common, d[0].length);
  out[1] = finishFourSums(s1, d[1].h, d[1].v, common, d[1].length);
  out[2] = finishFourSums(s2, d[2].h, d[2].v, common, d[2].length);
  out[3] = finishFourSums(s3, d[3].h, d[3].v, common, d[3].length);
}

// The output at upsampled position top up + phaseIndex: the phase's taps against inputs
// top - count + 1 .. top (clipped to the signal; x[i - base] is input i).
[[gnu::always_inline]] inline DotSpan phaseSpan(const Phases& phases, std::int64_t phaseIndex, std::int64_t top,
                                                const double* x, std::int64_t base, std::int64_t n) {
  const std::vector<double>& phase = phases[static_cast<std::size_t>(phaseIndex)];
  const auto count = static_cast<std::int64_t>(phase.size());
  const std::int64_t bottom = top - count + 1;  // the input the phase's first tap meets (`top`: its last)
  const std::int64_t from = std::max<std::int64_t>(0, bottom), to = std::min(n - 1, top);
  if (from > to) return {};
  return {phase.data() + (from - bottom), x + (from - base), to - from + 1};
}

[[gnu::always_inline]] inline double phaseDot(const Phases& phases, std::int64_t phaseIndex, std::int64_t top,
                                              const double* x, std::int64_t base, std::int64_t n) {
  const DotSpan d = phaseSpan(phases, phaseIndex, top, x, base, n);
  return d.length == 0 ? 0.0 : fourSumDot(d.h, d.v, d.length);
}

// out[0 .. count) for the outputs from (phase, top) on, stepped by (whole, rest) through the upsampled input.
[[gnu::target_clones("avx2", "default")]] void fillOutputs(const Phases& phases, std::int64_t up, std::int64_t whole,
                                                           std::int64_t rest, std::int64_t phase, std::int64_t top,
                                                           const double* x, std::int64_t n, double* out,
                                                           std::int64_t count) {
  const auto step = [&] {
    top += whole;
    phase += rest;
    if (phase >= up) {
      phase -= up;
      ++top;
    }
  };
  std::int64_t j = 0;
  for (; j + 4 <= count; j += 4) {
    DotSpan d[4];
    for (DotSpan& one : d) {
      one = phaseSpan(phases, phase, top, x, 0, n);
      step();
    }
    fourDotsAtOnce(d, out + j);
  }
  for (; j < count; ++j) {
    out[j] = phaseDot(phases, phase, top, x, 0, n);
    step();
  }
}

}  // namespace

Polyphase::Polyphase(std::vector<double> taps, std::int64_t up, std::int64_t down, std::int64_t offset)
    : up_(up), down_(down), offset_(offset), tapCount_(taps.size()) {
  if (taps.empty()) throw std::invalid_argument("the filter has no taps");
  if (up < 1 || down < 1) throw std::invalid_argument("up and down must be >= 1");
  if (offset < 0) throw std::invalid_argument("the output offset must be >= 0");
  const auto count = static_cast<std::int64_t>(taps.size());
  phases_.resize(static_cast<std::size_t>(up));
  for (std::int64_t p = 0; p < up && p < count; ++p) {
    std::vector<double>& phase = phases_[static_cast<std::size_t>(p)];
    for (std::int64_t t = p; t < count; t += up) phase.push_back(taps[static_cast<std::size_t>(t)]);
    std::reverse(phase.begin(), phase.end());
  }
}

std::int64_t Polyphase::firstInput(std::int64_t j) const {
  const std::int64_t s = j * down_ + offset_;
  const auto& phase = phases_[static_cast<std::size_t>(s % up_)];
  return std::max<std::int64_t>(0, s / up_ - static_cast<std::int64_t>(phase.size()) + 1);
}

std::int64_t Polyphase::lastInput(std::int64_t j, std::int64_t n) const {
  return std::min(n - 1, (j * down_ + offset_) / up_);
}

double Polyphase::outputAt(std::int64_t j, const double* x, std::int64_t base, std::int64_t n) const {
  const std::int64_t s = j * down_ + offset_;
  return dot(s % up_, s / up_, x, base, n);
}

double Polyphase::dot(std::int64_t phaseIndex, std::int64_t top, const double* x, std::int64_t base, std::int64_t n) const {
  return phaseDot(phases_, phaseIndex, top, x, base, n);
}

void Polyphase::run(std::span<const double> x, std::span<double> out, bool parallel, const Progress& progress) const {
  const auto outputs = static_cast<std::int64_t>(out.size());
  const auto n = static_cast<std::int64_t>(x.size());
  const std::int64_t pieces = detail::piecesOf(outputs, detail::kPieceSize);
  const std::int64_t whole = down_ / up_, rest = down_ % up_;  // each output's step through the upsampled input
  WorkProgress work(progress, static_cast<std::uint64_t>(outputs));
  progress.throwIfCancelled();
#pragma omp parallel for schedule(dynamic, 1) if (parallel && pieces > 1)
  for (std::int64_t piece = 0; piece < pieces; ++piece) {
    if (work.cancelled()) continue;  // no break out of an OpenMP loop
    const std::int64_t begin = piece * detail::kPieceSize, end = std::min(outputs, begin + detail::kPieceSize);
    // outputAt's phase and top, stepped instead of divided at every output
    const std::int64_t s = begin * down_ + offset_;
    fillOutputs(phases_, up_, whole, rest, s % up_, s / up_, x.data(), n, out.data() + begin, end - begin);
    work.add(static_cast<std::uint64_t>(end - begin));
  }
  work.throwIfCancelled();
}

std::uint64_t upfirdnLength(std::uint64_t n, std::uint64_t taps, std::uint64_t up, std::uint64_t down) {
  if (n > 0) return ((n - 1) * up + taps - 1) / down + 1;
  // scipy's formula with Python's floor division: an empty input still gives the taps' reach past it
  const auto reach = static_cast<std::int64_t>(taps) - 1 - static_cast<std::int64_t>(up);
  const auto d = static_cast<std::int64_t>(down);
  const std::int64_t floor = reach >= 0 ? reach / d : -((-reach + d - 1) / d);
  return static_cast<std::uint64_t>(std::max<std::int64_t>(0, floor + 1));
}

}  // namespace siglab
