#include "plot_export.hpp"

#include <qcustomplot.h>

#include <QBuffer>
#include <QFile>
#include <QPrinter>
#include <QSvgGenerator>
#include <QTemporaryFile>

#include <algorithm>

#include "siglab/io/atomic_file.hpp"
#include "siglab/errors.hpp"

namespace siglab::gui {
namespace {

// A title row above the plot's axes for as long as it lives.
class TemporaryTitle {
 public:
  TemporaryTitle(QCustomPlot* plot, const QString& title) : plot_(plot) {
    if (title.isEmpty()) return;
    plot_->plotLayout()->insertRow(0);
    element_ = new QCPTextElement(plot_, title, QFont(plot_->font().family(), 11, QFont::Bold));
    plot_->plotLayout()->addElement(0, 0, element_);
  }
  ~TemporaryTitle() {
    if (!element_) return;
    plot_->plotLayout()->remove(element_);
    plot_->plotLayout()->simplify();
  }
  TemporaryTitle(const TemporaryTitle&) = delete;
  TemporaryTitle& operator=(const TemporaryTitle&) = delete;

 private:
  QCustomPlot* plot_;
  QCPTextElement* element_ = nullptr;
};

QByteArray renderPdf(QCustomPlot* plot, const QString& path, int width, int height) {
  // QCustomPlot writes PDFs only to a file: write a temporary one, then place its bytes atomically.
  QTemporaryFile pdf;
  if (!pdf.open()) throw InputError(path.toStdString(), "cannot create a temporary file for the PDF");
  pdf.close();
  if (!plot->savePdf(pdf.fileName(), width, height)) throw InputError(path.toStdString(), "could not render the PDF");
  QFile written(pdf.fileName());
  if (!written.open(QIODevice::ReadOnly)) throw InputError(path.toStdString(), "could not read back the PDF");
  return written.readAll();
}

QByteArray renderSvg(QCustomPlot* plot, const QString& title, int width, int height) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QSvgGenerator svg;
  svg.setOutputDevice(&buffer);
  svg.setSize(QSize(width, height));
  svg.setViewBox(QRect(0, 0, width, height));
  svg.setTitle(title);
  QCPPainter painter(&svg);
  plot->toPainter(&painter, width, height);
  painter.end();
  return bytes;
}

}  // namespace

void savePlot(QCustomPlot* plot, const QString& path, const PlotImageOptions& options) {
  const int width = options.width > 0 ? options.width : plot->width();
  const int height = options.height > 0 ? options.height : plot->height();
  const bool asShown = options.width <= 0 && options.height <= 0;
  QByteArray bytes;
  {
    const TemporaryTitle title(plot, options.title);
    if (path.endsWith(".pdf", Qt::CaseInsensitive)) {
      bytes = renderPdf(plot, path, width, height);
    } else if (path.endsWith(".svg", Qt::CaseInsensitive)) {
      bytes = renderSvg(plot, options.title, width, height);
    } else if (path.endsWith(".png", Qt::CaseInsensitive)) {
      QBuffer buffer(&bytes);
      buffer.open(QIODevice::WriteOnly);
      // As shown: twice the pixels for sharpness; at a chosen size: exactly that many.
      const QPixmap pixmap = asShown ? plot->toPixmap(0, 0, 2.0) : plot->toPixmap(width, height, 1.0);
      if (!pixmap.save(&buffer, "PNG")) throw InputError(path.toStdString(), "could not encode the PNG");
    } else {
      throw InputError(path.toStdString(), "unknown image type: use .png, .svg or .pdf");
    }
  }
  plot->replot();  // without the title again
  writeFileAtomically(path.toStdString(), std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

void printPlot(QCustomPlot* plot, QPrinter& printer, const QString& title) {
  {
    const TemporaryTitle heading(plot, title);
    QCPPainter painter(&printer);
    painter.setMode(QCPPainter::pmVectorized);
    painter.setMode(QCPPainter::pmNoCaching);
    const QRectF page = printer.pageLayout().paintRectPixels(printer.resolution());
    const int width = plot->width();
    const int height = plot->height();
    const double scale = std::min(page.width() / width, page.height() / height);
    painter.scale(scale, scale);
    plot->toPainter(&painter, width, height);
    painter.end();
  }
  plot->replot();
}

}  // namespace siglab::gui
