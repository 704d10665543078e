// The spectrogram's tile pyramid (spectrogram_tiles.hpp): tiles against the spectrogram stage's
// output, the overview reading only the frames it shows, the bounded cache, the best tile drawn at
// once and refined, cancel.
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <random>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/spectrogram_tiles.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

std::vector<double> npyValues(const std::string& path) {
  const std::string bytes = test::readFile(path);
  const std::size_t header = 10 + (static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8);
  std::vector<double> values((bytes.size() - header) / sizeof(double));
  std::memcpy(values.data(), bytes.data() + header, values.size() * sizeof(double));
  return values;
}

// The spectrogram stage's output for `chain` on `x`, frames x frequencies, by the pipeline's CPU engine.
std::vector<double> stageOutput(const test::TempDir& dir, const std::string& chain, const std::vector<double>& x) {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  ChannelSource source;
  source.channels = {x};
  const std::string out = dir.file("stage.npy");
  EXPECT_TRUE(runPipeline(parseChain(chain), source, FileSink{out, {}}, engines, PipelineOptions{}).written);
  return npyValues(out);
}

SampleReader readerOf(const std::vector<double>& x) {
  return [&x](std::size_t first, std::span<double> out) { std::copy_n(x.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin()); };
}

SpectrogramLayout layoutOf(std::size_t nperseg, std::size_t noverlap, std::uint64_t samples, const std::string& window = "hann") {
  SpectrogramOptions o;
  o.nperseg = nperseg;
  o.noverlap = noverlap;
  o.window = window;
  return spectrogramLayout(o, samples, std::nullopt);
}

TEST(SpectrogramTiles, EveryTileRowIsTheSpectrogramStagesRowForItsFrameBitForBit) {
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  std::normal_distribution<double> normal;
  std::vector<double> x(40'000);
  for (double& v : x) v = normal(rng);
  const std::vector<double> stage = stageOutput(dir, "spectrogram nperseg=64 noverlap=20 window=hann", x);
  auto tiles = std::make_unique<SpectrogramTiles>(layoutOf(64, 20, x.size()));
  const SpectrogramLayout l = tiles->layout();
  ASSERT_EQ(stage.size(), l.frames * l.frequencies);
  // Level 5 and 1 read frame by frame, past the last tile's end; level 0 after 1 copies its parent's
  // rows and reads the others; level 0 alone reads overlapping frames in one block.
  for (const unsigned level : {5u, 1u, 0u, 0u}) {
    const bool parentCached = level == 0 && tiles->cache().contains({1, 0});
    for (const TileKey& key : tiles->tilesFor(level, {0, l.frames})) {
      const SpectrogramTile tile = computeTile(*tiles, key, readerOf(x), cpuTileEngine(l));
      if (!parentCached) tiles->cache().insert(std::make_shared<const SpectrogramTile>(tile));
      ASSERT_EQ(tile.frames, tiles->framesOf(key));
      for (std::size_t i = 0; i < tile.frames.size(); ++i) {
        ASSERT_EQ(std::memcmp(tile.row(i), stage.data() + tile.frames[i] * l.frequencies, l.frequencies * sizeof(double)), 0)
            << "level " << level << ", frame " << tile.frames[i] << (parentCached ? ", its parent's rows copied" : "");
      }
    }
    if (parentCached) tiles = std::make_unique<SpectrogramTiles>(l);  // level 0 again, alone
  }
}

TEST(SpectrogramTiles, TheOverviewOfAHugeSignalReadsOnlyTheFramesItShows) {
  const std::uint64_t samples = std::uint64_t{1} << 31;  // 16 GiB of float64, never held
  SpectrogramTiles tiles(layoutOf(256, 32, samples));
  std::atomic<std::uint64_t> read{0};  // the reads run on several threads
  const SampleReader counting = [&read](std::size_t first, std::span<double> out) {
    read += out.size();
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>((first + i) % 97);
  };
  const std::size_t columns = 1000;
  const std::vector<TileKey> wanted = tiles.missingFor(0, static_cast<double>(samples), columns);
  const unsigned level = tiles.overviewLevel(columns);
  EXPECT_EQ(level, 16u);  // 9.6M frames on a quarter of the columns: every 65536th
  ASSERT_FALSE(wanted.empty());
  EXPECT_EQ(wanted.front().level, level);  // the overview first
  std::uint64_t frames = 0;
  for (const TileKey& key : wanted) {
    if (key.level != level) continue;
    const SpectrogramTile tile = computeTile(tiles, key, counting, cpuTileEngine(tiles.layout()));
    frames += tile.frames.size();
    tiles.cache().insert(std::make_shared<const SpectrogramTile>(tile));
  }
  EXPECT_LE(frames, columns / 4);
  EXPECT_EQ(read, frames * 256);  // each frame's own samples, nothing between
  // Every column is drawn at once from the overview; the screen's resolution comes after.
  for (const ViewColumn& column : tiles.columnsFor(0, static_cast<double>(samples), columns)) {
    ASSERT_TRUE(column.tile);
    EXPECT_EQ(column.level, level);
  }
  const std::vector<TileKey> refine = tiles.missingFor(0, static_cast<double>(samples), columns);
  ASSERT_FALSE(refine.empty());
  for (const TileKey& key : refine) EXPECT_EQ(key.level, 14u);  // every 16384th: 586 frames on 1000 columns
}

TEST(SpectrogramTiles, AZoomDrawsTheCoarseTileAtOnceThenTheFinerOneForTheVisibleRangeOnly) {
  std::vector<double> x(1'000'000);
  std::mt19937_64 rng(test::freshSeed());
  std::uniform_real_distribution<double> uniform(-1, 1);
  for (double& v : x) v = uniform(rng);
  SpectrogramTiles tiles(layoutOf(128, 0, x.size()));
  const std::size_t columns = 200;
  for (const TileKey& key : tiles.missingFor(0, 1e6, columns)) {
    tiles.cache().insert(std::make_shared<const SpectrogramTile>(computeTile(tiles, key, readerOf(x), cpuTileEngine(tiles.layout()))));
  }
  const unsigned overview = tiles.wantedLevel(0, 1e6, columns);  // the whole signal's finest computed
  const double first = 400'000, last = 420'000;  // 156 frames: level 0 on 200 columns
  EXPECT_EQ(tiles.wantedLevel(first, last, columns), 0u);
  for (const ViewColumn& column : tiles.columnsFor(first, last, columns)) {
    ASSERT_TRUE(column.tile);
    EXPECT_EQ(column.level, overview);  // the best available: the overview's nearest frame
  }
  const std::vector<TileKey> finer = tiles.missingFor(first, last, columns);
  ASSERT_FALSE(finer.empty());
  for (const TileKey& key : finer) {
    EXPECT_EQ(key.level, 0u);
    EXPECT_LE(key.index * kTileFrames * 128, last);
    EXPECT_GE((key.index + 1) * kTileFrames * 128, first);
    tiles.cache().insert(std::make_shared<const SpectrogramTile>(computeTile(tiles, key, readerOf(x), cpuTileEngine(tiles.layout()))));
  }
  const std::vector<ViewColumn> refined = tiles.columnsFor(first, last, columns);
  for (const ViewColumn& column : refined) EXPECT_EQ(column.level, 0u);
  // The column's frame is the one whose centre is nearest the column's centre.
  const ViewColumn middle = refined[columns / 2];
  const double centre = first + (static_cast<double>(columns / 2) + 0.5) * (last - first) / columns;
  EXPECT_NEAR(static_cast<double>(middle.frame * 128 + 64), centre, 64.0);
  EXPECT_EQ(middle.tile->frames[middle.row], middle.frame);
}

TEST(SpectrogramTiles, TheCacheKeepsItsBoundDroppingTheLeastRecentlyUsed) {
  const auto tileOf = [](std::uint64_t index) {
    auto tile = std::make_shared<SpectrogramTile>();
    tile->key = {0, index};
    tile->values.assign(1000, 0.0);  // 8000 bytes
    return TilePtr(tile);
  };
  TileCache cache(3 * 8000);
  for (std::uint64_t i = 0; i < 3; ++i) cache.insert(tileOf(i));
  EXPECT_TRUE(cache.find({0, 0}));  // used: tile 1 is now the least recent
  cache.insert(tileOf(3));
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_LE(cache.bytes(), 3u * 8000);
  EXPECT_FALSE(cache.contains({0, 1}));
  EXPECT_TRUE(cache.contains({0, 0}));
  EXPECT_TRUE(cache.contains({0, 3}));
}

TEST(SpectrogramTiles, ACancelledTileStopsBeforeItsNextReadsAndGivesNothing) {
  std::vector<double> x(100'000, 1.0);
  SpectrogramTiles tiles(layoutOf(64, 0, x.size()));
  std::atomic<bool> cancel{false};
  Progress progress;
  progress.cancelFlag = &cancel;
  std::atomic<std::size_t> reads{0};
  const SampleReader read = [&](std::size_t first, std::span<double> out) {
    ++reads;
    cancel = true;  // the user's Esc during the first reads
    readerOf(x)(first, out);
  };
  EXPECT_THROW(computeTile(tiles, {3, 0}, read, cpuTileEngine(tiles.layout()), progress), Cancelled);
  EXPECT_LE(reads, 8u);  // those already in flight (kReadsInFlight), of the tile's 64
}

TEST(SpectrogramTiles, DecibelsAndTheirAutomaticRange) {
  EXPECT_DOUBLE_EQ(powerDecibels(100.0), 20.0);
  EXPECT_TRUE(std::isinf(powerDecibels(0.0)));
  std::vector<double> db(100);
  for (std::size_t i = 0; i < db.size(); ++i) db[i] = -static_cast<double>(i);
  db.push_back(-std::numeric_limits<double>::infinity());
  const auto [low, high] = autoDecibelRange(db);
  EXPECT_DOUBLE_EQ(high, 0.0);
  EXPECT_DOUBLE_EQ(low, -97.0);  // the 2nd percentile: one stray quiet frame does not stretch the scale
  EXPECT_EQ(autoDecibelRange({}), (std::pair<double, double>{-100.0, 0.0}));
}

}  // namespace
}  // namespace siglab
