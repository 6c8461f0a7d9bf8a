#include "panels/StepTablePanel.h"

#include "steps/StepRecords.h"
#include "steps/StepTableModel.h"

#include <QCheckBox>
#include <QColor>
#include <QEvent>
#include <QFont>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace dspark::ui {

// Sorts on the model's raw values, filters by text and anomalies, and paints anomalous rows.
class StepFilterProxy : public QSortFilterProxyModel {
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    bool anomaliesOnly = false;

    void setAnomaliesOnly(bool only)
    {
        anomaliesOnly = only;
        invalidateFilter();
    }
    QVariant data(const QModelIndex& index, int role) const override
    {
        if (role == Qt::BackgroundRole || role == Qt::ForegroundRole || role == Qt::FontRole) {
            const bool anomalous = QSortFilterProxyModel::data(index, StepTableModel::AnomalousRole).toBool();
            if (anomalous) {
                if (role == Qt::BackgroundRole)
                    return QColor(0xfd, 0xe2, 0xe0);
                if (role == Qt::ForegroundRole)
                    return QColor(0x8a, 0x14, 0x14);
                QFont f;
                f.setBold(index.column() == int(StepColumn::Anomaly));
                return f;
            }
        }
        return QSortFilterProxyModel::data(index, role);
    }

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& parent) const override
    {
        if (anomaliesOnly && !sourceModel()->index(sourceRow, 0, parent).data(StepTableModel::AnomalousRole).toBool())
            return false;
        return QSortFilterProxyModel::filterAcceptsRow(sourceRow, parent);
    }
};

StepTablePanel::StepTablePanel(QWidget* parent) : QWidget(parent)
{
    m_model = new StepTableModel(this);
    m_proxy = new StepFilterProxy(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(StepTableModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_filter = new QLineEdit(this);
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(280);
    m_anomaliesOnly = new QCheckBox(this);
    m_count = new QLabel(this);
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_table = new QTableView(this);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(int(StepColumn::ForwardCt), Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionsMovable(true);
    connect(m_table->horizontalHeader(), &QHeaderView::sectionMoved, this, [this]() {
        if (!m_ordering)
            saveColumnOrder();
    });
    // The analyses' columns arrive later (setAnalysis): they take their saved place too.
    connect(m_model, &QAbstractItemModel::columnsInserted, this, &StepTablePanel::applyColumnOrder);
    connect(m_model, &QAbstractItemModel::modelReset, this, &StepTablePanel::applyColumnOrder);

    m_banner = new QFrame(this);
    m_banner->setObjectName(QStringLiteral("stepsNotMatchedBanner"));
    m_banner->setStyleSheet(QStringLiteral("#stepsNotMatchedBanner { background: #fff4ce; border-bottom: 1px solid "
                                           "#e0c060; } #stepsNotMatchedBanner QLabel { color: #5c4300; }"));
    m_bannerText = new QLabel(m_banner);
    m_bannerText->setWordWrap(true);
    m_attach = new QPushButton(m_banner);
    m_attach->setObjectName(QStringLiteral("attachStepsAnyway"));
    auto* bannerBox = new QHBoxLayout(m_banner);
    bannerBox->setContentsMargins(8, 4, 8, 4);
    bannerBox->addWidget(m_bannerText, 1);
    bannerBox->addWidget(m_attach);
    m_banner->hide();
    connect(m_attach, &QPushButton::clicked, this, &StepTablePanel::attachRequested);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 2);
    top->addWidget(m_filter);
    top->addWidget(m_anomaliesOnly);
    top->addStretch(1);
    top->addWidget(m_count);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addWidget(m_banner);
    box->addLayout(top);
    box->addWidget(m_table, 1);
    box->addWidget(m_empty, 1);

    connect(m_filter, &QLineEdit::textChanged, this, &StepTablePanel::setFilterText);
    connect(m_anomaliesOnly, &QCheckBox::toggled, this, &StepTablePanel::setAnomaliesOnly);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!m_silent && current.isValid())
                    Q_EMIT stepSelected(sourceRow(current.row()));
            });
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { Q_EMIT stepActivated(sourceRow(index.row())); });
    retranslate();
    setStepRecords(nullptr);
    applyColumnOrder();
}

StepTablePanel::~StepTablePanel() = default;

void StepTablePanel::retranslate()
{
    m_filter->setPlaceholderText(tr("Filter steps…"));
    m_anomaliesOnly->setText(tr("Anomalous only"));
    m_anomaliesOnly->setToolTip(tr("Show only the steps flagged as anomalous (highlighted in red)"));
    m_empty->setText(tr("No DSpark step records. Open a folder that holds server_info JSON or step-record JSON "
                        "Lines next to the profiler output to see the step table."));
    m_attach->setText(tr("Attach anyway"));
    m_attach->setToolTip(tr("Place the records on the timeline by the alignment found, although they do not agree "
                            "with it: stage bands, critical path and per-step analyses are then drawn for them"));
    updateCount();
    updateBanner();
}

void StepTablePanel::updateBanner()
{
    const StepRecordSet* set = m_model->stepRecords();
    const bool refused = set && !set->empty() && !set->alignment.attached;
    m_banner->setVisible(refused);
    if (refused)
        m_bannerText->setText(tr("%1. The steps are listed but not placed on the timeline: no stage bands, critical "
                                 "path or per-step analysis is drawn for them.")
                                  .arg(set->alignment.refusal));
}

void StepTablePanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        Q_EMIT m_model->headerDataChanged(Qt::Horizontal, 0, m_model->columnCount() - 1);
    }
}

void StepTablePanel::setStepRecords(std::shared_ptr<const StepRecordSet> records)
{
    const bool has = records && !records->empty();
    m_model->setStepRecords(std::move(records));
    m_table->setVisible(has);
    m_filter->setEnabled(has);
    m_anomaliesOnly->setEnabled(has);
    m_empty->setVisible(!has);
    updateCount();
    updateBanner();
}

static const char* const kColumnOrderKey = "steps/columnOrder";

void StepTablePanel::applyColumnOrder()
{
    QList<int> order;
    for (const QVariant& v : QSettings().value(QLatin1String(kColumnOrderKey)).toList())
        order << v.toInt();
    if (order.isEmpty())
        for (StepColumn c : {StepColumn::Rank, StepColumn::ForwardCt, StepColumn::StepGpuMs, StepColumn::DraftGpuMs,
                             StepColumn::TargetVerifyGpuMs, StepColumn::UnattributedMs, StepColumn::StepCpuMs,
                             StepColumn::EffectiveTpotMs, StepColumn::MeanCommitLen, StepColumn::Anomaly})
            order << int(c);
    QHeaderView* header = m_table->horizontalHeader();
    m_ordering = true;
    int visual = 0;
    for (int logical : order)
        if (logical >= 0 && logical < header->count())
            header->moveSection(header->visualIndex(logical), visual++);
    m_ordering = false;
}

void StepTablePanel::saveColumnOrder() const
{
    const QHeaderView* header = m_table->horizontalHeader();
    QVariantList order;
    for (int visual = 0; visual < header->count(); ++visual)
        order << header->logicalIndex(visual);
    QSettings().setValue(QLatin1String(kColumnOrderKey), order);
}

const StepRecordSet* StepTablePanel::stepRecords() const
{
    return m_model->stepRecords();
}

int StepTablePanel::sourceRow(int row) const
{
    return m_proxy->mapToSource(m_proxy->index(row, 0)).row();
}

int StepTablePanel::viewRow(int source) const
{
    if (source < 0 || source >= m_model->rowCount())
        return -1;
    return m_proxy->mapFromSource(m_model->index(source, 0)).row();
}

int StepTablePanel::currentSourceRow() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? sourceRow(current.row()) : -1;
}

void StepTablePanel::selectSourceRow(int source)
{
    const int row = viewRow(source);
    m_silent = true;
    if (row < 0) {
        m_table->selectionModel()->clearSelection();
    } else {
        const QModelIndex index = m_proxy->index(row, 0);
        m_table->selectionModel()->setCurrentIndex(index,
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index);
    }
    m_silent = false;
}

void StepTablePanel::setAnomaliesOnly(bool only)
{
    if (m_anomaliesOnly->isChecked() != only)
        m_anomaliesOnly->setChecked(only);
    m_proxy->setAnomaliesOnly(only);
    updateCount();
}

void StepTablePanel::setFilterText(const QString& text)
{
    if (m_filter->text() != text)
        m_filter->setText(text);
    m_proxy->setFilterFixedString(text);
    updateCount();
}

void StepTablePanel::updateCount()
{
    const int total = m_model->rowCount();
    const int anomalies = int(m_model->anomalyCount());
    const int shown = m_proxy->rowCount();
    QString text = shown == total ? tr("steps: %1").arg(total) : tr("steps: %1 of %2").arg(shown).arg(total);
    if (anomalies > 0)
        text += tr(", anomalous: %1").arg(anomalies);
    m_count->setText(total > 0 ? text : QString());
}

} // namespace dspark::ui
