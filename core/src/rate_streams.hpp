#pragma once
// Rate-changing stages as streams (BoundStage::streamFrom), block by block in memory bounded by
// the taps: PolyphaseStream holds only the inputs its next outputs read and computes each output
// with Polyphase::outputAt, the function the in-memory engines call, so the same bits for any block
// size; KeepEveryStream keeps every q-th sample of a stream (decimate's IIR after its sections).
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "siglab/io/sample_stream.hpp"
#include "siglab/polyphase.hpp"
#include "siglab/progress.hpp"

namespace siglab::detail {

// The outputs a rate-changing stage gives for n inputs.
using OutputCount = std::function<std::uint64_t(std::uint64_t)>;

class PolyphaseStream final : public SampleStream {
 public:
  // `fir` and `upstream` outlive this. `float32`: each input narrowed to float32 (InputError naming
  // `name` for one it cannot hold) and each output rounded to it, as the in-memory run does.
  PolyphaseStream(SampleStream& upstream, const Polyphase& fir, OutputCount outputs, bool float32, std::string name,
                  Progress progress);

  std::size_t read(std::span<double> out) override;
  std::optional<std::uint64_t> knownSize() const override;
  std::optional<double> sampleRate() const override;
  double fractionRead() const override { return upstream_.fractionRead(); }

 private:
  bool readMore();  // false at the upstream's end
  // Whether output next_ exists, reading more input where that is not known yet.
  bool nextExists();

  SampleStream& upstream_;
  const Polyphase& fir_;
  OutputCount outputs_;
  bool float32_;
  std::string name_;
  Progress progress_;
  std::vector<double> inputs_;  // inputs base_ .. base_ + size
  std::int64_t base_ = 0;
  std::int64_t read_ = 0;  // inputs read so far
  bool ended_ = false;
  std::int64_t next_ = 0;  // the next output
  std::size_t mostPhaseTaps_ = 0;
};

class KeepEveryStream final : public SampleStream {
 public:
  // Owns `upstream`: samples 0, q, 2q, ... of it.
  KeepEveryStream(std::unique_ptr<SampleStream> upstream, std::uint64_t q);

  std::size_t read(std::span<double> out) override;
  std::optional<std::uint64_t> knownSize() const override;
  std::optional<double> sampleRate() const override;
  double fractionRead() const override { return upstream_->fractionRead(); }

 private:
  std::unique_ptr<SampleStream> upstream_;
  std::uint64_t q_;
  std::uint64_t position_ = 0;  // of the upstream's next sample
  std::vector<double> block_;
};

}  // namespace siglab::detail
