// `dspark-timeline export` (issue 8): headless (no display), a step of the demo to PNG / SVG / PDF
// at the requested size and scale, the user's annotation file, clear one-line errors, and the
// profile folder left untouched.
#include "../demo/DemoTestSupport.h"
#include "TestSupport.h"

#include <QCryptographicHash>
#include <QDirIterator>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace dspark;
using namespace dspark::test;

namespace {

// Every file of a folder with its size and hash: proof that nothing was written there.
QStringList folderFingerprint(const QString& dir)
{
    QStringList out;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        f.open(QIODevice::ReadOnly);
        out << path + QLatin1Char(' ') +
                   QString::fromLatin1(QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha1).toHex());
    }
    out.sort();
    return out;
}

// The <svg> root's width and height attributes (the document must parse to the end).
QSize svgSize(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = f.errorString();
        return {};
    }
    QXmlStreamReader xml(&f);
    QSize size;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("svg") && size.isEmpty()) {
            auto number = [&](const char* key) {
                QString v = xml.attributes().value(QLatin1String(key)).toString();
                v.remove(QStringLiteral("mm")).remove(QStringLiteral("px"));
                return v.toDouble();
            };
            size = QSize(int(std::lround(number("width"))), int(std::lround(number("height"))));
        }
    }
    if (xml.hasError())
        *error = xml.errorString();
    return size;
}

} // namespace

class TestExportCli : public QObject {
    Q_OBJECT
    WrittenDemo m_demo;
    QTemporaryDir m_out;
    QString out(const QString& name) const { return m_out.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        m_demo = writeTestDemo(24, 7, 1, false);
        QVERIFY2(m_demo.result.error.isEmpty(), qPrintable(m_demo.result.error));
    }

    void aStepExportsToPngAtTheRequestedSizeAndScale()
    {
        const QStringList before = folderFingerprint(m_demo.dir);
        const CliResult r = runCli({QStringLiteral("export"), m_demo.dir, QStringLiteral("--step"),
                                    QStringLiteral("1209"), QStringLiteral("--out"), out(QStringLiteral("s.png")),
                                    QStringLiteral("--width"), QStringLiteral("1400"), QStringLiteral("--height"),
                                    QStringLiteral("900"), QStringLiteral("--scale"), QStringLiteral("2")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith(QByteArray(QByteArray("wrote ") + out(QStringLiteral("s.png")).toUtf8())));
        QCOMPARE(QImage(out(QStringLiteral("s.png"))).size(), QSize(2800, 1800));
        QCOMPARE(folderFingerprint(m_demo.dir), before);
    }

    void theHeightFitsEveryLaneWhenNotGiven()
    {
        const CliResult r = runCli({QStringLiteral("export"), m_demo.dir, QStringLiteral("--step"),
                                    QStringLiteral("1205"), QStringLiteral("--out"), out(QStringLiteral("fit.png"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QImage img(out(QStringLiteral("fit.png")));
        QCOMPARE(img.width(), 1600);
        // Header + ruler + the lanes of the step (host threads, HCCL, streams 2/3/5/7) + legend.
        QVERIFY2(img.height() > 300 && img.height() < 1400, qPrintable(QString::number(img.height())));
        QVERIFY(r.out.contains(QByteArray(QByteArray("×") + QByteArray::number(img.height()) + QByteArray(" px"))));
    }

    void svgAndPdfToo()
    {
        CliResult r = runCli({QStringLiteral("export"), m_demo.dir, QStringLiteral("--step"), QStringLiteral("1215"),
                              QStringLiteral("--out"), out(QStringLiteral("s.svg")), QStringLiteral("--width"),
                              QStringLiteral("1200"), QStringLiteral("--height"), QStringLiteral("700")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QString error;
        QCOMPARE(svgSize(out(QStringLiteral("s.svg")), &error), QSize(1200, 700));
        QVERIFY2(error.isEmpty(), qPrintable(error));
        r = runCli({QStringLiteral("export"), m_demo.dir, QStringLiteral("--step"), QStringLiteral("1215"),
                    QStringLiteral("--out"), out(QStringLiteral("s.pdf"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile pdf(out(QStringLiteral("s.pdf")));
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QCOMPARE(pdf.read(5), QByteArray("%PDF-"));
    }

    void aDetailOfAStepKeepsTheStepTitle()
    {
        // 1 ms of step 1209 (one MoE layer of the verify graph), 10 ms after the window start.
        const CliResult r =
            runCli({QStringLiteral("export"), m_demo.dir, QStringLiteral("--step"), QStringLiteral("1209"),
                    QStringLiteral("--from"), QStringLiteral("10"), QStringLiteral("--to"), QStringLiteral("11"),
                    QStringLiteral("--lanes"), QStringLiteral("Stream [235]"), QStringLiteral("--out"),
                    out(QStringLiteral("detail.svg"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("3 lane"));
        QFile f(out(QStringLiteral("detail.svg")));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray svg = f.readAll();
        QVERIFY(svg.contains("forward_ct 1209"));
        QVERIFY(svg.contains("Span 1.000 ms"));
    }

    void itRunsWithoutAnyDisplay()
    {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char* var : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_TYPE"})
            env.remove(QString::fromLatin1(var));
        env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
        p.setProcessEnvironment(env);
        p.start(test::cliPath(), {QStringLiteral("export"), m_demo.dir, QStringLiteral("--step"),
                                  QStringLiteral("1201"), QStringLiteral("--out"), out(QStringLiteral("nodisplay.png")),
                                  QStringLiteral("--lanes"), QStringLiteral("Stream")});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QVERIFY(!QImage(out(QStringLiteral("nodisplay.png"))).isNull());
        // Only the stream lanes that have events in the step: 2, 3, 5, 7.
        QVERIFY2(p.readAllStandardOutput().contains("4 lane"), "the lane pattern selects the 4 busy streams");
    }

    void theUsersAnnotationFileIsDrawn()
    {
        QFile notes(out(QStringLiteral("notes.json")));
        QVERIFY(notes.open(QIODevice::WriteOnly));
        notes.write("{\"format\": \"dspark-timeline-annotations\", \"version\": 1, \"annotations\": [{\"kind\": "
                    "\"range\", \"start_ns\": \"0\", \"end_ns\": \"9000000000000000000\", \"lane\": \"\", "
                    "\"text\": \"all\", \"color\": \"#00ff7f\"}]}");
        notes.close();
        const CliResult r = runCli({QStringLiteral("export"), m_demo.dir, QStringLiteral("--step"),
                                    QStringLiteral("1203"), QStringLiteral("--out"), out(QStringLiteral("notes.png")),
                                    QStringLiteral("--annotations"), out(QStringLiteral("notes.json"))});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QImage img = QImage(out(QStringLiteral("notes.png"))).convertToFormat(QImage::Format_RGB32);
        // The range covers the whole step: its tint is over every lane (spring green mixed in).
        int tinted = 0;
        for (int y = 0; y < img.height(); y += 3)
            for (int x = 0; x < img.width(); x += 3)
                tinted += qGreen(img.pixel(x, y)) > qRed(img.pixel(x, y)) + 8 &&
                          qGreen(img.pixel(x, y)) > qBlue(img.pixel(x, y)) + 8;
        QVERIFY2(tinted > 1000, qPrintable(QString::number(tinted)));
        const CliResult missing = runCli({QStringLiteral("export"), m_demo.dir, QStringLiteral("--step"),
                                          QStringLiteral("1203"), QStringLiteral("--out"), out(QStringLiteral("x.png")),
                                          QStringLiteral("--annotations"), out(QStringLiteral("missing.json"))});
        QCOMPARE(missing.exitCode, 1);
        QVERIFY(missing.err.contains("missing.json"));
    }

    void badRequestsFailWithOneLine()
    {
        struct Case {
            QStringList args;
            int exit;
            const char* message;
        };
        const QString png = out(QStringLiteral("bad.png"));
        const Case cases[] = {
            {{m_demo.dir, QStringLiteral("--step"), QStringLiteral("999999"), QStringLiteral("--out"), png},
             1,
             "forward_ct 999999 is not an aligned step (aligned steps: 1200"},
            {{m_demo.dir, QStringLiteral("--step"), QStringLiteral("1212"), QStringLiteral("--out"), png},
             1,
             "forward_ct 1212 is not an aligned step"},
            {{m_demo.dir, QStringLiteral("--step"), QStringLiteral("1201"), QStringLiteral("--out"),
              out(QStringLiteral("bad.gif"))},
             2,
             "unknown image type"},
            {{m_demo.dir, QStringLiteral("--step"), QStringLiteral("1201")}, 2, "usage:"},
            {{m_demo.dir, QStringLiteral("--step"), QStringLiteral("x"), QStringLiteral("--out"), png},
             2,
             "--step takes a forward_ct"},
            {{m_demo.dir, QStringLiteral("--out"), png, QStringLiteral("--width"), QStringLiteral("-5")},
             2,
             "--width must be"},
            {{m_demo.dir, QStringLiteral("--out"), png, QStringLiteral("--scale"), QStringLiteral("0")},
             2,
             "--scale must be"},
            {{m_demo.dir, QStringLiteral("--out"), png, QStringLiteral("--lanes"), QStringLiteral("Stream(")},
             2,
             "lane pattern"},
            {{m_demo.dir, QStringLiteral("--out"), png, QStringLiteral("--lanes"), QStringLiteral("zzz-no-lane")},
             1,
             "no lane with events matches"},
            {{m_demo.dir + QStringLiteral("/missing"), QStringLiteral("--out"), png}, 1, "missing"},
            {{m_demo.dir, QStringLiteral("--out"), png, QStringLiteral("--bogus")}, 2, "unknown option --bogus"},
            {{m_demo.dir, QStringLiteral("--out"), png, QStringLiteral("--from"), QStringLiteral("5"),
              QStringLiteral("--to"), QStringLiteral("2")},
             2,
             "--to must be after --from"},
            {{m_demo.dir, QStringLiteral("--out"), png, QStringLiteral("--from"), QStringLiteral("-1")},
             2,
             "--from takes milliseconds"},
        };
        for (const Case& c : cases) {
            const CliResult r = runCli(QStringList{QStringLiteral("export")} + c.args);
            QVERIFY2(r.exitCode == c.exit, qPrintable(c.args.join(' ') + " → " + QString::number(r.exitCode) + " " +
                                                      QString::fromUtf8(r.err)));
            QVERIFY2(r.err.contains(c.message), r.err.constData());
            QCOMPARE(r.err.count('\n'), 1);
        }
        QVERIFY(!QFile::exists(png));
    }

    void aProfileWithoutRecordsExportsWhole()
    {
        DSPARK_REQUIRE_REAL_DATA();
        const QString db = realData(QStringLiteral("ascend/torch_npu_db_rank0_ascend_pt"));
        CliResult r = runCli({QStringLiteral("export"), db, QStringLiteral("--out"), out(QStringLiteral("real.png")),
                              QStringLiteral("--width"), QStringLiteral("1200")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QImage(out(QStringLiteral("real.png"))).width(), 1200);
        r = runCli({QStringLiteral("export"), db, QStringLiteral("--step"), QStringLiteral("1"),
                    QStringLiteral("--out"), out(QStringLiteral("real-step.png"))});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no DSpark step records aligned"));
    }
};

QTEST_MAIN(TestExportCli)
#include "tst_export_cli.moc"
