#include "plot_export.hpp"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFile>
#include <QTemporaryFile>

#include "siglab/io/atomic_file.hpp"
#include "siglab/errors.hpp"

namespace siglab::gui {

void savePlot(QCustomPlot* plot, const QString& path) {
  QByteArray bytes;
  if (path.endsWith(".pdf", Qt::CaseInsensitive)) {
    // QCustomPlot writes PDFs only to a file: write a temporary one, then place its bytes atomically.
    QTemporaryFile pdf;
    if (!pdf.open()) throw InputError(path.toStdString(), "cannot create a temporary file for the PDF");
    pdf.close();
    if (!plot->savePdf(pdf.fileName())) throw InputError(path.toStdString(), "could not render the PDF");
    QFile written(pdf.fileName());
    if (!written.open(QIODevice::ReadOnly)) throw InputError(path.toStdString(), "could not read back the PDF");
    bytes = written.readAll();
  } else if (path.endsWith(".png", Qt::CaseInsensitive)) {
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (!plot->toPixmap(0, 0, 2.0).save(&buffer, "PNG")) throw InputError(path.toStdString(), "could not encode the PNG");
  } else {
    throw InputError(path.toStdString(), "unknown image type: use .png or .pdf");
  }
  writeFileAtomically(path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

}  // namespace siglab::gui
