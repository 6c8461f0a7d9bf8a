#include "SelfCheck.h"

#include "MainWindow.h"
#include "cli/CliCommand.h"
#include "util/Translations.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenuBar>

#include <nlohmann/json.hpp>

namespace dspark {

static void report(ui::MainWindow& window, bool loaded, const QString& error)
{
    nlohmann::json menus = nlohmann::json::array();
    for (const QAction* a : window.menuBar()->actions())
        menus.push_back(a->text().toStdString());
    nlohmann::json translations = nlohmann::json::array();
    for (const QString& file : installedTranslationFiles())
        translations.push_back(file.toStdString());
    const nlohmann::json doc = {
        {"loaded", loaded},
        {"error", error.toStdString()},
        {"title", window.windowTitle().toStdString()},
        {"menus", menus},
        {"status", window.statusText().toStdString()},
        {"translations", translations},
    };
    cli::printOut(doc.dump(2) + "\n");
    QCoreApplication::exit(loaded ? 0 : 1);
}

void watchSelfCheck(ui::MainWindow& window)
{
    QObject::connect(&window, &ui::MainWindow::profileLoaded, &window, [&window] { report(window, true, {}); });
    QObject::connect(&window, &ui::MainWindow::loadFailed, &window,
                     [&window](const QString& error) { report(window, false, error); });
    QObject::connect(&window, &ui::MainWindow::loadCancelled, &window,
                     [&window] { report(window, false, QStringLiteral("cancelled")); });
}

} // namespace dspark
