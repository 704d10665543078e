// The registry: every stage kind, in the order help and forms list them. Adding a kind is one
// line here (its factory, defined in the kind's own file).
#include <array>

#include "siglab/stage_registry.hpp"

#define SIGLAB_STAGE_KINDS(KIND)  \
  KIND(meanKind)                  \
  KIND(gaussianKind)              \
  KIND(tapsKind)                  \
  KIND(medianKind)                \
  KIND(savgolKind)                \
  KIND(butterKind)                \
  KIND(detrendKind)               \
  KIND(cheby1Kind)                \
  KIND(cheby2Kind)                \
  KIND(ellipKind)                 \
  KIND(besselKind)                \
  KIND(iirnotchKind)              \
  KIND(iirpeakKind)               \
  KIND(lfilterKind)               \
  KIND(filtfiltKind)              \
  KIND(sosfiltKind)               \
  KIND(sosfiltfiltKind)           \
  KIND(firwinKind)                \
  KIND(resamplePolyKind)          \
  KIND(upfirdnKind)               \
  KIND(decimateKind)              \
  KIND(spectrogramKind)           \
  KIND(stftKind)                  \
  KIND(findPeaksKind)             \
  KIND(envelopeKind)              \
  KIND(hilbertKind)               \
  KIND(correlateKind)             \
  /* a new kind: one line above this one */

namespace siglab {

#define SIGLAB_DECLARE_KIND(factory) const StageKind& factory();
SIGLAB_STAGE_KINDS(SIGLAB_DECLARE_KIND)
#undef SIGLAB_DECLARE_KIND

std::span<const StageKind* const> stageKinds() {
#define SIGLAB_LIST_KIND(factory) &factory(),
  static const std::array kinds{SIGLAB_STAGE_KINDS(SIGLAB_LIST_KIND)};
#undef SIGLAB_LIST_KIND
  return kinds;
}

const StageKind* findStageKind(std::string_view word) {
  for (const StageKind* kind : stageKinds()) {
    if (kind->name() == word || kind->optionName() == word) return kind;
  }
  return nullptr;
}

std::string stageKindNames() {
  std::string names;
  for (const StageKind* kind : stageKinds()) names += (names.empty() ? "" : ", ") + std::string(kind->name());
  return names;
}

}  // namespace siglab
