// Analysis stages (spectrogram, stft, find-peaks): they end a chain and write a matrix or a table;
// against SciPy 1.10 on awkward sizes and channel counts, streamed byte for byte as in memory, and
// refusing what SciPy refuses by the parameter's name, before any output.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <tuple>
#include <random>

#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "siglab/analysis_stage.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/find_peaks.hpp"
#include "siglab/istft.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/spectrogram.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

namespace fs = std::filesystem;

// `c` channels of n samples with plateaus (values rounded to a tenth) where `plateaus`.
std::vector<std::vector<double>> signalOf(std::size_t n, std::size_t c, std::mt19937_64& rng, bool plateaus = false) {
  std::normal_distribution<double> normal;
  std::vector<std::vector<double>> channels(c, std::vector<double>(n));
  for (auto& channel : channels) {
    for (double& v : channel) v = plateaus ? std::round(normal(rng) * 3) / 10 : normal(rng);
  }
  return channels;
}

// The channels as an input file (.npy: N x C where C > 1).
std::string writeInput(const test::TempDir& dir, const std::string& name, const std::vector<std::vector<double>>& x) {
  const std::string path = dir.file(name + ".npy");
  if (x.size() == 1) {
    writeSignal(path, x.front());
  } else {
    std::vector<std::span<const double>> spans(x.begin(), x.end());
    writeChannels(path, spans);
  }
  return path;
}

// The CPU engines, for a stage before the analysis.
const BackendList& noEngines() {
  static const BackendList engines = [] {
    BackendList list;
    list.push_back(std::make_unique<CpuSerialBackend>());
    list.push_back(std::make_unique<CpuParallelBackend>());
    return list;
  }();
  return engines;
}

// Runs `chain` on the channels in memory into `out`.
PipelineReport inMemory(const std::string& chain, const std::vector<std::vector<double>>& x, const std::string& out,
                        const std::string& engine = "auto") {
  ChannelSource source;
  source.channels.assign(x.begin(), x.end());
  PipelineOptions options;
  options.engines.assign(parseChain(chain).stages.size(), engine);
  return runPipeline(parseChain(chain), source, FileSink{out, {}}, noEngines(), options);
}

// Runs `chain` on the file, streamed in blocks of `block` samples, into `out`.
PipelineReport streamed(const std::string& chain, const std::string& in, const std::string& out, std::size_t block) {
  PipelineOptions options;
  options.streaming = Streaming::always;
  options.blockSamples = block;
  return runPipeline(parseChain(chain), FileSource{in, {}}, FileSink{out, {}}, noEngines(), options);
}

// Runs the script's checks: each prints "ok" or what differs; the test fails naming the case.
void expectScipyAgrees(const test::TempDir& dir, const std::string& checks) {
  const std::string script = dir.file("check.py");
  const std::string report = dir.file("report.txt");
  test::writeFile(script, "import numpy as np, scipy.signal as s, warnings\nwarnings.simplefilter('ignore')\nlines = []\n" +
                              checks + "open('" + report + "', 'w').write('\\n'.join(lines))\n");
  std::string error;
  ASSERT_TRUE(test::runPython(script, &error)) << error;
  std::istringstream lines(test::readFile(report));
  std::size_t cases = 0;
  for (std::string line; std::getline(lines, line); ++cases) EXPECT_EQ(line.substr(line.find(": ") + 2), "ok") << line;
  EXPECT_GT(cases, 0u);
}

// Python: compares our .npy with scipy's (frames x [planes x] frequencies, planes re/im per channel).
constexpr const char* kCompareSpectrogram = R"(
def spec_case(name, ours, x, fn, **kw):
    a = np.load(ours)
    x = np.asarray(x)
    f, t, S = fn(x, **kw)
    if S.size == 0:
        lines.append(name + ': ' + ('ok' if a.size == 0 else 'ours has %d values, scipy none' % a.size))
        return
    if fn is s.stft or kw.get('mode') == 'complex':
        S = np.stack([S.real, S.imag], axis=-3) if x.ndim == 1 else np.stack([S.real, S.imag], axis=1).reshape(-1, *S.shape[-2:])
    want = np.moveaxis(S, -1, 0)  # frames first
    if want.ndim == 3 and want.shape[1] == 1:
        want = want[:, 0, :]
    if a.shape != want.shape:
        lines.append(name + ': shape %s, scipy %s' % (a.shape, want.shape))
        return
    err = np.max(np.abs(a - want)) / max(np.max(np.abs(want)), 1e-300)
    lines.append(name + ': ' + ('ok' if err < 1e-12 else 'relative error %g' % err))
)";

TEST(AnalysisStages, SpectrogramAndStftAgreeWithScipyOnAwkwardSizesAndChannels) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  std::string checks = kCompareSpectrogram;
  int k = 0;
  // 0 and 1 samples, shorter than nperseg (cut to it), not a multiple of the hop; 1 and 2 channels.
  for (const std::size_t n : {0, 1, 100, 1001}) {
    for (const std::size_t c : {1, 2}) {
      const auto x = signalOf(n, c, rng);
      const std::string in = writeInput(dir, "in" + std::to_string(k), x);
      const struct {
        std::string chain, python;
      } cases[] = {
          {"spectrogram", "s.spectrogram"},
          {"spectrogram nperseg=64 noverlap=50 nfft=101 window=hann detrend=linear scaling=spectrum mode=magnitude",
           "s.spectrogram, nperseg=64, noverlap=50, nfft=101, window='hann', detrend='linear', scaling='spectrum', mode='magnitude'"},
          {"spectrogram nperseg=33 mode=complex detrend=none window=tukey tukey-alpha=0.5",
           "s.spectrogram, nperseg=33, mode='complex', detrend=False, window=('tukey', 0.5)"},
          {"stft nperseg=40", "s.stft, nperseg=40"},
          {"stft nperseg=31 noverlap=7 boundary=none padded=false scaling=psd window=blackman",
           "s.stft, nperseg=31, noverlap=7, boundary=None, padded=False, scaling='psd', window='blackman'"},
      };
      for (const auto& [chain, python] : cases) {
        if (n == 0 && chain.starts_with("stft")) continue;  // SciPy's stft of nothing is empty too, in another shape
        const std::string out = dir.file("out" + std::to_string(k++) + ".npy");
        if (n == 1 && chain.find("noverlap") != std::string::npos) {  // nperseg cut to 1: SciPy refuses it too
          EXPECT_THROW(inMemory(chain, x, out), StageError) << chain;
          continue;
        }
        ASSERT_TRUE(inMemory(chain, x, out).written) << chain;
        checks += "spec_case('" + chain + " on " + std::to_string(n) + " x " + std::to_string(c) + "', '" + out +
                  "', np.load('" + in + "')" + (c > 1 ? ".T" : "") + ", " + python + ")\n";
      }
    }
  }
  expectScipyAgrees(dir, checks);
}

TEST(AnalysisStages, SpectrogramStreamedIsTheInMemoryBytesAndSerialTheParallelBytes) {
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  for (const std::size_t c : {1, 2}) {
    const auto x = signalOf(1203, c, rng);
    const std::string in = writeInput(dir, "in" + std::to_string(c), x);
    for (const std::string chain : {"spectrogram nperseg=100 noverlap=77", "mean 3; stft nperseg=64 noverlap=13",
                                     "decimate 3 ftype=fir; spectrogram nperseg=50 noverlap=10"}) {
      SCOPED_TRACE(chain + ", " + std::to_string(c) + " channels");
      const std::string whole = dir.file("whole.npy");
      ASSERT_TRUE(inMemory(chain, x, whole).written);
      ASSERT_TRUE(inMemory(chain, x, dir.file("serial.npy"), "cpu-serial").written);
      EXPECT_TRUE(test::readFile(dir.file("serial.npy")) == test::readFile(whole));
      for (const std::size_t block : {1, 99, 100000}) {
        const PipelineReport report = streamed(chain, in, dir.file("blocks.npy"), block);
        EXPECT_TRUE(report.plan.stream) << report.plan.why;
        EXPECT_TRUE(test::readFile(dir.file("blocks.npy")) == test::readFile(whole)) << "block " << block;
      }
    }
  }
}

// The engines' frames (FFTW) against the reference (a direct DFT in long double, one thread).
TEST(AnalysisStages, SpectrogramFramesAgreeWithTheDirectDftReference) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = signalOf(700, 1, rng).front();
  for (const SpectrogramMode mode : {SpectrogramMode::psd, SpectrogramMode::magnitude, SpectrogramMode::complex}) {
    SpectrogramOptions o;
    o.nperseg = 100;
    o.nfft = 131;
    o.mode = mode;
    const SpectrogramLayout l = spectrogramLayout(o, x.size(), 50.0);
    const std::vector<double> expected = spectrogramReference(x, l);
    ASSERT_EQ(expected.size(), l.frames * l.planes * l.frequencies);
    FrameTransform transform(l);
    std::vector<double> row(l.planes * l.frequencies);
    double largest = 0, worst = 0;
    for (std::uint64_t f = 0; f < l.frames; ++f) {
      transform.run(x.data() + f * l.step, row.data());
      for (std::size_t k = 0; k < row.size(); ++k) {
        largest = std::max(largest, std::fabs(expected[f * row.size() + k]));
        worst = std::max(worst, std::fabs(row[k] - expected[f * row.size() + k]));
      }
    }
    EXPECT_LE(worst, 1e-12 * largest) << static_cast<int>(mode);
  }
}

// The values of a float64 .npy of any shape (version 1 header).
std::vector<double> npyValues(const std::string& path) {
  const std::string bytes = test::readFile(path);
  const std::size_t header = 10 + (static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8);
  std::vector<double> values((bytes.size() - header) / sizeof(double));
  std::memcpy(values.data(), bytes.data() + header, values.size() * sizeof(double));
  return values;
}

TEST(AnalysisStages, IstftInvertsTheStftStageAsScipyDoesAndRefusesWhatFailsNola) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = signalOf(1001, 1, rng).front();
  for (const auto& [chain, python, segment, overlap] :
       {std::tuple<std::string, std::string, std::size_t, std::size_t>{"stft nperseg=64", "nperseg=64", 64, 32},
        {"stft nperseg=33 noverlap=30 window=hamming", "nperseg=33, noverlap=30, window='hamming'", 33, 30}}) {
    SCOPED_TRACE(chain);
    ASSERT_TRUE(inMemory(chain, {x}, dir.file("z.npy")).written);
    const std::vector<double> z = npyValues(dir.file("z.npy"));
    const std::size_t frequencies = segment / 2 + 1;
    IstftOptions o;
    o.window = chain.find("hamming") != std::string::npos ? "hamming" : "hann";
    o.nperseg = segment;
    o.noverlap = overlap;
    const std::vector<double> back = istft(z, z.size() / 2 / frequencies, frequencies, o);
    const std::vector<double> expected =
        test::scipyEval("signal.istft(signal.stft(x[0], " + python + ")[2], " + python + ")[1]", {x});
    ASSERT_EQ(back.size(), expected.size());
    for (std::size_t i = 0; i < back.size(); ++i) ASSERT_NEAR(back[i], expected[i], 1e-12) << i;
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_NEAR(back[i], x[i], 1e-12) << i;  // the signal back
  }
  // A periodic Hann of 8 with no overlap is zero at every segment's start: NOLA fails.
  IstftOptions o;
  o.nperseg = 8;
  o.noverlap = 0;
  try {
    istft(std::vector<double>(2 * 5 * 2, 1.0), 2, 5, o);
    ADD_FAILURE() << "an STFT that NOLA says cannot be inverted was inverted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "the hann window of nperseg 8 with noverlap 0 fails the NOLA constraint (its overlapped "
                           "squares vanish somewhere), so the STFT cannot be inverted");
  }
}

// scipy.signal.check_COLA's and check_NOLA's documented cases.
TEST(AnalysisStages, ColaAndNolaChecksAreScipys) {
  EXPECT_TRUE(checkCola("boxcar", 0, 100, 75));
  EXPECT_FALSE(checkCola("boxcar", 0, 100, 25));
  EXPECT_TRUE(checkCola("hann", 0, 120, 60));
  EXPECT_TRUE(checkCola("hann", 0, 120, 80));
  EXPECT_TRUE(checkCola("hann", 0, 120, 90));
  EXPECT_TRUE(checkNola("boxcar", 0, 100, 0));
  EXPECT_TRUE(checkNola("hann", 0, 120, 60));
  EXPECT_FALSE(checkNola("hann", 0, 120, 0));
  EXPECT_THROW(checkNola("hann", 0, 120, 120), std::invalid_argument);
}

// Python: compares our table with find_peaks' results.
constexpr const char* kComparePeaks = R"(
def peaks_case(name, ours, x, rate=None, **kw):
    lines_in = open(ours).read().splitlines()
    head = lines_in[0].split(',')
    rows = np.array([[float(v) for v in l.split(',')] for l in lines_in[1:]]).reshape(-1, len(head))
    want = []
    for c, xc in enumerate(np.atleast_2d(x)):
        p, props = s.find_peaks(xc, **kw)
        cols = {'channel': np.full(len(p), c + 1.0), 'index': p, 'height': xc[p]}
        if rate: cols['time'] = p / rate
        if 'prominences' in props:
            cols.update(prominence=props['prominences'], left_base=props['left_bases'], right_base=props['right_bases'])
        if 'widths' in props:
            cols.update(width=props['widths'], width_height=props['width_heights'], left_ip=props['left_ips'], right_ip=props['right_ips'])
        want.append(np.column_stack([np.asarray(cols[h], dtype=float) for h in head]) if len(p) else np.zeros((0, len(head))))
    want = np.concatenate(want)
    if 'channel' in head:
        want = want[np.lexsort((want[:, 0], want[:, 1]))]
    if rows.shape != want.shape:
        lines.append(name + ': shape %s, scipy %s' % (rows.shape, want.shape))
    elif not np.array_equal(rows, want):
        lines.append(name + ': max difference %g' % np.max(np.abs(rows - want)))
    else:
        lines.append(name + ': ok')
)";

TEST(AnalysisStages, FindPeaksAgreesWithScipyStreamedOrNotOnAwkwardSizesAndChannels) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  std::string checks = kComparePeaks;
  int k = 0;
  const struct {
    std::string chain, python;
    bool plateaus;
  } cases[] = {
      {"find-peaks", "", true},
      {"find-peaks height=0.5 threshold=0.1", "height=0.5, threshold=0.1", true},
      {"find-peaks distance=7", "distance=7", false},
      {"find-peaks distance=2.5 height=0", "distance=2.5, height=0", false},
      {"find-peaks prominence=1 wlen=20", "prominence=1, wlen=20", true},
      {"find-peaks prominence=0.5", "prominence=0.5", false},
      {"find-peaks width=1.5 wlen=31.5 rel-height=0.8 distance=4", "width=1.5, wlen=31.5, rel_height=0.8, distance=4", false},
      {"find-peaks width=0 prominence=0 wlen=9", "width=0, prominence=0, wlen=9", true},
  };
  for (const std::size_t n : {0, 1, 1001}) {
    for (const std::size_t c : {1, 2}) {
      for (const auto& [chain, python, plateaus] : cases) {
        const auto x = signalOf(n, c, rng, plateaus);
        const std::string in = writeInput(dir, "in" + std::to_string(k), x);
        const std::string out = dir.file("out" + std::to_string(k++) + ".csv");
        ASSERT_TRUE(inMemory(chain, x, out).written) << chain;
        for (const std::size_t block : {2, 7}) {
          if (n == 0) break;  // no file holds nothing
          streamed(chain, in, dir.file("blocks.csv"), block);
          EXPECT_EQ(test::readFile(dir.file("blocks.csv")), test::readFile(out)) << chain << ", block " << block;
        }
        checks += "peaks_case('" + chain + " on " + std::to_string(n) + " x " + std::to_string(c) + "', '" + out +
                  "', np.load('" + in + "')" + (c > 1 ? ".T" : "") + (python.empty() ? "" : ", " + python) + ")\n";
      }
    }
  }
  expectScipyAgrees(dir, checks);
}

// SciPy's (min, max) form: height=2,5 or height=(2,5), either end left out as SciPy's None.
TEST(AnalysisStages, FindPeaksIntervalsAgreeWithScipyStreamedOrNot) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  std::string checks = kComparePeaks;
  int k = 0;
  const struct {
    std::string chain, python;
    bool plateaus;  // (not with distance: SciPy orders equal peaks by NumPy's unstable argsort)
  } cases[] = {
      {"find-peaks height=0.2,1.5 threshold=(0.05,0.8)", "height=(0.2, 1.5), threshold=(0.05, 0.8)", true},
      {"find-peaks height=,1 threshold-max=0.5", "height=(None, 1), threshold=(None, 0.5)", true},
      {"find-peaks prominence=(0.3,2) wlen=15", "prominence=(0.3, 2), wlen=15", true},
      {"find-peaks width=1,4 prominence-max=3 wlen=21 distance=3", "width=(1, 4), prominence=(None, 3), wlen=21, distance=3", false},
      {"find-peaks width-max=2.5 wlen=11", "width=(None, 2.5), wlen=11", true},
  };
  for (const std::size_t n : {1, 1001}) {
    for (const auto& [chain, python, plateaus] : cases) {
      const auto x = signalOf(n, 1, rng, plateaus);
      const std::string in = writeInput(dir, "in" + std::to_string(k), x);
      const std::string out = dir.file("out" + std::to_string(k++) + ".csv");
      ASSERT_TRUE(inMemory(chain, x, out).written) << chain;
      streamed(chain, in, dir.file("blocks.csv"), 7);
      EXPECT_EQ(test::readFile(dir.file("blocks.csv")), test::readFile(out)) << chain;
      checks += "peaks_case('" + chain + " on " + std::to_string(n) + "', '" + out + "', np.load('" + in + "'), " +
                python + ")\n";
    }
  }
  expectScipyAgrees(dir, checks);
}

TEST(AnalysisStages, FindPeaksIntervalsSayWhatIsWrong) {
  const auto refusal = [](const std::string& chain) {
    try {
      parseChain(chain);
    } catch (const StageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refusal("find-peaks height=1,2,3"),
            "stage 1 (find-peaks): height must be a number or an interval MIN,MAX (either may be left out), got \"1,2,3\"");
  EXPECT_EQ(refusal("find-peaks height=,"),
            "stage 1 (find-peaks): height must be a number or an interval MIN,MAX (either may be left out), got \",\"");
  EXPECT_EQ(refusal("find-peaks height=1,2 height-max=3"), "stage 1 (find-peaks): height-max is given twice");
  EXPECT_EQ(refusal("find-peaks distance=1,2"), "stage 1 (find-peaks): distance must be a number, got \"1,2\"");
  EXPECT_EQ(refusal("find-peaks width=-1,2"),
            "stage 1 (find-peaks): width must be a finite number from 0 to 1.79769e+308, got -1");
  const Pipeline both = parseChain("find-peaks height=(-1,2.5)");
  EXPECT_EQ(std::get<double>(both.stages[0].values.at("height")), -1.0);
  EXPECT_EQ(std::get<double>(both.stages[0].values.at("height-max")), 2.5);
}

TEST(AnalysisStages, FindPeaksWritesTimeWithARateAndJsonByExtension) {
  test::TempDir dir;
  const std::vector<std::vector<double>> x = {{0, 2, 0, 1, 1, 0, 5, 0}};
  ChannelSource source;
  source.channels.assign(x.begin(), x.end());
  source.sampleRate = 4.0;
  const PipelineReport report =
      runPipeline(parseChain("find-peaks height=1.5"), source, FileSink{dir.file("p.json"), {}}, noEngines());
  EXPECT_EQ(report.wrote, "2 peaks (JSON table, one row a peak)");
  EXPECT_EQ(test::readFile(dir.file("p.json")),
            "{\"columns\": [\"index\", \"time\", \"height\"], \"rows\": [\n  [1, 0.25, 2],\n  [6, 1.5, 5]\n]}\n");
}

TEST(AnalysisStages, FindPeaksProminenceWithoutWlenRunsInMemoryAndSaysWhy) {
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  const std::string in = writeInput(dir, "in", signalOf(500, 1, rng));
  const PipelineReport report = streamed("find-peaks prominence=1", in, dir.file("p.csv"), 64);
  EXPECT_FALSE(report.plan.stream);
  EXPECT_NE(report.plan.why.find("give wlen to stream"), std::string::npos) << report.plan.why;
}

// What SciPy refuses, refused before any output by the parameter's name and range; an analysis
// that is not last, a signal sink or an output of the wrong kind likewise.
TEST(AnalysisStages, BadParametersAndPlacesAreRefusedByNameBeforeAnyOutput) {
  test::TempDir dir;
  const std::vector<std::vector<double>> x = {std::vector<double>(1000, 1.0)};
  const auto refusal = [&](const std::string& chain, const std::string& out = "out.npy") -> std::string {
    try {
      inMemory(chain, x, dir.file(out));
    } catch (const StageError& e) {
      return e.what();
    }
    return "taken";
  };
  EXPECT_EQ(refusal("spectrogram nperseg=64 noverlap=64"), "stage 1 (spectrogram): noverlap must be from 0 to nperseg - 1 = 63, got 64");
  EXPECT_EQ(refusal("spectrogram nfft=100"), "nfft 100 must be at least nperseg 256");
  EXPECT_EQ(refusal("spectrogram nperseg=5000 noverlap=2000"),
            "noverlap 2000 must be less than nperseg 1000 (nperseg cut to the signal's 1000 samples)");
  EXPECT_EQ(refusal("spectrogram nperseg=0"), "stage 1 (spectrogram): nperseg must be a whole number from 1 to 16777216, got 0");
  EXPECT_EQ(refusal("stft mode=psd"), "stage 1 (stft): \"mode=psd\" is not one of its parameters (nperseg, noverlap, nfft, "
                                      "window, tukey-alpha, detrend, boundary, padded, scaling)");
  EXPECT_EQ(refusal("find-peaks wlen=1", "p.csv"), "stage 1 (find-peaks): wlen must be larger than 1, got 1");
  EXPECT_EQ(refusal("find-peaks distance=0.5", "p.csv"),
            "stage 1 (find-peaks): distance must be a finite number from 1 to 1.79769e+308, got 0.5");
  EXPECT_EQ(refusal("spectrogram; mean 3"), "stage 1 (spectrogram): spectrogram writes a matrix or a table, not a signal, so "
                                            "it must end the chain; stage 2 (mean) follows it");
  EXPECT_EQ(refusal("spectrogram", "out.csv"), "spectrogram writes a float64 .npy matrix: the output must end in .npy, got \"" +
                                                   dir.file("out.csv") + "\"");
  EXPECT_EQ(refusal("mean 3; find-peaks", "p.npy"), "stage 2 (find-peaks): find-peaks writes a table: the output must end "
                                                    "in .csv or .json, got \"" + dir.file("p.npy") + "\"");
  ChannelSource source;
  source.channels.assign(x.begin(), x.end());
  std::vector<double> signalArray(x.front().size());  // a table in memory goes to the report, not into a signal's array
  EXPECT_THROW(runPipeline(parseChain("find-peaks"), source, MemorySink{{std::span<double>(signalArray)}}, noEngines()),
               StageError);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

// Streamed, find-peaks holds a block and wlen / 2 either side of the peaks not yet final.
TEST(AnalysisStages, PeakFinderHoldsOnlyTheHaloItNeeds) {
  PeakOptions o;
  o.prominence = 0.1;
  o.wlen = 101;
  o.distance = 5;
  PeakFinder finder(o, 1000000);
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  std::vector<double> block(1000);
  std::size_t most = 0;
  for (int b = 0; b < 1000; ++b) {
    for (double& v : block) v = normal(rng);
    finder.feed(block);
    most = std::max(most, finder.heldSamples());
  }
  finder.finish();
  EXPECT_LE(most, block.size() + 101 + 10);
}

}  // namespace
}  // namespace siglab
