// sosfiltfilt: second-order sections from a file, one a line b0 b1 b2 a0 a1 a2, forward and backward (scipy.signal.sosfiltfilt); --sosfiltfilt SOS_FILE.
#include "given_filters.hpp"

namespace siglab::stages {
namespace {

class SosfiltfiltKind final : public SectionsFileKind {
 public:
  std::string_view name() const override { return "sosfiltfilt"; }
  std::string_view summary() const override { return "second-order sections from a file, one a line b0 b1 b2 a0 a1 a2, forward and backward (scipy.signal.sosfiltfilt)"; }

 protected:
  bool zeroPhase() const override { return true; }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& sosfiltfiltKind() {
  static const stages::SosfiltfiltKind kind;
  return kind;
}
}  // namespace siglab
