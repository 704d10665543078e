#pragma once
// The GPU median's steps as plain functions (SIGLAB_HD), so that the host tests exactly what the
// kernels run (tests/core/median_tile_test.cpp emulates a thread block with loops).
//   In registers (W <= 9): the key whose rank range [less, lessOrEqual) holds W/2.
//   Sorted tile: a block loads `tile` keys (its outputs and the W - 1 around them) with their
//   positions, sorts the pairs with a bitonic network, and each output walks the sorted tile to the
//   (W/2 + 1)-th entry inside its own window.
#include <cstdint>

#include "siglab/boundary.hpp"
#include "siglab/host_device.hpp"
#include "siglab/ordered_key.hpp"

namespace siglab {

// W is a compile-time constant: the compiler unrolls both loops and keeps v in registers.
template <typename K, int W>
SIGLAB_HD K medianOfRegisters(const K (&v)[W]) {
  K median = v[0];
  for (int a = 0; a < W; ++a) {
    int less = 0, lessOrEqual = 0;
    for (int b = 0; b < W; ++b) {
      less += v[b] < v[a];
      lessOrEqual += v[b] <= v[a];
    }
    if (less <= W / 2 && W / 2 < lessOrEqual) median = v[a];
  }
  return median;
}

// The key of signal position k (outside [0, n) through the mode; the zero mode's 0.0).
template <typename T>
SIGLAB_HD OrderedKey<T> medianKeyAt(const T* in, std::int64_t k, std::int64_t n, BoundaryMode mode) {
  const std::int64_t index = boundaryIndex(k, n, mode);
  return toOrderedKey(index == kSkipSample ? T(0) : in[index]);
}

// The largest window the sorted tile takes, and the smallest tile of at least 2 W keys for a window.
// An output costs a walk of about T / 2 steps plus its share of the sort, T log2 T (log2 T + 1) / 2
// entry steps over T - W + 1 outputs; that sum is least near T = 2 W (W = 101: 187 steps at T = 256,
// 312 at 512). 4096 keys: at least 2048 outputs.
inline constexpr int kMedianTileMaxWindow = 2049;
SIGLAB_HD int medianTileSize(int window) {
  int tile = 256;
  while (tile < 2 * window && tile < 4096) tile *= 2;
  return tile;
}

// How many outputs a tile of `tile` keys serves.
SIGLAB_HD int medianTileOutputs(int tile, int window) { return tile - (window - 1); }

// The keys of a whole signal, position k through medianKeyAt.
template <typename T>
struct SignalKeys {
  const T* in;
  std::int64_t n;
  BoundaryMode mode;
  SIGLAB_HD OrderedKey<T> operator()(std::int64_t k) const { return medianKeyAt(in, k, n, mode); }
};

// Tile entry e of the tile whose first output is `first` and which serves `outputs` outputs, the
// key of position k being keyAt(k) (SignalKeys, or a chunk's keys with its halo on the GPU).
// Entries past the last window get the largest key and a position inside no window.
template <typename T, typename KeyAt>
SIGLAB_HD void medianTileEntryFrom(const KeyAt& keyAt, std::int64_t first, int outputs, int window, int tile, int e,
                                   OrderedKey<T>& key, std::uint16_t& position) {
  const bool used = e < outputs + window - 1;
  key = used ? keyAt(first - window / 2 + e) : static_cast<OrderedKey<T>>(~OrderedKey<T>{0});
  position = static_cast<std::uint16_t>(used ? e : tile);
}

template <typename T>
SIGLAB_HD void medianTileEntry(const T* in, std::int64_t n, BoundaryMode mode, std::int64_t first, int outputs,
                               int window, int tile, int e, OrderedKey<T>& key, std::uint16_t& position) {
  medianTileEntryFrom<T>(SignalKeys<T>{in, n, mode}, first, outputs, window, tile, e, key, position);
}

// One compare-exchange of the bitonic network's stage (k, j), done by the owner of entry e.
template <typename K>
SIGLAB_HD void bitonicStep(K* keys, std::uint16_t* positions, int e, int j, int k) {
  const int partner = e ^ j;
  if (partner > e && ((keys[e] > keys[partner]) == ((e & k) == 0))) {
    const K key = keys[e];
    keys[e] = keys[partner];
    keys[partner] = key;
    const std::uint16_t position = positions[e];
    positions[e] = positions[partner];
    positions[partner] = position;
  }
}

// The median of output t of the tile (its window: entries t .. t + W - 1), from the sorted tile.
template <typename K>
SIGLAB_HD K walkToMedian(const K* keys, const std::uint16_t* positions, int tile, int t, int window) {
  int seen = 0;
  for (int e = 0; e < tile; ++e) {
    if (static_cast<unsigned>(positions[e] - t) < static_cast<unsigned>(window)) {
      if (seen == window / 2) return keys[e];
      ++seen;
    }
  }
  return keys[tile - 1];  // not reached: every window holds W entries
}

}  // namespace siglab
