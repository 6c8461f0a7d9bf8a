#include "panels/EventDetailsPane.h"

#include "common/KindNames.h"
#include "timeline/EventPalette.h"
#include "timeline/TimeFormat.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace dspark::ui {

static constexpr int LinkRole = Qt::UserRole + 1;

static QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

EventDetailsPane::EventDetailsPane(QWidget* parent) : QWidget(parent)
{
    m_title = new QLabel(this);
    m_title->setWordWrap(true);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setContentsMargins(6, 4, 6, 4);
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    m_tree = new QTreeWidget(this);
    m_tree->setColumnCount(2);
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_tree->header()->setStretchLastSection(true);
    m_tree->setColumnWidth(0, 170);
    m_tree->setWordWrap(false);
    m_tree->setTextElideMode(Qt::ElideMiddle);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(m_title);
    box->addWidget(m_tree, 1);
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const QVariant v = item->data(0, LinkRole);
        if (v.isValid()) {
            const qulonglong packed = v.toULongLong();
            Q_EMIT linkedEventActivated(EventRef{uint32_t(packed >> 32), uint32_t(packed & 0xffffffffu)});
        }
    });
    connect(m_tree, &QTreeWidget::itemClicked, m_tree, &QTreeWidget::itemActivated);
    refresh();
}

void EventDetailsPane::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        refresh();
}

void EventDetailsPane::setProfile(std::shared_ptr<const Profile> profile)
{
    m_profile = std::move(profile);
    m_event = {};
    m_range.reset();
    refresh();
}

void EventDetailsPane::setEvent(EventRef e, const QString& stepText)
{
    m_event = e;
    m_stepText = stepText;
    m_range.reset();
    refresh();
}

void EventDetailsPane::showTimeRange(TimeNs startNs, TimeNs endNs)
{
    m_event = {};
    m_range = std::make_pair(startNs, endNs);
    refresh();
}

void EventDetailsPane::clear()
{
    m_event = {};
    m_range.reset();
    refresh();
}

QTreeWidgetItem* EventDetailsPane::section(const QString& title)
{
    auto* item = new QTreeWidgetItem(m_tree, {title});
    QFont f = item->font(0);
    f.setBold(true);
    item->setFont(0, f);
    item->setFirstColumnSpanned(true);
    item->setExpanded(true);
    return item;
}

void EventDetailsPane::add(QTreeWidgetItem* parent, const QString& key, const QString& value, EventRef link)
{
    auto* item = new QTreeWidgetItem(parent, {key, value});
    item->setToolTip(0, key);
    item->setToolTip(1, value);
    if (link.valid()) {
        item->setData(0, LinkRole, (qulonglong(link.lane) << 32) | link.index);
        item->setForeground(1, QColor(0x1f, 0x4e, 0x9c));
        item->setToolTip(1, tr("Click to select this event"));
    }
}

QString EventDetailsPane::valueOf(const QString& key) const
{
    for (int s = 0; s < m_tree->topLevelItemCount(); ++s) {
        QTreeWidgetItem* sec = m_tree->topLevelItem(s);
        for (int i = 0; i < sec->childCount(); ++i)
            if (sec->child(i)->text(0) == key)
                return sec->child(i)->text(1);
    }
    return {};
}

QString EventDetailsPane::linkLabel(LinkKind kind, bool incoming)
{
    switch (kind) {
    case LinkKind::HostToDevice: return incoming ? tr("launched by") : tr("launches");
    case LinkKind::OpToDevice: return incoming ? tr("from framework op") : tr("runs on device");
    case LinkKind::CommOpToTask: return incoming ? tr("sub-task of") : tr("sub-task");
    case LinkKind::Flow: return incoming ? tr("flow from") : tr("flow to");
    }
    return {};
}

void EventDetailsPane::refresh()
{
    m_tree->clear();
    m_tree->setHeaderLabels({tr("Property"), tr("Value")});
    const Profile* p = m_profile.get();
    if (p && m_range) {
        const auto [a, b] = *m_range;
        m_title->setText(tr("Time range of %1").arg(formatDuration(b - a)));
        QTreeWidgetItem* sec = section(tr("Time range"));
        add(sec, tr("Start"), formatInUnit(a - p->firstNs(), 1'000'000, 6));
        add(sec, tr("End"), formatInUnit(b - p->firstNs(), 1'000'000, 6));
        add(sec, tr("Duration"), formatDuration(b - a));
        size_t device = 0, host = 0;
        TimeNs deviceBusy = 0;
        for (const Lane& lane : p->lanes) {
            if (lane.info.kind == LaneKind::Counter)
                continue;
            lane.forEachAtDepth(0, a, b, [&](size_t i) {
                if (lane.startNs[i] >= a && lane.startNs[i] < b) {
                    if (isDeviceLane(lane.info.kind)) {
                        ++device;
                        deviceBusy += std::min(b, lane.endNs(i)) - lane.startNs[i];
                    } else if (lane.info.kind == LaneKind::Host) {
                        ++host;
                    }
                }
            });
        }
        const QLocale locale;
        add(sec, tr("Device tasks starting in range"), locale.toString(qulonglong(device)));
        add(sec, tr("Σ device task time (top level)"), formatDuration(deviceBusy));
        add(sec, tr("Host events starting in range (top level)"), locale.toString(qulonglong(host)));
        fitKeyColumn();
        return;
    }
    if (!p || !m_event.valid() || m_event.lane >= p->lanes.size() || m_event.index >= p->lanes[m_event.lane].size()) {
        m_title->setText(tr("No selection — click an event on the timeline"));
        return;
    }
    const EventRef e = m_event;
    const Lane& lane = p->lanes[e.lane];
    const std::string_view name = p->name(e);
    m_title->setText(qs(name));
    QTreeWidgetItem* ev = section(tr("Event"));
    add(ev, tr("Name"), qs(name));
    add(ev, tr("Kind"), eventKindDisplayName(lane.kind[e.index]));
    if (lane.info.kind == LaneKind::Counter && e.index < lane.value.size())
        add(ev, tr("Value"), QString::number(lane.value[e.index], 'g', 10));
    add(ev, tr("Start"), formatInUnit(p->startNs(e) - p->firstNs(), 1'000'000, 6));
    add(ev, tr("Start (clock)"), formatClockTime(p->startNs(e)));
    add(ev, tr("Duration"),
        formatDuration(lane.durationNs[e.index]) + QStringLiteral("  (%1 ns)").arg(lane.durationNs[e.index]));
    add(ev, tr("End"), formatInUnit(p->endNs(e) - p->firstNs(), 1'000'000, 6));
    add(ev, tr("Lane"), QString::fromStdString(lane.info.name));
    add(ev, tr("Process"), QString::fromStdString(lane.info.process));
    if (lane.info.rankIndex >= 0 && lane.info.rankIndex < int(p->ranks.size()))
        add(ev, tr("Rank"), QString::fromStdString(p->ranks[lane.info.rankIndex].label));
    if (lane.info.streamId >= 0)
        add(ev, isDeviceLane(lane.info.kind) ? tr("Stream") : tr("Plane / stream"),
            QString::number(lane.info.streamId));
    if (lane.info.threadId >= 0)
        add(ev, tr("Thread"), QString::number(lane.info.threadId));
    add(ev, tr("Depth"), QString::number(lane.depthOf(e.index)));
    if (lane.corrId[e.index] >= 0)
        add(ev, tr("Correlation id"), QString::number(lane.corrId[e.index]));
    if (!m_stepText.isEmpty())
        add(ev, tr("Step"), m_stepText);

    const std::vector<EventArg> args = p->args(e);
    if (!args.empty()) {
        QTreeWidgetItem* sec = section(tr("Arguments (%1)").arg(args.size()));
        for (const EventArg& a : args)
            add(sec, QString::fromStdString(a.key), QString::fromStdString(a.value));
    }
    const auto out = p->linksFrom(e);
    const auto in = p->linksTo(e);
    auto describe = [&](EventRef other) {
        const Lane& ol = p->lanes[other.lane];
        return tr("%1 — %2 / %3, %4")
            .arg(qs(p->name(other)), QString::fromStdString(ol.info.process), QString::fromStdString(ol.info.name),
                 formatDuration(ol.durationNs[other.index]));
    };
    if (!out.empty() || !in.empty()) {
        QTreeWidgetItem* sec = section(tr("Links (%1)").arg(out.size() + in.size()));
        for (const Link* l : in)
            add(sec, linkLabel(l->kind, true), describe(l->from), l->from);
        for (const Link* l : out)
            add(sec, linkLabel(l->kind, false), describe(l->to), l->to);
    }
    fitKeyColumn();
}

void EventDetailsPane::fitKeyColumn()
{
    // The keys whole when the pane allows it; values keep at least 110 px (they elide in the middle).
    m_tree->resizeColumnToContents(0);
    m_tree->setColumnWidth(0, std::min(m_tree->columnWidth(0) + 8, std::max(120, m_tree->viewport()->width() - 110)));
}

void EventDetailsPane::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitKeyColumn();
}

} // namespace dspark::ui
