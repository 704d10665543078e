#pragma once
// What `filter` says about an apply, in memory or streamed: the same lines either way.
#include <cstddef>
#include <string>

#include "siglab/job.hpp"

namespace siglab::cli {

std::string millis(double ms);  // "1.234 ms"

// "verify: N outputs recomputed ... : all bit-identical" (or what differed), on stderr.
void describeVerification(const ApplyResult& r, const FilterSpec& spec);

}  // namespace siglab::cli
