#include "panels/LegendPanel.h"

#include "timeline/EventPalette.h"
#include "timeline/TimeFormat.h"
#include "util/Saturating.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <numeric>

namespace dspark::ui {

static constexpr int SortRole = Qt::UserRole + 1;

LegendPanel::LegendPanel(QWidget* parent) : QWidget(parent)
{
    m_summary = new QLabel(this);
    m_summary->setContentsMargins(6, 3, 6, 3);
    m_summary->setWordWrap(true);
    m_model = new QStandardItemModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->setWordWrap(false);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(m_summary);
    box->addWidget(m_table, 1);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(250);
    connect(&m_debounce, &QTimer::timeout, this, [this]() {
        if (isVisible())
            updateNow();
    });
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { Q_EMIT nameActivated(nameAt(index.row())); });
    retranslate();
}

void LegendPanel::retranslate()
{
    m_model->setHorizontalHeaderLabels({tr("Name"), tr("Events"), tr("Time in view")});
    m_table->setToolTip(tr("Double-click a name to search for it"));
    m_dirty = true;
    if (isVisible())
        updateNow();
}

void LegendPanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void LegendPanel::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        updateNow();
}

void LegendPanel::setProfile(std::shared_ptr<const Profile> profile)
{
    m_profile = std::move(profile);
    m_start = m_profile ? m_profile->firstNs() : 0;
    m_end = m_profile ? m_profile->lastNs() : 0;
    m_dirty = true;
    m_debounce.start();
}

void LegendPanel::setRange(TimeNs startNs, TimeNs endNs)
{
    m_start = startNs;
    m_end = endNs;
    m_dirty = true;
    m_debounce.start();
}

int LegendPanel::rowCount() const
{
    return m_proxy->rowCount();
}

QString LegendPanel::nameAt(int row) const
{
    return m_proxy->index(row, 0).data(Qt::DisplayRole).toString();
}

void LegendPanel::updateNow()
{
    m_dirty = false;
    m_model->removeRows(0, m_model->rowCount());
    if (!m_profile) {
        m_summary->clear();
        return;
    }
    const Profile& p = *m_profile;
    m_count.assign(p.strings.size(), 0);
    m_time.assign(p.strings.size(), 0);
    std::vector<EventKind> kindOf(p.strings.size(), EventKind::Other);
    // Time inside the view, per name (every depth: nested names count their own time).
    for (const Lane& lane : p.lanes) {
        if (lane.info.kind == LaneKind::Counter || lane.empty())
            continue;
        const auto [first, last] = lane.overlapping(m_start, m_end);
        for (size_t i = first; i < last; ++i) {
            const TimeNs a = std::max(m_start, lane.startNs[i]);
            const TimeNs b = std::min(m_end, lane.endNs(i));
            if (b < a || (b == a && lane.durationNs[i] > 0))
                continue;
            const uint32_t id = lane.nameId[i];
            ++m_count[id];
            m_time[id] = addSaturating(m_time[id], b - a); // (a damaged file's durations near 2^63)
            kindOf[id] = lane.kind[i];
        }
    }
    std::vector<uint32_t> ids;
    for (uint32_t id = 0; id < m_count.size(); ++id)
        if (m_count[id])
            ids.push_back(id);
    const size_t distinct = ids.size();
    const size_t keep = std::min<size_t>(ids.size(), kMaxNames);
    std::partial_sort(ids.begin(), ids.begin() + keep, ids.end(),
                      [&](uint32_t a, uint32_t b) { return m_time[a] != m_time[b] ? m_time[a] > m_time[b] : a < b; });
    ids.resize(keep);
    const QLocale locale;
    m_table->setSortingEnabled(false);
    for (uint32_t id : ids) {
        const std::string_view name = p.strings.view(id);
        auto* nameItem = new QStandardItem(QString::fromUtf8(name.data(), qsizetype(name.size())));
        nameItem->setData(QColor::fromRgb(EventPalette::colorFor(name, kindOf[id])), Qt::DecorationRole);
        nameItem->setData(nameItem->text(), SortRole);
        nameItem->setToolTip(nameItem->text());
        auto* countItem = new QStandardItem(locale.toString(qulonglong(m_count[id])));
        countItem->setData(qulonglong(m_count[id]), SortRole);
        countItem->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        auto* timeItem = new QStandardItem(formatDuration(m_time[id]));
        timeItem->setData(qlonglong(m_time[id]), SortRole);
        timeItem->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_model->appendRow({nameItem, countItem, timeItem});
    }
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(2, Qt::DescendingOrder);
    m_table->resizeColumnToContents(1);
    m_table->resizeColumnToContents(2);
    m_table->setColumnWidth(
        0, std::max(160, m_table->viewport()->width() - m_table->columnWidth(1) - m_table->columnWidth(2) - 4));
    m_summary->setText(
        distinct > keep
            ? tr("%1 names in view (the %2 longest shown)").arg(locale.toString(qulonglong(distinct))).arg(keep)
            : tr("%1 names in view").arg(locale.toString(qulonglong(distinct))));
}

} // namespace dspark::ui
