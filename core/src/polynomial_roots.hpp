#pragma once
// numpy.roots for real polynomials: every root, in conjugate pairs.
#include <vector>

#include "zpk_to_sections.hpp"

namespace siglab::detail {

// `c` highest power first, c[0] != 0. Aberth's simultaneous iteration from a circle of the roots'
// geometric mean radius, each root polished by Newton in extended precision, pairs made exact
// conjugates. Throws std::invalid_argument when it does not converge.
Roots polynomialRoots(const std::vector<double>& c);

}  // namespace siglab::detail
