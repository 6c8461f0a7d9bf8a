#include "timeline/LaneActions.h"

#include "session/AnnotationSet.h"
#include "timeline/LaneFilter.h"
#include "timeline/TimelineWidget.h"

#include <QAction>
#include <QEvent>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QSettings>

#include <set>

namespace dspark::ui {

LaneActions::LaneActions(TimelineWidget* timeline, QWidget* window, QMenu* viewMenu)
    : QObject(window), m_timeline(timeline)
{
    m_filter = new QAction(window);
    m_filter->setObjectName(QStringLiteral("filterLanes"));
    m_filter->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    connect(m_filter, &QAction::triggered, this, [this]() { m_timeline->laneFilterBar()->activate(); });
    m_reset = new QAction(window);
    m_reset->setObjectName(QStringLiteral("resetLaneLayout"));
    connect(m_reset, &QAction::triggered, this, &LaneActions::resetLayout);
    viewMenu->addSeparator();
    viewMenu->addAction(m_filter);
    viewMenu->addAction(m_reset);
    connect(timeline->layout(), &LaneLayout::changed, this, &LaneActions::onLayoutChanged);
    connect(timeline->layout(), &LaneLayout::profileReset, this, &LaneActions::restore);
    timeline->installEventFilter(this);
    retranslate();
}

QString LaneActions::kindKey(const Profile& profile)
{
    std::set<std::string> formats;
    for (const SourceFile& f : profile.files)
        if (f.loaded)
            formats.insert(f.format);
    QString key;
    for (const std::string& f : formats)
        key += (key.isEmpty() ? QString() : QStringLiteral("+")) + QString::fromStdString(f);
    return key.isEmpty() ? QStringLiteral("none") : key;
}

QString LaneActions::settingsKey(const Profile& profile)
{
    return QStringLiteral("laneLayouts/") + kindKey(profile);
}

static QString laneKeyOf(const Profile& p, uint32_t lane)
{
    const LaneInfo& info = p.lanes[lane].info;
    return AnnotationSet::laneKey(info.rankIndex, info.process, info.name);
}

static QString groupKeyOf(const LaneLayout::ProcessGroup& g)
{
    return QString::number(g.rankIndex) + QLatin1Char('|') + QString::fromStdString(g.process);
}

void LaneActions::save() const
{
    const LaneLayout* layout = m_timeline->layout();
    const Profile* p = layout->profile();
    if (!p)
        return;
    const LaneLayout::State s = layout->state();
    auto keys = [p](const std::vector<uint32_t>& lanes) {
        QJsonArray out;
        for (uint32_t lane : lanes)
            out.append(laneKeyOf(*p, lane));
        return out;
    };
    QJsonObject order, root;
    QJsonArray collapsed, ranks;
    for (size_t g = 0; g < s.groupOrder.size(); ++g)
        order[groupKeyOf(layout->groups()[g])] = keys(s.groupOrder[g]);
    for (int g : s.collapsedGroups)
        collapsed.append(groupKeyOf(layout->groups()[g]));
    for (int r : s.collapsedRanks)
        ranks.append(r);
    root[QStringLiteral("order")] = order;
    root[QStringLiteral("hidden")] = keys(s.hidden);
    root[QStringLiteral("pinned")] = keys(s.pinned);
    root[QStringLiteral("unfolded")] = keys(s.unfolded);
    root[QStringLiteral("collapsed_groups")] = collapsed;
    root[QStringLiteral("collapsed_ranks")] = ranks;
    QSettings().setValue(settingsKey(*p), QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Compact)));
}

bool LaneActions::restore()
{
    LaneLayout* layout = m_timeline->layout();
    const Profile* p = layout->profile();
    if (!p)
        return false;
    const QString saved = QSettings().value(settingsKey(*p)).toString();
    if (saved.isEmpty())
        return false;
    const QJsonObject root = QJsonDocument::fromJson(saved.toUtf8()).object();
    QHash<QString, uint32_t> laneByKey;
    for (uint32_t lane = 0; lane < p->lanes.size(); ++lane)
        laneByKey.insert(laneKeyOf(*p, lane), lane);
    QHash<QString, int> groupByKey;
    for (int g = 0; g < int(layout->groups().size()); ++g)
        groupByKey.insert(groupKeyOf(layout->groups()[g]), g);
    auto lanes = [&laneByKey](const QJsonValue& v) {
        std::vector<uint32_t> out;
        for (const QJsonValue& k : v.toArray())
            if (const auto it = laneByKey.constFind(k.toString()); it != laneByKey.constEnd())
                out.push_back(it.value());
        return out;
    };
    LaneLayout::State s = layout->state();
    const QJsonObject order = root.value(QStringLiteral("order")).toObject();
    for (auto it = order.begin(); it != order.end(); ++it)
        if (const auto g = groupByKey.constFind(it.key()); g != groupByKey.constEnd())
            s.groupOrder[g.value()] = lanes(it.value());
    s.hidden = lanes(root.value(QStringLiteral("hidden")));
    s.pinned = lanes(root.value(QStringLiteral("pinned")));
    s.unfolded = lanes(root.value(QStringLiteral("unfolded")));
    s.collapsedGroups.clear();
    for (const QJsonValue& k : root.value(QStringLiteral("collapsed_groups")).toArray())
        if (const auto g = groupByKey.constFind(k.toString()); g != groupByKey.constEnd())
            s.collapsedGroups.push_back(g.value());
    s.collapsedRanks.clear();
    for (const QJsonValue& r : root.value(QStringLiteral("collapsed_ranks")).toArray())
        s.collapsedRanks.push_back(r.toInt());
    m_applying = true;
    layout->setState(s);
    m_applying = false;
    return true;
}

void LaneActions::resetLayout()
{
    LaneLayout* layout = m_timeline->layout();
    if (const Profile* p = layout->profile())
        QSettings().remove(settingsKey(*p));
    m_applying = true;
    layout->resetToDefault();
    m_applying = false;
    m_timeline->laneFilterBar()->dismiss();
}

void LaneActions::onLayoutChanged()
{
    if (!m_applying)
        save();
}

bool LaneActions::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && watched == m_timeline.data())
        retranslate();
    return false;
}

void LaneActions::retranslate()
{
    m_filter->setText(tr("&Filter Lanes…"));
    m_filter->setStatusTip(tr("Show only the lanes whose name, process, kind or rank match"));
    m_reset->setText(tr("Reset Lane La&yout"));
    m_reset->setStatusTip(tr("The profile's own lane order, nothing hidden, pinned or collapsed, deep lanes folded"));
}

} // namespace dspark::ui
