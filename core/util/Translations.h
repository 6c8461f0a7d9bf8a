#pragma once

#include <QString>

class QCoreApplication;

namespace dspark {

// Installs the embedded translation for `localeName` ("zh_CN", "en", or empty = system locale).
// Returns the locale actually used ("en" when no translation applies).
QString installTranslations(const QString& localeName = {});

} // namespace dspark
