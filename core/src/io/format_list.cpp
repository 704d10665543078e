// The registry: every signal file format, in the order file dialogs list them. Adding a format is
// one line here (its factory, defined in the format's own file; see signal_format.hpp). Content
// detection asks them in this order; text, the fallback, comes last.
#include <array>

#include "signal_format.hpp"

#define SIGLAB_SIGNAL_FORMATS(FORMAT) \
  FORMAT(npyFormat)                   \
  FORMAT(wavFormat)                   \
  FORMAT(flacFormat)                  \
  FORMAT(oggFormat)                   \
  FORMAT(aiffFormat)                  \
  FORMAT(cafFormat)                   \
  FORMAT(w64Format)                   \
  FORMAT(auFormat)                    \
  FORMAT(hdf5Format)                  \
  FORMAT(matFormat)                   \
  FORMAT(edfFormat)                   \
  FORMAT(rawFormat)                   \
  FORMAT(textFormat)                  \
  /* a new format: one line above this one */

namespace siglab {

#define SIGLAB_DECLARE_FORMAT(factory) const SignalFormat& factory();
SIGLAB_SIGNAL_FORMATS(SIGLAB_DECLARE_FORMAT)
#undef SIGLAB_DECLARE_FORMAT

std::span<const SignalFormat* const> signalFormats() {
#define SIGLAB_LIST_FORMAT(factory) &factory(),
  static const std::array formats{SIGLAB_SIGNAL_FORMATS(SIGLAB_LIST_FORMAT)};
#undef SIGLAB_LIST_FORMAT
  return formats;
}

}  // namespace siglab
