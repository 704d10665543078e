#pragma once
// A spectrogram of any length drawn from a pyramid of tiles, so a file larger than memory opens at
// once and refines as it zooms. Level L holds every 2^L-th frame of the spectrogram stage's frames
// (spectrogram.hpp: the same layout, the same FrameTransform, so a tile's rows are the stage's rows
// for those frames, bit for bit); a tile is kTileFrames consecutive frames of one level. The first
// view of a whole signal reads only the few hundred frames it shows (the "overview", every Nth
// frame); a zoom computes the finer level whose frames fill the screen's columns, for the visible
// range only. Tiles are kept in a bounded least-recently-used cache. No Qt: the desktop draws them.
#include <atomic>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "siglab/minmax_pyramid.hpp"
#include "siglab/progress.hpp"
#include "siglab/spectrogram.hpp"

namespace siglab {

inline constexpr std::size_t kTileFrames = 64;  // frames a tile, at its level's stride

struct TileKey {
  unsigned level = 0;       // frames every 2^level of the spectrogram's
  std::uint64_t index = 0;  // the tile's place along its level: frames from index * kTileFrames * 2^level
  auto operator<=>(const TileKey&) const = default;
};

// The rows of one tile: frames[i] (the spectrogram's frame numbers) has planes x frequencies values
// at values[i * rowValues()], exactly as the spectrogram stage writes frame frames[i].
struct SpectrogramTile {
  TileKey key;
  std::vector<std::uint64_t> frames;
  std::size_t rowValues = 0;
  std::vector<double> values;
  std::size_t bytes() const { return values.size() * sizeof(double) + frames.size() * sizeof(std::uint64_t); }
  const double* row(std::size_t i) const { return values.data() + i * rowValues; }
};
using TilePtr = std::shared_ptr<const SpectrogramTile>;

// Transforms `frames` segments of nperseg samples laid end to end in `segments` into `out`
// (frames x planes x frequencies): the spectrogram stage's engine, on the CPU or a GPU.
using TileFrameEngine = std::function<void(std::span<const double> segments, std::size_t frames, std::span<double> out)>;

// The stage's CPU engine: FrameTransform, one a thread, each frame alone (the same bits on any count).
TileFrameEngine cpuTileEngine(const SpectrogramLayout& layout);

// The tiles computed so far, at most `maxBytes` of them (the least recently used go first; the one
// just inserted stays even when it alone is larger). Safe on several threads at once.
class TileCache {
 public:
  explicit TileCache(std::size_t maxBytes) : maxBytes_(maxBytes) {}
  TilePtr find(const TileKey& key);  // null where absent; marks it used
  bool contains(const TileKey& key) const;
  void insert(TilePtr tile);
  std::size_t bytes() const;
  std::size_t size() const;
  std::uint64_t insertions() const { return insertions_.load(); }  // changes when a tile comes

 private:
  void evict();
  std::size_t maxBytes_;
  mutable std::mutex mutex_;
  std::list<TilePtr> used_;  // most recently used first
  std::map<TileKey, std::list<TilePtr>::iterator> where_;
  std::size_t bytes_ = 0;
  std::atomic<std::uint64_t> insertions_{0};
};

struct FrameSpan {
  std::uint64_t first = 0, end = 0;  // frames [first, end)
  std::uint64_t count() const { return end - first; }
};

// One screen column of a view: the frame drawn there and the tile holding its row (null: none yet).
struct ViewColumn {
  TilePtr tile;
  std::size_t row = 0;
  std::uint64_t frame = 0;
  unsigned level = 0;
};

// The pyramid of one spectrogram (one signal, one set of options) with its cache.
class SpectrogramTiles {
 public:
  SpectrogramTiles(SpectrogramLayout layout, std::size_t cacheBytes = std::size_t{256} << 20);

  const SpectrogramLayout& layout() const { return layout_; }
  TileCache& cache() { return cache_; }
  const TileCache& cache() const { return cache_; }

  // The frames whose centres lie in samples [first, last) (fractional sample indices, as plots keep them).
  FrameSpan framesIn(double first, double last) const;
  // The finest level showing `frames` frames on at most `columns` columns.
  unsigned levelFor(std::uint64_t frames, std::size_t columns) const;
  // The overview, what the first view of the whole signal computes: the level showing every frame
  // of it on a quarter of `columns` (a frame 4 columns wide), refined to the screen's columns after.
  unsigned overviewLevel(std::size_t columns) const { return levelFor(layout_.frames, std::max<std::size_t>(columns / 4, 1)); }
  std::vector<TileKey> tilesFor(unsigned level, FrameSpan span) const;
  std::vector<std::uint64_t> framesOf(const TileKey& key) const;
  // The tiles a view of samples [first, last) on `columns` columns needs and the cache lacks, in the
  // order to compute them: the whole signal's overview first (what every later view falls back to),
  // then the visible range at screen resolution.
  std::vector<TileKey> missingFor(double first, double last, std::size_t columns) const;
  // The level a view of [first, last) on `columns` columns is drawn at once all its tiles are in.
  unsigned wantedLevel(double first, double last, std::size_t columns) const;
  // What each of `columns` columns across [first, last) draws: the frame nearest its centre at the
  // finest level from wantedLevel up whose tile is cached.
  std::vector<ViewColumn> columnsFor(double first, double last, std::size_t columns);
  // The frame drawn at sample `at` (columnsFor of one column there), for a cursor's readout.
  ViewColumn columnAt(double at, double first, double last, std::size_t columns);

 private:
  SpectrogramLayout layout_;
  TileCache cache_;
};

// One tile computed: the rows of frames its parent level (key.level + 1) holds in `tiles`' cache
// copied (a zoom step computes half its frames), the others' samples read through `read` by block reads (frames that overlap or
// touch in one read, the others one read each; a mapped signal lets the pages go behind), several
// at once (`read` must be safe on several threads, as MappedSignal::read is), then transformed by
// `engine` (at most 64 frames). Throws Cancelled when `progress` asks for it, before each read.
SpectrogramTile computeTile(SpectrogramTiles& tiles, const TileKey& key, const SampleReader& read,
                            const TileFrameEngine& engine, const Progress& progress = {});

// 10 log10 of a power (psd) value; -inf for 0.
double powerDecibels(double power);
// The dB range a colour scale shows by default for `decibels` (non-finite values ignored): from the
// 2nd percentile to the largest, at least 1 dB wide; {-100, 0} where none is finite.
std::pair<double, double> autoDecibelRange(std::vector<double> decibels);

}  // namespace siglab
