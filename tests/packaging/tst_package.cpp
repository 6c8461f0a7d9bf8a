// The Debian package, built by CPack from this build's binaries (no second build): its control
// fields, its files, the validators Debian and the desktops use (desktop-file-validate, appstreamcli,
// lintian, update-mime-database), and the installed program itself, unpacked with `dpkg -x` into a
// scratch root: headless `info` on the real database without a display, and the window in Chinese
// offscreen on the demo. A tool that is missing skips its check with the reason (tools/dev.sh test
// installs them all).
#include "TestSupport.h"

#include "DbTestSupport.h"

#include <QDirIterator>
#include <QImage>
#include <QLibraryInfo>
#include <QMimeDatabase>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <set>

using namespace dspark::test;
using nlohmann::json;

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

// Runs `program` with `env` changes ("NAME=value" sets, "NAME" alone removes) over the test's own
// environment; a crash or a timeout is exit code -2 / -1.
Run run(const QString& program, const QStringList& args, const QStringList& env = {}, int timeoutMs = 300'000)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& change : env) {
        if (change.contains(QLatin1Char('=')))
            e.insert(change.section(QLatin1Char('='), 0, 0), change.section(QLatin1Char('='), 1));
        else
            e.remove(change);
    }
    p.setProcessEnvironment(e);
    p.start(program, args);
    Run r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timeout");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString describe(const Run& r)
{
    return QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3").arg(r.exitCode).arg(r.out, r.err);
}

// The tags docs/packaging.md lists, with why, under "## Lintian warnings left" (`| `tag` | why |`).
std::set<QString> documentedLintianWarnings()
{
    QFile f(dspark::test::sourceDir() + QStringLiteral("/docs/packaging.md"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    std::set<QString> tags;
    bool inSection = false;
    static const QRegularExpression row(QStringLiteral("^\\| `([a-z0-9-]+)` \\|\\s*\\S"));
    for (const QString& line : QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("## ")))
            inSection = line == QLatin1String("## Lintian warnings left");
        const QRegularExpressionMatch m = row.match(line);
        if (inSection && m.hasMatch())
            tags.insert(m.captured(1));
    }
    return tags;
}

// A SQLite database as far as a file manager looks: the 16-byte header of every SQLite 3 file.
void writeSqliteHeader(const QString& path)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray bytes("SQLite format 3", 16); // with its NUL
    bytes.append(4096 - bytes.size(), '\0');
    f.write(bytes);
}

const char* const kAppId = DSPARK_APP_ID;

} // namespace

class TestPackage : public QObject {
    Q_OBJECT

    QTemporaryDir m_scratch;
    QString m_deb;   // the package CPack built
    QString m_root;  // where `dpkg -x` unpacked it
    QString m_noDeb; // why there is no package (the checks that need it skip with this)
    QString m_tools; // the validators that are missing, for the skip messages

    QString scratch(const QString& name) const { return m_scratch.filePath(name); }
    QString installed(const QString& relative) const { return QDir(m_root).filePath(relative); }
    QString installedBinary() const { return installed(QStringLiteral("usr/bin/dspark-timeline")); }

#define REQUIRE_PACKAGE()                                                                                              \
    do {                                                                                                               \
        if (!m_noDeb.isEmpty())                                                                                        \
            QSKIP(qPrintable(m_noDeb));                                                                                \
    } while (0)
#define REQUIRE_TOOL(name)                                                                                             \
    do {                                                                                                               \
        if (QStandardPaths::findExecutable(QStringLiteral(name)).isEmpty())                                            \
            QSKIP(name " is not installed (tools/dev.sh test installs it)");                                           \
    } while (0)

    // The environment of a user's session with no display at all, home and caches in the scratch folder.
    QStringList sessionWithoutDisplay() const
    {
        return {QStringLiteral("DISPLAY"),
                QStringLiteral("WAYLAND_DISPLAY"),
                QStringLiteral("QT_QPA_PLATFORM"),
                QStringLiteral("HOME=") + scratch(QStringLiteral("home")),
                QStringLiteral("XDG_CONFIG_HOME=") + scratch(QStringLiteral("home/.config")),
                QStringLiteral("XDG_CACHE_HOME=") + scratch(QStringLiteral("home/.cache")),
                QStringLiteral("XDG_DATA_HOME=") + scratch(QStringLiteral("home/.local/share"))};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_scratch.isValid());
        QVERIFY(QDir().mkpath(scratch(QStringLiteral("home"))));
#ifdef DSPARK_SANITIZED_BUILD
        QSKIP("a sanitizer build is never packaged: the release build's run of this test checks the package");
#endif
        for (const char* tool : {"dpkg-deb", "dpkg-shlibdeps"})
            if (QStandardPaths::findExecutable(QString::fromLatin1(tool)).isEmpty())
                m_noDeb = QString::fromLatin1(tool) +
                          QStringLiteral(" is not installed (dpkg-dev; tools/dev.sh test installs it): no package");
        if (!m_noDeb.isEmpty())
            return;
        // The package from this build's binaries: CPack installs the build tree, nothing is compiled.
        const Run cpack = run(QStringLiteral(DSPARK_CPACK_COMMAND),
                              {QStringLiteral("-G"), QStringLiteral("DEB"), QStringLiteral("--config"),
                               dspark::test::binaryDir() + QStringLiteral("/CPackConfig.cmake"), QStringLiteral("-B"),
                               scratch(QStringLiteral("package"))});
        QVERIFY2(cpack.exitCode == 0, qPrintable(describe(cpack)));
        const QStringList debs =
            QDir(scratch(QStringLiteral("package"))).entryList({QStringLiteral("*.deb")}, QDir::Files);
        QCOMPARE(debs.size(), 1);
        m_deb = scratch(QStringLiteral("package/")) + debs.first();
        m_root = scratch(QStringLiteral("root"));
        const Run x = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-x"), m_deb, m_root});
        QVERIFY2(x.exitCode == 0, qPrintable(describe(x)));
    }

    void controlFieldsNameTheSystemLibraries()
    {
        REQUIRE_PACKAGE();
        auto field = [&](const char* name) {
            return run(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), m_deb, QString::fromLatin1(name)})
                .out.trimmed();
        };
        QCOMPARE(field("Package"), QStringLiteral("dspark-timeline"));
        QCOMPARE(field("Version"), QStringLiteral(DSPARK_VERSION));
        QCOMPARE(field("Section"), QStringLiteral("devel"));
        QVERIFY(field("Maintainer").contains(QRegularExpression(QStringLiteral("^.+ <[^@ ]+@[^@ ]+>$"))));
        QVERIFY(field("Description").startsWith(QStringLiteral("timeline viewer for Ascend NPU")));
        QVERIFY(field("Recommends").contains(QStringLiteral("qt6-translations-l10n")));
        // dpkg-shlibdeps found the libraries the binary links: the system's, not bundled copies.
        const QString depends = field("Depends");
        for (const char* lib : {"libc6", "libqt6core6", "libqt6gui6", "libqt6widgets6", "libqt6charts6", "libqt6svg6",
                                "libsqlite3-0", "libsimdjson", "zlib1g"})
            QVERIFY2(depends.contains(QString::fromLatin1(lib)), qPrintable(lib + QStringLiteral(" in ") + depends));
        QDirIterator it(m_root, QDir::Files, QDirIterator::Subdirectories);
        QStringList files;
        while (it.hasNext())
            files << it.next().mid(m_root.size() + 1);
        files.sort();
        for (const QString& f : files)
            QVERIFY2(!f.contains(QStringLiteral("libQt6")) && !f.endsWith(QStringLiteral(".so")), qPrintable(f));
        const QString id = QString::fromLatin1(kAppId);
        const QStringList expected = {
            QStringLiteral("usr/bin/dspark-timeline"),
            QStringLiteral("usr/share/applications/") + id + QStringLiteral(".desktop"),
            QStringLiteral("usr/share/doc/dspark-timeline/changelog.gz"),
            QStringLiteral("usr/share/doc/dspark-timeline/copyright"),
            QStringLiteral("usr/share/icons/hicolor/128x128/apps/dspark-timeline.png"),
            QStringLiteral("usr/share/icons/hicolor/256x256/apps/dspark-timeline.png"),
            QStringLiteral("usr/share/icons/hicolor/48x48/apps/dspark-timeline.png"),
            QStringLiteral("usr/share/icons/hicolor/scalable/apps/dspark-timeline.svg"),
            QStringLiteral("usr/share/man/man1/dspark-timeline.1.gz"),
            QStringLiteral("usr/share/metainfo/") + id + QStringLiteral(".metainfo.xml"),
            QStringLiteral("usr/share/mime/packages/dspark-timeline.xml"),
        };
        QCOMPARE(files, expected);
    }

    void iconsAreDrawnAtTheirSizes()
    {
        REQUIRE_PACKAGE();
        for (int size : {48, 128, 256}) {
            const QString path =
                installed(QStringLiteral("usr/share/icons/hicolor/%1x%1/apps/dspark-timeline.png").arg(size));
            QImage icon(path);
            QVERIFY2(!icon.isNull(), qPrintable(path));
            QCOMPARE(icon.size(), QSize(size, size));
            icon = icon.convertToFormat(QImage::Format_ARGB32);
            // A rounded tile: transparent corners, an opaque dark body, bright bars on it.
            QCOMPARE(qAlpha(icon.pixel(0, 0)), 0);
            QCOMPARE(qAlpha(icon.pixel(size / 2, size / 8)), 255);
            QVERIFY(qGray(icon.pixel(size / 2, size / 8)) < 80);
            int bright = 0;
            for (int y = 0; y < size; ++y)
                for (int x = 0; x < size; ++x)
                    bright += qGray(icon.pixel(x, y)) > 140 && qAlpha(icon.pixel(x, y)) == 255;
            QVERIFY2(bright > size * size / 10, qPrintable(QString::number(bright)));
        }
    }

    void desktopFileValidates()
    {
        REQUIRE_PACKAGE();
        REQUIRE_TOOL("desktop-file-validate");
        const QString path = installed(QStringLiteral("usr/share/applications/") + QString::fromLatin1(kAppId) +
                                       QStringLiteral(".desktop"));
        const Run r = run(QStringLiteral("desktop-file-validate"), {path});
        QVERIFY2(r.exitCode == 0 && r.out.isEmpty() && r.err.isEmpty(), qPrintable(describe(r)));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        QVERIFY(lines.contains(QStringLiteral("Exec=dspark-timeline %U"))); // URIs from file managers
        QVERIFY(lines.contains(QStringLiteral("Icon=dspark-timeline")));
        QVERIFY(lines.contains(QStringLiteral("Categories=Development;Profiling;Qt;")));
        QVERIFY(lines.filter(QRegularExpression(QStringLiteral("^Keywords\\[zh_CN\\]=.*昇腾;"))).size() == 1);
        QVERIFY(lines.filter(QRegularExpression(QStringLiteral("^Keywords=.*Ascend;"))).size() == 1);
        QVERIFY(lines.contains(QStringLiteral("MimeType=application/x-ascend-pytorch-profiler-db;"
                                              "application/x-msprof-db;application/x-pytorch-profiler-trace+json;")));
    }

    void appstreamMetadataValidates()
    {
        REQUIRE_PACKAGE();
        REQUIRE_TOOL("appstreamcli");
        const QString path = installed(QStringLiteral("usr/share/metainfo/") + QString::fromLatin1(kAppId) +
                                       QStringLiteral(".metainfo.xml"));
        const Run r =
            run(QStringLiteral("appstreamcli"), {QStringLiteral("validate"), QStringLiteral("--no-net"), path},
                {QStringLiteral("LC_ALL=C.UTF-8")});
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        QVERIFY2(!r.out.contains(QStringLiteral("W: ")) && !r.out.contains(QStringLiteral("E: ")), qPrintable(r.out));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString xml = QString::fromUtf8(f.readAll());
        QVERIFY(xml.contains(QStringLiteral("<launchable type=\"desktop-id\">") + QString::fromLatin1(kAppId) +
                             QStringLiteral(".desktop</launchable>")));
        QVERIFY(xml.contains(QStringLiteral("<release version=\"" DSPARK_VERSION "\"")));
        QVERIFY(xml.contains(QStringLiteral("<summary xml:lang=\"zh_CN\">")));
        QVERIFY(xml.contains(QStringLiteral("<binary>dspark-timeline</binary>")));
        // Every screenshot is a picture the repository has.
        static const QRegularExpression image(QStringLiteral("/docs/images/([a-z0-9-]+\\.png)</image>"));
        int screenshots = 0;
        for (auto it = image.globalMatch(xml); it.hasNext(); ++screenshots) {
            const QString name = it.next().captured(1);
            QVERIFY2(QFileInfo::exists(dspark::test::sourceDir() + QStringLiteral("/docs/images/") + name),
                     qPrintable(name));
        }
        QCOMPARE(screenshots, 2);
    }

    void lintianFindsNoErrorAndOnlyDocumentedWarnings()
    {
        REQUIRE_PACKAGE();
        REQUIRE_TOOL("lintian");
        const Run r =
            run(QStringLiteral("lintian"), {QStringLiteral("--allow-root"), QStringLiteral("--no-cfg"), m_deb},
                {QStringLiteral("LC_ALL=C.UTF-8")});
        // Exit 0: no error; 2 would be lintian failing to run at all.
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const std::set<QString> documented = documentedLintianWarnings();
        static const QRegularExpression tagLine(QStringLiteral("^([EW]): dspark-timeline[^:]*: ([a-z0-9-]+)"),
                                                QRegularExpression::MultilineOption);
        for (auto it = tagLine.globalMatch(r.out); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            QVERIFY2(m.captured(1) == QLatin1String("W"), qPrintable(r.out));
            QVERIFY2(documented.count(m.captured(2)),
                     qPrintable(m.captured(2) + QStringLiteral(" is not listed in docs/packaging.md:\n") + r.out));
        }
    }

    void fileTypesNameProfilerFilesOnly()
    {
        REQUIRE_PACKAGE();
        REQUIRE_TOOL("update-mime-database");
        // The database a desktop builds from the installed XML, beside the system's own types.
        const QString mime = scratch(QStringLiteral("share/mime"));
        QVERIFY(QDir().mkpath(mime + QStringLiteral("/packages")));
        QVERIFY(QFile::copy(installed(QStringLiteral("usr/share/mime/packages/dspark-timeline.xml")),
                            mime + QStringLiteral("/packages/dspark-timeline.xml")));
        const QString dataDirs = scratch(QStringLiteral("share")) + QStringLiteral(":/usr/share");
        const Run r =
            run(QStringLiteral("update-mime-database"), {mime}, {QStringLiteral("XDG_DATA_DIRS=") + dataDirs});
        QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(describe(r)));
        qputenv("XDG_DATA_DIRS", dataDirs.toLocal8Bit());
        const QDir files(scratch(QStringLiteral("files")));
        QVERIFY(files.mkpath(QStringLiteral(".")));
        const QMimeDatabase db;
        auto typeOf = [&](const QString& name) { return db.mimeTypeForFile(files.filePath(name)); };
        for (const char* name : {"ascend_pytorch_profiler_3.db", "msprof_20250101.db", "profile.db", "cache.db"})
            writeSqliteHeader(files.filePath(QString::fromLatin1(name)));
        for (const char* name : {"rank0.pt.trace.json", "trace_view.json", "package.json"}) {
            QFile f(files.filePath(QString::fromLatin1(name)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("{\"traceEvents\": []}\n");
        }
        QCOMPARE(typeOf(QStringLiteral("ascend_pytorch_profiler_3.db")).name(),
                 QStringLiteral("application/x-ascend-pytorch-profiler-db"));
        QVERIFY(
            typeOf(QStringLiteral("ascend_pytorch_profiler_3.db")).inherits(QStringLiteral("application/vnd.sqlite3")));
        QCOMPARE(typeOf(QStringLiteral("msprof_20250101.db")).name(), QStringLiteral("application/x-msprof-db"));
        QVERIFY(typeOf(QStringLiteral("msprof_20250101.db")).inherits(QStringLiteral("application/vnd.sqlite3")));
        QCOMPARE(typeOf(QStringLiteral("rank0.pt.trace.json")).name(),
                 QStringLiteral("application/x-pytorch-profiler-trace+json"));
        QCOMPARE(typeOf(QStringLiteral("trace_view.json")).name(),
                 QStringLiteral("application/x-pytorch-profiler-trace+json"));
        // Other databases and JSON files stay what they are: the viewer claims none of them.
        QCOMPARE(typeOf(QStringLiteral("profile.db")).name(), QStringLiteral("application/vnd.sqlite3"));
        QCOMPARE(typeOf(QStringLiteral("cache.db")).name(), QStringLiteral("application/vnd.sqlite3"));
        QCOMPARE(typeOf(QStringLiteral("package.json")).name(), QStringLiteral("application/json"));
        QCOMPARE(db.mimeTypeForName(QStringLiteral("application/x-msprof-db")).comment(),
                 QStringLiteral("Ascend msprof profiler database"));
    }

    void installedInfoRunsWithoutADisplayOnTheRealDatabase()
    {
        REQUIRE_PACKAGE();
        DSPARK_REQUIRE_REAL_DATA();
        // Renamed: the installed program reads the file by its content, not by its name.
        const QString db = copyTorchDb(m_scratch.path(), QStringLiteral("renamed-run.db"));
        QVERIFY(!db.isEmpty());
        const Run r = run(installedBinary(), {QStringLiteral("info"), db, QStringLiteral("--json")},
                          sessionWithoutDisplay() << QStringLiteral("LC_ALL=C.UTF-8") << QStringLiteral("LANGUAGE=en"));
        QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(describe(r)));
        const json doc = json::parse(r.out.toStdString(), nullptr, false);
        QVERIFY(doc.is_object());
        // SOURCES.md: TASK 552 rows, COMPUTE_TASK_INFO 187, COMMUNICATION_OP 4, COMMUNICATION_TASK_INFO 296.
        QCOMPARE(doc["device_tasks"].get<uint64_t>(), uint64_t(552));
        QCOMPARE(doc["named_kernels"].get<uint64_t>(), uint64_t(187));
        QCOMPARE(doc["comm_ops"].get<uint64_t>(), uint64_t(4));
        QCOMPARE(doc["comm_tasks"].get<uint64_t>(), uint64_t(296));
        QCOMPARE(doc["host_events"].get<uint64_t>(), uint64_t(3171)); // CANN 710 + PyTorch 2460 + 1 step
        QCOMPARE(doc["flows"].get<uint64_t>(), uint64_t(1236));
        QCOMPARE(doc["files"].size(), size_t(1));
        QCOMPARE(doc["files"][0]["loaded"].get<bool>(), true);
    }

    void installedHeadlessCommandsNeedNoDisplay()
    {
        REQUIRE_PACKAGE();
        const QStringList env = sessionWithoutDisplay()
                                << QStringLiteral("LC_ALL=C.UTF-8") << QStringLiteral("LANGUAGE=en");
        const QString demo = scratch(QStringLiteral("demo profile"));
        const Run written = run(installedBinary(),
                                {QStringLiteral("demo"), demo, QStringLiteral("--steps"), QStringLiteral("20")}, env);
        QVERIFY2(written.exitCode == 0, qPrintable(describe(written)));
        const Run analyzed = run(installedBinary(), {QStringLiteral("analyze"), demo, QStringLiteral("--json")}, env);
        QVERIFY2(analyzed.exitCode == 0 && analyzed.err.isEmpty(), qPrintable(describe(analyzed)));
        QVERIFY(json::parse(analyzed.out.toStdString(), nullptr, false).is_object());
        // export paints with QtGui: it must pick the offscreen platform by itself.
        const QString png = scratch(QStringLiteral("step.png"));
        const Run exported = run(installedBinary(),
                                 {QStringLiteral("export"), demo, QStringLiteral("--step"), QStringLiteral("1209"),
                                  QStringLiteral("--width"), QStringLiteral("800"), QStringLiteral("--out"), png},
                                 env);
        QVERIFY2(exported.exitCode == 0 && exported.err.isEmpty(), qPrintable(describe(exported)));
        QCOMPARE(QImage(png).width(), 800);
    }

    void installedWindowSpeaksChineseOnTheDemo()
    {
        REQUIRE_PACKAGE();
        const Run r =
            run(installedBinary(), {QStringLiteral("--self-check"), QStringLiteral("--demo")},
                sessionWithoutDisplay() << QStringLiteral("QT_QPA_PLATFORM=offscreen")
                                        << QStringLiteral("LC_ALL=zh_CN.UTF-8") << QStringLiteral("LANGUAGE=zh_CN"));
        QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
        const json doc = json::parse(r.out.toStdString(), nullptr, false);
        QVERIFY2(doc.is_object(), qPrintable(r.out));
        QCOMPARE(doc["loaded"].get<bool>(), true);
        QVERIFY2(doc["title"].get<std::string>().find("DSpark Timeline") != std::string::npos, qPrintable(r.out));
        std::set<std::string> menus;
        for (const json& m : doc["menus"])
            menus.insert(m.get<std::string>());
        QVERIFY2(menus.count("文件(&F)") && menus.count("视图(&V)"), qPrintable(r.out));
        std::set<std::string> translations;
        for (const json& t : doc["translations"])
            translations.insert(t.get<std::string>());
        QVERIFY2(translations.count(":/i18n/dspark-timeline_zh_CN.qm"), qPrintable(r.out));
        // Qt's own strings, where this system has them (qt6-translations-l10n, a Recommends).
        const QString qtbase = QLibraryInfo::path(QLibraryInfo::TranslationsPath) + QStringLiteral("/qtbase_zh_CN.qm");
        if (QFileInfo::exists(qtbase))
            QVERIFY2(translations.count(qtbase.toStdString()), qPrintable(r.out));
        else
            qInfo("%s is absent: only the app's own translation was checked", qPrintable(qtbase));
    }

    void installTreeRunsFromAnyPrefix()
    {
        // `cmake --install` into a folder of its own: the program runs from there, finds its
        // translations (embedded) without the source or build tree.
        const QString stage = scratch(QStringLiteral("stage dir"));
        const Run install =
            run(QStringLiteral(DSPARK_CMAKE_COMMAND),
                {QStringLiteral("--install"), dspark::test::binaryDir(), QStringLiteral("--prefix"), stage});
        QVERIFY2(install.exitCode == 0, qPrintable(describe(install)));
        const QString binary = stage + QStringLiteral("/bin/dspark-timeline");
        QVERIFY(QFileInfo(binary).isExecutable());
        QVERIFY(QFileInfo::exists(stage + QStringLiteral("/share/applications/") + QString::fromLatin1(kAppId) +
                                  QStringLiteral(".desktop")));
        const Run help =
            run(binary, {QStringLiteral("--help")},
                sessionWithoutDisplay() << QStringLiteral("LC_ALL=zh_CN.UTF-8") << QStringLiteral("LANGUAGE=zh_CN"));
        QVERIFY2(help.exitCode == 0, qPrintable(describe(help)));
        QVERIFY2(help.out.contains(QStringLiteral("列出性能数据的文件")), qPrintable(help.out));
    }
};

QTEST_GUILESS_MAIN(TestPackage)
#include "tst_package.moc"
