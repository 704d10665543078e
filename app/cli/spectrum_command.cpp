#include <cmath>
#include <iostream>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "chain_output.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "notes.hpp"
#include "option_checks.hpp"
#include "path_checks.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/device_list.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/io/table_file.hpp"
#include "siglab/spectrum.hpp"
#include "spectrum_engine.hpp"

namespace siglab::cli {
namespace {

struct SpectrumCommandOptions {
  std::string input;
  ReadOptions read;
  std::string output;
  WelchOptions welch;
  std::string window = "hann";
  std::string scaling = "density";
  std::string detrend = "constant";
  std::string engine = "auto";
  std::string devices;  // --devices as written
  std::vector<int> deviceList;
  PipelineChoice pipeline;  // --chain, --pipeline: the spectrum of the chain's output
};

constexpr const char* kSpectrumPrefix = "siglab-cli spectrum: ";

// The index of the first sample that is not finite, or the size.
std::size_t firstNonFinite(std::span<const double> samples) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!std::isfinite(samples[i])) return i;
  }
  return samples.size();
}

int runSpectrum(SpectrumCommandOptions& o, const CLI::App& command) {
  if (const int code = checkPathsBeforeWork("spectrum", {{"-o", o.output}}, {{"INPUT", o.input}}); code != kExitOk) {
    return code;
  }
  if (!o.devices.empty()) {
    try {
      const std::vector<DeviceInfo> probed = probeDevices();
      o.deviceList = parseDeviceList(o.devices, probed.front().index < 0 ? 0 : static_cast<int>(probed.size()));
    } catch (const std::invalid_argument& e) {
      std::cerr << kSpectrumPrefix << "--devices " << e.what() << "\n";
      return kExitUsage;
    }
  }
  o.welch.window = *parseSpectrumWindow(o.window);  // the option's check allows only known names
  o.welch.scaling = o.scaling == "spectrum" ? SpectrumScaling::spectrum : SpectrumScaling::density;
  o.welch.detrend = o.detrend == "none" ? Detrend::none : Detrend::constant;
  if (o.engine == "gpu") {
    const std::string reason = gpuSpectrumUnavailableReason();
    if (!reason.empty()) {
      std::cerr << kSpectrumPrefix << "--engine gpu: no GPU can run it here (" << reason << "); allowed here: auto, cpu\n";
      return kExitUsage;
    }
  }
  // The GPU copies page-locked samples at full link speed: load them there when it may run.
  if (o.engine != "cpu" && gpuSpectrumUnavailableReason().empty()) o.read.hostMemory = pinnedHostMemory();
  try {
    if (const std::size_t channels = channelCount(o.input, o.read); channels > 1) {
      std::cerr << kSpectrumPrefix << o.input << " has " << channels
                << " channels; the spectrum is of one: pick it with --channel K (1 to " << channels << ")\n";
      return kExitUsage;
    }
  } catch (const InputError& e) {
    std::cerr << kSpectrumPrefix << e.what() << "\n";
    return kExitInputOutput;
  }
  SourceChannels read;
  if (const int code = signalOrChainOutput(command, o.pipeline, "spectrum", FileSource{o.input, o.read}, {}, read);
      code != kExitOk) {
    return code;
  }
  const Signal signal{std::move(read.channels.front()), read.sampleRate};
  const std::size_t bad = firstNonFinite(signal.samples);
  if (bad < signal.samples.size()) {
    std::cerr << kSpectrumPrefix << o.input << ": sample " << bad + 1 << " is " << signal.samples[bad]
              << "; the spectrum needs finite samples\n";
    return kExitInputOutput;
  }
  o.welch.sampleRate = signal.sampleRate;
  std::string note;
  Spectrum spectrum;
  try {
    validate(o.welch, signal.samples.size());
    spectrum = welchOnEngine(signal.samples, o.welch, o.engine, o.deviceList, note);
  } catch (const SpectrumOptionError& e) {
    std::cerr << kSpectrumPrefix << e.option() << ": " << e.what() << "\n";
    return kExitUsage;
  }
  try {
    const std::string unit = signal.sampleRate ? "Hz" : "cycles per sample";
    writeTable(o.output, Table{{"frequency", "power"}, {std::move(spectrum.frequency), std::move(spectrum.power)}});
    notesBeside(false) << "wrote " << o.output << ": " << frequencyCount(o.welch) << " frequencies (" << unit << "), "
              << segmentCount(o.welch, signal.samples.size()) << " segments of " << o.welch.segment << ", " << note
              << "\n";
  } catch (const InputError& e) {
    std::cerr << kSpectrumPrefix << e.what() << "\n";
    return kExitInputOutput;
  }
  return kExitOk;
}

}  // namespace

void addSpectrumCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<SpectrumCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "spectrum", "Welch's power spectral density (as scipy.signal.welch), one-sided, as CSV or .npy");
  cmd->add_option("input", o->input, "Signal file: text (one number a line, or --column of a CSV/TSV), .npy, audio (WAV, FLAC, Ogg, AIFF, CAF, W64, AU: by content) or --raw")
      ->required();
  addInputOptions(*cmd, o->read);
  cmd->add_option("-o,--output", o->output, "Result: .npy (shape (F, 2)) or CSV with the header frequency,power")
      ->required();
  cmd->add_option("--segment", o->welch.segment, "Samples a segment (and FFT length), 1 to the signal's length")
      ->capture_default_str();
  cmd->add_option_function<std::size_t>(
      "--overlap", [o](std::size_t samples) { o->welch.overlap = samples; },
      "Samples neighbouring segments share, 0 to segment - 1 (default: segment / 2)");
  cmd->add_option("--window", o->window, "Window: hann, hamming, blackman or boxcar (periodic, as scipy's get_window)")
      ->capture_default_str()->check(oneOf({"hann", "hamming", "blackman", "boxcar"}));
  cmd->add_option("--scaling", o->scaling, "density (power per Hz) or spectrum (power per bin)")
      ->capture_default_str()->check(oneOf({"density", "spectrum"}));
  cmd->add_option("--detrend", o->detrend, "constant (remove each segment's mean) or none")
      ->capture_default_str()->check(oneOf({"constant", "none"}));
  cmd->add_option("--engine", o->engine, "auto (the GPU where there is one), cpu (FFTW) or gpu (cuFFT)")
      ->capture_default_str()->check(oneOf({"auto", "cpu", "gpu"}));
  cmd->add_option("--devices", o->devices,
                  "GPUs the GPU spectrum runs on: all, or numbers such as 0,1 (whole ranges of segments each, the "
                  "same bits; 0,0 runs two parts on GPU 0); default 0");
  addChainOptions(*cmd, o->pipeline);
  cmd->callback([o, cmd, &exitCode] { exitCode = runSpectrum(*o, *cmd); });
}

}  // namespace siglab::cli
