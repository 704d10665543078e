#include "streamed_edges.hpp"

#include <algorithm>
#include <limits>

#include "siglab/filter_kinds.hpp"
#include "stream_halo.hpp"

namespace siglab::detail {
namespace {

template <typename T>
std::vector<double> edgeOutputs(std::span<const T> in, const FilterSpec& spec) {
  std::vector<T> out(in.size(), T{0});
  finishEdges(in, spec, std::span<T>(out));
  return {out.begin(), out.end()};
}

class EdgeStream final : public SampleStream {
 public:
  EdgeStream(std::unique_ptr<SampleStream> in, InterpEdges edges) : in_(std::move(in)), edges_(std::move(edges)) {}
  std::size_t read(std::span<double> out) override {
    std::size_t filled = 0;
    while (filled < out.size()) {
      if (next_ == ready_.size()) {
        if (ended_) break;
        refill(out.size());
        continue;
      }
      const std::size_t n = std::min(out.size() - filled, ready_.size() - next_);
      std::copy_n(ready_.begin() + static_cast<std::ptrdiff_t>(next_), n, out.begin() + static_cast<std::ptrdiff_t>(filled));
      next_ += n;
      filled += n;
    }
    return filled;
  }
  std::optional<std::uint64_t> knownSize() const override { return in_->knownSize(); }
  std::optional<double> sampleRate() const override { return in_->sampleRate(); }
  double fractionRead() const override { return in_->fractionRead(); }

 private:
  void refill(std::size_t count) {
    buffer_.resize(std::max<std::size_t>(count, 1));
    const std::size_t got = in_->read(buffer_);
    ready_ = edges_.push(std::span<const double>(buffer_).first(got));
    if (got < buffer_.size()) {
      std::vector<double> last = edges_.finish();
      ready_.insert(ready_.end(), last.begin(), last.end());
      ended_ = true;
    }
    next_ = 0;
  }
  std::unique_ptr<SampleStream> in_;
  EdgeReplacer edges_;
  std::vector<double> buffer_, ready_;
  std::size_t next_ = 0;
  bool ended_ = false;
};

class EdgeSink final : public SampleSink {
 public:
  EdgeSink(std::unique_ptr<SampleSink> out, InterpEdges edges) : out_(std::move(out)), edges_(std::move(edges)) {}
  void write(std::span<const double> values) override { out_->write(edges_.push(values)); }
  void commit() override {
    out_->write(edges_.finish());
    out_->commit();
  }

 private:
  std::unique_ptr<SampleSink> out_;
  EdgeReplacer edges_;
};

}  // namespace

InterpEdges interpEdges(const FilterSpec& spec, SampleType type, const StreamEnds& ends) {
  const std::size_t w = spec.window(), half = w / 2;
  std::vector<double> in = readUpTo(*ends.open(), 2 * w);
  if (in.size() == 2 * w) {  // longer than 2W: its first W, then its last W
    in.resize(w);
    const std::vector<double> tail = ends.tail(w);
    in.insert(in.end(), tail.begin(), tail.end());
  }
  std::vector<double> out;
  if (type == SampleType::f32) {
    const std::vector<float> narrow = narrowToFloat32(in, ends.name);
    out = edgeOutputs(std::span<const float>(narrow), spec);
  } else {
    out = edgeOutputs(std::span<const double>(in), spec);
  }
  return {std::vector<double>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(half)),
          std::vector<double>(out.end() - static_cast<std::ptrdiff_t>(half), out.end())};
}

std::vector<double> EdgeReplacer::push(std::span<const double> values) {
  for (const double v : values) {
    held_.push_back(seen_ < edges_.first.size() ? edges_.first[seen_] : v);
    ++seen_;
  }
  const std::size_t keep = std::min(held_.size(), edges_.last.size());
  std::vector<double> ready(held_.begin(), held_.end() - static_cast<std::ptrdiff_t>(keep));
  held_.erase(held_.begin(), held_.end() - static_cast<std::ptrdiff_t>(keep));
  return ready;
}

std::vector<double> EdgeReplacer::finish() {
  // The signal has at least W samples (binding refuses a shorter one), so all W/2 are held here.
  std::copy(edges_.last.end() - static_cast<std::ptrdiff_t>(held_.size()), edges_.last.end(), held_.begin());
  return std::move(held_);
}

std::unique_ptr<SampleStream> withEdges(std::unique_ptr<SampleStream> in, InterpEdges edges) {
  return std::make_unique<EdgeStream>(std::move(in), std::move(edges));
}

std::unique_ptr<SampleSink> withEdges(std::unique_ptr<SampleSink> out, InterpEdges edges) {
  return std::make_unique<EdgeSink>(std::move(out), std::move(edges));
}

}  // namespace siglab::detail
