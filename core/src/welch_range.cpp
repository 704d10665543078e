#include <algorithm>

#include "siglab/io/mapped_signal.hpp"
#include "siglab/welch_range.hpp"
#include "siglab/work_progress.hpp"

namespace siglab {
namespace {

constexpr std::size_t kPieceSamples = std::size_t{1} << 20;  // 8 MiB of float64: a mapped piece's reads

// The mapped range in pieces of whole segments: each piece's average weighted by its segment count
// makes the range's average.
Spectrum welchOfMapped(const MappedSignal& mapping, SampleRange range, const WelchOptions& options,
                       const WelchRun& run, const Progress& progress) {
  const std::size_t step = options.segment - options.overlapOrDefault();
  const std::size_t segments = segmentCount(options, range.end - range.begin);
  const std::size_t perPiece = std::max<std::size_t>(1, kPieceSamples / step);
  Spectrum whole{spectrumFrequencies(options), std::vector<double>(frequencyCount(options), 0.0)};
  std::vector<double> piece;
  for (std::size_t first = 0; first < segments; first += perPiece) {
    progress.throwIfCancelled();
    const std::size_t count = std::min(perPiece, segments - first);
    const std::size_t begin = range.begin + first * step, length = (count - 1) * step + options.segment;
    piece.resize(length);
    mapping.read(begin, piece);
    mapping.release(begin, length);
    const double done = static_cast<double>(first) / static_cast<double>(segments);
    const double next = static_cast<double>(first + count) / static_cast<double>(segments);
    const Spectrum part = run(piece, options, progressPart(progress, done, next));
    for (std::size_t k = 0; k < whole.power.size(); ++k) whole.power[k] += part.power[k] * static_cast<double>(count);
  }
  for (double& p : whole.power) p /= static_cast<double>(segments);
  return whole;
}

}  // namespace

std::size_t WelchSource::size() const { return mapping ? mapping->size() : samples.size(); }

Spectrum welchOfRange(const WelchSource& source, SampleRange range, const WelchOptions& options, const WelchRun& run,
                      const Progress& progress) {
  range = checkedRange(source.size(), range);
  validate(options, range.end - range.begin);
  const WelchRun& engine = run ? run : WelchRun([](std::span<const double> x, const WelchOptions& o, const Progress& p) {
    return welch(x, o, p);
  });
  if (source.mapping) return welchOfMapped(*source.mapping, range, options, engine, progress);
  return engine(source.samples.subspan(range.begin, range.end - range.begin), options, progress);
}

}  // namespace siglab
