#pragma once
#include <QString>

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "siglab/io/signal.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "siglab/minmax_pyramid.hpp"
#include "siglab/statistics.hpp"

namespace siglab::gui {

// A signal the GUI shows: its samples, the min/max pyramid the plots draw from and the statistics
// of all of it. Built once in a worker, then shared read-only; it never moves, because the
// pyramid points into `samples`. A signal larger than memory keeps its samples in a file's
// mapping instead; its first, coarse view comes before its pyramid and statistics (indexed()).
// A signal of several channels (in memory only) is its first channel holding the others, each a
// LoadedSignal of its own: whatever shows one channel reads the first unless it asks channel(k).
class LoadedSignal {
 public:
  // Builds the pyramid and the statistics; throws Cancelled when `progress` asks for it.
  LoadedSignal(std::string source, SampleVector samples, const Progress& progress = {},
               std::optional<double> sampleRate = std::nullopt);
  // Every channel of a signal, each with its pyramid and statistics (all of one length, at least one),
  // with the names the file gives them (a CSV header, EDF labels, HDF5/MAT datasets), if any.
  LoadedSignal(std::string source, std::vector<SampleVector> channels, const Progress& progress = {},
               std::optional<double> sampleRate = std::nullopt, std::vector<std::string> names = {});
  // The same with the samples copied into ordinary memory.
  LoadedSignal(std::string source, const std::vector<double>& samples, const Progress& progress = {},
               std::optional<double> sampleRate = std::nullopt);
  // Viewed from `mapping`: without a pyramid yet (a preview), or with the ones built from it.
  LoadedSignal(std::string source, std::shared_ptr<const MappedSignal> mapping);
  LoadedSignal(const LoadedSignal& preview, MinMaxPyramid pyramid, const Statistics& statistics);
  LoadedSignal(const LoadedSignal&) = delete;
  LoadedSignal& operator=(const LoadedSignal&) = delete;

  const std::string& source() const { return source_; }  // the file it came from, or what made it
  // Page-locked where a GPU will copy them; empty for a mapped WAV file (converted()): read() them.
  std::span<const double> samples() const { return samples_; }
  bool converted() const { return mapping_ && mapping_->converted(); }
  // Samples [first, first + out.size()) into `out`, whatever holds them (their pages let go after).
  void read(std::size_t first, std::span<double> out) const;
  const MinMaxPyramid& pyramid() const { return pyramid_; }
  const Statistics& statistics() const { return statistics_; }  // count 0 until indexed()
  std::size_t size() const { return size_; }
  std::optional<double> sampleRate() const { return sampleRate_; }  // the file's own (WAV), in Hz

  std::size_t channelCount() const { return 1 + others_.size(); }
  // Channel `index`'s (0-based) name from the file, or empty where it names none.
  const std::string& channelName(std::size_t index) const;
  const LoadedSignal& channel(std::size_t index) const { return index == 0 ? *this : *others_.at(index - 1); }  // 0-based
  // Every channel's samples, planar, as the pipeline and the writers take them.
  std::vector<std::span<const double>> channelSamples() const;

  const MappedSignal* mapping() const { return mapping_.get(); }  // null: in memory
  std::shared_ptr<const MappedSignal> sharedMapping() const { return mapping_; }
  bool indexed() const { return indexed_; }
  // One sample (a cursor readout), its page let go again where it is mapped.
  double sampleAt(std::size_t index) const;
  // What a plot draws for keys [firstKey, lastKey] on `columns` columns: from the pyramid, or a
  // coarse preview until it exists. A mapped float64 file's samples come by pread, never through
  // the mapping's faults; a converted one lets go of the pages it read column by column: the kernel
  // maps a whole large folio (up to 2 MiB) for each sample touched, so a preview's few thousand
  // probes would otherwise make most of a file resident.
  PlotPoints pointsFor(double firstKey, double lastKey, std::size_t columns) const;
  // The statistics of a range, in memory on every core, or block by block through the mapping;
  // progress reported and Cancelled thrown as `progress` asks.
  Statistics statisticsOf(SampleRange range, const Progress& progress = {}) const;

 private:
  std::string source_;
  SampleVector owned_;  // page-locked where a GPU will copy them
  std::shared_ptr<const MappedSignal> mapping_;
  std::span<const double> samples_;
  std::size_t size_ = 0;
  MinMaxPyramid pyramid_;
  Statistics statistics_;
  std::optional<double> sampleRate_;
  bool indexed_ = false;
  std::vector<std::unique_ptr<const LoadedSignal>> others_;  // channels 2..C
  std::vector<std::string> names_;  // one a channel, or empty
};

using SignalPtr = std::shared_ptr<const LoadedSignal>;

// Reads of mapped samples through a LoadedSignal (pointsFor, read, sampleAt, statisticsOf) made so
// far on the calling thread: how a test sees the GUI thread leave a file's pages to the workers.
std::size_t mappedReadsOnThisThread();

// Channel `index` (0-based) of `signal`, sharing its ownership; the signal itself for 0.
SignalPtr channelOf(const SignalPtr& signal, std::size_t index);

// What the lanes, the statistics and the readouts call channel `index` (0-based) of `signal`: the
// name its file gives it, else "channel N" (1-based).
QString channelLabel(const LoadedSignal& signal, std::size_t index);

// writeSignal of all of `signal`'s samples, read in blocks where it is converted as read;
// writeChannels of every channel where it has several.
void writeLoadedSignal(const std::string& path, const LoadedSignal& signal, const WriteOptions& options = {},
                       const Progress& progress = {});

}  // namespace siglab::gui
