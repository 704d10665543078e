#include "import_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QLocale>
#include <QPlainTextEdit>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include <cstdint>
#include <limits>

#include "siglab/io/signal_formats.hpp"

namespace siglab::gui {
namespace {

constexpr int kTextPage = 0;
constexpr int kRawPage = 1;
constexpr int kChannelPage = 2;  // a multi-channel format recognised by its content: WAV, ...
constexpr SampleType kRawTypes[] = {SampleType::f64, SampleType::f32, SampleType::i8,  SampleType::i16, SampleType::i32,
                                    SampleType::i64, SampleType::u8,  SampleType::u16, SampleType::u32, SampleType::u64};

QString formatText(FileFormat format) { return QString::fromUtf8(std::string(signalFormatDescription(format)).c_str()); }
QVariant formatData(FileFormat format) { return QString::fromUtf8(std::string(format.name()).c_str()); }

QWidget* formPage(QFormLayout*& form) {
  auto* page = new QWidget;
  form = new QFormLayout(page);
  form->setContentsMargins(0, 0, 0, 0);
  return page;
}

}  // namespace

ImportDialog::ImportDialog(const QString& path, const FileProbe& probe, QWidget* parent)
    : QDialog(parent), path_(path), probe_(probe) {
  setWindowTitle(tr("Open %1").arg(QFileInfo(path).fileName()));
  const ReadOptions suggested = suggestedReadOptions(probe);

  format_ = new QComboBox;
  if (probe.format != FileFormat::text) {  // recognised by its content: read as that
    format_->addItem(formatText(probe.format), formatData(probe.format));
  } else {
    format_->addItem(tr("Text: numbers in lines or columns"), formatData(FileFormat::text));
    format_->addItem(formatText(FileFormat::raw), formatData(FileFormat::raw));
    format_->setCurrentIndex(probe.binary ? 1 : 0);
  }
  format_->setToolTip(tr("How the file's bytes are read"));

  QFormLayout* form = nullptr;
  pages_ = new QStackedWidget;
  pages_->addWidget(formPage(form));
  column_ = new QComboBox;
  column_->addItem(tr("the only number on each line"), 0);
  for (std::size_t c = 1; c <= std::max<std::size_t>(probe.columns, 1); ++c) {
    const QString name = probe.header && c <= probe.headerNames.size()
                             ? QString::fromStdString(probe.headerNames[c - 1])
                             : QString();
    column_->addItem(name.isEmpty() ? tr("column %1").arg(c) : tr("column %1: %2").arg(c).arg(name),
                     static_cast<qulonglong>(c));
  }
  column_->setCurrentIndex(column_->findData(static_cast<qulonglong>(suggested.column)));
  column_->setToolTip(tr("Which field of each line to read (as siglab-cli --column K)"));
  form->addRow(tr("&Column"), column_);
  columns_ = new QLineEdit;
  columns_->setPlaceholderText(probe.columns > 1 ? tr("e.g. 1,2 (of the %1 columns found), a channel each").arg(probe.columns)
                                                 : tr("e.g. 2,3, a channel each"));
  columns_->setValidator(new QRegularExpressionValidator(QRegularExpression(R"(\s*\d+(\s*,\s*\d+)*\s*)"), columns_));
  columns_->setToolTip(tr("Several columns, one channel each (as siglab-cli --columns 2,3); empty: the column above"));
  form->addRow(tr("Or c&olumns"), columns_);
  skipHeader_ = new QCheckBox(tr("The first line is a &header: skip it"));
  skipHeader_->setChecked(suggested.skipHeader);
  skipHeader_->setToolTip(tr("Ignore the first line that is neither blank nor a comment (as --skip-header)"));
  form->addRow(QString(), skipHeader_);
  decimal_ = new QComboBox;
  decimal_->addItem(tr("point: 1.5"), QChar('.'));
  decimal_->addItem(tr("comma: 1,5 (fields separated by ; tabs or blanks)"), QChar(','));
  decimal_->setCurrentIndex(decimal_->findData(QChar(suggested.decimal)));
  decimal_->setToolTip(tr("The decimal mark of the numbers (as --decimal)"));
  form->addRow(tr("&Decimal mark"), decimal_);

  pages_->addWidget(formPage(form));
  rawType_ = new QComboBox;
  for (SampleType t : kRawTypes) {
    const std::string_view name = sampleTypeName(t);
    rawType_->addItem(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())), static_cast<int>(t));
  }
  rawType_->setToolTip(tr("Little-endian sample type (as --raw TYPE)"));
  form->addRow(tr("Sample &type"), rawType_);
  offset_ = new QSpinBox;
  offset_->setRange(0, std::numeric_limits<int>::max());
  offset_->setSuffix(tr(" bytes"));
  offset_->setToolTip(tr("Bytes to skip before the first sample, e.g. a header (as --offset BYTES)"));
  form->addRow(tr("&Offset"), offset_);
  rawChannels_ = new QSpinBox;
  rawChannels_->setRange(1, 1024);
  rawChannels_->setValue(static_cast<int>(suggested.rawChannels));
  rawChannels_->setToolTip(tr("Channels interleaved frame by frame (as --channels C); each shows as a lane. A file too "
                              "large for memory is viewed from its mapping one channel at a time: the first, then "
                              "the one chosen above the plot"));
  form->addRow(tr("C&hannels"), rawChannels_);
  form->addRow(QString(), new QLabel(tr("The file holds %1 bytes.").arg(QLocale().toString(static_cast<qulonglong>(probe.bytes)))));

  pages_->addWidget(formPage(form));
  channel_ = new QComboBox;
  channel_->addItem(tr("all %1 channels").arg(probe.wavChannels), 0);
  for (std::size_t c = 1; c <= std::max<std::size_t>(probe.wavChannels, 1); ++c) {
    const QString side = probe.wavChannels == 2 ? (c == 1 ? tr(" (left)") : tr(" (right)")) : QString();
    channel_->addItem(tr("channel %1%2").arg(c).arg(side), static_cast<qulonglong>(c));
  }
  channel_->setToolTip(tr("Every channel, a lane each, or one channel (as --channel K): the others are not loaded"));
  form->addRow(tr("C&hannel"), channel_);
  auto* note = new QLabel(tr("This file has %1 channels. A file too large for memory is viewed from its mapping "
                             "one channel at a time: the one chosen here (channel 1 with all), then the one "
                             "chosen above the plot.")
                              .arg(probe.wavChannels));
  note->setWordWrap(true);
  form->addRow(QString(), note);

  allowNonFinite_ = new QCheckBox(tr("Keep NaN and infinite samples (else they are an error)"));

  auto* preview = new QPlainTextEdit;
  preview->setReadOnly(true);
  preview->setLineWrapMode(QPlainTextEdit::NoWrap);
  QStringList lines;
  for (const std::string& line : probe.preview) lines << QString::fromStdString(line);
  preview->setPlainText(lines.isEmpty() ? tr("(no text to show)") : lines.join('\n'));
  preview->setMaximumHeight(140);
  preview->setVisible(probe.format == FileFormat::text && !probe.binary);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* top = new QFormLayout;
  top->addRow(tr("Read as"), format_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(tr("<b>%1</b> needs a choice before it can be read.").arg(QFileInfo(path).fileName().toHtmlEscaped())));
  layout->addLayout(top);
  layout->addWidget(pages_);
  layout->addWidget(allowNonFinite_);
  layout->addWidget(preview);
  layout->addWidget(buttons);
  connect(format_, &QComboBox::currentIndexChanged, this, &ImportDialog::showFormatPage);
  showFormatPage();
}

FileFormat ImportDialog::chosenFormat() const {
  return signalFormatNamed(format_->currentData().toString().toStdString()).value_or(FileFormat::text);
}

void ImportDialog::showFormatPage() {
  const FileFormat format = chosenFormat();
  pages_->setCurrentIndex(format == FileFormat::text ? kTextPage : format == FileFormat::raw ? kRawPage : kChannelPage);
}

ReadOptions ImportDialog::readOptions() const {
  ReadOptions options;
  options.allowNonFinite = allowNonFinite_->isChecked();
  const FileFormat format = chosenFormat();
  if (format == FileFormat::raw) {
    options.format = FileFormat::raw;
    options.rawType = static_cast<SampleType>(rawType_->currentData().toInt());
    options.rawOffset = static_cast<std::uint64_t>(offset_->value());
    options.rawChannels = static_cast<std::size_t>(rawChannels_->value());
  } else if (format == FileFormat::text) {
    options.column = column_->currentData().toULongLong();
    for (const QString& column : columns_->text().split(',', Qt::SkipEmptyParts)) {
      if (!column.trimmed().isEmpty()) options.columns.push_back(column.trimmed().toULongLong());
    }
    options.skipHeader = skipHeader_->isChecked();
    options.decimal = decimal_->currentData().toChar().toLatin1();
  } else {  // a format of channels recognised by its content (WAV, ...): all of them or one
    options.oneChannel = channel_->currentData().toULongLong() > 0;
    if (options.oneChannel) options.channel = channel_->currentData().toULongLong();
  }
  return options;
}

}  // namespace siglab::gui
