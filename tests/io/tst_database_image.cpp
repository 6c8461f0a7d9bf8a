// A database held in memory (ScannedFile::image, the fuzz harnesses' entry) loads as the same bytes do
// from a file, WAL-mode header included: SQLite cannot deserialize a WAL database (header bytes 18-19 =
// 2: "unable to open database file" at the first read), while the file opens with immutable=1.
#include "DbTestSupport.h"
#include "TestSupport.h"

#include "io/FileRecognition.h"
#include "io/ProfileLoader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace dspark;

namespace {

// The load of `image` held in memory as the file /image/ascend_pytorch_profiler_0.db.
LoadOutcome loadImage(const std::string& image)
{
    ScanResult scan;
    scan.root = "/image";
    ScannedFile file;
    file.path = "/image/ascend_pytorch_profiler_0.db";
    file.format = recognizeDatabaseImage(file.path, image).format;
    file.rankNumber = 0;
    file.image = image;
    scan.files.push_back(file);
    return loadScannedProfile(scan, file.path);
}

LoadOutcome loadFile(const QTemporaryDir& dir, const std::string& bytes)
{
    const std::string path = dir.filePath(QStringLiteral("ascend_pytorch_profiler_0.db")).toStdString();
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    return loadProfile(path);
}

} // namespace

class TestDatabaseImage : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void aWalModeImageLoadsAsItsFile()
    {
        DSPARK_REQUIRE_REAL_DATA();
        QFile f(test::torchDbFixture());
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::string bytes = f.readAll().toStdString();
        QCOMPARE(int(bytes[18]), 1); // the fixture is a rollback-journal database: marked WAL below
        bytes[18] = bytes[19] = 2;
        QCOMPARE(recognizeDatabaseImage("/image/ascend_pytorch_profiler_0.db", bytes).format, FileFormat::TorchNpuDb);
        QTemporaryDir dir;
        const LoadOutcome fromFile = loadFile(dir, bytes);
        QVERIFY2(fromFile.profile, qPrintable(fromFile.error));
        const LoadOutcome inMemory = loadImage(bytes);
        QVERIFY2(inMemory.profile, qPrintable(inMemory.error));
        QCOMPARE(inMemory.profile->stats().events, fromFile.profile->stats().events);
        QCOMPARE(inMemory.profile->lanes.size(), fromFile.profile->lanes.size());
        QCOMPARE(int(bytes[18]), 2); // the caller's bytes are left as they were
    }
};

QTEST_GUILESS_MAIN(TestDatabaseImage)
#include "tst_database_image.moc"
