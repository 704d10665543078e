// The cascade as a wavefront: lane k of a vector runs section k on sample t - k, so every section
// steps at once and the chain from one sample to the next is one section's, not all of them. Each
// section sees the same inputs and makes the same operations in the same order as sosStep (no
// contraction into multiply-adds), so the outputs and the state are sosStep's bits. Several signals'
// wavefronts interleaved (sosWavefronts, the block scan's blocks) fill the core's idle units.
#include <algorithm>
#include <cstddef>
#include <cstring>

#include "sos_step.hpp"

namespace siglab::detail {
namespace {

using Four = double __attribute__((vector_size(32)));
using Lanes = long long __attribute__((vector_size(32)));

// One section's step, scalar: sosStep's body for section k.
[[gnu::always_inline]] inline double sectionStep(const Section& s, double* z, double x) {
  const double y = s[0] * x + z[0];
  z[0] = s[1] * x - s[4] * y + z[1];
  z[1] = s[2] * x - s[5] * y;
  return y;
}

// Steps t of the wavefront where only some lanes hold a sample (its start and end), one lane at a
// time. inputs[k]: lane k's input at this step (inputs[0] the signal's sample t).
[[gnu::always_inline]] inline void edgeStep(const Section* s, std::size_t sections, double* z, double* inputs,
                                            std::ptrdiff_t t, std::ptrdiff_t count) {
  for (std::size_t k = sections; k-- > 0;) {
    const std::ptrdiff_t sample = t - static_cast<std::ptrdiff_t>(k);
    if (sample < 0 || sample >= count) continue;
    inputs[k + 1] = sectionStep(s[k], z + 2 * k, inputs[k]);
  }
}

// The sections' coefficients, lane k holding section k's (lanes past the last section zero).
template <std::size_t G>
struct LaneCoefficients {
  Four b0[G], b1[G], b2[G], a1[G], a2[G];
  LaneCoefficients(const Section* s, std::size_t sections) {
    for (std::size_t k = 0; k < 4 * G; ++k) {
      const bool real = k < sections;
      b0[k / 4][k % 4] = real ? s[k][0] : 0.0;
      b1[k / 4][k % 4] = real ? s[k][1] : 0.0;
      b2[k / 4][k % 4] = real ? s[k][2] : 0.0;
      a1[k / 4][k % 4] = real ? s[k][4] : 0.0;
      a2[k / 4][k % 4] = real ? s[k][5] : 0.0;
    }
  }
};

// One signal's wavefront over a run of `count` samples: its state in lanes while every lane is busy.
template <std::size_t G>
struct Wave {
  double* z;
  const double* x;
  double* y;
  double inputs[4 * G + 1] = {};  // inputs[k]: lane k's input at this step (inputs[0] the signal's sample)
  Four z0[G] = {}, z1[G] = {}, out[G] = {};

  // The wavefront's start: lane k begins at step k, one lane at a time.
  [[gnu::always_inline]] inline std::ptrdiff_t start(const Section* s, std::size_t sections, std::ptrdiff_t stride,
                                                     std::ptrdiff_t count) {
    const auto last = static_cast<std::ptrdiff_t>(sections) - 1;
    std::ptrdiff_t t = 0;
    for (; t < std::min(last, count + last); ++t) {
      inputs[0] = t < count ? x[t * stride] : 0.0;
      edgeStep(s, sections, z, inputs, t, count);
      if (t - last >= 0) y[(t - last) * stride] = inputs[sections];
    }
    return t;
  }
  [[gnu::always_inline]] inline void load(std::size_t sections) {
    for (std::size_t k = 0; k < 4 * G; ++k) {
      const bool real = k < sections;
      z0[k / 4][k % 4] = real ? z[2 * k] : 0.0;
      z1[k / 4][k % 4] = real ? z[2 * k + 1] : 0.0;
      out[k / 4][k % 4] = inputs[k + 1];  // what lane k gave at the step before
    }
  }
  // Every lane steps at once: lane 0 on the sample, lane j on what lane j - 1 gave at the step before.
  [[gnu::always_inline]] inline void step(const LaneCoefficients<G>& c, double sample) {
    const Lanes shiftIn = {4 + 3, 0, 1, 2};  // lane 0 from the lower group's lane 3, lanes 1-3 from this group's 0-2
    Four in[G];
    in[0] = __builtin_shuffle(out[0], Four{0, 0, 0, sample}, shiftIn);
    for (std::size_t g = 1; g < G; ++g) in[g] = __builtin_shuffle(out[g], out[g - 1], shiftIn);
    for (std::size_t g = 0; g < G; ++g) {
      out[g] = c.b0[g] * in[g] + z0[g];
      z0[g] = c.b1[g] * in[g] - c.a1[g] * out[g] + z1[g];
      z1[g] = c.b2[g] * in[g] - c.a2[g] * out[g];
    }
  }
  [[gnu::always_inline]] inline void store(std::size_t sections) {
    for (std::size_t k = 0; k < sections; ++k) {
      z[2 * k] = z0[k / 4][k % 4];
      z[2 * k + 1] = z1[k / 4][k % 4];
      inputs[k + 1] = out[k / 4][k % 4];
    }
  }
  // Its end: lane k stops after sample count - 1.
  [[gnu::always_inline]] inline void finish(const Section* s, std::size_t sections, std::ptrdiff_t stride,
                                            std::ptrdiff_t count, std::ptrdiff_t t) {
    const auto last = static_cast<std::ptrdiff_t>(sections) - 1;
    for (; t < count + last; ++t) {
      edgeStep(s, sections, z, inputs, t, count);
      if (t - last >= 0) y[(t - last) * stride] = inputs[sections];
    }
  }
};

// G groups of four lanes (sections <= 4 G); the whole run of count samples of W signals at once,
// each its own wavefront: one signal's steps form a chain, so the core's other units step the others.
template <std::size_t G, std::size_t W>
[[gnu::always_inline]] inline void wavefronts(const Section* s, std::size_t sections, Wave<G> (&waves)[W],
                                              std::ptrdiff_t stride, std::ptrdiff_t count) {
  const auto last = static_cast<std::ptrdiff_t>(sections) - 1;  // the lane whose output is the cascade's
  std::ptrdiff_t t = 0;
  for (Wave<G>& w : waves) t = w.start(s, sections, stride, count);
  if (count > last) {
    const LaneCoefficients<G> c(s, sections);
    for (Wave<G>& w : waves) w.load(sections);
    for (; t < count; ++t) {
      for (Wave<G>& w : waves) w.step(c, w.x[t * stride]);
      for (Wave<G>& w : waves) w.y[(t - last) * stride] = w.out[last / 4][last % 4];
    }
    for (Wave<G>& w : waves) w.store(sections);
  }
  for (Wave<G>& w : waves) w.finish(s, sections, stride, count, t);
}

template <std::size_t G>
[[gnu::target_clones("avx2", "default")]] void wavefrontOf(const Section* s, std::size_t sections, double* z,
                                                           const double* x, double* y, std::ptrdiff_t stride,
                                                           std::ptrdiff_t count) {
  Wave<G> waves[1] = {{z, x, y}};
  wavefronts(s, sections, waves, stride, count);
}

// x86-64-v4 (AVX-512VL): the same 4-lane operations, with 32 registers to keep several waves' states in.
template <std::size_t G, std::size_t W>
[[gnu::target_clones("arch=x86-64-v4", "avx2", "default")]] void wavefrontsOf(const Section* s, std::size_t sections, const SosRun* runs,
                                                            std::ptrdiff_t stride, std::ptrdiff_t count) {
  Wave<G> waves[W];
  for (std::size_t w = 0; w < W; ++w) {
    waves[w].z = runs[w].z;
    waves[w].x = runs[w].x;
    waves[w].y = runs[w].y;
  }
  wavefronts(s, sections, waves, stride, count);
}

template <std::size_t G>
bool wavefrontsFor(const Section* s, std::size_t sections, std::span<const SosRun> runs, std::ptrdiff_t stride,
                   std::ptrdiff_t count) {
  switch (runs.size()) {
    case 2: wavefrontsOf<G, 2>(s, sections, runs.data(), stride, count); return true;
    case 3: wavefrontsOf<G, 3>(s, sections, runs.data(), stride, count); return true;
    case 4: wavefrontsOf<G, 4>(s, sections, runs.data(), stride, count); return true;
    default: return false;
  }
}

}  // namespace

bool sosWavefront(const Section* s, std::size_t sections, double* z, const double* x, double* y, std::ptrdiff_t stride,
                  std::size_t count) {
  const auto n = static_cast<std::ptrdiff_t>(count);
  switch ((sections + 3) / 4) {
    case 1: wavefrontOf<1>(s, sections, z, x, y, stride, n); return true;
    case 2: wavefrontOf<2>(s, sections, z, x, y, stride, n); return true;
    case 3: wavefrontOf<3>(s, sections, z, x, y, stride, n); return true;
    case 4: wavefrontOf<4>(s, sections, z, x, y, stride, n); return true;
    default: return false;
  }
}

bool sosWavefronts(const Section* s, std::size_t sections, std::span<const SosRun> runs, std::ptrdiff_t stride,
                   std::size_t count) {
  const auto n = static_cast<std::ptrdiff_t>(count);
  switch ((sections + 3) / 4) {
    case 1: return wavefrontsFor<1>(s, sections, runs, stride, n);
    case 2: return wavefrontsFor<2>(s, sections, runs, stride, n);
    case 3: return wavefrontsFor<3>(s, sections, runs, stride, n);
    case 4: return wavefrontsFor<4>(s, sections, runs, stride, n);
    default: return false;
  }
}

}  // namespace siglab::detail
