#include "report/ImageExport.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFileInfo>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgGenerator>

#include <cmath>

namespace dspark::ui {

std::optional<ImageFormat> imageFormatForPath(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png"))
        return ImageFormat::Png;
    if (suffix == QLatin1String("svg"))
        return ImageFormat::Svg;
    if (suffix == QLatin1String("pdf"))
        return ImageFormat::Pdf;
    return std::nullopt;
}

const char* imageFormatSuffix(ImageFormat format)
{
    switch (format) {
    case ImageFormat::Png: return "png";
    case ImageFormat::Svg: return "svg";
    case ImageFormat::Pdf: return "pdf";
    }
    return "png";
}

// QSvgGenerator writes the root's width/height in mm for its resolution, which viewers turn back into
// pixels at different dpi (QtSvg at 90, browsers at 96). Plain pixel sizes mean the same everywhere;
// the viewBox already holds the logical size.
static QByteArray withPixelSize(const QByteArray& svg, const QSize& size)
{
    const qsizetype open = svg.indexOf("<svg");
    const qsizetype close = open < 0 ? -1 : svg.indexOf('>', open);
    if (close < 0)
        return svg;
    QString tag = QString::fromUtf8(svg.mid(open, close - open));
    tag.replace(QRegularExpression(QStringLiteral("\\bwidth=\"[^\"]*\"")),
                QStringLiteral("width=\"%1\"").arg(size.width()));
    tag.replace(QRegularExpression(QStringLiteral("\\bheight=\"[^\"]*\"")),
                QStringLiteral("height=\"%1\"").arg(size.height()));
    return svg.left(open) + tag.toUtf8() + svg.mid(close);
}

QImage renderImage(const QSize& logicalSize, double scale, const PaintFunction& paint)
{
    const QSize pixels(int(std::lround(logicalSize.width() * scale)), int(std::lround(logicalSize.height() * scale)));
    if (pixels.isEmpty() || pixels.width() > kMaxImageSide || pixels.height() > kMaxImageSide)
        return {};
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull())
        return {};
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter p(&image);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    paint(p, QSizeF(logicalSize));
    p.end();
    return image;
}

QString writeImage(const QString& path, ImageFormat format, const QSize& logicalSize, double scale,
                   const PaintFunction& paint, const QString& title)
{
    if (logicalSize.width() < 1 || logicalSize.height() < 1)
        return QCoreApplication::translate("ImageExport", "%1: the image size %2×%3 is empty")
            .arg(path)
            .arg(logicalSize.width())
            .arg(logicalSize.height());
    if (!(scale > 0) || scale > 8)
        return QCoreApplication::translate("ImageExport", "%1: the scale factor %2 is outside 0–8")
            .arg(path)
            .arg(scale);
    // Everything is rendered into memory first and written with QSaveFile: a failed export never
    // leaves a truncated file behind.
    QByteArray bytes;
    switch (format) {
    case ImageFormat::Png: {
        const QImage image = renderImage(logicalSize, scale, paint);
        if (image.isNull())
            return QCoreApplication::translate("ImageExport",
                                               "%1: an image of %2×%3 pixels is too large (at most %4 per side)")
                .arg(path)
                .arg(std::lround(logicalSize.width() * scale))
                .arg(std::lround(logicalSize.height() * scale))
                .arg(kMaxImageSide);
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        if (!image.save(&buffer, "PNG"))
            return QCoreApplication::translate("ImageExport", "%1: could not encode the PNG image").arg(path);
        break;
    }
    case ImageFormat::Svg: {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(logicalSize);
        svg.setViewBox(QRect(QPoint(0, 0), logicalSize));
        svg.setResolution(96);
        svg.setTitle(title);
        svg.setDescription(QStringLiteral("DSpark Timeline"));
        QPainter p;
        if (!p.begin(&svg))
            return QCoreApplication::translate("ImageExport", "%1: could not start the SVG document").arg(path);
        paint(p, QSizeF(logicalSize));
        p.end();
        break;
    }
    case ImageFormat::Pdf: {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QPdfWriter pdf(&buffer);
        pdf.setTitle(title);
        pdf.setCreator(QStringLiteral("DSpark Timeline"));
        // One page of exactly the image's size: 1 logical pixel = 1 pt at 72 dpi.
        pdf.setResolution(72);
        pdf.setPageSize(QPageSize(QSizeF(logicalSize), QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        QPainter p;
        if (!p.begin(&pdf))
            return QCoreApplication::translate("ImageExport", "%1: could not start the PDF document").arg(path);
        // Scale the logical page onto the device (resolution rounding may differ by a few units).
        const double sx = double(pdf.width()) / logicalSize.width();
        const double sy = double(pdf.height()) / logicalSize.height();
        p.scale(sx, sy);
        paint(p, QSizeF(logicalSize));
        p.end();
        break;
    }
    }
    if (format == ImageFormat::Svg)
        bytes = withPixelSize(bytes, logicalSize);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("ImageExport", "%1: cannot write (%2)").arg(path, file.errorString());
    if (file.write(bytes) != bytes.size() || !file.commit())
        return QCoreApplication::translate("ImageExport", "%1: writing failed (%2)").arg(path, file.errorString());
    return {};
}

} // namespace dspark::ui
