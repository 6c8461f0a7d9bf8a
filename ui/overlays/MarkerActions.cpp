#include "overlays/MarkerActions.h"

#include "MainWindow.h"
#include "overlays/AnnotationOverlay.h"
#include "panels/MarkersPanel.h"
#include "report/ReportActions.h"
#include "timeline/TimelineSelection.h"
#include "timeline/TimelineWidget.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QMenu>

#include <iterator>

namespace dspark::ui {

// Colours of new markers, in turn: distinct from the stage bands and the selection's orange.
static const char* const kMarkerColors[] = {"#2563eb", "#db2777", "#059669", "#7c3aed", "#ca8a04", "#0891b2"};

MarkerActions::MarkerActions(MainWindow* window)
    : QObject(window), m_window(window), m_overlay(window->reports()->annotations())
{
    m_panel = new MarkersPanel(m_overlay, window);
    m_dock = new QDockWidget(window);
    m_dock->setObjectName(QStringLiteral("markersDock"));
    m_dock->setWidget(m_panel);
    m_dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable |
                        QDockWidget::DockWidgetFloatable);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    if (auto* details = window->findChild<QDockWidget*>(QStringLiteral("detailsDock"))) {
        window->tabifyDockWidget(details, m_dock);
        details->raise();
    }
    connect(m_panel, &MarkersPanel::markerActivated, this, &MarkerActions::goTo);

    TimelineWidget* timeline = window->timeline();
    auto make = [&](const char* name, const QKeySequence& key, auto slot) {
        auto* a = new QAction(window);
        a->setObjectName(QString::fromLatin1(name));
        a->setShortcut(key);
        // Single keys act while the timeline has the focus (as W/S/A/D and the annotation keys).
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        timeline->addAction(a);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    QAction* add = make("addMarker", QKeySequence(Qt::Key_M), [this]() { addMarker(); });
    QAction* previous = make("previousMarker", QKeySequence(Qt::Key_Comma), [this]() { goToNext(-1); });
    QAction* next = make("nextMarker", QKeySequence(Qt::Key_Period), [this]() { goToNext(1); });
    auto* menu = new QMenu(window->toolsMenu());
    menu->setObjectName(QStringLiteral("markersMenu"));
    menu->addAction(add);
    menu->addAction(previous);
    menu->addAction(next);
    menu->addSeparator();
    QAction* toggle = m_dock->toggleViewAction();
    toggle->setObjectName(QStringLiteral("showMarkers"));
    menu->addAction(toggle);
    window->toolsMenu()->addMenu(menu);
    window->installEventFilter(this);
    retranslate();
}

QString MarkerActions::nextName() const
{
    // "Marker N" with the first N no marker uses yet.
    for (int n = 1;; ++n) {
        const QString name = tr("Marker %1").arg(n);
        bool used = false;
        for (int i = 0; i < m_overlay->count() && !used; ++i)
            used = m_overlay->at(i).kind == Annotation::Kind::Marker && m_overlay->at(i).text == name;
        if (!used)
            return name;
    }
}

int MarkerActions::addMarkerAt(TimeNs t, std::optional<TimeNs> endNs)
{
    if (!m_overlay->profile())
        return -1;
    int markers = 0;
    for (int i = 0; i < m_overlay->count(); ++i)
        markers += m_overlay->at(i).kind == Annotation::Kind::Marker;
    Annotation a;
    a.kind = Annotation::Kind::Marker;
    a.startNs = t;
    a.endNs = endNs && *endNs > t ? *endNs : t;
    a.text = nextName();
    a.color = QString::fromLatin1(kMarkerColors[markers % std::size(kMarkerColors)]);
    const int index = m_overlay->add(a);
    m_overlay->setSelected(index);
    m_dock->show();
    return index;
}

int MarkerActions::addMarker()
{
    TimelineWidget* timeline = m_window->timeline();
    if (!timeline->profile())
        return -1;
    TimelineSelection* selection = timeline->selection();
    if (selection->hasTimeRange())
        return addMarkerAt(selection->rangeStartNs(), selection->rangeEndNs());
    if (const std::optional<TimeNs> cursor = timeline->cursorNs())
        return addMarkerAt(*cursor);
    return addMarkerAt(timeline->visibleStartNs() + (timeline->visibleEndNs() - timeline->visibleStartNs()) / 2);
}

void MarkerActions::goTo(int index)
{
    if (index < 0 || index >= m_overlay->count())
        return;
    TimelineWidget* timeline = m_window->timeline();
    const Annotation& a = m_overlay->at(index);
    m_overlay->setSelected(index);
    TimelineZoom* zoom = timeline->zoom();
    if (a.endNs > a.startNs) {
        zoom->zoomToInterval(timeline->toSharedNs(a.startNs), timeline->toSharedNs(a.endNs), 0.1);
        return;
    }
    const TimeNs half = zoom->spanNs() / 2;
    const TimeNs centre = timeline->toSharedNs(a.startNs);
    zoom->setRange(centre - half, centre - half + zoom->spanNs());
}

bool MarkerActions::goToNext(int direction)
{
    TimelineWidget* timeline = m_window->timeline();
    if (!timeline->profile())
        return false;
    // From the middle of the view, a pixel's worth aside: the marker shown there is not "next".
    const TimeNs middle = timeline->visibleStartNs() + (timeline->visibleEndNs() - timeline->visibleStartNs()) / 2;
    const TimeNs slack = std::max<TimeNs>(1, TimeNs(timeline->scale().nsPerPx()));
    auto centreOf = [](const Annotation& a) { return a.startNs + (a.endNs - a.startNs) / 2; };
    int best = -1;
    for (int i = 0; i < m_overlay->count(); ++i) {
        const Annotation& a = m_overlay->at(i);
        if (a.kind != Annotation::Kind::Marker)
            continue;
        const TimeNs c = centreOf(a);
        if (direction > 0 ? c <= middle + slack : c >= middle - slack)
            continue;
        if (best < 0 || (direction > 0 ? c < centreOf(m_overlay->at(best)) : c > centreOf(m_overlay->at(best))))
            best = i;
    }
    if (best < 0)
        return false;
    goTo(best);
    return true;
}

void MarkerActions::retranslate()
{
    auto set = [this](const char* name, const QString& text, const QString& tip) {
        if (QAction* a = m_window->action(QString::fromLatin1(name))) {
            a->setText(text);
            a->setStatusTip(tip);
            a->setToolTip(tip);
        }
    };
    set("addMarker", tr("Add &Marker"), tr("Mark the mouse position (or the Ctrl+dragged range) with a named marker"));
    set("previousMarker", tr("P&revious Marker"), tr("Go to the marker before the middle of the view"));
    set("nextMarker", tr("Ne&xt Marker"), tr("Go to the marker after the middle of the view"));
    if (auto* menu = m_window->findChild<QMenu*>(QStringLiteral("markersMenu")))
        menu->setTitle(tr("&Markers"));
    m_dock->setWindowTitle(tr("Markers"));
}

bool MarkerActions::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && watched == static_cast<QObject*>(m_window.data()))
        retranslate();
    return false;
}

} // namespace dspark::ui
