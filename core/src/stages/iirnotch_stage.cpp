// iirnotch: notch filter removing one frequency, -3 dB bandwidth w0/Q (scipy.signal.iirnotch; lfilter, or filtfilt with zero-phase); --iirnotch W0,Q [zero-phase].
#include "given_filters.hpp"

namespace siglab::stages {
namespace {

class IirnotchKind final : public NotchPeakKind {
 public:
  std::string_view name() const override { return "iirnotch"; }
  std::string_view summary() const override { return "notch filter removing one frequency, -3 dB bandwidth w0/Q (scipy.signal.iirnotch; lfilter, or filtfilt with zero-phase)"; }

 protected:
  bool peak() const override { return false; }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& iirnotchKind() {
  static const stages::IirnotchKind kind;
  return kind;
}
}  // namespace siglab
