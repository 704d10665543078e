#pragma once
#include <memory>
#include <string>

#include "siglab/io/sample_sink.hpp"

namespace siglab {

// WAV (32-bit float, mono) through libsndfile straight into the atomic temporary file: the same
// bytes as encodeWavFloat.
std::unique_ptr<SampleSink> openWavSink(const std::string& path, double sampleRate, Durability durability);

}  // namespace siglab
