#pragma once
// The seed program (shared/seeds, 003) as the benchmarks time it: fscanf every value, its serial
// mean filter with zero padding, fprintf("%2.16f\n") each output.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace siglab::bench {

inline constexpr int kSeedWindow = 5;

// The seed program (shared/seeds: fscanf into an array, serialConv, fprintf("%2.16f\n")).
inline void seedProgram(const std::string& input, const std::string& output) {
  std::vector<double> in;
  FILE* file = std::fopen(input.c_str(), "r");
  if (!file) throw std::runtime_error("cannot open " + input);
  for (double v = 0.0; std::fscanf(file, "%lf", &v) == 1;) in.push_back(v);
  std::fclose(file);
  std::vector<double> filter(kSeedWindow, 1.0 / kSeedWindow), out(in.size());
  const auto len = static_cast<long long>(in.size());
  for (long long i = 0; i < len; i++) {
    const long long start = i - kSeedWindow / 2;
    double result = 0.0;
    for (int j = 0; j < kSeedWindow; j++) {
      const long long offPos = start + j;
      if (offPos >= 0 && offPos < len) result += filter[j] * in[offPos];
    }
    out[i] = result;
  }
  file = std::fopen(output.c_str(), "w");
  if (!file) throw std::runtime_error("cannot open " + output);
  for (double v : out) std::fprintf(file, "%2.16f\n", v);
  std::fclose(file);
}

}  // namespace siglab::bench
