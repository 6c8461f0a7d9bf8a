// `dspark-timeline steps PATH`, the human table: readable match words (translated) instead of the JSON
// identifiers, and columns that line up on a terminal in English and under zh_CN, where CJK
// characters take two columns. `--json` keeps the identifiers.
#include "KinetoRunsBuilder.h"
#include "TestSupport.h"

#include <QTemporaryDir>

#include <map>
#include <set>

using namespace dspark::test;

namespace {

// Terminal columns of a string, worked out independently of the CLI: CJK ideographs, kana, Hangul,
// CJK punctuation and fullwidth forms take two columns; the rest of the BMP one.
int columns(QStringView s)
{
    int n = 0;
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        const bool wide = (u >= 0x1100 && u <= 0x115F) || (u >= 0x2E80 && u <= 0xA4CF && u != 0x303F) ||
                          (u >= 0xAC00 && u <= 0xD7A3) || (u >= 0xF900 && u <= 0xFAFF) ||
                          (u >= 0xFE30 && u <= 0xFE4F) || (u >= 0xFF00 && u <= 0xFF60) || (u >= 0xFFE0 && u <= 0xFFE6);
        n += wide ? 2 : 1;
    }
    return n;
}

// One cell of a printed line: its first and one-past-last terminal column, and its text.
struct Cell {
    int start = 0;
    int end = 0;
    QString text;
};

// Cells are separated by two or more spaces (a cell itself holds at most single spaces).
std::vector<Cell> cellsOf(const QString& line)
{
    std::vector<Cell> cells;
    int col = 0;
    qsizetype i = 0;
    while (i < line.size()) {
        if (line[i] == QLatin1Char(' ')) {
            ++col;
            ++i;
            continue;
        }
        Cell cell;
        cell.start = col;
        while (i < line.size() &&
               !(line[i] == QLatin1Char(' ') && (i + 1 >= line.size() || line[i + 1] == QLatin1Char(' ')))) {
            cell.text += line[i];
            ++i;
        }
        col += columns(cell.text);
        cell.end = col;
        cells.push_back(cell);
    }
    return cells;
}

struct Table {
    std::vector<Cell> header;
    std::vector<std::vector<Cell>> rows;
};

// The table at the top of the output: the header line, then rows up to the first blank line.
Table tableOf(const QByteArray& out)
{
    Table t;
    const QStringList lines = QString::fromUtf8(out).split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size() && !lines[i].isEmpty(); ++i) {
        if (i == 0)
            t.header = cellsOf(lines[i]);
        else
            t.rows.push_back(cellsOf(lines[i]));
    }
    return t;
}

} // namespace

class TestStepsTableCli : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_demo;

    // Every row's cell c lines up with the header's: numbers flush right, the Timeline and Anomaly
    // words (the last two columns) flush left.
    static void checkAligned(const Table& t)
    {
        const size_t n = t.header.size();
        QVERIFY(n >= 4);
        QVERIFY(t.rows.size() > 10);
        for (const std::vector<Cell>& row : t.rows) {
            // The anomaly cell is empty on most rows.
            QVERIFY2(row.size() == n || row.size() == n - 1, qPrintable(row.front().text));
            for (size_t c = 0; c < row.size(); ++c) {
                const QString what = QStringLiteral("%1 under %2").arg(row[c].text, t.header[c].text);
                if (c + 2 >= n)
                    QVERIFY2(row[c].start == t.header[c].start, qPrintable(what));
                else
                    QVERIFY2(row[c].end == t.header[c].end, qPrintable(what));
            }
        }
    }

    static QStringList timelineWords(const Table& t)
    {
        QStringList words;
        for (const std::vector<Cell>& row : t.rows)
            words << row[t.header.size() - 2].text;
        words.removeDuplicates();
        return words;
    }

    // `steps PATH` of a profile without DSpark records: step → its Rank cell, each row's cells under the
    // header's (numbers and ranks flush right), the Wall of each step its 30 µs span.
    static std::map<QString, QString> stepRanks(const QString& path)
    {
        std::map<QString, QString> ranks;
        const CliResult r = runCli({QStringLiteral("steps"), path});
        if (r.exitCode != 0)
            qWarning() << r.err;
        const qsizetype below = r.out.indexOf('\n') + 1; // under "No DSpark step records: …"
        const Table t = tableOf(r.out.mid(below));
        if (t.header.size() < 3 || t.header[0].text != QStringLiteral("Rank") ||
            t.header[2].text != QStringLiteral("Wall (ms)"))
            return {};
        for (const std::vector<Cell>& row : t.rows) {
            if (row.size() < 3 || row[0].end != t.header[0].end || row[2].text != QStringLiteral("0.030"))
                return {{QStringLiteral("bad row"), row.empty() ? QString() : row[0].text + row[2].text}};
            ranks[row[1].text] = row[0].text;
        }
        return ranks;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_demo = m_dir.filePath(QStringLiteral("demo"));
        const CliResult r = runCli({QStringLiteral("demo"), m_demo, QStringLiteral("--steps"), QStringLiteral("24")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void englishTableIsAlignedWithReadableWords()
    {
        const CliResult r = runCli({QStringLiteral("steps"), m_demo});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Table t = tableOf(r.out);
        QCOMPARE(t.header.back().text, QStringLiteral("Anomaly"));
        QCOMPARE(t.header[t.header.size() - 2].text, QStringLiteral("Timeline"));
        checkAligned(t);
        const QStringList words = timelineWords(t);
        QVERIFY2(words.contains(QStringLiteral("match")), qPrintable(words.join(QLatin1Char('|'))));
        QVERIFY2(words.contains(QStringLiteral("outside trace")), qPrintable(words.join(QLatin1Char('|'))));
        for (const char* id : {"outside_trace", "no_trace_step", "not_aligned", "step_spans"})
            QVERIFY2(!r.out.contains(id), id);
        QVERIFY2(
            r.out.contains("\nalignment: the trace's step spans (batch size and token counts checked), agreement "),
            r.out.constData());
    }

    void chineseTableIsAlignedByDisplayWidth()
    {
        const CliResult r = runCli({QStringLiteral("steps"), m_demo}, 120000, {},
                                   {QStringLiteral("LC_ALL=zh_CN.UTF-8"), QStringLiteral("LANGUAGE=zh_CN")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const Table t = tableOf(r.out);
        QCOMPARE(t.header.back().text, QStringLiteral("异常"));
        QCOMPARE(t.header[t.header.size() - 2].text, QStringLiteral("时间线"));
        // The headers are wider on a terminal than in characters: padding by characters would fail here.
        bool cjkHeader = false;
        for (const Cell& h : t.header)
            cjkHeader = cjkHeader || columns(h.text) > h.text.size();
        QVERIFY(cjkHeader);
        checkAligned(t);
        const QStringList words = timelineWords(t);
        QVERIFY2(words.contains(QStringLiteral("匹配")), qPrintable(words.join(QLatin1Char('|'))));
        QVERIFY2(words.contains(QStringLiteral("超出 trace 范围")), qPrintable(words.join(QLatin1Char('|'))));
    }

    // Steps without DSpark records from Kineto traces of two runs that both claim rank 0
    // (io.tst_separate_runs's folder, each file with its ProfilerStep#N): the Rank column names the other
    // run by its label, so that its step is not taken for rank 0's; one run alone prints the number.
    void theRankColumnTellsTwoRunsOfOneNumberApart()
    {
        QTemporaryDir dir;
        writeSeparateRuns(dir, true);
        QCOMPARE(stepRanks(dir.path()),
                 (std::map<QString, QString>{{QStringLiteral("1"), QStringLiteral("rank 0")},
                                             {QStringLiteral("2"), QStringLiteral("rank 0 (x2.json)")},
                                             {QStringLiteral("3"), QStringLiteral("rank 0")}}));
        QVERIFY(QFile::remove(dir.filePath(QStringLiteral("x2.json"))));
        QCOMPARE(stepRanks(dir.path()), (std::map<QString, QString>{{QStringLiteral("1"), QStringLiteral("0")},
                                                                    {QStringLiteral("3"), QStringLiteral("0")}}));
    }

    void jsonAndCsvKeepTheIdentifiers()
    {
        for (const QStringList& env :
             {QStringList(), QStringList{QStringLiteral("LC_ALL=zh_CN.UTF-8"), QStringLiteral("LANGUAGE=zh_CN")}}) {
            CliResult r = runCli({QStringLiteral("steps"), m_demo, QStringLiteral("--json")}, 120000, {}, env);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const nlohmann::json doc = r.json();
            std::set<std::string> statuses;
            for (const auto& s : doc["steps"])
                statuses.insert(s["alignment"].get<std::string>());
            QVERIFY(statuses.count("match"));
            QVERIFY(statuses.count("outside_trace"));
            for (const std::string& s : statuses)
                QVERIFY2((std::set<std::string>{"not_aligned", "match", "mismatch", "unverified", "no_trace_step",
                                                "outside_trace"}
                              .count(s)),
                         s.c_str());
            r = runCli({QStringLiteral("steps"), m_demo, QStringLiteral("--csv")}, 120000, {}, env);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY(r.out.startsWith("rank,forward_ct,bs,mode,"));
        }
    }
};

QTEST_GUILESS_MAIN(TestStepsTableCli)
#include "tst_steps_table_cli.moc"
