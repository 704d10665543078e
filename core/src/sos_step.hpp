#pragma once
// One sample through the cascade: scipy's _sosfilt loop body (direct form II transposed, a0 = 1).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstddef>
#include <span>

#include "parallel_range.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/work_progress.hpp"

namespace siglab::detail {

[[gnu::always_inline]] inline double sosStep(const Section* s, std::size_t count, double* z, double x) {
  for (std::size_t k = 0; k < count; ++k) {
    const double y = s[k][0] * x + z[2 * k];
    z[2 * k] = s[k][1] * x - s[k][4] * y + z[2 * k + 1];
    z[2 * k + 1] = s[k][2] * x - s[k][5] * y;
    x = y;
  }
  return x;
}

// max |x[i * stride]| over `count` samples, NaN passed over as std::max passes it. In eight running
// maxima where the samples are contiguous (either way): one chain of compares is bound by its
// latency. The same value as one chain, the maximum being exact.
inline double maxAbsOf(const double* x, std::ptrdiff_t stride, std::int64_t count) {
  double m[8] = {};
  std::int64_t i = 0;
  if (stride == 1 || stride == -1) {
    const double* first = stride == 1 ? x : x - (count - 1);
    for (; i + 8 <= count; i += 8) {
      for (int k = 0; k < 8; ++k) {
        const double a = std::abs(first[i + k]);
        m[k] = a > m[k] ? a : m[k];
      }
    }
    x = first + i;
    stride = 1;
  }
  for (std::int64_t j = 0; i < count; ++i, ++j) m[0] = std::max(m[0], std::abs(x[j * stride]));
  for (int k = 1; k < 8; ++k) m[0] = std::max(m[0], m[k]);
  return m[0];
}

// sosRange as a wavefront (sos_wavefront.cpp): every section at once, each on its own sample; the
// same bits. False (nothing done) for more than 16 sections.
bool sosWavefront(const Section* s, std::size_t sections, double* z, const double* x, double* y, std::ptrdiff_t stride,
                  std::size_t count);

// One signal of several run at once: its state, its input and its output (y may be x).
struct SosRun {
  double* z;
  const double* x;
  double* y;
};

// sosWavefront for 2 to 4 signals of `count` samples at once, interleaved (each its own state): the
// same bits as one at a time, in little more than the time of one, since one signal's chain of steps
// leaves most of a core's units idle. False (nothing done) for more than 16 sections or other counts.
bool sosWavefronts(const Section* s, std::size_t sections, std::span<const SosRun> runs, std::ptrdiff_t stride,
                   std::size_t count);

// How many of the block scan's blocks a core runs at once: four where one vector holds every section
// (its chain leaves the most idle), three where two do (four spill registers even with AVX-512's 32;
// three ran 10-15% faster than two on the 2-core EPYC), else two.
inline std::size_t sosBlocksAtOnce(std::size_t sections) { return sections <= 4 ? 4 : sections <= 8 ? 3 : 2; }

// `count` samples x[0], x[stride], ... into y at the same positions (y may be x).
inline void sosRange(const Section* s, std::size_t sections, double* z, const double* x, double* y,
                     std::ptrdiff_t stride, std::size_t count) {
  if (sections >= 2 && count >= 4 * sections && sosWavefront(s, sections, z, x, y, stride, count)) return;
  for (std::size_t i = 0; i < count; ++i) {
    const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(i) * stride;
    y[at] = sosStep(s, sections, z, x[at]);
  }
}

// sosRange on each of `runs`, `count` samples each.
inline void sosRanges(const Section* s, std::size_t sections, std::span<const SosRun> runs, std::ptrdiff_t stride,
                      std::size_t count) {
  if (runs.size() > 1 && sections >= 2 && count >= 4 * sections && sosWavefronts(s, sections, runs, stride, count)) return;
  for (const SosRun& r : runs) sosRange(s, sections, r.z, r.x, r.y, stride, count);
}

// Samples between two looks at Cancel: a sample costs five multiply-adds per section, in a chain.
inline std::size_t samplesPerCancelCheck(std::size_t sections) {
  return static_cast<std::size_t>(outputsPerCancelCheck(5 * sections));
}

// sosRange in stretches of samplesPerCancelCheck, each added to `work`; the state carries across
// them, so the bits are sosRange's. Stops early and returns false once cancelled (no throw: it
// runs inside parallel loops).
inline bool sosRangeChecked(const Section* s, std::size_t sections, double* z, const double* x, double* y,
                            std::ptrdiff_t stride, std::size_t count, WorkProgress& work) {
  const std::size_t stretch = samplesPerCancelCheck(sections);
  for (std::size_t done = 0; done < count; done += stretch) {
    if (work.cancelled()) return false;
    const std::size_t c = std::min(stretch, count - done);
    const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(done) * stride;
    sosRange(s, sections, z, x + at, y + at, stride, c);
    work.add(c);
  }
  return true;
}

// sosRangeChecked for up to 4 signals of `count` samples each; the bits are sosRange's on each.
inline bool sosRangesChecked(const Section* s, std::size_t sections, std::span<const SosRun> runs,
                             std::ptrdiff_t stride, std::size_t count, WorkProgress& work) {
  const std::size_t stretch = samplesPerCancelCheck(sections);
  SosRun moved[4];
  for (std::size_t done = 0; done < count; done += stretch) {
    if (work.cancelled()) return false;
    const std::size_t c = std::min(stretch, count - done);
    const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(done) * stride;
    for (std::size_t k = 0; k < runs.size(); ++k) moved[k] = {runs[k].z, runs[k].x + at, runs[k].y + at};
    sosRanges(s, sections, std::span<const SosRun>(moved, runs.size()), stride, c);
    work.add(runs.size() * c);
  }
  return true;
}

}  // namespace siglab::detail
