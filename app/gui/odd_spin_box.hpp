#pragma once
#include <QSpinBox>

namespace siglab::gui {

// A spin box for window lengths: it steps through odd numbers and refuses an even one as it is
// typed (the value stays the last odd one), instead of letting Run find it out. Its range must
// start at an odd number.
class OddSpinBox : public QSpinBox {
  Q_OBJECT
 public:
  explicit OddSpinBox(QWidget* parent = nullptr);

 protected:
  QValidator::State validate(QString& input, int& pos) const override;
};

}  // namespace siglab::gui
