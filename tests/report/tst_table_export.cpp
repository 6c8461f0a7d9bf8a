// Table export for reports: CSV and Markdown carry the same columns and text as the table shows.
#include "report/TableExport.h"
#include "session/AnnotationSet.h"

#include <QFile>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>

using namespace dspark;

class TestTableExport : public QObject {
    Q_OBJECT
private:
    static void fill(QStandardItemModel& m)
    {
        m.setColumnCount(3);
        m.setHorizontalHeaderLabels(
            {QStringLiteral("Kernel"), QStringLiteral("Duration (µs)"), QStringLiteral("Stream")});
        const QList<QStringList> rows = {
            {QStringLiteral("MatMul, fused"), QStringLiteral("12.500"), QStringLiteral("2")},
            {QStringLiteral("Add|Relu"), QStringLiteral("3.000"), QStringLiteral("2")},
            {QStringLiteral("注意力 \"quoted\""), QStringLiteral("40.125"), QStringLiteral("4")}};
        for (const QStringList& r : rows) {
            QList<QStandardItem*> items;
            for (const QString& t : r)
                items << new QStandardItem(t);
            m.appendRow(items);
        }
    }

private Q_SLOTS:
    void csvQuotesFieldsPerRfc4180()
    {
        QStandardItemModel m;
        fill(m);
        const QString csv = exportTable(m, TableFormat::Csv);
        const QStringList lines = csv.split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 4);
        QCOMPARE(lines[0], QStringLiteral("Kernel,Duration (µs),Stream"));
        QCOMPARE(lines[1], QStringLiteral("\"MatMul, fused\",12.500,2"));
        QCOMPARE(lines[3], QStringLiteral("\"注意力 \"\"quoted\"\"\",40.125,4"));
    }

    void markdownEscapesPipesAndRightAlignsNumbers()
    {
        QStandardItemModel m;
        fill(m);
        const QStringList lines = exportTable(m, TableFormat::Markdown).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines[0], QStringLiteral("| Kernel | Duration (µs) | Stream |"));
        QCOMPARE(lines[1], QStringLiteral("|---|---:|---:|"));
        QCOMPARE(lines[3], QStringLiteral("| Add\\|Relu | 3.000 | 2 |"));
    }

    void exportFollowsTheProxyOrder()
    {
        QStandardItemModel m;
        fill(m);
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.sort(1, Qt::DescendingOrder);
        const QStringList lines =
            exportTable(proxy, TableFormat::Csv).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
        QVERIFY(lines[1].startsWith(QStringLiteral("\"注意力")));
        // Display strings sort as text: "40.125" > "3.000" > "12.500".
        QVERIFY(lines[2].startsWith(QStringLiteral("Add|Relu,3.000")));
        QVERIFY(lines[3].startsWith(QStringLiteral("\"MatMul, fused\"")));
    }

    void fileExportWritesUtf8WithBomAndReportsUnwritablePaths()
    {
        QStandardItemModel m;
        fill(m);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("kernels.csv"));
        QCOMPARE(exportTableToFile(m, tableFormatForPath(path), path), QString());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().startsWith("\xEF\xBB\xBFKernel,"));
        const QString bad = dir.filePath(QStringLiteral("no/such/dir/x.md"));
        const QString error = exportTableToFile(m, tableFormatForPath(bad), bad);
        QVERIFY(error.contains(bad));
    }

    void annotationsRoundTrip()
    {
        AnnotationSet set;
        set.items.push_back({Annotation::Kind::Note,
                             1736408883700059821,
                             1736408883700059821,
                             AnnotationSet::laneKey(0, "Ascend Hardware", "Stream 2"),
                             {},
                             QStringLiteral("慢的 tail"),
                             QStringLiteral("#e11d48")});
        set.items.push_back({Annotation::Kind::Arrow, 100, 250, QStringLiteral("0|CANN|Thread 7"),
                             QStringLiteral("0|Ascend Hardware|Stream 2"), QStringLiteral("launch"),
                             QStringLiteral("#2563eb")});
        set.items.push_back(
            {Annotation::Kind::Range, 1000, 5000, {}, {}, QStringLiteral("exposed"), QStringLiteral("#f59e0b")});
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("s/session.json"));
        QCOMPARE(set.save(path), QString());
        AnnotationSet back;
        QCOMPARE(back.load(path), QString());
        QCOMPARE(back.items.size(), 3);
        QCOMPARE(back.items, set.items);
        QVERIFY(back.fromJson("{\"format\":\"other\"}", QStringLiteral("x.json")).contains(QStringLiteral("x.json")));
        QVERIFY(back.fromJson("{", QStringLiteral("y.json")).contains(QStringLiteral("y.json")));
        QVERIFY(AnnotationSet::sessionPathFor(QStringLiteral("/tmp/a")) !=
                AnnotationSet::sessionPathFor(QStringLiteral("/tmp/b")));
    }
};

QTEST_GUILESS_MAIN(TestTableExport)
#include "tst_table_export.moc"
