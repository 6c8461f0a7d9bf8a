#include "util/CommandLinePath.h"

#include <QCoreApplication>
#include <QUrl>

namespace dspark {

// RFC 3986 scheme: a letter, then letters, digits, '+', '-' or '.'.
static bool isScheme(QStringView s)
{
    if (s.isEmpty() || !s.front().isLetter())
        return false;
    for (QChar c : s)
        if (!(c.isLetterOrNumber() || c == u'+' || c == u'-' || c == u'.') || c.unicode() > 0x7f)
            return false;
    return true;
}

QString localPathFromArgument(const QString& argument, QString* error)
{
    // Only "scheme://..." and "file:..." count as URIs: a relative path may contain a colon.
    const qsizetype separator = argument.indexOf(QLatin1String("://"));
    const bool fileUri = argument.startsWith(QLatin1String("file:"), Qt::CaseInsensitive);
    if (!fileUri && (separator <= 0 || !isScheme(QStringView(argument).left(separator))))
        return argument;
    QUrl url(argument);
    if (url.isLocalFile() && (url.host().isEmpty() || url.host() == QLatin1String("localhost"))) {
        url.setHost(QString());
        const QString path = url.toLocalFile();
        if (!path.isEmpty())
            return path;
    }
    if (error)
        *error =
            QCoreApplication::translate("CommandLine", "%1: not a file on this computer (only local files and folders "
                                                       "can be opened)")
                .arg(argument);
    return {};
}

} // namespace dspark
