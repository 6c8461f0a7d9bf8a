#pragma once

#include <QWidget>

#include <optional>

namespace dspark::ui {

class TimelineWidget;

// The time ruler above the lanes: adaptive ticks, relative or clock time, the visible span and a
// cursor readout. Dragging on it zooms to the dragged interval; double-click fits everything.
class TimeRuler : public QWidget {
    Q_OBJECT
public:
    explicit TimeRuler(TimelineWidget* timeline);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    TimelineWidget* m_timeline;
    std::optional<double> m_pressX;
    double m_currentX = 0;
};

} // namespace dspark::ui
