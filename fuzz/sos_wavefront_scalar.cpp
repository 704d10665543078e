// The fuzz build's sosWavefront: clang cannot compile core/src/sos_wavefront.cpp's GCC vector code,
// so nothing is done here and sosRange runs the scalar cascade (the same bits).
#include "../core/src/sos_step.hpp"

namespace siglab::detail {

bool sosWavefront(const Section*, std::size_t, double*, const double*, double*, std::ptrdiff_t, std::size_t) {
  return false;
}

}  // namespace siglab::detail
