#pragma once

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;
class QWidget;

namespace dspark::ui {

// The parts every list panel (kernel/event table, range statistics, kernel summary) sets up the same way.
// A bold, selectable title label that wraps.
QLabel* makePanelTitle(QWidget* parent);
// A filter field with a clear button, at most `maxWidth` wide.
QLineEdit* makeFilterField(QWidget* parent, int maxWidth);
// A sortable, read-only, single-row-selection table over `proxy` (filtering case-insensitively on
// `filterColumn`, sorting by `sortRole`), compact rows, no row header, the last column stretched.
QTableView* makeListTable(QWidget* parent, QSortFilterProxyModel* proxy, int sortRole, int filterColumn);

} // namespace dspark::ui
