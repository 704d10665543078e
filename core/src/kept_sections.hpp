#pragma once
// Sections, then every q-th output (decimate's causal IIR), on cpu-parallel's block scan without the
// filtered signal: each core keeps its segments' every q-th output as it goes (sos_segment_scan.hpp),
// so no signal-long result is written and read back. The bits are the full scan's kept ones, as
// the stream's. Only the check's stretches are also written in full, into a buffer whose other
// pages are never touched, and checked against the recursion as applyFilter checks a full run.
#include <cstdint>
#include <span>

#include "siglab/filter_backend.hpp"
#include "siglab/job.hpp"

namespace siglab::detail {

// Whether `job` on `engine` can keep as it scans: causal float64 sections on cpu-parallel, checked in
// stretches (--verify-all checks every output: the full run).
bool keepsAsItScans(const FilterBackend& engine, const Job& job);

// `out`: ceil(in.size() / q) outputs, the q-th from the first. Throws Cancelled.
ApplyResult applySectionsKeeping(FilterBackend& engine, std::span<const double> in, std::span<double> out,
                                 std::uint64_t q, const Job& job, const Progress& progress);

}  // namespace siglab::detail
