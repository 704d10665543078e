#pragma once
#include <cmath>

namespace siglab {

// Neumaier's compensated sum: the rounding error of each addition is carried in `compensation`,
// so the total is as if accumulated in about twice the precision (error ~ 2u|sum| + n u^2 sum|x|).
template <typename T>
struct BasicNeumaierSum {
  T sum = 0;
  T compensation = 0;

  void add(T x) {
    const T t = sum + x;
    compensation += std::fabs(sum) >= std::fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  // An infinity or NaN among the terms leaves the plain sum as IEEE gives it (inf, -inf or NaN);
  // the compensation would turn inf into NaN.
  T value() const { return std::isfinite(sum) ? sum + compensation : sum; }
};

using NeumaierSum = BasicNeumaierSum<double>;

}  // namespace siglab
