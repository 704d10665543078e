#pragma once
// The block scan's steps as plain functions (SIGLAB_HD), shared by the GPU scan and the host test
// that emulates it (tests/core/sos_scan_steps_test.cpp). Coefficients are flat: scipy's rows of 6.
//   1. Every chunk of C samples from zero state (the first from the initial state): its end state.
//   2. The true start state of each chunk, carried serially: T[1] = end[0],
//      T[b+1] = end[b] + A^C T[b], with A the cascade's state transition (sosTransitionPower).
//   3. Every chunk again from its true start state, writing the outputs.
#include <cstdint>
#include <span>
#include <vector>

#include "siglab/butterworth.hpp"
#include "siglab/host_device.hpp"
#include "siglab/sos_filter.hpp"

namespace siglab {

inline constexpr int kMaxScanStates = 2 * kMaxButterworthOrder;  // 32 band sections, 2 states each

// One sample through the cascade: scipy's _sosfilt loop body (direct form II transposed, a0 = 1).
SIGLAB_HD double sosStepFlat(const double* c, int sections, double* z, double x) {
  for (int k = 0; k < sections; ++k) {
    const double* s = c + 6 * k;
    const double y = s[0] * x + z[2 * k];
    z[2 * k] = s[1] * x - s[4] * y + z[2 * k + 1];
    z[2 * k + 1] = s[2] * x - s[5] * y;
    x = y;
  }
  return x;
}

// Samples x[0], x[stride], ... (count of them) from state z, which is left at the chunk's end;
// outputs to the same positions of y unless y is null.
SIGLAB_HD void sosChunk(const double* c, int sections, double* z, const double* x, double* y, std::int64_t stride,
                        std::int64_t count) {
  for (std::int64_t i = 0; i < count; ++i) {
    const double out = sosStepFlat(c, sections, z, x[i * stride]);
    if (y) y[i * stride] = out;
  }
}

std::vector<double> flatCoefficients(const Sections& sections);

// A^steps, row-major (2 sections x 2 sections): the state after `steps` zero-input samples.
std::vector<double> sosTransitionPower(const Sections& sections, std::int64_t steps);

// Step 2: starts[b * states ...] for every chunk, from the chunks' end states of step 1.
void sosCarryChunkStarts(std::span<const double> power, int states, std::span<const double> ends,
                         std::span<const double> initial, std::span<double> starts);

}  // namespace siglab
