// A folder of many small trace files: every file's events keep their own arguments (the args source
// id is wider than a byte: the 257th file used to read another file's args), and every file loads.
#include "TestSupport.h"

#include "io/ProfileLoader.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <map>

using namespace dspark;

namespace {

// One rank per file (Kineto's distributedInfo), one kernel whose args name the file.
void writeTrace(const std::string& path, int i)
{
    std::ofstream out(path, std::ios::binary);
    out << "{\"distributedInfo\":{\"rank\":" << i << "},\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\","
        << "\"name\":\"k" << i << "\",\"pid\":0,\"tid\":7,\"ts\":" << 1000 + i << ",\"dur\":" << 10 + i
        << ",\"args\":{\"file\":" << i << ",\"tag\":\"f" << i << "\"}}]}";
}

} // namespace

class TestManyFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void threeHundredFilesKeepTheirOwnArgs()
    {
        constexpr int kFiles = 300;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int i = 0; i < kFiles; ++i)
            writeTrace(dir.filePath(QStringLiteral("rank%1.pt.trace.json").arg(i)).toStdString(), i);

        const LoadOutcome outcome = loadProfile(dir.path().toStdString());
        QVERIFY2(outcome.profile, qPrintable(outcome.error));
        const Profile& p = *outcome.profile;

        size_t loaded = 0;
        for (const SourceFile& f : p.files)
            loaded += f.loaded ? 1 : 0;
        QCOMPARE(loaded, size_t(kFiles));

        // Every kernel k<i> has args file=i, tag=f<i>, and lies on rank i with duration 10+i µs.
        std::map<int, int> seen;
        for (uint32_t l = 0; l < p.lanes.size(); ++l) {
            const Lane& lane = p.lanes[l];
            for (uint32_t e = 0; e < lane.size(); ++e) {
                const std::string name(p.strings.view(lane.nameId[e]));
                if (name.size() < 2 || name[0] != 'k')
                    continue;
                const int i = std::stoi(name.substr(1));
                QCOMPARE(p.ranks[lane.info.rankIndex].rankNumber, i);
                QCOMPARE(int64_t(lane.durationNs[e]), int64_t(10 + i) * 1000);
                std::map<std::string, std::string> args;
                for (const EventArg& a : p.args(EventRef{l, e}))
                    args[a.key] = a.value;
                QCOMPARE(QString::fromStdString(args["file"]), QString::number(i));
                QCOMPARE(QString::fromStdString(args["tag"]), QStringLiteral("f%1").arg(i));
                ++seen[i];
            }
        }
        QCOMPARE(int(seen.size()), kFiles);
        for (const auto& [i, n] : seen)
            QCOMPARE(n, 1);
    }
};

QTEST_GUILESS_MAIN(TestManyFiles)
#include "tst_many_files.moc"
