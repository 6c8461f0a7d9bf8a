#pragma once

#include "report/ImageExport.h"

#include <QSize>
#include <QStringList>

#include <memory>

class QPainter;

namespace dspark {
class ProfileSession;
}

namespace dspark::ui {

class TimelineReport;

// The figure of one matched step pair: a header with the deltas that matter (step wall, effective
// TPOT, mean commit length, exposed communication, the critical path by category), then the baseline
// step above the changed one, both drawn from their step's start on one time scale (the same span and
// pixels per ns), each with its bands, communication brackets and critical path, and one legend.
// Painted with the window's report code (TimelineReport), so PNG, SVG and PDF come from one painter.
class ComparisonFigure {
public:
    ComparisonFigure(ProfileSession& baseline, size_t baselineStep, ProfileSession& changed, size_t changedStep);
    ~ComparisonFigure();

    // "quantity: baseline → changed (Δ, Δ %)" lines of the header.
    const QStringList& deltaLines() const { return m_deltas; }
    const QString& title() const { return m_title; }
    // Height that shows both steps' lanes at `width`.
    QSize preferredSize(int width) const;
    void paint(QPainter& painter, const QSizeF& size) const;
    // Writes the figure (height 0: preferred). An error naming the file, or empty.
    QString exportTo(const QString& path, ImageFormat format, QSize size, double scale = 1.0) const;

private:
    double headerHeight(double width) const;

    std::unique_ptr<TimelineReport> m_baseline;
    std::unique_ptr<TimelineReport> m_changed;
    QString m_title;
    QStringList m_deltas;
};

} // namespace dspark::ui
