#include "siglab/filter_backend.hpp"

namespace siglab {

std::string_view toString(ErrorBound bound) {
  switch (bound) {
    case ErrorBound::Exact: return "exact";
    case ErrorBound::ComponentWise: return "component-wise";
    case ErrorBound::NormWise: return "norm-wise";
  }
  return "norm-wise";
}

std::string whyNotSampleType(SampleType type) {
  if (type == SampleType::f64 || type == SampleType::f32) return {};
  return "engines run in f64 or f32 samples, not " + std::string(sampleTypeName(type));
}

}  // namespace siglab
