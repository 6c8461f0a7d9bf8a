#pragma once

// Shared helpers for the Qt Test suites: where the real fixtures are, running the CLI, temp copies.
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QTest>
#include <QTranslator>

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>

namespace dspark::test {

// The build's paths, defined in ONE generated file of the build folder (tests/CMakeLists.txt,
// TestPaths.cpp) rather than as defines on every test's compile line: a test's object then does not
// depend on where the clone is, and ccache serves it to the next clone.
QString realTestDataDir(); // DSPARK_REAL_TESTDATA (cmake), as configured (may hold ".." or a symlink)
QString cliPath();         // the built dspark-timeline
QString sourceDir();       // the source tree
QString binaryDir();       // the build folder
QString qmDir();           // where the compiled translations (dspark-timeline_<locale>.qm) are

// Absolute path of a file/folder under the real fixture folder (DSPARK_REAL_TESTDATA).
// The path of a real fixture as the loaders name it in messages: absolute, with ".." and symlinks
// resolved.
inline QString realData(const QString& relative)
{
    const QString path = QDir(realTestDataDir()).filePath(relative);
    const QString canonical = QFileInfo(path).canonicalFilePath();
    return canonical.isEmpty() ? QDir::cleanPath(path) : canonical;
}

inline bool haveRealData()
{
    return QFileInfo::exists(realTestDataDir() + QStringLiteral("/SOURCES.md"));
}

struct CliResult {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    nlohmann::json json() const { return nlohmann::json::parse(out.toStdString(), nullptr, false); }
};

// Runs the real executable headless and captures its output. `childModifier` runs in the child
// after fork (e.g. to drop privileges with setuid); `extraEnv` ("NAME=value") overrides the environment,
// e.g. {"LC_ALL=zh_CN.UTF-8", "LANGUAGE=zh_CN"} for the Chinese translation.
inline CliResult runCli(const QStringList& args, int timeoutMs = 120000,
                        const std::function<void()>& childModifier = {}, const QStringList& extraEnv = {})
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
    for (const QString& e : extraEnv)
        env.insert(e.section(QLatin1Char('='), 0, 0), e.section(QLatin1Char('='), 1));
    p.setProcessEnvironment(env);
    if (childModifier)
        p.setChildProcessModifier(childModifier);
    p.start(cliPath(), args);
    CliResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "timeout";
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// Installs the app's compiled translation for `locale` (e.g. "zh_CN", built next to the executable
// in qmDir() as dspark-timeline_<locale>.qm); removed again when the returned translator is reset.
// Every widget receives QEvent::LanguageChange, as when the user picks a language.
struct TranslatorRemover {
    void operator()(QTranslator* t) const
    {
        QCoreApplication::removeTranslator(t);
        delete t;
    }
};
using InstalledTranslator = std::unique_ptr<QTranslator, TranslatorRemover>;
inline InstalledTranslator installTranslation(const QString& locale)
{
    auto t = std::make_unique<QTranslator>();
    if (!t->load(qmDir() + QStringLiteral("/dspark-timeline_") + locale + QStringLiteral(".qm")))
        return {};
    QCoreApplication::installTranslator(t.get());
    return InstalledTranslator(t.release());
}

} // namespace dspark::test

// Skips the current test function when the real fixture folder is absent.
#define DSPARK_REQUIRE_REAL_DATA()                                                                                     \
    do {                                                                                                               \
        if (!dspark::test::haveRealData())                                                                             \
            QSKIP(qPrintable(QStringLiteral("real fixture folder %1 is absent (set -DDSPARK_REAL_TESTDATA=...); "      \
                                            "this test reads real profiler output")                                    \
                                 .arg(dspark::test::realTestDataDir())));                                              \
    } while (0)
