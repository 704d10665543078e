#include "siglab/auto_engine_rule.hpp"

#include <stdexcept>

namespace siglab {
namespace {

const char* workName(AutoWork work) {
  switch (work) {
    case AutoWork::RateChange: return "a rate change";
    case AutoWork::Spectrogram: return "a spectrogram";
    case AutoWork::FindPeaks: return "find-peaks";
    case AutoWork::Hilbert: return "a Hilbert transform";
    default: return "a stage";
  }
}

// Why the CPU engine is the same (or as good) as the GPU's, for the report.
const char* cpuSameness(AutoWork work) {
  if (work == AutoWork::Spectrogram) return "FFTW's frames, each alone";
  if (work == AutoWork::Hilbert) return "FFTW's threads (the last bits may differ from cpu-serial's)";
  return "the same bits as cpu-serial";
}

const char* gpuSameness(AutoWork work) {
  if (work == AutoWork::Spectrogram) return "cuFFT's frames, within an FFT's rounding of the CPU's";
  if (work == AutoWork::Hilbert) return "cuFFT's transform, within an FFT's rounding of the CPU's";
  if (work == AutoWork::FindPeaks) return "the same rows as cpu-serial";
  return "the same bits as cpu-serial";
}

// A stage's own GPU work: one pick, the GPU's from the table's size on.
AutoPick stagePick(const AutoQuestion& q, const AutoThreshold& row) {
  const std::uint64_t from = row.least;
  const std::string what = workName(q.work);
  const std::string cpu = std::string("cpu-parallel, ") + cpuSameness(q.work);
  if (q.gpuEngine.empty()) {
    return {"cpu-parallel", "auto: " + cpu + " (no GPU engine runs " + what + " here" +
                                (q.gpuWhyNot.empty() ? "" : ": " + q.gpuWhyNot) + ")"};
  }
  if (q.work == AutoWork::FindPeaks && q.streamed) {
    return {"cpu-parallel", "auto: " + cpu + " (the run streams, and " + q.gpuEngine +
                                " finds peaks on the whole signal at once)"};
  }
  if (!admits(row, q.size)) {
    return {"cpu-parallel", "auto: " + cpu + " (" + std::to_string(q.size) + " samples < " + std::to_string(from) +
                                ": the CPU's pass is shorter than the GPU's copies)"};
  }
  return {q.gpuEngine, "auto: " + q.gpuEngine + ", " + gpuSameness(q.work) + " (" + std::to_string(q.size) +
                           " samples >= " + std::to_string(from) + ": the GPU's time is its transfers)"};
}

// Sections: cpu-parallel's block scan where the poles fade quickly enough, else the recursion.
std::vector<AutoPick> sectionPicks(const AutoQuestion& q, const AutoThreshold& row) {
  const std::string samples = q.size == kNoLimit ? "unending" : std::to_string(q.size);
  const bool scan = admits(row, q.size);
  std::vector<AutoPick> picks;
  if (scan) {
    picks.push_back({"cpu-parallel", "sections whose slowest pole fades to 2^-53 within " + samples +
                                         " samples: cpu-parallel's block scan, within its stated bound "
                                         "(sosKindTolerance) of the recursion",
                     true});
  }
  picks.push_back({"cpu-serial", "the reference: the slowest pole fades to 2^-53 in " + samples + " samples" +
                                     (scan ? std::string(" (where the block scan cannot run)")
                                           : " > " + std::to_string(row.most) +
                                                 ", too long for the block scan's cuts; name it (--engine "
                                                 "cpu-parallel) to take its bound")});
  return picks;
}

// Welch's spectrum: cuFFT (q.gpuEngine) from the row's size on, else FFTW on every core
// (cpu-parallel). The CPU's why is what WelchEngineChoice::note shows after "cpu (FFTW); ".
AutoPick welchPick(const AutoQuestion& q, const AutoThreshold& row) {
  if (q.gpuEngine.empty()) return {"cpu-parallel", "the GPU could not run it: " + q.gpuWhyNot};
  if (!admits(row, q.size)) {
    return {"cpu-parallel", "auto: " + std::to_string(q.size) + " samples < " + std::to_string(row.least) +
                       ", FFTW's pass is shorter than the GPU's copies and launches"};
  }
  return {q.gpuEngine, "auto: " + std::to_string(q.size) + " samples >= " + std::to_string(row.least) +
                           ", the GPU's time is its copies"};
}

// correlate's FFT: the GPU's (q.gpuEngine, gpu-fft) from the row's taps on a signal long enough, else
// cpu-parallel, whose why says only why not the GPU: the stage runs FFTW there, or for method auto
// SciPy's rule between FFTW and the direct sums.
AutoPick correlateFftPick(const AutoQuestion& q, const AutoThreshold& row) {
  if (q.gpuEngine.empty()) {
    return {"cpu-parallel", "no GPU engine computes correlate's FFT here" + (q.gpuWhyNot.empty() ? "" : ": " + q.gpuWhyNot)};
  }
  const std::string notGpu = "not " + q.gpuEngine + ": ";
  if (q.samples != kNoLimit && q.samples < row.leastSamples) {
    return {"cpu-parallel", notGpu + std::to_string(q.samples) + " samples < " + std::to_string(row.leastSamples) +
                                ", the CPU's whole pass is shorter than the GPU's copies"};
  }
  if (!q.fftNamed && !admits(row, q.size)) {
    return {"cpu-parallel", notGpu + "a template of " + std::to_string(q.size) + " taps < " + std::to_string(row.least) +
                                ", the GPU's direct sums are faster than its FFT"};
  }
  const std::string size = q.fftNamed ? "method fft" : "a template of " + std::to_string(q.size) + " taps >= " +
                                                           std::to_string(row.least);
  return {q.gpuEngine, "auto: " + q.gpuEngine + "'s overlap-save FFT, within its bound of the sums (" + size +
                           ": the GPU's FFT is faster than its direct sums and than FFTW)"};
}

// A correlation or a median: the GPU's engine where the row admits it, then the exact CPU engines.
std::vector<AutoPick> filterPicks(const AutoQuestion& q, const AutoThreshold& row) {
  std::vector<AutoPick> picks;
  const bool gpuSize = admits(row, q.size);
  const bool gpuLength = admitsLength(row, q.size, q.samples);
  const std::string w = std::to_string(q.size), min = std::to_string(row.least);
  if (q.work == AutoWork::Median) {
    if (!q.gpuEngine.empty()) {
      picks.push_back({q.gpuEngine, "a median: the GPU selects every window in parallel, the CPU slides one sorted "
                                    "window per core (bit-identical either way)"});
    }
    picks.push_back({"cpu-parallel", "a median: cpu-parallel slides a sorted window on every core, bit-identical to "
                                     "the reference"});
  } else {
    if (!q.gpuEngine.empty() && gpuSize && gpuLength) {
      picks.push_back({q.gpuEngine, "a window of " + w + " >= " + min +
                                        " taps: the GPU's time is bound by its transfers, the CPU's grows with W"});
    }
    std::string why = "no exact GPU engine can run it here; cpu-parallel is the fastest exact CPU engine";
    if (!gpuSize) {
      why = "a window of " + w + " < " + min +
            " taps: the CPU's pass is shorter than a GPU's transfers; cpu-parallel is the fastest exact engine "
            "(bit-identical to cpu-serial)";
    } else if (!gpuLength) {
      why = std::to_string(q.samples) + " samples x " + w + " taps < " + std::to_string(row.leastSamples) + " x " + min +
            ": the CPU's whole pass is shorter than a GPU's copies and launches; cpu-parallel is the fastest exact "
            "engine (bit-identical to cpu-serial)";
    }
    picks.push_back({"cpu-parallel", std::move(why)});
  }
  picks.push_back({"cpu-serial", "the reference: no faster exact engine can run this filter here"});
  return picks;
}

}  // namespace

bool admitsLength(const AutoThreshold& row, std::uint64_t size, std::uint64_t samples) {
  if (row.leastSamples == 0 || samples == kNoLimit) return true;
  if (size == 0) return false;
  const std::uint64_t work = row.leastSamples * row.least;  // the table's own numbers: no overflow
  return samples >= work / size + (work % size != 0);      // samples x size >= work, without its overflow
}

const AutoThreshold& autoThreshold(AutoWork work) {
  for (const AutoThreshold& row : kAutoThresholds) {
    if (row.work == work) return row;
  }
  throw std::logic_error("the auto rule's table has no row for this work");
}

std::vector<AutoPick> autoEngineOrder(const AutoQuestion& question) {
  const AutoThreshold& row = autoThreshold(question.work);
  switch (question.work) {
    case AutoWork::Correlation:
    case AutoWork::Median: return filterPicks(question, row);
    case AutoWork::SecondOrderSections: return sectionPicks(question, row);
    case AutoWork::RateChange:
    case AutoWork::Spectrogram:
    case AutoWork::FindPeaks:
    case AutoWork::Hilbert: return {stagePick(question, row)};
    case AutoWork::Welch: return {welchPick(question, row)};
    case AutoWork::CorrelateFft: return {correlateFftPick(question, row)};
  }
  return {};
}

}  // namespace siglab
