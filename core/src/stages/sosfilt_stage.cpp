// sosfilt: second-order sections from a file, one a line b0 b1 b2 a0 a1 a2, causal (scipy.signal.sosfilt); --sosfilt SOS_FILE.
#include "given_filters.hpp"

namespace siglab::stages {
namespace {

class SosfiltKind final : public SectionsFileKind {
 public:
  std::string_view name() const override { return "sosfilt"; }
  std::string_view summary() const override { return "second-order sections from a file, one a line b0 b1 b2 a0 a1 a2, causal (scipy.signal.sosfilt)"; }

 protected:
  bool zeroPhase() const override { return false; }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& sosfiltKind() {
  static const stages::SosfiltKind kind;
  return kind;
}
}  // namespace siglab
