// filtfilt: a linear filter b / a from two files, forward and backward with odd padding (scipy.signal.filtfilt); --filtfilt B_FILE,A_FILE.
#include "given_filters.hpp"

namespace siglab::stages {
namespace {

class FiltfiltKind final : public TransferFunctionKind {
 public:
  std::string_view name() const override { return "filtfilt"; }
  std::string_view summary() const override { return "a linear filter b / a from two files, forward and backward with odd padding (scipy.signal.filtfilt)"; }

 protected:
  bool zeroPhase() const override { return true; }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& filtfiltKind() {
  static const stages::FiltfiltKind kind;
  return kind;
}
}  // namespace siglab
