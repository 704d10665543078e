#include "siglab/lab_matmul.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

namespace siglab {
namespace {

constexpr std::int64_t kBlockRows = 16;
constexpr std::int64_t kBlockCols = 512;
constexpr std::int64_t kBlockDepth = 128;

double gamma(std::int64_t k, double u) { return static_cast<double>(k) * u / (1.0 - static_cast<double>(k) * u); }

// One block of rows: C rows [i0, i1) = A rows times B, k-blocked; one clone per instruction set.
[[gnu::target_clones("avx2", "default")]] void blockOfRows(const float* __restrict a, const float* __restrict b,
                                                           float* __restrict c, std::int64_t n, std::int64_t k,
                                                           std::int64_t i0, std::int64_t i1) {
  std::fill(c + i0 * n, c + i1 * n, 0.0f);
  for (std::int64_t j0 = 0; j0 < n; j0 += kBlockCols) {
    const std::int64_t j1 = std::min(n, j0 + kBlockCols);
    for (std::int64_t p0 = 0; p0 < k; p0 += kBlockDepth) {
      const std::int64_t p1 = std::min(k, p0 + kBlockDepth);
      for (std::int64_t i = i0; i < i1; ++i) {
        float* __restrict ci = c + i * n;
        for (std::int64_t p = p0; p < p1; ++p) {
          const float aip = a[i * k + p];
          const float* __restrict bp = b + p * n;
          for (std::int64_t j = j0; j < j1; ++j) ci[j] += aip * bp[j];
        }
      }
    }
  }
}

}  // namespace

double matmulFlops(const MatmulShape& shape) {
  return 2.0 * static_cast<double>(shape.m) * static_cast<double>(shape.n) * static_cast<double>(shape.k);
}

std::vector<float> randomMatrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> values(static_cast<std::size_t>(rows * cols));
  for (float& v : values) {
    do v = dist(rng);
    while (v == 0.0f);
  }
  return values;
}

double matmulErrorFactor(std::int64_t k) { return gamma(k, 0x1p-24) + gamma(k, 0x1p-53); }

std::vector<std::int64_t> matmulRowsToCheck(const MatmulShape& shape, std::int64_t rowLimit) {
  const std::int64_t rows = std::min(rowLimit, shape.m);
  std::vector<std::int64_t> picked;
  if (rows <= 0) return picked;
  constexpr std::int64_t kSampledRows = 64;
  if (matmulFlops(shape) / 2.0 <= static_cast<double>(1 << 28) || rows <= kSampledRows) {
    for (std::int64_t i = 0; i < rows; ++i) picked.push_back(i);
    return picked;
  }
  for (std::int64_t s = 0; s < kSampledRows; ++s) picked.push_back(s * (rows - 1) / (kSampledRows - 1));
  return picked;
}

void checkMatmul(std::span<const float> a, std::span<const float> b, std::span<const float> c, const MatmulShape& shape,
                 std::span<const std::int64_t> rows, LadderRung& rung) {
  const double factor = matmulErrorFactor(shape.k);
  double worstShare = 0.0, worstError = 0.0;
  std::vector<double> exact(static_cast<std::size_t>(shape.n)), magnitude(static_cast<std::size_t>(shape.n));
  for (const std::int64_t i : rows) {
    std::fill(exact.begin(), exact.end(), 0.0);
    std::fill(magnitude.begin(), magnitude.end(), 0.0);
    for (std::int64_t p = 0; p < shape.k; ++p) {
      const double aip = a[static_cast<std::size_t>(i * shape.k + p)];
      const float* bp = b.data() + p * shape.n;
      for (std::int64_t j = 0; j < shape.n; ++j) {
        exact[j] += aip * bp[j];
        magnitude[j] += std::fabs(aip * bp[j]);
      }
    }
    for (std::int64_t j = 0; j < shape.n; ++j) {
      const double value = c[static_cast<std::size_t>(i * shape.n + j)];
      const double error = std::fabs(value - exact[j]);
      const double bound = factor * magnitude[j];
      if (!(error <= bound)) {
        char text[160];
        std::snprintf(text, sizeof text, "WRONG: C[%lld][%lld] = %.9g, float64 product %.9g, bound %.3g",
                      static_cast<long long>(i), static_cast<long long>(j), value, exact[j], bound);
        rung.result = text;
        rung.correct = false;
        return;
      }
      worstError = std::max(worstError, error);
      if (bound > 0.0) worstShare = std::max(worstShare, error / bound);
    }
  }
  char text[160];
  std::snprintf(text, sizeof text, "max |err| %.2g (%.2f of bound), %s rows checked", worstError, worstShare,
                rows.size() == static_cast<std::size_t>(shape.m) ? "all" : std::to_string(rows.size()).c_str());
  rung.result = text;
  rung.correct = true;
}

void matmulSerial(const float* a, const float* b, float* c, const MatmulShape& shape, std::int64_t rows) {
  for (std::int64_t i = 0; i < rows; ++i) {
    for (std::int64_t j = 0; j < shape.n; ++j) {
      float sum = 0.0f;
      for (std::int64_t p = 0; p < shape.k; ++p) sum += a[i * shape.k + p] * b[p * shape.n + j];
      c[i * shape.n + j] = sum;
    }
  }
}

void matmulBlocked(const float* a, const float* b, float* c, const MatmulShape& shape, std::int64_t rows) {
  const std::int64_t blocks = (rows + kBlockRows - 1) / kBlockRows;
#pragma omp parallel for schedule(static)
  for (std::int64_t block = 0; block < blocks; ++block) {
    blockOfRows(a, b, c, shape.n, shape.k, block * kBlockRows, std::min(rows, (block + 1) * kBlockRows));
  }
}

LadderRung matmulOnCpu(bool blocked, std::span<const float> a, std::span<const float> b, const MatmulShape& shape,
                       const MeasureOptions& options) {
  LadderRung rung;
  rung.name = blocked ? "cpu-blocked" : "cpu-serial";
  rung.description = blocked ? "cache blocks of C and B, rows over every core (OpenMP), SIMD along the rows"
                             : "the textbook loop: one output at a time, k innermost, on one core";
  const double budget = blocked ? 4e9 : 2e8;
  const double rowFlops = 2.0 * static_cast<double>(shape.n) * static_cast<double>(shape.k);
  const std::int64_t rows =
      rowFlops > 0.0 ? std::clamp<std::int64_t>(static_cast<std::int64_t>(budget / rowFlops), 1, shape.m) : shape.m;
  std::vector<float> c(static_cast<std::size_t>(shape.m * shape.n), std::numeric_limits<float>::quiet_NaN());
  rung.work = rowFlops * static_cast<double>(rows);
  rung.time = measure(
                  [&] {
                    return timeOnHost([&] {
                      if (blocked) matmulBlocked(a.data(), b.data(), c.data(), shape, rows);
                      else matmulSerial(a.data(), b.data(), c.data(), shape, rows);
                    });
                  },
                  options)
                  .total;
  checkMatmul(a, b, c, shape, matmulRowsToCheck(shape, rows), rung);
  if (rows < shape.m) rung.result += "; timed rows 0.." + std::to_string(rows - 1) + " of " + std::to_string(shape.m);
  return rung;
}

}  // namespace siglab
