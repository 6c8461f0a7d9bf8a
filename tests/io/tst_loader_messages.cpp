// The loaders' detail messages (damaged .gz, a path that is not a file, an export of the same run left
// out) are English without a translator and Chinese with the zh_CN one, and keep the file and the
// byte offset either way.
#include "GzipSupport.h"
#include "TestSupport.h"

#include "io/ProfileLoader.h"
#include "io/ProfileScanner.h"
#include "util/MappedFile.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

#include <fstream>

using namespace dspark;

namespace {

using test::gzipped;

QString writeFile(const QTemporaryDir& dir, const QString& name, const std::string& content)
{
    const QString path = dir.filePath(name);
    QDir().mkpath(QFileInfo(path).absolutePath());
    std::ofstream out(path.toStdString(), std::ios::binary);
    out << content;
    return QFileInfo(path).canonicalFilePath();
}

const char* kTrace = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":"1","dur":1},)"
                     R"({"ph":"X","name":"b","pid":1,"tid":1,"ts":"2","dur":1}])";

} // namespace

class TestLoaderMessages : public QObject {
    Q_OBJECT

    // A .gz whose last deflate byte and trailer are cut: the stream ends at byte `size`.
    QString truncatedGz(const QTemporaryDir& dir, size_t* size)
    {
        const std::string gz = gzipped(kTrace);
        *size = gz.size() - 9;
        return writeFile(dir, QStringLiteral("x.trace.json.gz"), gz.substr(0, *size));
    }

    static std::string noteOf(const ScanResult& scan, const std::string& fileName)
    {
        for (const ScannedFile& f : scan.files)
            if (f.path.size() >= fileName.size() && f.path.ends_with(fileName))
                return f.note;
        return "?";
    }

private Q_SLOTS:
    void englishWithoutATranslator()
    {
        QTemporaryDir dir;
        size_t size = 0;
        const QString gz = truncatedGz(dir, &size);
        const LoadOutcome out = loadProfile(gz.toStdString());
        QVERIFY(!out.profile);
        QVERIFY2(out.error.startsWith(gz), qPrintable(out.error));
        QVERIFY2(out.error.contains(QStringLiteral("the compressed file is damaged (truncated gzip data (the stream "
                                                   "ends at compressed byte %1 before its end marker)")
                                        .arg(size)),
                 qPrintable(out.error));

        std::string error;
        QVERIFY(!MappedFile::open(dir.path().toStdString(), error).isOpen());
        QCOMPARE(error, std::string("not a regular file"));

        writeFile(dir, QStringLiteral("r0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"), kTrace);
        writeFile(dir, QStringLiteral("r0_ascend_pt/PROF_1/mindstudio_profiler_output/msprof_1.json"), kTrace);
        const ScanResult scan = scanProfilePath(dir.path().toStdString());
        QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
        QCOMPARE(noteOf(scan, "/msprof_1.json"), std::string("same run as trace_view.json; not loaded"));
    }

    void chineseWithTheZhCnTranslation()
    {
        const test::InstalledTranslator zh = test::installTranslation(QStringLiteral("zh_CN"));
        QVERIFY2(zh, "the compiled zh_CN translation (dspark-timeline_zh_CN.qm) is missing");
        QTemporaryDir dir;
        size_t size = 0;
        const QString gz = truncatedGz(dir, &size);
        const LoadOutcome out = loadProfile(gz.toStdString());
        QVERIFY(!out.profile);
        QVERIFY2(out.error.startsWith(gz), qPrintable(out.error));
        QVERIFY2(out.error.contains(
                     QStringLiteral("gzip 数据不完整（数据流在压缩数据第 %1 字节处结束，缺少结束标记）").arg(size)),
                 qPrintable(out.error));
        QVERIFY2(!out.error.contains(QStringLiteral("truncated")), qPrintable(out.error));

        std::string error;
        QVERIFY(!MappedFile::open(dir.path().toStdString(), error).isOpen());
        QCOMPARE(QString::fromStdString(error), QStringLiteral("不是普通文件"));

        writeFile(dir, QStringLiteral("r0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json"), kTrace);
        writeFile(dir, QStringLiteral("r0_ascend_pt/PROF_1/mindstudio_profiler_output/msprof_1.json"), kTrace);
        const ScanResult scan = scanProfilePath(dir.path().toStdString());
        QCOMPARE(QString::fromStdString(noteOf(scan, "/msprof_1.json")),
                 QStringLiteral("与 trace_view.json 属于同一次运行；未加载"));
    }
};

QTEST_GUILESS_MAIN(TestLoaderMessages)
#include "tst_loader_messages.moc"
