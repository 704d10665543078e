#pragma once
// A sliding window kept sorted: each step removes the oldest key and inserts the newest with two
// binary searches and one memmove of the keys between them. That is O(W) per step, but the move
// is a few cache lines for the windows people use (W = 101: 0.8 KB at most, a third of it on
// average), and it beat an O(log W) pair of multisets (pointer-chasing, an allocation per insert)
// at every window measured: 300 against 786 ns per output at W = 101, 1122 against 1901 at
// W = 10001, one thread (siglab-filters-bench, docs/perf/filters-bench-10M.txt).
#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

namespace siglab::detail {

template <typename Key>
class SortedWindow {
 public:
  explicit SortedWindow(std::span<const Key> first) : keys_(first.begin(), first.end()) {
    std::sort(keys_.begin(), keys_.end());
  }

  Key at(std::size_t rank) const { return keys_[rank]; }

  // Replaces one copy of `oldest` (which must be present) by `newest`, keeping the order.
  void replace(Key oldest, Key newest) {
    if (oldest == newest) return;
    Key* const begin = keys_.data();
    Key* const end = begin + keys_.size();
    Key* const gone = std::lower_bound(begin, end, oldest);
    if (newest > oldest) {
      Key* const slot = std::lower_bound(gone + 1, end, newest) - 1;  // last key below newest
      std::memmove(gone, gone + 1, static_cast<std::size_t>(slot - gone) * sizeof(Key));
      *slot = newest;
    } else {
      Key* const slot = std::upper_bound(begin, gone, newest);  // first key above newest
      std::memmove(slot + 1, slot, static_cast<std::size_t>(gone - slot) * sizeof(Key));
      *slot = newest;
    }
  }

 private:
  std::vector<Key> keys_;
};

}  // namespace siglab::detail
