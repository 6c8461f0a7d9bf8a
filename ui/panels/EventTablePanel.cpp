#include "panels/EventTablePanel.h"

#include "common/ListTable.h"
#include "panels/EventTableModel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace dspark::ui {

EventTablePanel::EventTablePanel(QWidget* parent) : QWidget(parent)
{
    m_title = makePanelTitle(this);
    m_hint = new QLabel(this);
    m_hint->setObjectName(QStringLiteral("emptyHint"));
    m_hint->setForegroundRole(QPalette::PlaceholderText);
    m_hint->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_hint->setContentsMargins(4, 4, 4, 4);
    m_hint->setWordWrap(true); // one line where the dock is wide enough, never clipped where it is not
    m_count = new QLabel(this);
    m_filter = makeFilterField(this, 260);
    m_model = new EventTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_table = makeListTable(this, m_proxy, EventTableModel::SortRole, EventTableModel::Name);
    m_table->horizontalHeader()->setSectionResizeMode(EventTableModel::Name, QHeaderView::Interactive);
    m_table->setColumnWidth(EventTableModel::Name, 280);
    m_table->setColumnWidth(EventTableModel::Duration, 90);
    m_table->setColumnWidth(EventTableModel::Start, 150);
    m_table->setColumnWidth(EventTableModel::LaneColumn, 200);
    m_table->setWordWrap(false);

    auto* top = new QHBoxLayout;
    top->setContentsMargins(4, 2, 4, 2);
    top->addWidget(m_title, 1);
    top->addWidget(m_count);
    top->addWidget(m_filter);
    auto* box = new QVBoxLayout(this);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(0);
    box->addLayout(top);
    box->addWidget(m_hint);
    box->addWidget(m_table, 1);

    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        updateCount();
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (!m_marking && current.isValid())
                    Q_EMIT eventClicked(eventAtRow(current.row()));
            });
    connect(m_table, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { Q_EMIT eventActivated(eventAtRow(index.row())); });
    retranslate();
}

void EventTablePanel::retranslate()
{
    m_filter->setPlaceholderText(tr("Filter by name…"));
    m_title->setText(m_titleText.isEmpty() ? tr("Select a step or a time range (Ctrl+drag)") : m_titleText);
    m_hint->setText(m_emptyHint.isEmpty()
                        ? tr("Click a step or a host call, or Ctrl+drag a time range: its device tasks are listed here")
                        : m_emptyHint);
    m_model->retranslate();
    // The narrow columns at least as wide as their header with its sort arrow, in every language.
    const QHeaderView* header = m_table->horizontalHeader();
    for (const int column : {EventTableModel::Duration, EventTableModel::Start})
        m_table->setColumnWidth(column, std::max(header->sectionSize(column), header->sectionSizeHint(column)));
    updateCount();
    updateHint();
}

void EventTablePanel::setEmptyHint(const QString& hint)
{
    m_emptyHint = hint;
    retranslate();
}

bool EventTablePanel::showsHint() const
{
    return m_titleText.isEmpty() && m_model->rowCount() == 0;
}

// Nothing requested yet: one line of hint instead of a title, a count, a filter and an empty grid (an
// empty result of a request keeps its title and the grid: it says that nothing was found).
void EventTablePanel::updateHint()
{
    const bool hint = showsHint();
    if (!hint && m_hint->isVisibleTo(this)) {
        // The first list after the narrow hint: room for the name and the duration once (the dock grows
        // into its neighbours); the user may narrow it again afterwards.
        const QHeaderView* header = m_table->horizontalHeader();
        setMinimumWidth(header->sectionSize(EventTableModel::Name) + header->sectionSize(EventTableModel::Duration) +
                        m_table->verticalScrollBar()->sizeHint().width() + 8);
        QTimer::singleShot(0, this, [this]() { setMinimumWidth(0); });
    }
    m_hint->setVisible(hint);
    for (QWidget* w : std::initializer_list<QWidget*>{m_title, m_count, m_filter, m_table})
        w->setVisible(!hint);
    // No wider than its line while it is one: the docks beside it (the step tables) take the width.
    const QMargins m = m_hint->contentsMargins();
    setMaximumWidth(hint ? m_hint->fontMetrics().horizontalAdvance(m_hint->text()) + m.left() + m.right() + 8
                         : QWIDGETSIZE_MAX);
}

void EventTablePanel::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange)
        retranslate();
}

void EventTablePanel::setEvents(const QString& title, std::shared_ptr<const Profile> profile,
                                std::vector<EventRef> events, bool sortByDuration)
{
    m_titleText = title;
    m_title->setText(title);
    m_model->setEvents(std::move(profile), std::move(events));
    if (sortByDuration)
        m_table->sortByColumn(EventTableModel::Duration, Qt::DescendingOrder);
    else
        m_table->sortByColumn(EventTableModel::Start, Qt::AscendingOrder);
    updateCount();
    updateHint();
}

void EventTablePanel::clear()
{
    m_titleText.clear();
    m_model->clear();
    retranslate();
}

QString EventTablePanel::title() const
{
    return m_title->text();
}

const Profile* EventTablePanel::profile() const
{
    return m_model->profile();
}

int EventTablePanel::rowCount() const
{
    return m_proxy->rowCount();
}

EventRef EventTablePanel::eventAtRow(int row) const
{
    const QModelIndex source = m_proxy->mapToSource(m_proxy->index(row, 0));
    return m_model->eventAt(source.row());
}

void EventTablePanel::markEvent(EventRef e)
{
    const int sourceRow = m_model->rowOf(e);
    m_marking = true;
    if (sourceRow < 0) {
        m_table->selectionModel()->clearSelection();
    } else {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
        m_table->selectionModel()->setCurrentIndex(index,
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_table->scrollTo(index);
    }
    m_marking = false;
}

void EventTablePanel::updateCount()
{
    const int shown = m_proxy->rowCount(), total = m_model->rowCount();
    const QLocale locale;
    m_count->setText(shown == total ? tr("events: %1").arg(locale.toString(total))
                                    : tr("events: %1 of %2").arg(locale.toString(shown), locale.toString(total)));
}

} // namespace dspark::ui
