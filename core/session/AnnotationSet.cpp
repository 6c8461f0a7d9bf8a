#include "session/AnnotationSet.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace dspark {

static const char* kindName(Annotation::Kind k)
{
    switch (k) {
    case Annotation::Kind::Note: return "note";
    case Annotation::Kind::Arrow: return "arrow";
    case Annotation::Kind::Range: return "range";
    case Annotation::Kind::Marker: return "marker";
    }
    return "note";
}

QByteArray AnnotationSet::toJson() const
{
    QJsonArray list;
    for (const Annotation& a : items) {
        QJsonObject o;
        o[QStringLiteral("kind")] = QLatin1String(kindName(a.kind));
        // ns as strings: JSON doubles cannot hold every int64.
        o[QStringLiteral("start_ns")] = QString::number(a.startNs);
        o[QStringLiteral("end_ns")] = QString::number(a.endNs);
        o[QStringLiteral("lane")] = a.laneKey;
        if (!a.endLaneKey.isEmpty())
            o[QStringLiteral("end_lane")] = a.endLaneKey;
        o[QStringLiteral("text")] = a.text;
        o[QStringLiteral("color")] = a.color;
        list.append(o);
    }
    QJsonObject root;
    root[QStringLiteral("format")] = QStringLiteral("dspark-timeline-annotations");
    root[QStringLiteral("version")] = 1;
    root[QStringLiteral("annotations")] = list;
    if (clockOffsetNs)
        root[QStringLiteral("clock_offset_ns")] = QString::number(*clockOffsetNs);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

QString AnnotationSet::fromJson(const QByteArray& json, const QString& source)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (doc.isNull())
        return QCoreApplication::translate("AnnotationSet", "%1: not valid JSON at byte %2 (%3)")
            .arg(source)
            .arg(error.offset)
            .arg(error.errorString());
    const QJsonObject root = doc.object();
    if (root.value(QStringLiteral("format")).toString() != QLatin1String("dspark-timeline-annotations"))
        return QCoreApplication::translate("AnnotationSet", "%1: not a DSpark Timeline annotation file").arg(source);
    QVector<Annotation> loaded;
    for (const QJsonValue& v : root.value(QStringLiteral("annotations")).toArray()) {
        const QJsonObject o = v.toObject();
        Annotation a;
        const QString kind = o.value(QStringLiteral("kind")).toString();
        a.kind = kind == QLatin1String("arrow")    ? Annotation::Kind::Arrow
                 : kind == QLatin1String("range")  ? Annotation::Kind::Range
                 : kind == QLatin1String("marker") ? Annotation::Kind::Marker
                                                   : Annotation::Kind::Note;
        a.startNs = o.value(QStringLiteral("start_ns")).toString().toLongLong();
        a.endNs = o.value(QStringLiteral("end_ns")).toString().toLongLong();
        a.laneKey = o.value(QStringLiteral("lane")).toString();
        a.endLaneKey = o.value(QStringLiteral("end_lane")).toString();
        a.text = o.value(QStringLiteral("text")).toString();
        a.color = o.value(QStringLiteral("color")).toString(QStringLiteral("#e11d48"));
        loaded.push_back(a);
    }
    items = std::move(loaded);
    clockOffsetNs.reset();
    if (const QJsonValue offset = root.value(QStringLiteral("clock_offset_ns")); offset.isString()) {
        bool ok = false;
        const qlonglong ns = offset.toString().toLongLong(&ok);
        if (ok)
            clockOffsetNs = ns;
    }
    return {};
}

QString AnnotationSet::save(const QString& path) const
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QCoreApplication::translate("AnnotationSet", "%1: cannot be written (%2)").arg(path, file.errorString());
    file.write(toJson());
    if (!file.commit())
        return QCoreApplication::translate("AnnotationSet", "%1: cannot be written (%2)").arg(path, file.errorString());
    return {};
}

QString AnnotationSet::load(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QCoreApplication::translate("AnnotationSet", "%1: cannot be read (%2)").arg(path, file.errorString());
    return fromJson(file.readAll(), path);
}

QString AnnotationSet::laneKey(int rankIndex, const std::string& process, const std::string& name)
{
    return QString::number(rankIndex) + QLatin1Char('|') + QString::fromStdString(process) + QLatin1Char('|') +
           QString::fromStdString(name);
}

QString AnnotationSet::sessionPathFor(const QString& profileRoot)
{
    const QString canonical = QFileInfo(profileRoot).absoluteFilePath();
    const QByteArray hash = QCryptographicHash::hash(canonical.toUtf8(), QCryptographicHash::Sha1).toHex();
    return QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation) + QStringLiteral("/sessions/") +
           QString::fromLatin1(hash) + QStringLiteral(".json");
}

} // namespace dspark
