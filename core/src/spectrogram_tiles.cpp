// The spectrogram's tile pyramid, its cache and one tile's computation (spectrogram_tiles.hpp).
#include "siglab/spectrogram_tiles.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <cmath>
#include <limits>

namespace siglab {
namespace {

constexpr std::size_t kReadsInFlight = 8;  // a tile's reads at once (threads mostly waiting on the disk)

std::uint64_t strideOf(unsigned level) { return std::uint64_t{1} << level; }

}  // namespace

TileFrameEngine cpuTileEngine(const SpectrogramLayout& layout) {
  return [&layout](std::span<const double> segments, std::size_t frames, std::span<double> out) {
    const std::size_t rowValues = layout.planes * layout.frequencies;
    const auto count = static_cast<std::int64_t>(frames);
  // Threads only where the frames are long: a small tile's transforms take less than waking them.
  const bool parallel = frames * layout.nperseg >= (std::size_t{1} << 18);
#pragma omp parallel if (parallel)
    {
      FrameTransform transform(layout);
#pragma omp for schedule(static)
      for (std::int64_t f = 0; f < count; ++f) {
        const auto i = static_cast<std::size_t>(f);
        transform.run(segments.data() + i * layout.nperseg, out.data() + i * rowValues);
      }
    }
  };
}

TilePtr TileCache::find(const TileKey& key) {
  const std::lock_guard lock(mutex_);
  const auto at = where_.find(key);
  if (at == where_.end()) return nullptr;
  used_.splice(used_.begin(), used_, at->second);
  return *at->second;
}

bool TileCache::contains(const TileKey& key) const {
  const std::lock_guard lock(mutex_);
  return where_.contains(key);
}

void TileCache::insert(TilePtr tile) {
  const std::lock_guard lock(mutex_);
  if (const auto at = where_.find(tile->key); at != where_.end()) {
    bytes_ -= (*at->second)->bytes();
    used_.erase(at->second);
    where_.erase(at);
  }
  bytes_ += tile->bytes();
  used_.push_front(std::move(tile));
  ++insertions_;
  where_[used_.front()->key] = used_.begin();
  evict();
}

void TileCache::evict() {
  while (bytes_ > maxBytes_ && used_.size() > 1) {
    bytes_ -= used_.back()->bytes();
    where_.erase(used_.back()->key);
    used_.pop_back();
  }
}

std::size_t TileCache::bytes() const {
  const std::lock_guard lock(mutex_);
  return bytes_;
}

std::size_t TileCache::size() const {
  const std::lock_guard lock(mutex_);
  return used_.size();
}

SpectrogramTiles::SpectrogramTiles(SpectrogramLayout layout, std::size_t cacheBytes)
    : layout_(std::move(layout)), cache_(cacheBytes) {}

// Frame f's centre is sample f * step + nperseg / 2 (the spectrogram stage has no padding).
FrameSpan SpectrogramTiles::framesIn(double first, double last) const {
  const double half = static_cast<double>(layout_.nperseg) / 2.0;
  const auto step = static_cast<double>(layout_.step);
  const auto frames = static_cast<double>(layout_.frames);
  const double from = std::clamp(std::ceil((first - half) / step), 0.0, frames);
  const double to = std::clamp(std::floor((last - half) / step) + 1.0, from, frames);
  return {static_cast<std::uint64_t>(from), static_cast<std::uint64_t>(to)};
}

unsigned SpectrogramTiles::levelFor(std::uint64_t frames, std::size_t columns) const {
  const std::uint64_t fit = std::max<std::size_t>(columns, 1);
  unsigned level = 0;
  while (level < 62 && (frames + strideOf(level) - 1) / strideOf(level) > fit) ++level;
  return level;
}

std::vector<TileKey> SpectrogramTiles::tilesFor(unsigned level, FrameSpan span) const {
  if (span.count() == 0) return {};
  const std::uint64_t tileSpan = kTileFrames * strideOf(level);  // frames of level 0 a tile covers
  std::vector<TileKey> keys;
  for (std::uint64_t index = span.first / tileSpan; index * tileSpan < span.end; ++index) keys.push_back({level, index});
  return keys;
}

std::vector<std::uint64_t> SpectrogramTiles::framesOf(const TileKey& key) const {
  std::vector<std::uint64_t> frames;
  const std::uint64_t stride = strideOf(key.level);
  const std::uint64_t first = key.index * kTileFrames * stride;
  for (std::uint64_t f = first; f < layout_.frames && frames.size() < kTileFrames; f += stride) frames.push_back(f);
  return frames;
}

unsigned SpectrogramTiles::wantedLevel(double first, double last, std::size_t columns) const {
  return levelFor(framesIn(first, last).count(), columns);
}

std::vector<TileKey> SpectrogramTiles::missingFor(double first, double last, std::size_t columns) const {
  std::vector<TileKey> keys = tilesFor(overviewLevel(columns), {0, layout_.frames});
  const FrameSpan visible = framesIn(first, last);
  for (const TileKey& key : tilesFor(levelFor(visible.count(), columns), visible)) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
  }
  std::erase_if(keys, [this](const TileKey& key) { return cache_.contains(key); });
  return keys;
}

std::vector<ViewColumn> SpectrogramTiles::columnsFor(double first, double last, std::size_t columns) {
  std::vector<ViewColumn> out(columns);
  if (layout_.frames == 0 || columns == 0 || !(last > first)) return out;
  const unsigned wanted = wantedLevel(first, last, columns);
  const unsigned coarsest = std::max(wanted, overviewLevel(columns));
  const double half = static_cast<double>(layout_.nperseg) / 2.0;
  const auto step = static_cast<double>(layout_.step);
  const double width = (last - first) / static_cast<double>(columns);
  const auto lastFrame = static_cast<double>(layout_.frames - 1);
  for (std::size_t c = 0; c < columns; ++c) {
    const double centre = first + (static_cast<double>(c) + 0.5) * width;
    const double frame = std::clamp((centre - half) / step, 0.0, lastFrame);
    for (unsigned level = wanted; level <= coarsest; ++level) {
      const auto stride = static_cast<double>(strideOf(level));
      // The nearest frame of this level, kept inside the signal's last frame of the level.
      auto at = static_cast<std::uint64_t>(std::round(frame / stride));
      while (at > 0 && at * strideOf(level) >= layout_.frames) --at;
      const TileKey key{level, at / kTileFrames};
      if (TilePtr tile = cache_.find(key)) {
        out[c] = {std::move(tile), static_cast<std::size_t>(at % kTileFrames), at * strideOf(level), level};
        break;
      }
    }
  }
  return out;
}

ViewColumn SpectrogramTiles::columnAt(double at, double first, double last, std::size_t columns) {
  if (columns == 0 || !(last > first)) return {};
  const double width = (last - first) / static_cast<double>(columns);
  const double column = std::floor((at - first) / width);
  const double start = first + column * width;
  return columnsFor(start, start + width, 1).front();
}

SpectrogramTile computeTile(SpectrogramTiles& tiles, const TileKey& key, const SampleReader& read,
                            const TileFrameEngine& engine, const Progress& progress) {
  const SpectrogramLayout& l = tiles.layout();
  SpectrogramTile tile;
  tile.key = key;
  tile.frames = tiles.framesOf(key);
  tile.rowValues = l.planes * l.frequencies;
  tile.values.resize(tile.frames.size() * tile.rowValues);
  // The parent level's rows: every other frame of this level (the same stage values, copied).
  std::vector<std::size_t> rows;  // indices into tile.frames of the frames to compute
  const TilePtr parent = tiles.cache().find({key.level + 1, key.index / 2});
  for (std::size_t i = 0; i < tile.frames.size(); ++i) {
    const std::uint64_t parentStride = std::uint64_t{1} << (key.level + 1);
    if (parent && tile.frames[i] % parentStride == 0) {
      const std::size_t at = static_cast<std::size_t>(tile.frames[i] / parentStride % kTileFrames);
      if (at < parent->frames.size() && parent->frames[at] == tile.frames[i]) {
        std::copy_n(parent->row(at), tile.rowValues, tile.values.begin() + static_cast<std::ptrdiff_t>(i * tile.rowValues));
        continue;
      }
    }
    rows.push_back(i);
  }
  const std::size_t n = rows.size();
  std::vector<double> segments(n * l.nperseg);
  const auto frameOf = [&](std::size_t k) { return tile.frames[rows[k]]; };
  // Frames whose samples overlap or touch are read as one block, the others one read each.
  std::vector<std::pair<std::size_t, std::size_t>> runs;  // of rows: [first, end) one read
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && frameOf(j) * l.step <= frameOf(j - 1) * l.step + l.nperseg) ++j;
    runs.emplace_back(i, j);
    i = j;
  }
  // Several reads in flight: a file's pages not yet in memory come from the disk side by side.
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr failure;
  std::mutex failureMutex;
  const auto readRuns = [&] {
    std::vector<double> block;
    for (std::size_t r = next++; r < runs.size() && !stop; r = next++) {
      try {
        progress.throwIfCancelled();
        const auto [i, j] = runs[r];
        const std::uint64_t begin = frameOf(i) * l.step;
        block.resize(static_cast<std::size_t>(frameOf(j - 1) * l.step + l.nperseg - begin));
        read(static_cast<std::size_t>(begin), block);
        for (std::size_t k = i; k < j; ++k) {
          const auto offset = static_cast<std::ptrdiff_t>(frameOf(k) * l.step - begin);
          std::copy_n(block.begin() + offset, l.nperseg, segments.begin() + static_cast<std::ptrdiff_t>(k * l.nperseg));
        }
      } catch (...) {
        const std::lock_guard lock(failureMutex);
        if (!failure) failure = std::current_exception();
        stop = true;
      }
    }
  };
  {
    std::vector<std::jthread> readers;
    for (std::size_t t = 1; t < std::min(kReadsInFlight, runs.size()); ++t) readers.emplace_back(readRuns);
    readRuns();
  }
  if (failure) std::rethrow_exception(failure);
  progress.throwIfCancelled();
  std::vector<double> computed(n * tile.rowValues);
  if (n > 0) engine(segments, n, computed);
  for (std::size_t k = 0; k < n; ++k) {
    std::copy_n(computed.begin() + static_cast<std::ptrdiff_t>(k * tile.rowValues), tile.rowValues,
                tile.values.begin() + static_cast<std::ptrdiff_t>(rows[k] * tile.rowValues));
  }
  return tile;
}

double powerDecibels(double power) {
  return power > 0 ? 10.0 * std::log10(power) : -std::numeric_limits<double>::infinity();
}

std::pair<double, double> autoDecibelRange(std::vector<double> decibels) {
  std::erase_if(decibels, [](double v) { return !std::isfinite(v); });
  if (decibels.empty()) return {-100.0, 0.0};
  const auto low = decibels.begin() + static_cast<std::ptrdiff_t>(decibels.size() / 50);
  std::nth_element(decibels.begin(), low, decibels.end());
  const double top = *std::max_element(decibels.begin(), decibels.end());
  const double bottom = std::min(*low, top - 1.0);
  return {bottom, top};
}

}  // namespace siglab
