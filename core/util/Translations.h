#pragma once

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace dspark {

// Installs the embedded translation for `localeName` ("zh_CN", "en", or empty = system locale).
// Returns the locale actually used ("en" when no translation applies).
QString installTranslations(const QString& localeName = {});

// The files of the translations installed now (the app's, then Qt's own when found); empty in English.
QStringList installedTranslationFiles();

} // namespace dspark
