#include <gtest/gtest.h>

#include "siglab/report.hpp"

namespace siglab {
namespace {

TEST(ReportCsv, OneLinePerEngineWithTheJsonFieldsAndQuotedTexts) {
  Comparison c;
  c.spec = makeMeanFilter(5);
  c.samples = 1000;
  BackendResult serial;
  serial.name = "cpu-serial";
  serial.run.kernel = {2.0, 1.5, 3.0, 10};
  serial.run.total = serial.run.kernel;
  serial.agrees = true;
  BackendResult gpu;
  gpu.name = "gpu-global";
  gpu.usesGpu = true;
  gpu.run.status = RunStatus::Unavailable;
  gpu.run.message = "no GPU, said \"the driver\"";
  c.results = {serial, gpu};

  const std::string csv = comparisonToCsv(c, "in.txt");
  const std::string header =
      "input,samples,window,mode,dtype,repeat,name,status,message,kernel.median_ms,kernel.min_ms,kernel.max_ms,"
      "transfer.median_ms,total.median_ms,total.min_ms,total.max_ms,speedup_kernel_vs_cpu_serial,"
      "speedup_end_to_end_vs_cpu_serial,speedup_kernel_vs_cpu_parallel,speedup_end_to_end_vs_cpu_parallel,"
      "uses_gpu,kernel_gb_per_s,max_abs_diff,mismatches,bit_identical,agrees,kind,filter\n";
  // 16 bytes a float64 sample (read and written) x 1000 samples in 2 ms: 0.008 GB/s.
  EXPECT_EQ(csv, header +
                     "in.txt,1000,5,zero,f64,10,cpu-serial,ok,,2.0,1.5,3.0,0.0,2.0,1.5,3.0,1.0,1.0,,,false,0.008,0.0,0,"
                     "true,true,correlation,\"correlation W=5 (mean), zero\"\n"
                     "in.txt,1000,5,zero,f64,10,gpu-global,unavailable,\"no GPU, said \"\"the driver\"\"\",,,,,,,,,,,,"
                     "true,,,,,,correlation,\"correlation W=5 (mean), zero\"\n");
}

}  // namespace
}  // namespace siglab
