#pragma once

#include "model/Lane.h"

#include <QObject>
#include <QPointer>

#include <optional>

class QDockWidget;

namespace dspark::ui {

class AnnotationOverlay;
class MainWindow;
class MarkersPanel;

// Markers (issue 27), wired through the window's public parts: M marks the mouse position on the
// timeline (or the Ctrl+dragged range) with a named, coloured marker; , and . jump to the previous /
// next marker; the Markers dock lists them (rename, recolour, delete, double-click to go there).
// Markers are annotations of kind Marker: saved with the profile's annotations, painted in exports,
// and every edit is a step of Ctrl+Z / Ctrl+Shift+Z.
class MarkerActions : public QObject {
    Q_OBJECT
public:
    explicit MarkerActions(MainWindow* window);

    MarkersPanel* panel() const { return m_panel; }
    QDockWidget* dock() const { return m_dock; }

    // Adds a point marker at `t` (profile ns) or a range marker [t, endNs); returns its annotation index.
    int addMarkerAt(TimeNs t, std::optional<TimeNs> endNs = std::nullopt);
    // The M key: the Ctrl+dragged range, else the mouse position, else the middle of the view.
    int addMarker();
    // Shows the marker: centred at the current zoom (a point), or zoomed to (a range).
    void goTo(int annotationIndex);
    // The marker before / after the middle of the view (false when there is none).
    bool goToNext(int direction);

private:
    void retranslate();
    bool eventFilter(QObject* watched, QEvent* event) override;
    QString nextName() const;

    QPointer<MainWindow> m_window;
    AnnotationOverlay* m_overlay = nullptr;
    MarkersPanel* m_panel = nullptr;
    QDockWidget* m_dock = nullptr;
};

} // namespace dspark::ui
