#pragma once
#include <memory>
#include <string>

#include "siglab/io/sample_sink.hpp"

namespace siglab {

// WAV (32-bit float, mono) through libsndfile straight into the atomic temporary file: the same
// bytes as encodeWavFloat. A finite value beyond float32 throws InputError naming its sample (the
// header's sample size is written before the first block; nothing is published).
std::unique_ptr<SampleSink> openWavSink(const std::string& path, double sampleRate, Durability durability);

}  // namespace siglab
