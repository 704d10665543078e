#pragma once
// The matrix-multiply ladder's CPU side: shapes, inputs, the two CPU rungs and the check
// every rung's output goes through. C (m x n) = A (m x k) B (k x n), row-major float32.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "siglab/ladder.hpp"
#include "siglab/measure.hpp"

namespace siglab {

struct MatmulShape {
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
};

// 2 m n k: one multiply and one add per term.
double matmulFlops(const MatmulShape& shape);

// Uniform in [-1, 1] and never zero.
std::vector<float> randomMatrix(std::int64_t rows, std::int64_t cols, std::uint64_t seed);

// The stated bound. Any order of summing the k float32 products (serial, blocked, tiled, fused
// multiply-adds, cuBLAS) gives |c - c_exact| <= gamma_k(2^-24) * sum_p |a_ip| |b_pj| with
// gamma_k(u) = k u / (1 - k u) (Higham, Accuracy and Stability, 3.5). The float64 reference, whose
// products of floats are exact, is itself within gamma_k(2^-53) of it: an output is accepted when
// |c - c_ref| <= (gamma_k(2^-24) + gamma_k(2^-53)) * sum_p |a_ip| |b_pj|. Returns that factor.
double matmulErrorFactor(std::int64_t k);

// Every row when the product has at most 2^28 terms, else 64 rows spread over [0, rowLimit)
// (the first and last included).
std::vector<std::int64_t> matmulRowsToCheck(const MatmulShape& shape, std::int64_t rowLimit);

// Compares `rows` of c with the float64 product within the bound above; sets rung.result and
// rung.correct (a NaN left by a rung that did not write an output fails).
void checkMatmul(std::span<const float> a, std::span<const float> b, std::span<const float> c, const MatmulShape& shape,
                 std::span<const std::int64_t> rows, LadderRung& rung);

// The original program's loop (i, j, then k with a float sum) on rows [0, rows) of C.
void matmulSerial(const float* a, const float* b, float* c, const MatmulShape& shape, std::int64_t rows);
// Blocked and parallel: 16-row blocks over the cores (OpenMP), 512 columns of C by 128 of k at a
// time so both stay in cache, and the innermost loop along a row of B and C (SIMD). Rows [0, rows).
void matmulBlocked(const float* a, const float* b, float* c, const MatmulShape& shape, std::int64_t rows);

// The CPU rungs "cpu-serial" and "cpu-blocked", timed by measure() and checked. Past a budget of
// floating-point operations (2e8 serial, 4e9 blocked) they time a band of the first rows of C, and
// the rung's work (and so its GFLOP/s) is that band's.
LadderRung matmulOnCpu(bool blocked, std::span<const float> a, std::span<const float> b, const MatmulShape& shape,
                       const MeasureOptions& options);

}  // namespace siglab
