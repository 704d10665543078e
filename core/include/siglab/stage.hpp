#pragma once
// Operations as self-describing stages. A StageKind (one class per operation: mean, median,
// butter, detrend, ...) declares its name, its parameters and how its one-stage option reads; a
// Stage is a kind with its parameter values (what a chain, a pipeline file, a session or Python
// holds); bound to a signal it becomes a BoundStage, which knows its history, its engines,
// how it runs, verifies and responds. Front-ends read all of it from the registry
// (stage_registry.hpp) and name no kind, parameter or engine by hand.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "siglab/filter_backend.hpp"
#include "siglab/frequency_response.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/io/sample_type.hpp"
#include "siglab/job.hpp"
#include "siglab/progress.hpp"
#include "siglab/stage_engine_rule.hpp"

namespace siglab {

/// How a parameter's value is written and what it may hold.
enum class ParameterType : std::uint8_t {
  Whole,   // a whole number in [min, max] (windows, orders)
  Number,  // a finite real in [min, max]
  Flag,    // on when named (zero-phase)
  Choice,  // one of `choices` (mode, band type)
  Text,    // free text: a file's path (taps)
};

// One parameter of a stage kind, as forms, help, files and keyword arguments show it.
struct ParameterInfo {
  std::string name;  // as written in a chain, a pipeline file and Python: "window", "zero-phase"
  ParameterType type = ParameterType::Whole;
  std::string help;  // one line
  std::string unit;  // "samples", "Hz (x Nyquist without a rate)", or empty
  double min = 0.0;  // Whole, Number: the allowed range
  double max = 0.0;
  std::vector<std::string> choices;         // Choice
  std::optional<std::string> defaultValue;  // as text; nullopt: required (or, for a Flag, off)
  bool inValue = false;  // read from the stage's value (`butter 4,0.2`); else written after it (`mode reflect`)
  bool optional = false;  // SciPy's None: with no default, left out of the values unless given (find-peaks height)
};

/// One parameter's value: a flag, a whole number, a real or text.
using ParameterValue = std::variant<bool, std::int64_t, double, std::string>;
/// A stage's parameter values by parameter name.
using StageParameters = std::map<std::string, ParameterValue, std::less<>>;

// A stage or a chain that cannot be made as asked, said in words that name the parameter or word:
// a usage error, exit 2 in the CLI. A kind's own messages say what was wrong ("W must be a positive
// odd number ..."); a chain, a pipeline file or a run puts stageLabel in front, where the stage's
// number is known ("stage 2 (median): W must be ...").
class StageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// What a stage is bound to: the signal's length (unknown for text streamed before its end) and
// rate where they are known, and what a float32 run sums in (a run option, part of the filter).
struct StageContext {
  std::optional<std::uint64_t> samples;
  std::optional<double> sampleRate;  // Hz
  Accumulator accumulator = Accumulator::SampleType;
  // Bound for its frequency response only (nothing runs): a kind may then skip what only a run
  // needs (a mean's W taps, which meanResponse never holds).
  bool responseOnly = false;
};

// How a bound stage runs one signal (one channel) once.
struct StageRunOptions {
  std::string engine = "auto";  // "auto" or one engine's name
  SampleType sampleType = SampleType::f64;
  RunOptions run;
  bool verify = true;
  std::size_t verifyRandom = kDefaultVerifyRandom;
  bool verifyAll = false;
  std::string pathForMessages;  // the input's name, for samples float32 cannot hold
  FilterBackend* streamEngine = nullptr;  // streamFrom: the GPU engine its blocks run on (streamedGpuWork), else the CPU
};

// What a stage bound to one signal can do. Made by StageKind::bind; one per channel run.
class BoundStage {
 public:
  virtual ~BoundStage() = default;
  // "median W=5, zero", "butterworth order 4 bandpass 0.1-0.3 x Nyquist, zero phase"
  virtual std::string describe() const = 0;
  // A note for people from binding (taps that can never meet a sample dropped), or empty.
  virtual std::string note() const { return {}; }
  // Input samples an output reads before and after its own index (GNU Radio's history); nullopt
  // when an output may depend on the whole signal (a recursive filter, a detrend): such a stage
  // does not stream block by block.
  virtual std::optional<std::size_t> historyBefore() const = 0;
  virtual std::optional<std::size_t> historyAfter() const = 0;
  // Whether a stage with no finite history still streams in one pass, in memory that does not grow
  // with the signal: sections carry their state from block to block (zero phase through a spool
  // file). The streamed run then runs it as its own stream, serially (sections_stream.hpp).
  virtual bool streamsWithoutHistory() const { return false; }
  // The rate change {up, down}: up outputs for every down inputs, the output's sample rate the
  // input's times up / down. {1, 1} where the rate does not change.
  virtual std::pair<std::size_t, std::size_t> rateChange() const { return {1, 1}; }
  // The outputs for `inputs` samples (a rate change's own count: resample_poly's ceil(n up / down)).
  virtual std::uint64_t outputSamples(std::uint64_t inputs) const { return inputs; }
  // Whether the stage streams as a stream of its own (streamFrom): a rate change, block by block
  // with its history carried, the same bits as applyInto's serial reference. streamFrom reads
  // `upstream` (which outlives the stream); the stream looks at `progress`'s cancel. Its outputs
  // are the serial reference itself, so a streamed run has nothing separate to verify.
  // (streamFrom is nullptr where streamsItself is false.)
  virtual bool streamsItself() const { return false; }
  // Whether its stream reads its whole input before its first output (zero phase, spooled): the
  // channels of one stream are then read one by one, so no channel queues a whole signal.
  virtual bool readsWholeInputFirst() const { return false; }
  // Empty where the streamed run gives the in-memory bits; else what it promises instead (an
  // envelope's overlapped blocks): auto then streams only a signal that does not fit in memory.
  virtual std::string streamedBound() const { return {}; }
  // Whether its stream under auto runs cpu-parallel's block scan (sos_segment_scan.hpp: the bits of
  // the in-memory run, which auto runs on it) rather than cpu-serial's recursion.
  virtual bool streamsBlockScan() const { return false; }
  // The work a GPU engine named for the stage computes in its own stream (the envelope's overlapped
  // blocks), or nullopt: the stream runs on the CPU's serial reference only.
  virtual std::optional<GpuStageWork> streamedGpuWork() const { return std::nullopt; }
  virtual std::unique_ptr<SampleStream> streamFrom(SampleStream& /*upstream*/, const StageRunOptions& /*options*/,
                                                   const Progress& /*progress*/) const {
    return nullptr;
  }
  // The filter this stage runs where it is one (the kinds today's engines compute), else nullptr.
  virtual const FilterSpec* filterSpec() const { return nullptr; }
  // The engines this stage can run on, by name, in the order a comparison lists them.
  virtual std::vector<std::string> engineNames(const BackendList& engines) const = 0;
  // Runs `in` into `out` (outputSamples(in.size()) samples, not overlapping in; every sample written) with the engine
  // `options.engine` names, or auto's first that runs here (one after another where one fails
  // here, as applyJob does), verified unless options.verify is false; result.output stays empty.
  // Throws StageError (an engine that does not exist or cannot run it, named), InputError,
  // Cancelled, std::runtime_error for a failed run.
  virtual AppliedJob applyInto(const BackendList& engines, std::span<const double> in, std::span<double> out,
                               const StageRunOptions& options, const Progress& progress) const = 0;
  // The same into a new output (result.output).
  AppliedJob apply(const BackendList& engines, std::span<const double> in, const StageRunOptions& options,
                   const Progress& progress = {}) const;
  // The frequency response where the stage is linear and time-invariant, else nullopt.
  virtual std::optional<FrequencyResponse> response(std::size_t /*points*/) const { return std::nullopt; }
};

// One operation. Stateless: one object of each kind lives in the registry.
class StageKind {
 public:
  virtual ~StageKind() = default;
  virtual std::string_view name() const = 0;         // "median": the chain's word, the file's "kind"
  virtual std::string_view optionName() const { return name(); }  // its one-stage option: --window for mean
  virtual std::string_view summary() const = 0;      // one line: what it computes, as SciPy names it
  virtual std::string_view valueSyntax() const = 0;  // "W", "ORDER,CUTOFF[,CUTOFF2][,TYPE]"
  virtual std::string_view exampleValue() const = 0;  // a value parseValue takes: "4,0.1,0.3" (help, forms, tests)
  virtual std::vector<ParameterInfo> parameters() const = 0;
  // The parameters the one-stage option's value gives ("4,0.1,0.3,bandpass"). Throws StageError
  // naming the part that did not read, in the CLI's words ("ORDER must be a whole number from 1
  // to 32, got \"0\""); a chain or the CLI names the stage or option in front.
  virtual StageParameters parseValue(std::string_view value) const = 0;
  // The value that parseValue reads back to these parameters' inValue ones.
  virtual std::string formatValue(const StageParameters& values) const = 0;
  // Checks `values` (complete with defaults: see completeParameters) on their own, before any
  // signal is read, or throws StageError naming the parameter.
  virtual void check(const StageParameters& values) const = 0;
  // The stage for a signal of `context`. Throws StageError saying why it cannot run on it (too short
  // for its window, a cutoff past Nyquist without a rate), NotEnoughMemory, InputError for a file it
  // reads (taps). A chain names the stage: see bindStage (pipeline.hpp).
  virtual std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const = 0;
  // An analysis stage (analysis_stage.hpp): it writes a matrix or a table, not a signal, so it ends a chain.
  virtual bool endsChain() const { return false; }
};

// A kind with its parameters: one step of a chain.
struct Stage {
  const StageKind* kind = nullptr;
  StageParameters values;  // complete: every parameter with a default has its value
};

// `values` with every missing parameter's default; throws StageError for an unknown parameter, a
// value of the wrong type or out of its range, or a required one missing (each named).
StageParameters completeParameters(const StageKind& kind, StageParameters values);

// A value as text, as a chain writes it: true -> "" (a flag is its name), 5 -> "5", 0.1 -> "0.1"
// (the shortest text that reads back to the same double).
std::string parameterText(const ParameterValue& value);

// `text` read as `info`'s type ("5", "0.1", "reflect"; a Flag: "", "on" or "off"), range checked
// by completeParameters. Throws StageError naming the parameter and the text.
ParameterValue parameterFromText(const ParameterInfo& info, std::string_view text);

// "stage 2 (median)": how messages name the stage `number` (from 1) of a chain.
std::string stageLabel(std::size_t number, const StageKind& kind);

}  // namespace siglab
