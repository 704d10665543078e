#include "stage_form.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>
#include <climits>
#include <cmath>

#include "siglab/stage_registry.hpp"

namespace siglab::gui {
namespace {

constexpr double kLargestShown = 1e15;  // an unbounded Number's spin box stops here

const char* const kWithoutRate = " without a rate)";

// A number's spin box that keeps its value whole: every double reads back as itself (17 decimals
// held), shown with the fewest decimals that say it (0.1, not 0.100000).
class NumberBox : public QDoubleSpinBox {
 public:
  NumberBox() { setDecimals(17); }
  QString textFromValue(double value) const override {
    char text[400];
    const char* end = std::to_chars(text, text + sizeof(text), value, std::chars_format::fixed).ptr;
    const std::string_view fixed(text, static_cast<std::size_t>(end - text));
    const std::size_t dot = fixed.find('.');
    const int digits = dot == std::string_view::npos ? 0 : static_cast<int>(fixed.size() - dot - 1);
    return locale().toString(value, 'f', std::min(digits, decimals()));
  }
};

int wholeBound(double bound) { return static_cast<int>(std::clamp(bound, double{INT_MIN}, double{INT_MAX})); }

// The kind's example value's parameters (its text parameters left empty: an example file is no
// file of the user's), or the defaults where the example does not read.
StageParameters startingValues(const StageKind& kind) {
  try {
    StageParameters values = completeParameters(kind, kind.parseValue(kind.exampleValue()));
    for (const ParameterInfo& info : kind.parameters()) {
      if (info.type == ParameterType::Text && !info.defaultValue) values[info.name] = std::string();
    }
    return values;
  } catch (const std::invalid_argument&) {
    return {};
  }
}

// An optional parameter's row holds a tick ("set": given, else SciPy's None) and its editor ("value").
QCheckBox* givenBoxOf(QWidget* editor) { return editor->findChild<QCheckBox*>("set", Qt::FindDirectChildrenOnly); }
QWidget* valueEditorOf(QWidget* editor, const ParameterInfo& info) {
  return info.optional ? editor->findChild<QWidget*>("value", Qt::FindDirectChildrenOnly) : editor;
}

QString tooltipOf(const ParameterInfo& info) {
  QString tip = QString::fromStdString(info.name + ": " + info.help);
  if (info.type == ParameterType::Whole || info.type == ParameterType::Number) {
    tip += std::isinf(info.max) ? QObject::tr(" (at least %1)").arg(info.min)
                                : QObject::tr(" (%1 to %2)").arg(info.min).arg(info.max);
  }
  return tip;
}

}  // namespace

QString unitText(const std::string& unit, bool hasRate) {
  const std::string::size_type open = unit.find(" (");
  const bool twoUnits = open != std::string::npos && unit.ends_with(kWithoutRate);
  if (!twoUnits) return QString::fromStdString(unit);
  if (hasRate) return QString::fromStdString(unit.substr(0, open));
  return QString::fromStdString(unit.substr(open + 2, unit.size() - open - 2 - std::string(kWithoutRate).size()));
}

StageForm::StageForm(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* top = new QFormLayout;
  kind_ = new QComboBox;
  for (const StageKind* kind : stageKinds()) {
    kind_->addItem(QString::fromUtf8(kind->name().data(), static_cast<int>(kind->name().size())));
    kind_->setItemData(kind_->count() - 1, QString::fromUtf8(kind->summary().data(), static_cast<int>(kind->summary().size())),
                       Qt::ToolTipRole);
  }
  kind_->setToolTip(tr("What the stage computes; each kind's parameters follow"));
  top->addRow(tr("Filter"), kind_);
  layout->addLayout(top);
  summary_ = new QLabel;
  summary_->setWordWrap(true);
  summary_->setStyleSheet("color: #757575;");
  layout->addWidget(summary_);
  auto* rowsHolder = new QWidget;
  rows_ = new QFormLayout(rowsHolder);
  rows_->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(rowsHolder);
  message_ = new QLabel;
  message_->setWordWrap(true);
  message_->setStyleSheet("color: #c62828;");
  message_->setVisible(false);
  layout->addWidget(message_);
  connect(kind_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (shown_) kept_[std::string(shown_->name())] = shownValues();
    showKind(*stageKinds()[static_cast<std::size_t>(index)]);
    emit changed();
  });
  showKind(*stageKinds().front());
}

const StageKind& StageForm::kind() const { return *shown_; }

void StageForm::showKind(const StageKind& kind) {
  while (rows_->rowCount() > 0) rows_->removeRow(0);
  editors_.clear();
  shown_ = &kind;
  parameters_ = kind.parameters();
  summary_->setText(QString::fromUtf8(kind.summary().data(), static_cast<int>(kind.summary().size())));
  for (const ParameterInfo& info : parameters_) {
    QWidget* editor = editorFor(info);
    editors_.push_back(editor);
    rows_->addRow(QString::fromStdString(info.name), editor);
  }
  const auto kept = kept_.find(std::string(kind.name()));
  showValues(kept != kept_.end() ? kept->second : startingValues(kind));
  updateUnits();
}

QWidget* StageForm::editorFor(const ParameterInfo& info) {
  if (info.optional) {
    ParameterInfo plain = info;
    plain.optional = false;
    QWidget* value = editorFor(plain);
    value->setObjectName("value");
    value->setEnabled(false);
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* given = new QCheckBox;
    given->setObjectName("set");
    given->setToolTip(tr("Unticked: not given (SciPy's None)"));
    layout->addWidget(given);
    layout->addWidget(value, 1);
    connect(given, &QCheckBox::toggled, value, &QWidget::setEnabled);
    connect(given, &QCheckBox::toggled, this, &StageForm::changed);
    row->setObjectName(QString::fromStdString(info.name));
    row->setToolTip(tooltipOf(info));
    return row;
  }
  QWidget* editor = nullptr;
  switch (info.type) {
    case ParameterType::Whole: {
      auto* box = new QSpinBox;
      box->setRange(wholeBound(info.min), wholeBound(info.max));
      connect(box, &QSpinBox::valueChanged, this, &StageForm::changed);
      editor = box;
      break;
    }
    case ParameterType::Number: {
      auto* box = new NumberBox;
      box->setRange(std::max(info.min, -kLargestShown), std::min(info.max, kLargestShown));
      box->setSingleStep(info.max <= 1.0 ? 0.05 : 1.0);
      connect(box, &QDoubleSpinBox::valueChanged, this, &StageForm::changed);
      editor = box;
      break;
    }
    case ParameterType::Flag: {
      auto* box = new QCheckBox;
      connect(box, &QCheckBox::toggled, this, &StageForm::changed);
      editor = box;
      break;
    }
    case ParameterType::Choice: {
      auto* box = new QComboBox;
      for (const std::string& choice : info.choices) box->addItem(QString::fromStdString(choice));
      connect(box, &QComboBox::currentIndexChanged, this, &StageForm::changed);
      editor = box;
      break;
    }
    case ParameterType::Text: {
      auto* row = new QWidget;
      auto* layout = new QHBoxLayout(row);
      layout->setContentsMargins(0, 0, 0, 0);
      auto* line = new QLineEdit;
      auto* browse = new QToolButton;
      browse->setText(tr("…"));
      browse->setToolTip(tr("Choose the file"));
      layout->addWidget(line, 1);
      layout->addWidget(browse);
      connect(line, &QLineEdit::textChanged, this, &StageForm::changed);
      connect(browse, &QToolButton::clicked, this, [this, line] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Choose a file"), line->text());
        if (!path.isEmpty()) line->setText(path);
      });
      editor = row;
      break;
    }
  }
  editor->setObjectName(QString::fromStdString(info.name));
  editor->setToolTip(tooltipOf(info));
  return editor;
}

void StageForm::updateUnits() {
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const QString unit = unitText(parameters_[i].unit, sampleRate_.has_value());
    const QString suffix = unit.isEmpty() ? QString() : " " + unit;
    QWidget* editor = valueEditorOf(editors_[i], parameters_[i]);
    if (auto* whole = qobject_cast<QSpinBox*>(editor)) whole->setSuffix(suffix);
    if (auto* number = qobject_cast<QDoubleSpinBox*>(editor)) number->setSuffix(suffix);
  }
}

void StageForm::setSampleRate(std::optional<double> rate) {
  sampleRate_ = rate;
  updateUnits();
}

StageParameters StageForm::shownValues() const {
  StageParameters values;
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const std::string& name = parameters_[i].name;
    if (parameters_[i].optional && !givenBoxOf(editors_[i])->isChecked()) continue;
    QWidget* editor = valueEditorOf(editors_[i], parameters_[i]);
    if (auto* whole = qobject_cast<QSpinBox*>(editor)) values[name] = std::int64_t{whole->value()};
    else if (auto* number = qobject_cast<QDoubleSpinBox*>(editor)) values[name] = number->value();
    else if (auto* flag = qobject_cast<QCheckBox*>(editor)) values[name] = flag->isChecked();
    else if (auto* choice = qobject_cast<QComboBox*>(editor)) values[name] = choice->currentText().toStdString();
    else if (auto* line = editor->findChild<QLineEdit*>()) values[name] = line->text().toStdString();
  }
  return values;
}

void StageForm::showValues(const StageParameters& values) {
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    const auto found = values.find(parameters_[i].name);
    if (parameters_[i].optional) {
      QCheckBox* given = givenBoxOf(editors_[i]);
      const QSignalBlocker quietTick(given);
      given->setChecked(found != values.end());
      valueEditorOf(editors_[i], parameters_[i])->setEnabled(found != values.end());
    }
    if (found == values.end()) continue;
    const ParameterValue& value = found->second;
    QWidget* editor = valueEditorOf(editors_[i], parameters_[i]);
    const QSignalBlocker quiet(editor);
    if (auto* whole = qobject_cast<QSpinBox*>(editor)) {
      if (const auto* v = std::get_if<std::int64_t>(&value)) {
        whole->setValue(static_cast<int>(std::clamp<std::int64_t>(*v, whole->minimum(), whole->maximum())));
      }
    } else if (auto* number = qobject_cast<QDoubleSpinBox*>(editor)) {
      if (const auto* v = std::get_if<double>(&value)) number->setValue(*v);
      if (const auto* v = std::get_if<std::int64_t>(&value)) number->setValue(static_cast<double>(*v));
    } else if (auto* flag = qobject_cast<QCheckBox*>(editor)) {
      if (const auto* v = std::get_if<bool>(&value)) flag->setChecked(*v);
    } else if (auto* choice = qobject_cast<QComboBox*>(editor)) {
      if (const auto* v = std::get_if<std::string>(&value)) choice->setCurrentText(QString::fromStdString(*v));
    } else if (auto* line = editor->findChild<QLineEdit*>()) {
      const QSignalBlocker quietLine(line);
      if (const auto* v = std::get_if<std::string>(&value)) line->setText(QString::fromStdString(*v));
    }
  }
}

void StageForm::setStage(const Stage& stage) {
  if (!stage.kind) return;
  const auto& kinds = stageKinds();
  const auto at = std::find(kinds.begin(), kinds.end(), stage.kind);
  if (at == kinds.end()) return;
  if (shown_) kept_[std::string(shown_->name())] = shownValues();
  kept_[std::string(stage.kind->name())] = stage.values;
  {
    const QSignalBlocker quiet(kind_);
    kind_->setCurrentIndex(static_cast<int>(at - kinds.begin()));
  }
  showKind(*stage.kind);
  emit changed();
}

std::optional<Stage> StageForm::stage(QString* error) const {
  try {
    Stage stage{shown_, completeParameters(*shown_, shownValues())};
    shown_->check(stage.values);
    return stage;
  } catch (const std::invalid_argument& e) {  // StageError, and a builder's own
    if (error) *error = QString::fromUtf8(shown_->name().data(), static_cast<int>(shown_->name().size())) + ": " + e.what();
    return std::nullopt;
  }
}

void StageForm::showMessage(const QString& message) {
  message_->setText(message);
  message_->setVisible(!message.isEmpty());
}

}  // namespace siglab::gui
