#pragma once
// How applyFilter checks a sections result (job.cpp), for a run that writes its outputs elsewhere
// (kept_sections.hpp): which stretches, and for how long past the first ones.
#include <cstddef>
#include <vector>

#include "siglab/filter_backend.hpp"
#include "siglab/job.hpp"
#include "siglab/sos_verify.hpp"

namespace siglab::detail {

// The stretches checked against the recursion for a run of `samples` outputs cut at `splits`.
std::vector<OutputStretch> sectionsCheckStretches(std::size_t samples, const FilterSpec& spec, const WorkSplits& splits,
                                                  const Job& job);
// The time the check may take past its first stretches, for an engine run of `filterMs`.
double sectionsCheckBudgetMs(const Job& job, double filterMs);

}  // namespace siglab::detail
