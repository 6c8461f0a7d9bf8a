#include "compare/ComparisonPanels.h"

#include "common/Teardown.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace dspark::ui {

QString formatQuantity(Quantity q, double value, bool signedValue)
{
    if (std::isnan(value))
        return QStringLiteral("–");
    const QString unit = QString::fromLatin1(quantityInfo(q).unit);
    const int decimals = unit == QLatin1String("tokens/s") ? 1 : 3;
    QString text = QString::number(value, 'f', decimals);
    if (signedValue && value > 0)
        text.prepend(QLatin1Char('+'));
    return unit.isEmpty() || unit == QLatin1String("tokens") ? text : text + QLatin1Char(' ') + unit;
}

static QString stateText(FieldState s)
{
    switch (s) {
    case FieldState::Same: return QCoreApplication::translate("ComparisonPanels", "same");
    case FieldState::Different: return QCoreApplication::translate("ComparisonPanels", "different");
    case FieldState::Unknown: break;
    }
    return QCoreApplication::translate("ComparisonPanels", "unknown");
}

static QColor stateColor(FieldState s)
{
    return s == FieldState::Different ? QColor(0xb9, 0x1c, 0x1c)
           : s == FieldState::Same    ? QColor(0x15, 0x80, 0x3d)
                                      : QColor(0x6b, 0x72, 0x80);
}

ComparisonPanelBase::ComparisonPanelBase(QWidget* parent) : QWidget(parent)
{
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

ComparisonPanelBase::~ComparisonPanelBase()
{
    // The derived panels' members are gone by now; their children's signals (tables losing their
    // models in QWidget's destructor) must not reach them.
    disconnectChildren(this);
}

void ComparisonPanelBase::setPlaceholder(const QString& text)
{
    clear();
    rebuild();
    m_note->setText(text);
}

void ComparisonPanelBase::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        rebuild();
}

// ---------------------------------------------------------------------------------------------

ConfigDiffPanel::ConfigDiffPanel(QWidget* parent) : ComparisonPanelBase(parent)
{
    m_note->setObjectName(QStringLiteral("configWarning"));
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("configDiffTree"));
    m_tree->setColumnCount(4);
    m_tree->setUniformRowHeights(true);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_note);
    layout->addWidget(m_tree, 1);
    rebuild();
}

void ConfigDiffPanel::setComparison(std::shared_ptr<const RunComparison> comparison)
{
    m_comparison = std::move(comparison);
    rebuild();
}

void ConfigDiffPanel::rebuild()
{
    m_tree->clear();
    m_tree->setHeaderLabels({tr("Setting"), tr("Baseline"), tr("Changed"), tr("State")});
    if (!m_comparison) {
        m_note->setText(tr("Open a comparison (File › Compare With…) to see what differs between two runs."));
        m_note->setStyleSheet({});
        return;
    }
    const ConfigDiff& diff = m_comparison->config;
    QStringList lines;
    if (const QString w = diff.warning(); !w.isEmpty())
        lines << w;
    else if (diff.differingGroups() == 1)
        lines << tr("One group of settings differs: a controlled experiment.");
    else
        lines << tr("No setting the files carry differs.");
    for (const QString& s : m_comparison->notComparable)
        lines << s;
    m_note->setText(lines.join(QLatin1Char('\n')));
    m_note->setStyleSheet(diff.differingGroups() > 1 ? QStringLiteral("color: #b91c1c; font-weight: bold;")
                                                     : QString());
    for (size_t g = 0; g < kConfigGroupCount; ++g) {
        auto* group = new QTreeWidgetItem(m_tree);
        group->setText(0, configGroupLabel(ConfigGroup(g)));
        group->setText(3, stateText(diff.groups[g]));
        group->setForeground(3, stateColor(diff.groups[g]));
        QFont bold = group->font(0);
        bold.setBold(true);
        group->setFont(0, bold);
        for (const ConfigField& f : diff.fields) {
            if (f.group != ConfigGroup(g))
                continue;
            auto* item = new QTreeWidgetItem(group);
            item->setText(0, QString::fromStdString(f.key));
            item->setText(1, f.baseline ? QString::fromStdString(*f.baseline) : tr("(not recorded)"));
            item->setText(2, f.changed ? QString::fromStdString(*f.changed) : tr("(not recorded)"));
            item->setText(3, stateText(f.state));
            item->setForeground(3, stateColor(f.state));
            for (int c = 0; c < 4; ++c)
                item->setToolTip(c, item->text(c));
        }
        group->setExpanded(diff.groups[g] == FieldState::Different);
    }
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
}

// ---------------------------------------------------------------------------------------------

DistributionPanel::DistributionPanel(QWidget* parent) : ComparisonPanelBase(parent)
{
    m_class = new QComboBox(this);
    m_class->setObjectName(QStringLiteral("classBox"));
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("distributionTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->verticalHeader()->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_note);
    layout->addWidget(m_class);
    layout->addWidget(m_table, 1);
    connect(m_class, &QComboBox::currentIndexChanged, this, &DistributionPanel::showClass);
    rebuild();
    showColumnsAfterFirst(m_table->horizontalHeader(), {9, 10, 11}); // Δ median, its interval, the verdict
}

void DistributionPanel::setComparison(std::shared_ptr<const RunComparison> comparison)
{
    m_comparison = std::move(comparison);
    rebuild();
}

int DistributionPanel::rowOf(Quantity q) const
{
    const auto it = std::find(m_rows.begin(), m_rows.end(), q);
    return it == m_rows.end() ? -1 : int(it - m_rows.begin());
}

static QString presenceText(ClassPresence p)
{
    switch (p) {
    case ClassPresence::Both: return QCoreApplication::translate("ComparisonPanels", "in both runs");
    case ClassPresence::BaselineOnly: return QCoreApplication::translate("ComparisonPanels", "baseline only");
    case ClassPresence::ChangedOnly: return QCoreApplication::translate("ComparisonPanels", "changed run only");
    case ClassPresence::Neither: break;
    }
    return QCoreApplication::translate("ComparisonPanels", "outside both stable windows");
}

void DistributionPanel::rebuild()
{
    const int keep = m_class->currentIndex();
    QSignalBlocker block(m_class);
    m_class->clear();
    if (!m_comparison) {
        m_note->setText(tr("Open a comparison to see the distributions of both runs."));
        showClass(-1);
        return;
    }
    m_note->setText(tr("Steps are compared by workload class (mode:bs:verify tokens) inside each run's stable "
                       "window. Δ median with its 95 % bootstrap interval; an interval containing zero is noise."));
    const RunComparison& c = *m_comparison;
    if (c.classesIgnoreVerifyTokens)
        m_note->setText(m_note->text() + QLatin1Char(' ') +
                        tr("No verify width is in both runs (the draft block changed): classes are mode:bs."));
    m_class->addItem(tr("Whole stable window (%1 / %2 steps)").arg(c.whole.baselineSteps).arg(c.whole.changedSteps));
    for (const ClassComparison& k : c.classes)
        m_class->addItem(tr("%1 — %2 (%3 / %4 steps)")
                             .arg(QString::fromStdString(k.cls.label()), presenceText(k.presence))
                             .arg(k.baselineSteps)
                             .arg(k.changedSteps));
    m_class->setCurrentIndex(keep >= 0 && keep < m_class->count() ? keep : 0);
    showClass(m_class->currentIndex());
}

void DistributionPanel::showClass(int index)
{
    const QStringList headers = {tr("Quantity"), tr("Baseline median"), tr("p10"),           tr("p90"),
                                 tr("n"),        tr("Changed median"),  tr("p10"),           tr("p90"),
                                 tr("n"),        tr("Δ median"),        tr("95 % interval"), tr("Verdict")};
    m_table->clearContents();
    m_table->setColumnCount(int(headers.size()));
    m_table->setHorizontalHeaderLabels(headers);
    m_rows.clear();
    const ClassComparison* k = nullptr;
    if (m_comparison && index == 0)
        k = &m_comparison->whole;
    else if (m_comparison && index > 0 && index <= int(m_comparison->classes.size()))
        k = &m_comparison->classes[size_t(index - 1)];
    m_table->setRowCount(k ? int(k->quantities.size()) : 0);
    if (!k)
        return;
    int row = 0;
    for (const QuantityComparison& q : k->quantities) {
        m_rows.push_back(q.quantity);
        const Quantity id = q.quantity;
        const MedianChange& ch = q.change;
        QString verdict;
        QColor colour(0x6b, 0x72, 0x80);
        if (std::isnan(ch.delta))
            verdict = tr("not in both runs");
        else if (!ch.significant())
            verdict = tr("interval contains zero: within the noise");
        else {
            const bool better = (ch.delta < 0) == quantityInfo(id).lowerIsBetter;
            verdict = ch.delta > 0 ? tr("higher") : tr("lower");
            verdict += better ? tr(" (better)") : tr(" (worse)");
            colour = better ? QColor(0x15, 0x80, 0x3d) : QColor(0xb9, 0x1c, 0x1c);
        }
        const QString interval =
            std::isnan(ch.low)
                ? QStringLiteral("–")
                : QStringLiteral("[%1, %2]").arg(formatQuantity(id, ch.low, true), formatQuantity(id, ch.high, true));
        const QString cells[] = {quantityLabel(id),
                                 formatQuantity(id, q.baseline.median),
                                 formatQuantity(id, q.baseline.p10),
                                 formatQuantity(id, q.baseline.p90),
                                 QString::number(q.baseline.n),
                                 formatQuantity(id, q.changed.median),
                                 formatQuantity(id, q.changed.p10),
                                 formatQuantity(id, q.changed.p90),
                                 QString::number(q.changed.n),
                                 formatQuantity(id, ch.delta, true),
                                 interval,
                                 verdict};
        for (int c = 0; c < int(std::size(cells)); ++c) {
            auto* item = new QTableWidgetItem(cells[c]);
            if (c > 0 && c < 11)
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 11)
                item->setForeground(colour);
            m_table->setItem(row, c, item);
        }
        ++row;
    }
    m_table->resizeColumnsToContents();
}

} // namespace dspark::ui
