#include "common/ListTable.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>

namespace dspark::ui {

QLabel* makePanelTitle(QWidget* parent)
{
    auto* title = new QLabel(parent);
    QFont bold = title->font();
    bold.setBold(true);
    title->setFont(bold);
    title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long title ("Device tasks of step 1209 (longest first)") takes a second line rather than
    // pushing the filter beside it to "Fi…" or setting the dock's minimum width.
    title->setWordWrap(true);
    return title;
}

QLineEdit* makeFilterField(QWidget* parent, int maxWidth)
{
    auto* filter = new QLineEdit(parent);
    filter->setClearButtonEnabled(true);
    filter->setMaximumWidth(maxWidth);
    return filter;
}

QTableView* makeListTable(QWidget* parent, QSortFilterProxyModel* proxy, int sortRole, int filterColumn)
{
    proxy->setSortRole(sortRole);
    proxy->setFilterKeyColumn(filterColumn);
    proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    auto* table = new QTableView(parent);
    table->setModel(proxy);
    table->setSortingEnabled(true);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setAlternatingRowColors(true);
    table->verticalHeader()->setDefaultSectionSize(20);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

} // namespace dspark::ui
