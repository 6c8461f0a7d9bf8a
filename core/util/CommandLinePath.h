#pragma once

#include <QString>

namespace dspark {

// A path or URI given on the command line, as a local path. A file manager passes `file://` URIs
// (`%U` in the desktop file), percent-encoded; a plain path is returned as it is, never decoded.
// Returns an empty string, with `error` set, for a URI that names no file on this computer
// (sftp://, http://, file://otherhost/...).
QString localPathFromArgument(const QString& argument, QString* error = nullptr);

} // namespace dspark
