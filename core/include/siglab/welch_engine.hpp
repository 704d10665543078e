#pragma once
// Which engine computes Welch's spectrum, and why: the one rule that the CLI's spectrum command,
// Python's siglab.signal.welch and the desktop's Spectrum view follow and only present.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace siglab {

enum class WelchEngine { cpu, gpu };

struct WelchEngineChoice {
  WelchEngine engine = WelchEngine::cpu;
  std::vector<int> devices;  // the GPUs it runs on (empty: GPU 0); none for the CPU
  std::string reason;        // why the CPU where a GPU could have been used (auto, or a failed GPU run)
  // What the front-ends show: "gpu (cuFFT)", "gpu (cuFFT) on devices 0,1", "cpu (FFTW)",
  // "cpu (FFTW); <reason>" ("the GPU could not run it: ...", or auto's "auto: 1000 samples < ...").
  std::string note() const;
};

// `requested`: "auto" (the auto rule's Welch row, auto_engine_rule.hpp: the GPU where one can run
// it and the signal has at least kWelchGpuMinSamples samples, else FFTW on every core), "cpu"
// (FFTW) or "gpu" (cuFFT). `gpuUnavailable`: why no GPU can run a spectrum here, empty where one
// can. `samples`: the samples the spectrum reads (the signal, or its range).
// Throws std::invalid_argument for an unknown engine, or "gpu" where no GPU can run it.
WelchEngineChoice chooseWelchEngine(std::string_view requested, const std::vector<int>& devices,
                                    std::string_view gpuUnavailable, std::uint64_t samples);

// What a GPU run that failed (out of memory, a CUDA error: `why`) falls back to.
WelchEngineChoice welchCpuFallback(std::string why);

}  // namespace siglab
