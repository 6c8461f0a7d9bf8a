#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <functional>
#include <optional>

class QPainter;

namespace dspark::ui {

// Writes anything that paints itself (a report page, a chart) to PNG, SVG or PDF with the same
// painting code. Sizes are logical pixels; `scale` is the device pixel ratio of raster output (a PNG
// of 1600×900 at scale 2 has 3200×1800 pixels); SVG and PDF are vector output at the logical size.
enum class ImageFormat { Png, Svg, Pdf };
using PaintFunction = std::function<void(QPainter& painter, const QSizeF& size)>;

// By suffix (.png, .svg, .pdf, case-insensitive); nullopt for anything else.
std::optional<ImageFormat> imageFormatForPath(const QString& path);
const char* imageFormatSuffix(ImageFormat format);

// The page as an image (for the clipboard and PNG), `scale` × the logical size in pixels.
QImage renderImage(const QSize& logicalSize, double scale, const PaintFunction& paint);
// Writes the file; returns an empty string or one line naming the file and the problem.
QString writeImage(const QString& path, ImageFormat format, const QSize& logicalSize, double scale,
                   const PaintFunction& paint, const QString& title = {});
// Largest side in pixels of a raster export (bigger requests are refused with an error).
constexpr int kMaxImageSide = 32768;

} // namespace dspark::ui
