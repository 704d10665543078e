#pragma once
#include <QWidget>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "siglab/stage.hpp"

class QComboBox;
class QFormLayout;
class QLabel;

namespace siglab::gui {

// The form of one stage, generated from the registry: a kind selector ("Filter", every kind of
// stageKinds() with its summary) and, for the chosen kind, one row per parameter (a spin box with
// the parameter's range and unit, a check box, a choice or a line of text with a file button),
// checked through the kind as it is typed (completeParameters, check) with the kind's message
// under it. Binding (which may read a file or fit coefficients) is left to the caller's worker.
class StageForm : public QWidget {
  Q_OBJECT
 public:
  explicit StageForm(QWidget* parent = nullptr);

  // The stage as set, complete and checked by its kind, or nothing with the kind's message in `error`.
  std::optional<Stage> stage(QString* error) const;
  // Shows `stage` (its kind chosen, each parameter's value set). Values the kind's widgets cannot
  // hold (outside a spin box's range) are clamped as typing would.
  void setStage(const Stage& stage);
  const StageKind& kind() const;
  // Units read "Hz" with a rate, "x Nyquist" without (the parameter's unit says both).
  void setSampleRate(std::optional<double> rate);
  // A message under the form (the kind's, or binding's), or none.
  void showMessage(const QString& message);

 signals:
  void changed();  // the kind or a value changed

 private:
  void showKind(const StageKind& kind);
  StageParameters shownValues() const;
  void showValues(const StageParameters& values);
  QWidget* editorFor(const ParameterInfo& info);
  void updateUnits();

  QComboBox* kind_ = nullptr;
  QLabel* summary_ = nullptr;
  QFormLayout* rows_ = nullptr;
  QLabel* message_ = nullptr;
  const StageKind* shown_ = nullptr;
  std::vector<ParameterInfo> parameters_;        // the shown kind's
  std::vector<QWidget*> editors_;                // one per parameter
  std::map<std::string, StageParameters> kept_;  // each kind's last values, kept across a switch
  std::optional<double> sampleRate_;
};

// What a unit reads as for a signal with or without a rate: "Hz (x Nyquist without a rate)" is
// "Hz" with one and "x Nyquist" without; any other unit reads as it is.
QString unitText(const std::string& unit, bool hasRate);

}  // namespace siglab::gui
