// lfilter: a linear filter b / a from two files, causal (scipy.signal.lfilter; an FIR runs as taps, an IIR as sections); --lfilter B_FILE,A_FILE.
#include "given_filters.hpp"

namespace siglab::stages {
namespace {

class LfilterKind final : public TransferFunctionKind {
 public:
  std::string_view name() const override { return "lfilter"; }
  std::string_view summary() const override { return "a linear filter b / a from two files, causal (scipy.signal.lfilter; an FIR runs as taps, an IIR as sections)"; }

 protected:
  bool zeroPhase() const override { return false; }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& lfilterKind() {
  static const stages::LfilterKind kind;
  return kind;
}
}  // namespace siglab
