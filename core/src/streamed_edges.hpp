#pragma once
// Savitzky-Golay's interp edges for a streamed first stage: the first and last W/2 outputs are
// fits to the signal's first and last W samples (finishEdges), computed up front from those
// samples and put in place as the outputs pass: the first on their way, the last held back until
// the end is known. The same bits as finishEdges on the whole signal.
#include <memory>
#include <span>
#include <vector>

#include "pipeline_steps.hpp"

namespace siglab::detail {

struct InterpEdges {
  std::vector<double> first, last;  // W/2 outputs each
};

// The edges of `spec` (a Savitzky-Golay with interp edges) for the signal `ends` opens, run in
// `type` as the in-memory stage runs them.
InterpEdges interpEdges(const FilterSpec& spec, SampleType type, const StreamEnds& ends);

// Outputs with the edges put in place, in order, holding back the last W/2 until finish().
class EdgeReplacer {
 public:
  explicit EdgeReplacer(InterpEdges edges) : edges_(std::move(edges)) {}
  // Appends `values` (the next outputs) and returns those that are final.
  std::vector<double> push(std::span<const double> values);
  std::vector<double> finish();  // the held-back last W/2, replaced

 private:
  InterpEdges edges_;
  std::uint64_t seen_ = 0;
  std::vector<double> held_;
};

// The stream of the first stage's outputs with the edges in place (a chain's next stage reads it).
std::unique_ptr<SampleStream> withEdges(std::unique_ptr<SampleStream> in, InterpEdges edges);
// The sink of a one-stage chain's outputs with the edges in place.
std::unique_ptr<SampleSink> withEdges(std::unique_ptr<SampleSink> out, InterpEdges edges);

}  // namespace siglab::detail
