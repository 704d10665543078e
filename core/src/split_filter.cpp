#include "siglab/split_filter.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <vector>

namespace siglab {

std::vector<SignalPart> splitIntoParts(std::size_t n, std::size_t parts, std::size_t align) {
  if (parts == 0) throw std::invalid_argument("a signal is split into at least one part");
  if (align == 0) throw std::invalid_argument("parts are aligned to at least one sample");
  const std::size_t pieces = (n + align - 1) / align;  // aligned pieces, the last maybe short
  const std::size_t count = std::min(parts, pieces);
  std::vector<SignalPart> result;
  std::size_t begin = 0;
  for (std::size_t p = 0; p < count; ++p) {
    // Part p takes pieces [p * pieces / count, (p + 1) * pieces / count): sizes differ by one piece at most.
    const std::size_t endPiece = (p + 1) * pieces / count;
    const std::size_t end = std::min(n, endPiece * align);
    result.push_back({begin, end});
    begin = end;
  }
  return result;
}

template <class T>
void gatherWithHalo(std::span<const T> in, SignalPart part, std::size_t radius, BoundaryMode mode,
                    std::span<T> padded) {
  if (part.begin > part.end || part.end > in.size() || padded.size() != part.size() + 2 * radius) {
    throw std::invalid_argument("gatherWithHalo: the part must lie in the signal and the buffer hold it and its halo");
  }
  const auto n = static_cast<std::int64_t>(in.size());
  auto valueAt = [&](std::int64_t position) {
    const std::int64_t k = boundaryIndex(position, n, mode);
    return k == kSkipSample ? T(0) : in[static_cast<std::size_t>(k)];
  };
  const auto first = static_cast<std::int64_t>(part.begin) - static_cast<std::int64_t>(radius);
  const auto last = static_cast<std::int64_t>(part.end) + static_cast<std::int64_t>(radius);
  const std::int64_t insideBegin = std::max<std::int64_t>(first, 0);
  const std::int64_t insideEnd = std::min(last, n);
  std::size_t at = 0;
  for (std::int64_t p = first; p < insideBegin; ++p) padded[at++] = valueAt(p);
  if (insideBegin < insideEnd) {
    std::copy(in.begin() + insideBegin, in.begin() + insideEnd, padded.begin() + static_cast<std::ptrdiff_t>(at));
    at += static_cast<std::size_t>(insideEnd - insideBegin);
  }
  for (std::int64_t p = std::max(insideEnd, insideBegin); p < last; ++p) padded[at++] = valueAt(p);
}

template void gatherWithHalo<double>(std::span<const double>, SignalPart, std::size_t, BoundaryMode, std::span<double>);
template void gatherWithHalo<float>(std::span<const float>, SignalPart, std::size_t, BoundaryMode, std::span<float>);

PartEngine::PartEngine(std::unique_ptr<FilterBackend> engine) : engine_(std::move(engine)) {
  if (!engine_) throw std::invalid_argument("a part engine needs an engine");
}

FilterPass PartEngine::filterPart(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                  SignalPart part, const RunOptions& options, const Progress& progress) {
  return filterPadded(in, spec, out, part, options, progress);
}

FilterPass PartEngine::filterPart(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                  SignalPart part, const RunOptions& options, const Progress& progress) {
  return filterPadded(in, spec, out, part, options, progress);
}

template <class T>
FilterPass PartEngine::filterPadded(std::span<const T> in, const FilterSpec& spec, std::span<T> out, SignalPart part,
                                    const RunOptions& options, const Progress& progress) {
  const std::size_t radius = spec.radius();
  std::vector<T> padded(part.size() + 2 * radius);
  std::vector<T> filtered(padded.size());
  gatherWithHalo(in, part, radius, spec.mode, std::span<T>(padded));
  // Outputs radius..radius+size read only the gathered samples, so the mode never applies to them.
  FilterPass pass = engine_->filter(std::span<const T>(padded), spec, std::span<T>(filtered), options, progress);
  std::copy_n(filtered.begin() + static_cast<std::ptrdiff_t>(radius), part.size(),
              out.begin() + static_cast<std::ptrdiff_t>(part.begin));
  std::vector<std::size_t> cuts;
  for (std::size_t cut : pass.splits.at) {
    if (cut > radius && cut - radius < part.size()) cuts.push_back(part.begin + cut - radius);
  }
  pass.splits.at = std::move(cuts);
  return pass;
}

SplitFilterBackend::SplitFilterBackend(std::vector<std::unique_ptr<PartEngine>> parts, std::string placement,
                                       std::size_t align)
    : parts_(std::move(parts)), placement_(std::move(placement)), align_(align) {
  if (parts_.empty()) throw std::invalid_argument("a split engine needs at least one part engine");
  description_ = std::string(parts_.front()->engine().description()) + "; split over " + placement_;
}

std::string_view SplitFilterBackend::name() const { return parts_.front()->engine().name(); }

bool SplitFilterBackend::usesGpu() const { return parts_.front()->engine().usesGpu(); }

std::string SplitFilterBackend::whyNot(const FilterSpec& spec, SampleType type) const {
  for (const auto& part : parts_) {
    if (std::string why = part->engine().whyNot(spec, type); !why.empty()) return why;
  }
  return {};
}

double SplitFilterBackend::tolerance(const FilterSpec& spec, double maxAbsInput) const {
  return parts_.front()->engine().tolerance(spec, maxAbsInput);
}

double SplitFilterBackend::toleranceFloat32(const FilterSpec& spec, double maxAbsInput) const {
  return parts_.front()->engine().toleranceFloat32(spec, maxAbsInput);
}

FilterPass SplitFilterBackend::filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                      const RunOptions& options, const Progress& progress) {
  return filterParts(in, spec, out, options, progress);
}

FilterPass SplitFilterBackend::filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                      const RunOptions& options, const Progress& progress) {
  return filterParts(in, spec, out, options, progress);
}

template <class T>
FilterPass SplitFilterBackend::filterParts(std::span<const T> in, const FilterSpec& spec, std::span<T> out,
                                           const RunOptions& options, const Progress& progress) {
  validate(spec);
  if (in.size() != out.size()) throw std::invalid_argument("input and output sizes differ");
  if (std::string why = whyNot(spec, std::is_same_v<T, float> ? SampleType::f32 : SampleType::f64); !why.empty()) {
    throw EngineUnavailable(why);
  }
  progress.throwIfCancelled();
  const std::vector<SignalPart> parts = splitIntoParts(in.size(), parts_.size(), align_);
  const auto start = std::chrono::steady_clock::now();

  // Each part's progress and outcome; `stop` is the parts' cancel flag: the caller's
  // cancellation, or another part's failure.
  std::atomic<bool> stop = false;
  std::vector<std::atomic<double>> fractions(parts.size());
  std::vector<FilterPass> passes(parts.size());
  std::vector<std::exception_ptr> errors(parts.size());
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t finished = 0;
  {
    std::vector<std::jthread> threads;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      threads.emplace_back([&, p] {
        Progress partProgress;
        partProgress.cancelFlag = &stop;
        if (progress.onProgress) {
          partProgress.onProgress = [&, p](double fraction) {
            fractions[p].store(fraction, std::memory_order_relaxed);
            double sum = 0;
            for (std::size_t q = 0; q < parts.size(); ++q) {
              sum += fractions[q].load(std::memory_order_relaxed) * static_cast<double>(parts[q].size());
            }
            progress.report(sum / static_cast<double>(in.size()));
          };
        }
        try {
          passes[p] = parts_[p]->filterPart(in, spec, out, parts[p], options, partProgress);
        } catch (...) {
          errors[p] = std::current_exception();
          stop = true;
        }
        std::lock_guard lock(mutex);
        ++finished;
        changed.notify_all();
      });
    }
    std::unique_lock lock(mutex);
    while (finished < parts.size()) {
      changed.wait_for(lock, std::chrono::milliseconds(20));
      if (progress.cancelled()) stop = true;  // the caller's flag, passed on to every part
    }
  }
  if (progress.cancelled()) throw Cancelled();
  for (const std::exception_ptr& error : errors) {  // a real failure before a part's Cancelled
    if (!error) continue;
    try {
      std::rethrow_exception(error);
    } catch (const Cancelled&) {
    }
  }

  FilterPass pass;
  pass.phases.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  for (std::size_t p = 0; p < parts.size(); ++p) {
    pass.phases.kernelMs = std::max(pass.phases.kernelMs, passes[p].phases.kernelMs);
    pass.phases.transferMs = std::max(pass.phases.transferMs, passes[p].phases.transferMs);
    if (p > 0) pass.splits.at.push_back(parts[p].begin);
    pass.splits.at.insert(pass.splits.at.end(), passes[p].splits.at.begin(), passes[p].splits.at.end());
  }
  std::sort(pass.splits.at.begin(), pass.splits.at.end());
  if (!passes.empty()) pass.splits.every = passes.front().splits.every;
  pass.note = std::to_string(parts.size()) + " part(s) on " + placement_ +
              " at once; kernel and transfer: the slowest part's";
  if (!passes.empty() && !passes.front().note.empty()) pass.note += "; part 1: " + passes.front().note;
  return pass;
}

}  // namespace siglab
