// siglab.Pipeline's native part: the registry's kinds, pipelines read from chains and JSON, and
// core's runPipeline on arrays and files. Python's thread waits without the GIL (outside_gil.hpp).
#include "pipeline_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "engine_lists.hpp"
#include "outside_gil.hpp"
#include "siglab/analysis_stage.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/job.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/large_page_buffer.hpp"
#include "siglab/pipeline_reach.hpp"
#include "siglab/pipeline_output.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/recycling_resource.hpp"
#include "siglab/stage_registry.hpp"
#include "siglab/work_progress.hpp"

namespace py = pybind11;

namespace siglab::python {
namespace {

const char* typeName(ParameterType type) {
  switch (type) {
    case ParameterType::Whole: return "whole";
    case ParameterType::Number: return "number";
    case ParameterType::Flag: return "flag";
    case ParameterType::Choice: return "choice";
    case ParameterType::Text: return "text";
  }
  return "text";
}

py::object defaultOf(const ParameterInfo& info) {
  if (!info.defaultValue) return info.type == ParameterType::Flag ? py::object(py::bool_(false)) : py::object(py::none());
  const ParameterValue value = parameterFromText(info, *info.defaultValue);
  return std::visit([](const auto& v) { return py::object(py::cast(v)); }, value);
}

py::list stageKindList() {
  py::list kinds;
  for (const StageKind* kind : stageKinds()) {
    py::list parameters;
    for (const ParameterInfo& info : kind->parameters()) {
      py::dict p;
      p["name"] = info.name;
      p["type"] = typeName(info.type);
      p["help"] = info.help;
      p["unit"] = info.unit;
      p["min"] = info.min;
      p["max"] = info.max;
      p["choices"] = info.choices;
      p["default"] = defaultOf(info);
      p["required"] = !info.defaultValue && !info.optional && info.type != ParameterType::Flag;
      p["in_value"] = info.inValue;
      parameters.append(p);
    }
    py::dict k;
    k["name"] = std::string(kind->name());
    k["option"] = std::string(kind->optionName());
    k["summary"] = std::string(kind->summary());
    k["value_syntax"] = std::string(kind->valueSyntax());
    k["example"] = std::string(kind->exampleValue());
    k["parameters"] = parameters;
    kinds.append(k);
  }
  return kinds;
}

// A block of a memory resource that NumPy's array owns: given back when the array goes.
struct ResultBlock {
  std::pmr::memory_resource* memory;
  void* data;
  std::size_t bytes;
};
constexpr std::size_t kResultAlignment = 64;

// A new result of n values, as NumPy's empty() (not zeroed), from one large page up in `memory`.
template <class T>
py::array_t<T> newResult(std::vector<py::ssize_t> shape, std::size_t n, std::pmr::memory_resource* memory) {
  if (n * sizeof(T) < kLargePageBytes) return py::array_t<T>(shape);
  const std::size_t bytes = n * sizeof(T);
  auto owner = std::make_unique<ResultBlock>(ResultBlock{memory, memory->allocate(bytes, kResultAlignment), bytes});
  py::capsule free(owner.get(), [](void* p) {
    const std::unique_ptr<ResultBlock> block(static_cast<ResultBlock*>(p));
    block->memory->deallocate(block->data, block->bytes, kResultAlignment);
  });
  auto* data = static_cast<T*>(owner.release()->data);
  return py::array_t<T>(shape, data, free);
}

// The result's array: `into` (NumPy's out=) after checking it is one the result can be written
// into, else a new one (newResult: not zeroed). shape: (n,) for one channel given as 1-D, else
// (n, C) with the channels on the last axis.
template <class T>
py::array_t<T> resultTarget(const std::vector<py::ssize_t>& shape, std::size_t values, const std::optional<py::array>& into,
                             std::pmr::memory_resource* memory = &recycledLargePageResource()) {
  if (!into) return newResult<T>(shape, values, memory);
  const py::array& out = *into;
  const bool fits = out.dtype().is(py::dtype::of<T>()) && out.ndim() == static_cast<py::ssize_t>(shape.size()) &&
                    std::equal(shape.begin(), shape.end(), out.shape()) &&
                    (out.flags() & py::array::c_style) != 0 && out.writeable();
  if (!fits) throw std::invalid_argument("out must be a writeable, contiguous array of the result's dtype and shape");
  return py::reinterpret_borrow<py::array_t<T>>(out);
}

std::vector<py::ssize_t> resultShape(std::size_t n, std::size_t channels, bool oneD) {
  std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(n)};
  if (!oneD) shape.push_back(static_cast<py::ssize_t>(channels));
  return shape;
}

// The channels' results core made (a float32 run, or several channels: interleaved) copied into
// the result's array.
template <class T>
py::array copiedResult(std::vector<SampleVector>& channels, std::size_t n, bool oneD, const std::optional<py::array>& into) {
  const std::size_t count = channels.size();
  py::array_t<T> out = resultTarget<T>(resultShape(n, count, oneD), n * count, into);
  T* data = out.mutable_data();
  {
    py::gil_scoped_release release;
    for (std::size_t c = 0; c < count; ++c) {
      const SampleVector& values = channels[c];
      if (count == 1) {
        std::transform(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(n), data,
                       [](double v) { return static_cast<T>(v); });
      } else {
        for (std::size_t i = 0; i < n; ++i) data[i * count + c] = static_cast<T>(values[i]);
      }
      SampleVector().swap(channels[c]);  // given back as soon as it is copied
    }
  }
  return out;
}

Streaming streamingOf(const std::string& stream) {
  if (stream == "auto") return Streaming::automatic;
  if (stream == "always") return Streaming::always;
  if (stream == "never") return Streaming::never;
  throw std::invalid_argument("stream must be auto, always or never, not \"" + stream + "\"");
}

SampleType sampleTypeOf(const std::string& name) {
  if (name == "f64") return SampleType::f64;
  if (name == "f32") return SampleType::f32;
  throw std::invalid_argument("dtype must be float64 or float32, not " + name);
}

PipelineOptions optionsOf(const std::vector<std::string>& engines, const std::string& sampleType, bool verify) {
  PipelineOptions options;
  options.engines = engines;
  options.sampleType = sampleTypeOf(sampleType);
  options.verify = verify;
  return options;
}

py::dict stageDict(const StageReport& s) {
  py::dict d;
  d["kind"] = s.kind;
  d["description"] = s.description;
  d["engine"] = s.engine;
  d["why"] = s.why;
  d["fell_back"] = s.fellBack;
  d["uses_gpu"] = s.usesGpu;
  d["kernel_ms"] = s.pass.phases.kernelMs;
  d["transfer_ms"] = s.pass.phases.transferMs;
  d["total_ms"] = s.pass.phases.totalMs;
  d["verified"] = s.verified;
  d["checked"] = s.verification.checked;
  d["mismatches"] = s.verification.mismatches;
  d["max_abs_diff"] = s.verification.maxAbsDiff;
  d["tolerance"] = s.verification.tolerance;
  d["passed"] = !s.verified || s.verification.passed();
  d["verify_ms"] = s.verifyMs;
  d["outputs"] = s.outputs;
  d["note"] = s.note;
  return d;
}

// What failed verification, in words: "stage 2 (median) on channel 1: cpu-parallel's result ...".
std::string failureText(const Pipeline& pipeline, const PipelineReport& report) {
  for (std::size_t c = 0; c < report.channels.size(); ++c) {
    const std::vector<StageReport>& stages = report.channels[c].stages;
    for (std::size_t k = 0; k < stages.size(); ++k) {
      const StageReport& s = stages[k];
      if (!s.verified || s.verification.passed()) continue;
      std::string where = pipeline.stages.size() > 1 ? stageLabel(k + 1, *pipeline.stages[k].kind) : s.kind;
      if (report.channels.size() > 1) where += " on channel " + std::to_string(c + 1);
      return where + ": " + s.engine + "'s result failed verification (" + std::to_string(s.verification.mismatches) +
             " of " + std::to_string(s.verification.checked) + " checked outputs differ, max |diff| " +
             std::to_string(s.verification.maxAbsDiff) + ")";
    }
  }
  return {};
}

py::dict reportDict(const Pipeline& pipeline, const PipelineReport& report) {
  py::dict d;
  d["stream"] = report.plan.stream;
  d["why"] = report.plan.why;
  d["samples"] = report.samples;
  d["blocks"] = report.blocks;
  d["rate"] = report.sampleRate;
  d["written"] = report.written;
  d["passed"] = report.passed();
  d["failure"] = failureText(pipeline, report);
  py::list channels;
  for (const ChannelReport& channel : report.channels) {
    py::list stages;
    for (const StageReport& s : channel.stages) stages.append(stageDict(s));
    channels.append(stages);
  }
  d["channels"] = channels;
  return d;
}

// Runs `pipeline` on planar float64 channels in memory. Returns (result, report): the result in
// `dtype` ("f64"/"f32"), 1-D when `oneD`, else N x C, in `into` where given; None when a check
// failed (the report says: `into` may then hold part of a result).
py::tuple runOnArrays(const Pipeline& pipeline, const std::vector<py::array_t<double, py::array::c_style>>& channels,
                      std::optional<double> rate, const std::vector<std::string>& engineNames,
                      const std::string& sampleType, bool verify, const py::object& progress, const py::object& devices,
                      std::optional<py::array> into, bool oneD) {
  PipelineOptions options = optionsOf(engineNames, sampleType, verify);
  // A GPU engine's result (the last stage named for one) in memory its copies back write directly:
  // a dropped result's pages pinned for the next (pinnedResultMemory), else recycled 2 MiB pages.
  options.pinnedMemory = pinnedResultMemory();
  BackendList& list = enginesOn(deviceListOf(devices));
  ChannelSource source;
  for (const auto& channel : channels) source.channels.emplace_back(channel.data(), static_cast<std::size_t>(channel.size()));
  source.sampleRate = rate;
  source.name = "the array";
  const std::size_t inputs = source.channels.empty() ? 0 : source.channels.front().size();
  // The result's length: the input's, or what the pipeline's rate changes make of it.
  const auto n = static_cast<std::size_t>(pipelineOutput(pipeline, StageContext{inputs, rate}).samples);
  // One float64 channel: the last stage writes straight into the result's array (out= or a new
  // one); otherwise core's results are narrowed or interleaved into it afterwards.
  const bool direct = options.sampleType == SampleType::f64 && source.channels.size() == 1;
  MemorySink sink;
  std::optional<py::array_t<double>> target;
  if (direct) {
    target = resultTarget<double>(resultShape(n, 1, oneD), n, into, resultMemoryFor(pipeline, list, options));
    sink.into.emplace_back(target->mutable_data(), n);
  }
  PipelineReport report;
  runOutsideGil([&](const PipelineObserver& observer) {
    report = runPipeline(pipeline, source, sink, list, options, observer);
  }, progress);
  py::dict described = reportDict(pipeline, report);
  if (!report.passed()) return py::make_tuple(py::none(), described);
  if (target) return py::make_tuple(*target, described);
  py::array result = options.sampleType == SampleType::f32 ? copiedResult<float>(report.output, n, oneD, into)
                                                           : copiedResult<double>(report.output, n, oneD, into);
  return py::make_tuple(result, described);
}

// The reader's options siglab.Pipeline.run_file's keywords give (`read`).
FileSource fileSourceOf(const std::string& input, const py::dict& read) {
  FileSource source{input, {}};
  ReadOptions& r = source.read;
  r.column = read["column"].cast<std::size_t>();
  r.skipHeader = read["skip_header"].cast<bool>();
  if (!read["raw"].is_none()) {
    const std::string raw = read["raw"].cast<std::string>();
    r.rawType = parseSampleTypeName(raw);
    if (!r.rawType) throw std::invalid_argument("raw must be a sample type such as f64, f32, i16, not \"" + raw + "\"");
  }
  r.rawOffset = read["offset"].cast<std::uint64_t>();
  r.channel = read["channel"].cast<std::size_t>();
  r.oneChannel = true;  // files run one channel from Python so far (channel=), as before channels came
  r.allowNonFinite = read["allow_nonfinite"].cast<bool>();
  if (!read["rate"].is_none()) r.sampleRate = read["rate"].cast<double>();
  return source;
}

// The samples of a regular file's channel, where its format says so before it is read (not text,
// not a pipe: that would read it); None otherwise.
std::optional<std::uint64_t> inputSamples(const std::string& input, const py::dict& read) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(input, error)) return std::nullopt;
  const FileSource source = fileSourceOf(input, read);
  try {
    return openSampleStream(source.path, source.read)->knownSize();
  } catch (const std::exception&) {
    return std::nullopt;  // the run itself says what is wrong with the file
  }
}

// The observer a file's run reports to: one phase, "run", whose fraction is the whole run's. In
// memory reading, filtering and writing take a third each; streamed, one pass does all three.
PipelineObserver wholeRunObserver(const PipelineObserver& observer, const std::shared_ptr<bool>& streamed) {
  PipelineObserver whole = observer;
  whole.onPlan = [streamed, told = observer.onPlan](const StreamingPlan& plan) {
    *streamed = plan.stream;
    if (told) told(plan);
  };
  if (observer.progressFor) {
    whole.progressFor = [streamed, run = observer.progressFor](const std::string& phase) {
      const Progress all = run("run");
      if (*streamed) return all;
      const int third = phase.rfind("reading", 0) == 0 ? 0 : phase.rfind("writing", 0) == 0 ? 2 : 1;
      return progressPart(all, third / 3.0, (third + 1) / 3.0);
    };
  }
  return whole;
}

py::dict runOnFile(const Pipeline& pipeline, const std::string& input, const std::string& output, const py::dict& read,
                   const std::string& stream, std::optional<std::size_t> blockSamples,
                   const std::vector<std::string>& engineNames, const std::string& sampleType, bool verify,
                   const py::object& progress, const py::object& devices) {
  PipelineOptions options = optionsOf(engineNames, sampleType, verify);
  options.streaming = streamingOf(stream);
  options.pinnedMemory = pinnedHostMemory();  // as siglab-cli filter offers it, for a GPU first stage
  if (blockSamples) {
    if (*blockSamples == 0) throw std::invalid_argument("block_samples must be at least 1");
    options.blockSamples = *blockSamples;
  }
  BackendList& list = enginesOn(deviceListOf(devices));
  const FileSource source = fileSourceOf(input, read);
  const NamedPath outputs[] = {{"output", output}};
  const NamedPath inputs[] = {{"input", input}};
  checkOutputsBeforeWork(outputs, inputs);
  PipelineReport report;
  runOutsideGil([&](const PipelineObserver& observer) {
    report = runPipeline(pipeline, source, FileSink{output, {}}, list, options,
                         wholeRunObserver(observer, std::make_shared<bool>(false)));
  }, progress);
  return reportDict(pipeline, report);
}

// `values` (a SampleVector or a std::vector<double>) moved into a NumPy array of `shape` that owns
// them: no copy, freed with the array.
template <class Values>
py::array_t<double> arrayOwning(Values&& values, std::vector<py::ssize_t> shape) {
  auto owner = std::make_unique<Values>(std::move(values));
  const py::capsule free(owner.get(), [](void* p) { delete static_cast<Values*>(p); });
  const double* data = owner.release()->data();
  return py::array_t<double>(std::move(shape), data, free);
}

// An analysis's result as NumPy holds it: a matrix as an array of its shape over core's own values
// (moved, not copied; a complex one with a last axis of (re, im), viewed as complex128 in Python), a table as {column: values}.
py::object analysisArray(AnalysisResult&& result) {
  if (!result.columns.empty()) {
    py::dict table;
    for (std::size_t k = 0; k < result.columns.size(); ++k) {
      const auto rows = static_cast<py::ssize_t>(result.columnValues[k].size());
      table[py::str(result.columns[k])] = arrayOwning(std::move(result.columnValues[k]), {rows});
    }
    return table;
  }
  return arrayOwning(std::move(result.values), std::vector<py::ssize_t>(result.shape.begin(), result.shape.end()));
}

// Runs `pipeline`, ending in an analysis (spectrogram, stft, find-peaks, hilbert), on planar
// float64 channels in memory (used where they lie). Returns (matrix or table, report): core's
// memory sink hands the result over, nothing goes through a file; None when a check failed.
py::tuple runAnalysisOnArrays(const Pipeline& pipeline, const std::vector<py::array_t<double, py::array::c_style>>& channels,
                              std::optional<double> rate, const std::vector<std::string>& engineNames, bool verify,
                              const py::object& progress, const py::object& devices, bool complexPairs) {
  PipelineOptions options = optionsOf(engineNames, "f64", verify);
  options.pinnedMemory = pinnedResultMemory();  // a GPU analysis's matrix: its copies back write it directly
  BackendList& list = enginesOn(deviceListOf(devices));
  ChannelSource source;
  for (const auto& channel : channels) source.channels.emplace_back(channel.data(), static_cast<std::size_t>(channel.size()));
  source.sampleRate = rate;
  source.name = "the array";
  PipelineReport report;
  runOutsideGil([&](const PipelineObserver& observer) {
    report = runPipeline(pipeline, source, MemorySink{{}, complexPairs}, list, options, observer);
  }, progress);
  py::dict described = reportDict(pipeline, report);
  if (!report.passed()) return py::make_tuple(py::none(), described);
  return py::make_tuple(analysisArray(std::move(report.analysis)), described);
}

// The axes of the matrix the pipeline's last stage (an analysis) writes for a signal of `samples`
// at `rate`, as core binds it: {"frequencies": ..., "times": ...}; empty for a table.
py::dict analysisAxes(const Pipeline& pipeline, std::uint64_t samples, std::optional<double> rate) {
  if (pipeline.stages.empty()) throw std::invalid_argument("the pipeline has no stage");
  const Pipeline before{{pipeline.stages.begin(), pipeline.stages.end() - 1}};
  const std::uint64_t frames = pipelineOutput(before, StageContext{samples, rate}).samples;
  const std::unique_ptr<BoundStage> bound =
      bindStage(pipeline.stages.back(), pipeline.stages.size(), StageContext{frames, rate});
  const auto* analysis = dynamic_cast<const AnalysisStage*>(bound.get());
  if (!analysis) throw std::invalid_argument(std::string(pipeline.stages.back().kind->name()) + " is no analysis stage");
  py::dict d;
  for (auto& [name, values] : analysis->axes()) {
    // Handed over, not copied: a spectrogram's times at 10M samples are 44,000 values, and a copy's
    // fresh pages were a tenth of a GPU call's time outside its stage.
    const auto count = static_cast<py::ssize_t>(values.size());
    d[py::str(name)] = arrayOwning(std::move(values), {count});
  }
  return d;
}

py::dict reachDict(const Pipeline& pipeline, std::uint64_t samples, std::optional<double> rate) {
  const PipelineReach reach = pipelineReach(pipeline, StageContext{samples, rate, Accumulator::SampleType});
  py::dict d;
  d["before"] = reach.before;
  d["after"] = reach.after;
  d["circular"] = reach.circular;
  d["whole_only"] = reach.wholeOnly;
  d["up"] = reach.up;
  d["down"] = reach.down;
  d["period"] = reach.period;
  d["outputs"] = pipelineOutput(pipeline, StageContext{samples, rate, Accumulator::SampleType}).samples;
  return d;
}

}  // namespace

void bindPipeline(py::module_& m) {
  m.def("stage_kinds", &stageKindList);
  py::class_<Pipeline>(m, "NativePipeline")
      .def_static("from_chain", &parseChain, py::arg("chain"))
      .def_static(
          "from_json",
          [](const std::string& text, const std::string& name) {
            nlohmann::json json;
            try {
              json = nlohmann::json::parse(text);
            } catch (const nlohmann::json::exception&) {
              throw std::invalid_argument(name + ": not valid JSON");
            }
            return pipelineFromJson(json, name);
          },
          py::arg("text"), py::arg("name"))
      .def_static("load", &loadPipeline, py::arg("path"))
      .def("save", [](const Pipeline& p, const std::string& path) { savePipeline(path, p); }, py::arg("path"))
      .def("to_json", [](const Pipeline& p) { return pipelineToJson(p).dump(); })
      .def("chain_text", &chainText)
      .def("reach", &reachDict, py::arg("samples"), py::arg("rate"))
      .def("run", &runOnArrays, py::arg("channels"), py::arg("rate"), py::arg("engines"), py::arg("sample_type"),
           py::arg("verify"), py::arg("progress"), py::arg("devices"), py::arg("out"), py::arg("one_d"))
      .def("run_analysis", &runAnalysisOnArrays, py::arg("channels"), py::arg("rate"), py::arg("engines"),
           py::arg("verify"), py::arg("progress"), py::arg("devices"), py::arg("complex_pairs") = false)
      .def("analysis_axes", &analysisAxes, py::arg("samples"), py::arg("rate"))
      .def_static("input_samples", &inputSamples, py::arg("input"), py::arg("read"))
      .def("run_file", &runOnFile, py::arg("input"), py::arg("output"), py::arg("read"), py::arg("stream"),
           py::arg("block_samples"), py::arg("engines"), py::arg("sample_type"), py::arg("verify"), py::arg("progress"), py::arg("devices"));
}

}  // namespace siglab::python
