// dspark-timeline: with a sub-command it runs headless (no display needed); without one it opens
// the main window, optionally on a path given on the command line.
#include "SelfCheck.h"
#include "cli/CliCommand.h"
#include "demo/DemoCache.h"
#include "util/Memory.h"
#include "util/Translations.h"

#include "MainWindow.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>
#include <QGuiApplication>

#include <cstdio>
#include <memory>

using namespace dspark;

// Headless commands promise one line on stderr per error. Qt's notice that XDG_RUNTIME_DIR is unset
// (common in containers and CI) is not the user's problem; everything else passes through.
static QtMessageHandler g_previousHandler = nullptr;
static void quietMessageHandler(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (type == QtWarningMsg && message.startsWith(QLatin1String("QStandardPaths: XDG_RUNTIME_DIR not set")))
        return;
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

static void printHelp()
{
    std::string text =
        "DSpark Timeline " + std::string(DSPARK_VERSION) +
        "\n\nusage:\n  dspark-timeline [PATH|URI]        open the viewer (on PATH, a profile folder or "
        "file, or its file:// URI)\n  dspark-timeline --demo            open the viewer on the embedded demo profile\n"
        "  dspark-timeline --compare BASELINE CHANGED\n      open the viewer on a comparison of two runs "
        "(docs/compare.md §6)\n  dspark-timeline --demo-compare    open the viewer on the demo's comparison pair\n"
        "  dspark-timeline --cluster DIR     open the viewer and the cluster window on a folder of ranks "
        "(docs/cluster.md)\n"
        "  dspark-timeline --self-check [--demo|PATH]\n      " +
        QCoreApplication::translate("cli", "Open the viewer, wait for the profile, print what the "
                                           "window shows as JSON and quit (checks an installation)")
            .toStdString() +
        "\n";
    for (const cli::Command& c : cli::commands())
        text += "  dspark-timeline " + std::string(c.usage) + "\n      " +
                QCoreApplication::translate("cli", c.summary).toStdString() + "\n";
    cli::printOut(text);
}

// A first argument that is neither an option, a sub-command nor an existing path, and has no path
// separator or extension, is a mistyped sub-command (`compre a b`), not a profile to open.
static bool isUnknownCommand(const QString& first)
{
    if (first.isEmpty() || first.startsWith(QLatin1Char('-')) || QFileInfo::exists(first))
        return false;
    return !first.contains(QLatin1Char('/')) && !first.contains(QLatin1Char('\\')) && !first.contains(QLatin1Char('.'));
}

int main(int argc, char** argv)
{
    keepFreedMemoryForReuse(); // (the allocator's settings for loading, once for the whole process)
    QCoreApplication::setOrganizationName(QStringLiteral("DSpark"));
    QCoreApplication::setApplicationName(QStringLiteral("DSpark Timeline"));
    QCoreApplication::setApplicationVersion(QStringLiteral(DSPARK_VERSION));

    const QString first = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QString();
    if (first == QLatin1String("--help") || first == QLatin1String("-h") || first == QLatin1String("help")) {
        QCoreApplication app(argc, argv);
        installTranslations();
        printHelp();
        return 0;
    }
    if (first == QLatin1String("--version")) {
        cli::printOut("dspark-timeline " DSPARK_VERSION "\n");
        return 0;
    }
    if (const cli::Command* command = cli::findCommand(first)) {
        QStringList args;
        for (int i = 2; i < argc; ++i)
            args << QString::fromLocal8Bit(argv[i]);
        g_previousHandler = qInstallMessageHandler(quietMessageHandler);
        std::unique_ptr<QCoreApplication> app;
        if (command->needsGui) {
            // Headless image export: no display is needed.
            if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
                qputenv("QT_QPA_PLATFORM", "offscreen");
            app = std::make_unique<QGuiApplication>(argc, argv);
        } else {
            app = std::make_unique<QCoreApplication>(argc, argv);
        }
        installTranslations();
        return command->run(args);
    }

    if (isUnknownCommand(first)) {
        QCoreApplication app(argc, argv);
        installTranslations();
        cli::printError(
            QCoreApplication::translate("cli", "unknown command '%1' (dspark-timeline --help lists them)").arg(first));
        return 2;
    }

    QApplication app(argc, argv);
    // Wayland matches the window with the installed desktop file (and so its icon) by this name.
    QGuiApplication::setDesktopFileName(QStringLiteral(DSPARK_APP_ID));
    installTranslations();
    ui::MainWindow window;
    const QStringList args = app.arguments().mid(1);
    if (args.contains(QLatin1String("--self-check"))) {
        if (args.size() < 2) {
            cli::printError(QCoreApplication::translate("cli", "usage: dspark-timeline --self-check [--demo|PATH]"));
            return 2;
        }
        watchSelfCheck(window);
    }
    window.show();
    if (first == QLatin1String("--demo")) {
        // The embedded demo: written once into the cache folder, then reused.
        const demo::DemoCacheResult cached = demo::ensureCachedDemo(QStringLiteral(DSPARK_VERSION));
        if (cached.path.isEmpty()) {
            cli::printError(cached.error);
            return 1;
        }
        window.openPath(cached.path);
    } else {
        window.openFromCommandLine(args);
    }
    return app.exec();
}
