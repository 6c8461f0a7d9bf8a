#include "util/Translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace dspark {

static QTranslator* appTranslator = nullptr;
static QTranslator* qtTranslator = nullptr;

QString installTranslations(const QString& localeName)
{
    for (QTranslator** t : {&appTranslator, &qtTranslator}) {
        if (*t) {
            QCoreApplication::removeTranslator(*t);
            delete *t;
            *t = nullptr;
        }
    }
    const QLocale locale = localeName.isEmpty() ? QLocale() : QLocale(localeName);
    if (locale.language() == QLocale::English || locale.language() == QLocale::C)
        return QStringLiteral("en");
    auto* translator = new QTranslator;
    // Embedded by qt_add_translations under :/i18n (see CMakeLists.txt).
    const bool app =
        translator->load(locale, QStringLiteral("dspark-timeline"), QStringLiteral("_"), QStringLiteral(":/i18n"));
    if (app) {
        QCoreApplication::installTranslator(translator);
        appTranslator = translator;
    } else {
        delete translator;
    }
    auto* qt = new QTranslator;
    // Qt's own strings (standard buttons, file dialogs): where this Qt keeps them, whatever the prefix.
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        qtTranslator = qt;
    } else {
        delete qt;
    }
    return app ? locale.name() : QStringLiteral("en");
}

QStringList installedTranslationFiles()
{
    QStringList files;
    for (const QTranslator* t : {appTranslator, qtTranslator})
        if (t)
            files << t->filePath();
    return files;
}

} // namespace dspark
