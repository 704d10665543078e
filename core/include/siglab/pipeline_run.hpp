#pragma once
// The one run of a pipeline on a signal, for every front-end: from a source (channels in memory,
// or a file) to a sink (a result in memory, or a file written only when every stage passed its
// verification), in memory or block by block, each stage on its engine (auto falling back as
// applyJob does), verified, and reported per channel and per stage.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory_resource>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "siglab/analysis_result.hpp"
#include "siglab/io/sample_vector.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/stream_apply.hpp"

namespace siglab {

// Channels already in memory, planar (each channel's samples contiguous), all of one length.
struct ChannelSource {
  std::vector<std::span<const double>> channels;
  std::optional<double> sampleRate;
  std::string name = "the signal";  // for messages (a sample float32 cannot hold)
};
// A signal file: every channel readChannels reads (ChannelStream when streamed), or the one
// ReadOptions::oneChannel and channel pick. A file of one channel runs as readSignal reads it.
struct FileSource {
  std::string path;
  ReadOptions read;
};
/// Where a run reads its signal: channels in memory or a file.
using PipelineSource = std::variant<ChannelSource, FileSource>;

// The result in memory, or a file committed only when every stage of every channel passed
// verification (none is created otherwise, and an old one stays), holding every channel
// (writeChannels' formats: an output that cannot hold them is refused before any work).
// MemorySink: with `into` empty, each channel's result in a new PipelineReport::output; else the
// last stage writes each channel's result straight into the caller's into[c] (one span per
// channel, of the signal's length, not overlapping it; channels in memory only), and
// report.output stays empty. A run that fails a check or throws may have written part of it.
// A chain ending in an analysis (spectrogram, stft, find-peaks, hilbert) hands its matrix or
// table to PipelineReport::analysis instead of a file (`into` must then be empty).
struct MemorySink {
  std::vector<std::span<double>> into;
  // A complex matrix (stft, spectrogram mode complex) as NumPy's complex128 lays it out: each
  // frequency's (re, im) together, shape (frames, frequencies, 2); else two planes, as the .npy.
  bool complexPairs = false;
};
/// A file for the result, created only when every stage of every channel passed verification.
struct FileSink {
  std::string path;
  WriteOptions write;  // sampleRate: replaced by the source's where it has one
};
/// Where a run writes its result: memory or a file.
using PipelineSink = std::variant<MemorySink, FileSink>;

/// How a run runs: each stage's engine, the sample type, verification and streaming.
struct PipelineOptions {
  std::vector<std::string> engines;  // per stage: "auto" or an engine's name; missing ones are "auto"
  SampleType sampleType = SampleType::f64;
  Accumulator accumulator = Accumulator::SampleType;
  RunOptions run;                    // GPU block size, memory budget, devices
  // Page-locked memory a front-end with GPU engines offers (pinnedHostMemory()): a file read in
  // memory goes there when the first stage's engine copies float64 samples to a GPU, and an
  // analysis's matrix made in memory when its engine is a GPU's.
  std::pmr::memory_resource* pinnedMemory = nullptr;
  bool verify = true;
  std::size_t verifyRandom = kDefaultVerifyRandom;
  bool verifyAll = false;
  Streaming streaming = Streaming::automatic;
  std::size_t blockSamples = std::size_t{1} << 19;  // outputs a streamed block holds
};

// What the run tells as it goes. Every member is optional.
struct PipelineObserver {
  const std::atomic<bool>* cancel = nullptr;
  // A Progress for the next phase of the work ("reading in.wav", "filtering", "writing out.wav").
  std::function<Progress(const std::string& phase)> progressFor;
  std::function<void(const std::string& line)> onNote;  // what binding did to a stage, for people
  std::function<void()> beforeOutput;                    // just before the output's temporary is created
  std::function<void(const StreamingPlan&)> onPlan;    // once the run knows how it runs, before it does
  // Each stage of each channel as it finishes (streamed: all at the end of the one pass).
  std::function<void(std::size_t channel, std::size_t stage, const struct StageReport&)> onStageDone;

  Progress phase(const std::string& name) const {
    return progressFor ? progressFor(name) : Progress{{}, cancel};
  }
};

// One stage's run on one channel.
struct StageReport {
  std::string kind;         // "median"
  std::string description;  // "median W=5, zero"
  bool correlation = false; // a plain correlation (mean, Gaussian, taps): its option says all the description would
  std::string engine;       // the engine that ran it
  std::string why;          // why that engine
  std::vector<std::string> fellBack;  // "gpu-tuned: out of memory": engines auto passed over first
  bool usesGpu = false;
  bool normWiseBound = false;  // the engine's error is bounded only relative to the signal's peak
  FilterPass pass;             // phases summed over the blocks when streamed
  bool verified = false;
  Verification verification;
  double verifyMs = 0.0;
  std::size_t window = 0;      // the stage's filter window (0: sections, or not a filter)
  bool recursive = false;      // sections: verified in stretches against serial passes
  std::uint64_t outputs = 0;
  std::string note;            // binding's note (taps dropped), or empty
};

/// What the stages did on one channel.
struct ChannelReport {
  std::vector<StageReport> stages;  // the stages that ran, in order (a failed check ends the list)
};

/// What a run did: how it planned, each channel's stages, and its output.
struct PipelineReport {
  StreamingPlan plan;  // in memory or block by block, and why
  std::vector<ChannelReport> channels;
  std::uint64_t samples = 0;   // per channel
  std::size_t blocks = 0;      // streamed: blocks of the last stage
  std::optional<double> sampleRate;
  std::vector<SampleVector> output;  // MemorySink without `into`: each channel's result
  bool written = false;        // FileSink: committed
  std::string wrote;           // an analysis stage's output: what it holds ("1953 frames x 513 frequencies ...")
  AnalysisResult analysis;     // MemorySink after an analysis stage: its matrix or table
  std::vector<std::string> channelNames;  // a file source's, where it names its channels (channelLabel), else empty

  // Every stage of every channel verified and passed (or verification was off).
  bool passed() const;
  // The first stage that failed verification, for messages; nullptr when none did.
  const StageReport* firstFailure() const;
};

// Where a caller makes the array a run in memory writes its result into (MemorySink::into):
// options.pinnedMemory when the last stage is named for an engine that copies to a GPU (its copies
// back then write it directly), else resultMemory().
std::pmr::memory_resource* resultMemoryFor(const Pipeline& pipeline, const BackendList& engines,
                                           const PipelineOptions& options);

// A file source's channels in memory, read as a run reads them: the one reader of every command
// that takes a signal file (filter, compare, spectrum, stats on a chain). Throws InputError, Cancelled.
struct SourceChannels {
  std::vector<SampleVector> channels;
  std::optional<double> sampleRate;
  std::vector<std::string> names;  // as Channels::names (several channels only)
};
/// Reads a file source's channels in memory, as a run reads them.
SourceChannels readPipelineSource(const FileSource& source, const Progress& progress = {});

// Runs `pipeline` on `source` into `sink`. Binds every stage to the signal first (its length,
// rate and options.accumulator) and refuses, before any filtering or output, a stage that cannot
// run on it (StageError naming the stage). Throws StageError for an engine that does not exist or
// cannot run its stage (named), InputError for the files, Cancelled, NotEnoughMemory, and
// std::runtime_error for an engine that failed where nothing could take its place. A failed
// verification is no exception: the report says it (passed()) and no file is written.
PipelineReport runPipeline(const Pipeline& pipeline, const PipelineSource& source, const PipelineSink& sink,
                           const BackendList& engines, const PipelineOptions& options = {},
                           const PipelineObserver& observer = {});

}  // namespace siglab
