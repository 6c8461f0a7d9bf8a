#include "analysis/AnalysisRules.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

namespace dspark {

static_assert(kRuleCount < 15, "NameClassifier keeps one bit per rule in 15 bits");

const char* ruleKey(RuleId id)
{
    switch (id) {
    case RuleId::StepSpan: return "step_span";
    case RuleId::DraftSpan: return "draft_span";
    case RuleId::VerifySpan: return "verify_span";
    case RuleId::AcceptSpan: return "accept_span";
    case RuleId::CommitSpan: return "commit_span";
    case RuleId::ReplayCall: return "replay_call";
    case RuleId::AcceptKernels: return "accept_kernels";
    case RuleId::CommitKernels: return "commit_kernels";
    case RuleId::CommKernels: return "comm_kernels";
    case RuleId::DeepepDispatch: return "deepep_dispatch";
    case RuleId::DeepepCombine: return "deepep_combine";
    case RuleId::CommHookCalls: return "comm_hook_calls";
    case RuleId::HostSyncCalls: return "host_sync_calls";
    case RuleId::Count: break;
    }
    return "";
}

QString NameRule::setPatterns(const QStringList& patterns)
{
    std::vector<QRegularExpression> compiled;
    for (const QString& p : patterns) {
        QRegularExpression re(p, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid())
            return QCoreApplication::translate("AnalysisRules", "bad regular expression \"%1\": %2")
                .arg(p, re.errorString());
        re.optimize();
        compiled.push_back(std::move(re));
    }
    m_patterns = patterns;
    m_regex = std::move(compiled);
    return {};
}

bool NameRule::matches(const QString& name) const
{
    for (const QRegularExpression& re : m_regex)
        if (re.match(name).hasMatch())
            return true;
    return false;
}

bool NameRule::matches(std::string_view name) const
{
    if (m_regex.empty())
        return false;
    return matches(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
}

QString AnalysisRules::apply(const QByteArray& text, const QString& fileName)
{
    const nlohmann::json j = nlohmann::json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return QCoreApplication::translate("AnalysisRules", "%1: not a JSON object of name rules").arg(fileName);
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        if (!key.empty() && key[0] == '_') // comments
            continue;
        if (key == "comm_streams") {
            if (!it->is_array())
                return QCoreApplication::translate("AnalysisRules", "%1: \"comm_streams\" must be a list of stream ids")
                    .arg(fileName);
            std::vector<int64_t> ids;
            for (const auto& v : *it) {
                if (!v.is_number_integer())
                    return QCoreApplication::translate("AnalysisRules",
                                                       "%1: \"comm_streams\" must be a list of stream ids")
                        .arg(fileName);
                ids.push_back(v.get<int64_t>());
            }
            commStreams = std::move(ids);
            continue;
        }
        size_t id = 0;
        while (id < kRuleCount && key != ruleKey(static_cast<RuleId>(id)))
            ++id;
        if (id == kRuleCount)
            return QCoreApplication::translate("AnalysisRules", "%1: unknown rule \"%2\"")
                .arg(fileName, QString::fromStdString(key));
        if (!it->is_array())
            return QCoreApplication::translate("AnalysisRules", "%1: rule \"%2\" must be a list of regular expressions")
                .arg(fileName, QString::fromStdString(key));
        QStringList patterns;
        for (const auto& v : *it) {
            if (!v.is_string())
                return QCoreApplication::translate("AnalysisRules",
                                                   "%1: rule \"%2\" must be a list of regular expressions")
                    .arg(fileName, QString::fromStdString(key));
            patterns << QString::fromStdString(v.get<std::string>());
        }
        const QString error = rules[id].setPatterns(patterns);
        if (!error.isEmpty())
            return QCoreApplication::translate("AnalysisRules", "%1: rule \"%2\": %3")
                .arg(fileName, QString::fromStdString(key), error);
    }
    return {};
}

AnalysisRules AnalysisRules::defaults()
{
    AnalysisRules r;
    QFile f(QStringLiteral(":/analysis/analysis_rules.json"));
    if (f.open(QIODevice::ReadOnly)) {
        const QString error = r.apply(f.readAll(), f.fileName());
        Q_ASSERT(error.isEmpty());
    }
    return r;
}

const AnalysisRules& AnalysisRules::builtin()
{
    static const AnalysisRules rules = defaults();
    return rules;
}

QString AnalysisRules::userRulesPath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation))
        .filePath(QStringLiteral("analysis_rules.json"));
}

static QString applyFile(AnalysisRules& rules, const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QCoreApplication::translate("AnalysisRules", "%1: cannot be read").arg(path);
    return rules.apply(f.readAll(), path);
}

AnalysisRules AnalysisRules::load(const QString& overridePath, QString* error)
{
    AnalysisRules r = defaults();
    QString problem;
    const QString user = userRulesPath();
    if (QFileInfo::exists(user))
        problem = applyFile(r, user);
    if (problem.isEmpty() && !overridePath.isEmpty())
        problem = applyFile(r, overridePath);
    if (error)
        *error = problem;
    return r;
}

NameClassifier::NameClassifier(const StringTable& strings, const AnalysisRules& rules)
    : m_strings(strings), m_rules(rules), m_bits(strings.size(), 0)
{
}

bool NameClassifier::matches(uint32_t nameId, RuleId id) const
{
    if (nameId >= m_bits.size())
        return false;
    uint16_t& bits = m_bits[nameId];
    if (!(bits & 0x8000)) {
        bits = 0x8000;
        const std::string_view name = m_strings.view(nameId);
        if (!name.empty()) {
            const QString text = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
            for (size_t i = 0; i < kRuleCount; ++i)
                if (m_rules.rules[i].matches(text))
                    bits |= uint16_t(1u << i);
        }
    }
    return bits & (1u << static_cast<unsigned>(id));
}

} // namespace dspark
