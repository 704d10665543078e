// siglab.signal.welch's native part: core's Welch spectrum on one channel, on the engine
// core's rule picks (siglab/welch_engine.hpp), as siglab-cli spectrum and the desktop pick it.
#include "spectrum_binding.hpp"

#include <pybind11/numpy.h>

#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine_lists.hpp"
#include "siglab/spectrum.hpp"
#include "spectrum_engine.hpp"

namespace py = pybind11;

namespace siglab::python {
namespace {

// Welch's spectrum of one channel on `engine` (auto, cpu, gpu), by the one rule the CLI's spectrum
// command and the desktop follow (chooseWelchEngine). Returns (frequencies, power, note).
py::tuple welchSpectrum(const py::array_t<double, py::array::c_style>& x, std::size_t segment, std::size_t overlap,
                        const std::string& window, const std::string& scaling, bool detrend, double rate,
                        const std::string& engine, const py::object& devices) {
  WelchOptions options;
  options.segment = segment;
  options.overlap = overlap;
  const std::optional<SpectrumWindow> parsed = parseSpectrumWindow(window);
  if (!parsed) throw std::invalid_argument("window must be hann, hamming, blackman or boxcar, not \"" + window + "\"");
  options.window = *parsed;
  options.scaling = scaling == "spectrum" ? SpectrumScaling::spectrum : SpectrumScaling::density;
  options.detrend = detrend ? Detrend::constant : Detrend::none;
  options.sampleRate = rate;
  const std::span<const double> samples(x.data(), static_cast<std::size_t>(x.size()));
  const std::vector<int> deviceList = deviceListOf(devices).value_or(std::vector<int>{});
  WelchEngineChoice choice = welchEngineHere(engine, deviceList);  // core's rule: refuses an unknown engine
  Spectrum spectrum;
  {
    py::gil_scoped_release release;
    validate(options, samples.size());
    spectrum = welchOn(samples, options, choice);
  }
  const std::string note = choice.note();
  return py::make_tuple(py::array_t<double>(static_cast<py::ssize_t>(spectrum.frequency.size()), spectrum.frequency.data()),
                        py::array_t<double>(static_cast<py::ssize_t>(spectrum.power.size()), spectrum.power.data()), note);
}

}  // namespace

void bindSpectrum(py::module_& m) {
  m.def("welch", &welchSpectrum, py::arg("x"), py::arg("segment"), py::arg("overlap"), py::arg("window"),
        py::arg("scaling"), py::arg("detrend"), py::arg("rate"), py::arg("engine"), py::arg("devices"));
}

}  // namespace siglab::python
