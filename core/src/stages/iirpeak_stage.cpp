// iirpeak: peak filter keeping one frequency, -3 dB bandwidth w0/Q (scipy.signal.iirpeak; lfilter, or filtfilt with zero-phase); --iirpeak W0,Q [zero-phase].
#include "given_filters.hpp"

namespace siglab::stages {
namespace {

class IirpeakKind final : public NotchPeakKind {
 public:
  std::string_view name() const override { return "iirpeak"; }
  std::string_view summary() const override { return "peak filter keeping one frequency, -3 dB bandwidth w0/Q (scipy.signal.iirpeak; lfilter, or filtfilt with zero-phase)"; }

 protected:
  bool peak() const override { return true; }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& iirpeakKind() {
  static const stages::IirpeakKind kind;
  return kind;
}
}  // namespace siglab
