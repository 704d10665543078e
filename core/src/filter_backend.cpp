#include "siglab/filter_backend.hpp"

namespace siglab {

std::string whyNotSampleType(SampleType type) {
  if (type == SampleType::f64 || type == SampleType::f32) return {};
  return "engines run in f64 or f32 samples, not " + std::string(sampleTypeName(type));
}

}  // namespace siglab
