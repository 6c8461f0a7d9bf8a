#include "report/TableExport.h"

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QFile>
#include <QSaveFile>

namespace dspark {

// RFC 4180: quote a field holding a comma, quote, CR or LF; double the quotes inside.
static QString csvField(const QString& text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')) &&
        !text.contains(QLatin1Char('\r')))
        return text;
    QString quoted = text;
    quoted.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

// Markdown table cell: pipes escaped, line breaks folded.
static QString markdownCell(const QString& text)
{
    QString cell = text;
    cell.replace(QLatin1String("|"), QLatin1String("\\|"));
    cell.replace(QLatin1String("\r\n"), QLatin1String("<br>"));
    cell.replace(QLatin1Char('\n'), QLatin1String("<br>"));
    return cell;
}

static bool isNumericColumn(const QAbstractItemModel& model, int column)
{
    const int rows = model.rowCount();
    int numbers = 0, filled = 0;
    for (int r = 0; r < rows && r < 64; ++r) {
        const QString text = model.index(r, column).data(Qt::DisplayRole).toString().trimmed();
        if (text.isEmpty())
            continue;
        ++filled;
        bool ok = false;
        text.section(QLatin1Char(' '), 0, 0).toDouble(&ok);
        numbers += ok ? 1 : 0;
    }
    return filled > 0 && numbers == filled;
}

QString exportTable(const QAbstractItemModel& model, TableFormat format)
{
    const int rows = model.rowCount();
    const int columns = model.columnCount();
    QString out;
    QStringList header;
    for (int c = 0; c < columns; ++c)
        header << model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();

    if (format == TableFormat::Csv) {
        QStringList fields;
        for (const QString& h : header)
            fields << csvField(h);
        out += fields.join(QLatin1Char(',')) + QLatin1String("\r\n");
        for (int r = 0; r < rows; ++r) {
            fields.clear();
            for (int c = 0; c < columns; ++c)
                fields << csvField(model.index(r, c).data(Qt::DisplayRole).toString());
            out += fields.join(QLatin1Char(',')) + QLatin1String("\r\n");
        }
        return out;
    }

    QStringList cells;
    for (const QString& h : header)
        cells << markdownCell(h);
    out += QLatin1String("| ") + cells.join(QLatin1String(" | ")) + QLatin1String(" |\n|");
    for (int c = 0; c < columns; ++c)
        out += isNumericColumn(model, c) ? QLatin1String("---:|") : QLatin1String("---|");
    out += QLatin1Char('\n');
    for (int r = 0; r < rows; ++r) {
        cells.clear();
        for (int c = 0; c < columns; ++c)
            cells << markdownCell(model.index(r, c).data(Qt::DisplayRole).toString());
        out += QLatin1String("| ") + cells.join(QLatin1String(" | ")) + QLatin1String(" |\n");
    }
    return out;
}

TableFormat tableFormatForPath(const QString& path)
{
    const QString lower = path.toLower();
    if (lower.endsWith(QLatin1String(".md")) || lower.endsWith(QLatin1String(".markdown")))
        return TableFormat::Markdown;
    return TableFormat::Csv;
}

QString exportTableToFile(const QAbstractItemModel& model, TableFormat format, const QString& path)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("TableExport", "%1: cannot be written (%2)").arg(path, file.errorString());
    QByteArray bytes = exportTable(model, format).toUtf8();
    if (format == TableFormat::Csv)
        bytes.prepend("\xEF\xBB\xBF"); // UTF-8 BOM so spreadsheet programs read CJK names correctly
    file.write(bytes);
    if (!file.commit())
        return QCoreApplication::translate("TableExport", "%1: cannot be written (%2)").arg(path, file.errorString());
    return {};
}

} // namespace dspark
