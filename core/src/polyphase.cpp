#include "siglab/polyphase.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "parallel_range.hpp"
#include "siglab/work_progress.hpp"

namespace siglab {

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
  const std::vector<double>& phase = phases_[static_cast<std::size_t>(phaseIndex)];
  const auto count = static_cast<std::int64_t>(phase.size());
  const std::int64_t bottom = top - count + 1;  // the input the phase's first tap meets (`top`: its last)
  const std::int64_t from = std::max<std::int64_t>(0, bottom), to = std::min(n - 1, top);
  if (from > to) return 0.0;
  const double* h = phase.data() + (from - bottom);
  const double* v = x + (from - base);
  const std::int64_t length = to - from + 1;
  // Four running sums, in this fixed order: the same bits wherever the output is computed.
  double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  std::int64_t r = 0;
  for (; r + 4 <= length; r += 4) {
    a0 += h[r] * v[r];
    a1 += h[r + 1] * v[r + 1];
    a2 += h[r + 2] * v[r + 2];
    a3 += h[r + 3] * v[r + 3];
  }
  for (; r < length; ++r) a0 += h[r] * v[r];
  return (a0 + a1) + (a2 + a3);
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
    std::int64_t phase = s % up_, top = s / up_;
    for (std::int64_t j = begin; j < end; ++j) {
      out[static_cast<std::size_t>(j)] = dot(phase, top, x.data(), 0, n);
      top += whole;
      phase += rest;
      if (phase >= up_) {
        phase -= up_;
        ++top;
      }
    }
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
