#pragma once

#include <QPointer>
#include <QFutureWatcher>
#include <QWidget>

#include <optional>
#include <vector>

#include "loaded_signal.hpp"
#include "siglab/filter_spec.hpp"
#include "siglab/frequency_response.hpp"
#include "siglab/spectrum.hpp"
#include "siglab/statistics.hpp"

class QCheckBox;
class QComboBox;
class QCPGraph;
class QCustomPlot;
class QLabel;
class QTimer;

namespace siglab::gui {

class TaskRunner;
class TaskStatus;

// What the Spectrum tab draws, computed in a worker.
struct SpectrumCurves {
  Spectrum original;
  std::optional<Spectrum> filtered;
  std::optional<FrequencyResponse> response;  // of the filter that made the filtered signal
  QString noResponse;                         // why a filter has none (a median)
  SampleRange range;                          // the samples the spectra cover
  std::size_t segment = 0;                    // the one used (at most the range's length)
  QString problem;                            // why there is nothing to draw, when there is not
  QString engine;                             // what computed the spectra and why: WelchEngineChoice::note()
};

// Welch's PSD (Hann, half overlap, density) of the original and the filtered signal in dB against
// frequency (Hz with a rate, else cycles per sample; linear or logarithmic axis), for the whole
// signal or the plot's visible range, with the filter's response (dB, right axis) over it.
// Computed in the background with its progress and Cancel in a TaskStatus of its own (the window's
// status bar shows it; Esc cancels); the latest request replaces a running one.
class SpectrumView : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kVisibleRefreshMs = 200;

  explicit SpectrumView(QWidget* parent = nullptr);
  ~SpectrumView() override;

  void setOriginal(SignalPtr signal);                                   // drops the filtered one
  void setFiltered(SignalPtr signal, FilterSpec spec);                 // the filter that made it
  void setSampleRate(std::optional<double> sampleRate);
  void setVisibleRange(std::size_t first, std::size_t last);            // used in "visible range" mode
  void setVisibleOnly(bool visibleOnly);
  void setLogFrequency(bool logarithmic);
  void setSegment(std::size_t segment);
  // The GPUs the spectra run on (the Device tab's choice; empty, as without a call: GPU 0): the
  // engine is core's rule for "auto" (chooseWelchEngine), as the CLI's and Python's: cuFFT there,
  // the same bits on any list, FFTW where they cannot run it.
  void setDevices(std::vector<int> devices);

  bool computing() const;
  void cancel();  // the running computation stops; the note says so
  TaskStatus* taskStatus() const;  // for the status bar: what it computes, how far, Cancel
  TaskRunner* tasks() const { return tasks_; }
  const SpectrumCurves& curves() const { return curves_; }
  QCustomPlot* plot() const { return plot_; }
  std::optional<double> sampleRate() const { return sampleRate_; }

 private:
  void recompute();
  void draw();

  QComboBox* segment_ = nullptr;
  QComboBox* range_ = nullptr;
  QCheckBox* logFrequency_ = nullptr;
  QLabel* note_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QCPGraph* originalGraph_ = nullptr;
  QCPGraph* filteredGraph_ = nullptr;
  QCPGraph* responseGraph_ = nullptr;
  QTimer* rangeTimer_ = nullptr;
  QPointer<TaskStatus> status_;  // the status bar owns it once it takes it, and may go first
  TaskRunner* tasks_ = nullptr;
  SignalPtr original_;
  SignalPtr filtered_;
  std::optional<FilterSpec> spec_;
  std::optional<double> sampleRate_;
  std::vector<int> devices_;
  SampleRange visible_{0, 0};
  SpectrumCurves curves_;
};

}  // namespace siglab::gui
