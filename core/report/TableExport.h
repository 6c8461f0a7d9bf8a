#pragma once

#include <QString>

class QAbstractItemModel;

namespace dspark {

// Exports what a table shows — the same columns, headers and display text (with units) — so a
// report carries exactly what the user saw. Works on any QAbstractItemModel, including sort/filter
// proxies (rows in their current order).
enum class TableFormat { Csv, Markdown };

QString exportTable(const QAbstractItemModel& model, TableFormat format);
// Writes the export to `path`; returns an empty string or an error naming the file.
QString exportTableToFile(const QAbstractItemModel& model, TableFormat format, const QString& path);
// Csv for *.csv, Markdown for *.md / *.markdown, Csv otherwise.
TableFormat tableFormatForPath(const QString& path);

} // namespace dspark
