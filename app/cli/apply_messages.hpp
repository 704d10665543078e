#pragma once
// What `filter` says about an apply, in memory or streamed: the same lines either way.
#include <cstddef>
#include <string>

#include "siglab/job.hpp"

namespace siglab::cli {

std::string millis(double ms);  // "1.234 ms"

// "verify: N outputs recomputed ... : all bit-identical" (or what differed), on stderr.
void describeVerification(const ApplyResult& r, const FilterSpec& spec);

// "bound: ..." on stderr when `engine`'s error is bounded only norm-wise (auto never takes such an
// engine): what that bound means, and its value when the result was verified.
void describeBound(const FilterBackend& engine, const Job& job, const ApplyResult& r);

// Called in a catch block: says on stderr what the error in flight means for `filter` and returns
// its exit code. `work` names what ran out of memory ("N samples with W taps"). Cancelled and
// anything that is not a std::exception are thrown on.
int reportApplyFailure(const std::string& engines, const std::string& work);

}  // namespace siglab::cli
