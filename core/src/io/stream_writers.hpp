#pragma once
#include <memory>
#include <string>

#include "siglab/io/sample_sink.hpp"

namespace siglab {

// WAV (mono) through libsndfile straight into the atomic temporary file (or the spool of a pipe):
// the same bytes as encodeWavFloat for the same signal. 32-bit float samples until a finite value
// beyond float32 comes; then the header is rewritten for 64-bit ones and the samples already
// written are widened in place. Where one of those was rounded to float32 (so widening would not
// give it back), that value throws InputError naming both samples; nothing is published.
// With `channels` > 1 the values come interleaved, whole frames at a time. `alwaysWide`: 64-bit
// float samples from the start.
std::unique_ptr<SampleSink> openWavSink(const std::string& path, double sampleRate, Durability durability,
                                        std::size_t channels = 1, bool alwaysWide = false);

}  // namespace siglab
