#include "odd_spin_box.hpp"

namespace siglab::gui {

OddSpinBox::OddSpinBox(QWidget* parent) : QSpinBox(parent) {
  setSingleStep(2);
  setKeyboardTracking(false);  // a value on the way (1 of 100000) is never taken
}

QValidator::State OddSpinBox::validate(QString& input, int& pos) const {
  const QValidator::State state = QSpinBox::validate(input, pos);
  if (state != QValidator::Acceptable) return state;
  // An even number may still become odd as the user types on (4 -> 41): Intermediate, which the
  // spin box never takes as its value (Enter or leaving the field brings the last odd one back).
  QString number = input.trimmed();
  if (number.startsWith(prefix())) number.remove(0, prefix().size());
  if (number.endsWith(suffix())) number.chop(suffix().size());
  return valueFromText(number.trimmed()) % 2 != 0 ? QValidator::Acceptable : QValidator::Intermediate;
}

}  // namespace siglab::gui
