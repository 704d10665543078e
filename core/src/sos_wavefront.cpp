// The cascade as a wavefront: lane k of a vector runs section k on sample t - k, so every section
// steps at once and the chain from one sample to the next is one section's, not all of them. Each
// section sees the same inputs and makes the same operations in the same order as sosStep (no
// contraction into multiply-adds), so the outputs and the state are sosStep's bits.
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

// G groups of four lanes (sections <= 4 G); the whole run of count samples.
template <std::size_t G>
[[gnu::always_inline]] inline void wavefront(const Section* s, std::size_t sections, double* z, const double* x,
                                             double* y, std::ptrdiff_t stride, std::ptrdiff_t count) {
  const auto last = static_cast<std::ptrdiff_t>(sections) - 1;  // the lane whose output is the cascade's
  double inputs[4 * G + 1] = {};
  std::ptrdiff_t t = 0;
  for (; t < std::min(last, count + last); ++t) {  // the wavefront's start: lane k begins at step k
    inputs[0] = t < count ? x[t * stride] : 0.0;
    edgeStep(s, sections, z, inputs, t, count);
    if (t - last >= 0) y[(t - last) * stride] = inputs[sections];
  }
  if (count > last) {
    // Every lane busy from step `last` to count - 1: the lanes in vectors.
    Four b0[G], b1[G], b2[G], a1[G], a2[G], z0[G], z1[G], out[G];
    for (std::size_t g = 0; g < G; ++g) {
      for (std::size_t j = 0; j < 4; ++j) {
        const std::size_t k = 4 * g + j;
        const bool real = k < sections;
        b0[g][j] = real ? s[k][0] : 0.0;
        b1[g][j] = real ? s[k][1] : 0.0;
        b2[g][j] = real ? s[k][2] : 0.0;
        a1[g][j] = real ? s[k][4] : 0.0;
        a2[g][j] = real ? s[k][5] : 0.0;
        z0[g][j] = real ? z[2 * k] : 0.0;
        z1[g][j] = real ? z[2 * k + 1] : 0.0;
        out[g][j] = inputs[k + 1];  // what lane k gave at the step before
      }
    }
    const Lanes shiftIn = {4 + 3, 0, 1, 2};  // lane 0 from the lower group's lane 3, lanes 1-3 from this group's 0-2
    for (; t < count; ++t) {
      Four in[G];
      // lane 0's input is the sample; lane j's the output lane j - 1 gave at the step before
      in[0] = __builtin_shuffle(out[0], Four{0, 0, 0, x[t * stride]}, shiftIn);
      for (std::size_t g = 1; g < G; ++g) in[g] = __builtin_shuffle(out[g], out[g - 1], shiftIn);
      for (std::size_t g = 0; g < G; ++g) {
        out[g] = b0[g] * in[g] + z0[g];
        z0[g] = b1[g] * in[g] - a1[g] * out[g] + z1[g];
        z1[g] = b2[g] * in[g] - a2[g] * out[g];
      }
      y[(t - last) * stride] = out[last / 4][last % 4];
    }
    for (std::size_t k = 0; k < sections; ++k) {
      z[2 * k] = z0[k / 4][k % 4];
      z[2 * k + 1] = z1[k / 4][k % 4];
      inputs[k + 1] = out[k / 4][k % 4];
    }
  }
  for (; t < count + last; ++t) {  // its end: lane k stops after sample count - 1
    edgeStep(s, sections, z, inputs, t, count);
    if (t - last >= 0) y[(t - last) * stride] = inputs[sections];
  }
}

template <std::size_t G>
[[gnu::target_clones("avx2", "default")]] void wavefrontOf(const Section* s, std::size_t sections, double* z,
                                                           const double* x, double* y, std::ptrdiff_t stride,
                                                           std::ptrdiff_t count) {
  wavefront<G>(s, sections, z, x, y, stride, count);
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

}  // namespace siglab::detail
