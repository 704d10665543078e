#pragma once
#include <QDialog>

#include "siglab/io/file_probe.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace siglab::gui {

// Asks how to read a file the defaults would get wrong (see needsReadChoices): the column and
// header of a delimited text file (or several columns, a channel each), the sample type, offset
// and channel count of raw bytes, all channels of a multi-channel WAV or one; shows the file's
// first lines. Starts from suggestedReadOptions.
class ImportDialog : public QDialog {
  Q_OBJECT
 public:
  ImportDialog(const QString& path, const FileProbe& probe, QWidget* parent = nullptr);

  ReadOptions readOptions() const;
  QString path() const { return path_; }

  // For tests and sessions: the controls, by what they choose.
  QComboBox* formatBox() const { return format_; }
  QComboBox* columnBox() const { return column_; }
  QCheckBox* skipHeaderBox() const { return skipHeader_; }
  QComboBox* decimalBox() const { return decimal_; }
  QComboBox* rawTypeBox() const { return rawType_; }
  QSpinBox* offsetBox() const { return offset_; }
  QComboBox* channelBox() const { return channel_; }  // "all channels" first, then each
  QLineEdit* columnsEdit() const { return columns_; }  // "2,3": those columns, a channel each
  QSpinBox* rawChannelsBox() const { return rawChannels_; }

 private:
  FileFormat chosenFormat() const;  // the "Read as" choice
  void showFormatPage();

  QString path_;
  FileProbe probe_;
  QComboBox* format_ = nullptr;
  QStackedWidget* pages_ = nullptr;
  QComboBox* column_ = nullptr;
  QCheckBox* skipHeader_ = nullptr;
  QComboBox* decimal_ = nullptr;
  QComboBox* rawType_ = nullptr;
  QSpinBox* offset_ = nullptr;
  QComboBox* channel_ = nullptr;
  QLineEdit* columns_ = nullptr;
  QSpinBox* rawChannels_ = nullptr;
  QCheckBox* allowNonFinite_ = nullptr;
};

}  // namespace siglab::gui
