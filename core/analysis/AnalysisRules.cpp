#include "analysis/AnalysisRules.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

#include <nlohmann/json.hpp>

#include <cctype>

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

namespace {

char lowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

// Printable ASCII only: no byte where PCRE's Unicode case folding or "$ before a final newline" could
// differ from a plain comparison.
bool plainAscii(std::string_view s)
{
    for (const char c : s)
        if (c < 0x20 || c > 0x7e)
            return false;
    return true;
}

bool plainChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == ' ' || c == ',' || c == ':' || c == '/' || c == '#' || c == '@' || c == '%' || c == '=' || c == '<' ||
           c == '>' || c == '"' || c == '\'' || c == '!' || c == '&' || c == '~' || c == ';';
}

bool quantifier(char c)
{
    return c == '?' || c == '*' || c == '{' || c == '+';
}

} // namespace

// Reads the pattern as runs of plain characters (letters, digits, some punctuation, and punctuation
// escaped with '\') separated by anything else. One run from start to end, anchors aside, is a literal;
// else the longest run whose characters are all required (none followed by ?, *, {, +) is the needle.
// Alternation or groups anywhere: nothing known (a run may then belong to one branch only).
NameRule::Literal NameRule::literalOf(const QString& pattern)
{
    Literal out;
    const std::string p = pattern.toStdString();
    if (!plainAscii(p) || p.find_first_of("|()") != std::string::npos)
        return out;
    std::vector<std::string> runs(1);
    bool broken = false; // something other than a plain character or an anchor
    size_t i = 0;
    const bool head = !p.empty() && p[0] == '^';
    i += head;
    const bool tail = p.size() > i && p.back() == '$' && (p.size() < 2 || p[p.size() - 2] != '\\');
    const size_t end = p.size() - tail;
    const auto cut = [&] {
        broken = true;
        if (!runs.back().empty())
            runs.emplace_back();
    };
    while (i < end) {
        char c = p[i];
        size_t next = i + 1;
        bool literal = plainChar(c);
        if (c == '\\' && i + 1 < end && !std::isalnum(static_cast<unsigned char>(p[i + 1]))) {
            c = p[i + 1], next = i + 2, literal = true;
        } else if (c == '\\' && i + 1 < end) {
            if (std::string_view("bBdDwWsS").find(p[i + 1]) == std::string_view::npos)
                return {}; // \x41, \Q…\E, \p{…}, back references: not read here
            cut();         // a boundary or one of many characters
            i += 2;
            continue;
        } else if (c == '{') { // a counted repeat of what came before (its character already left out)
            while (i < end && p[i] != '}')
                ++i;
            cut();
            ++i;
            continue;
        } else if (c == '[') { // a class: skip to its end (a ']' first inside it is a member)
            size_t j = i + 1;
            j += j < end && p[j] == '^';
            j += j < end && p[j] == ']';
            while (j < end && p[j] != ']') {
                // [:digit:], [.a.], [=a=]: their ']' is not the class's end; not read here
                if (p[j] == '[' && j + 1 < end && std::string_view(":.=").find(p[j + 1]) != std::string_view::npos)
                    return {};
                j += p[j] == '\\' ? 2 : 1;
            }
            cut();
            i = j + 1;
            continue;
        }
        if (!literal) {
            if (quantifier(c) && !runs.back().empty())
                runs.back().pop_back(); // its last character may be absent or repeated
            cut();
            i = next;
            continue;
        }
        if (next < end && quantifier(p[next])) { // this character is optional or repeated
            cut();
            i = next;
            continue;
        }
        runs.back() += lowerAscii(c);
        i = next;
    }
    if (!broken && !runs.front().empty()) {
        out.kind = head && tail ? Literal::Kind::Whole
                   : head       ? Literal::Kind::Prefix
                   : tail       ? Literal::Kind::Suffix
                                : Literal::Kind::Anywhere;
        out.text = runs.front();
        return out;
    }
    for (const std::string& r : runs)
        if (r.size() > out.needle.size())
            out.needle = r;
    return out;
}

QString NameRule::setPatterns(const QStringList& patterns)
{
    std::vector<QRegularExpression> compiled;
    std::vector<Literal> literals;
    for (const QString& p : patterns) {
        QRegularExpression re(p, QRegularExpression::CaseInsensitiveOption);
        if (!re.isValid())
            return QCoreApplication::translate("AnalysisRules", "bad regular expression \"%1\": %2")
                .arg(p, re.errorString());
        re.optimize();
        compiled.push_back(std::move(re));
        literals.push_back(literalOf(p));
    }
    m_patterns = patterns;
    m_regex = std::move(compiled);
    m_literals = std::move(literals);
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
    std::string folded;
    return foldAscii(name, folded) ? matchesFolded(name, folded)
                                   : matches(QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
}

bool NameRule::foldAscii(std::string_view name, std::string& folded)
{
    folded.resize(name.size());
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c < 0x20 || c > 0x7e)
            return false;
        folded[i] = lowerAscii(c);
    }
    return true;
}

bool NameRule::matchesFolded(std::string_view name, std::string_view folded) const
{
    QString text; // made for the first pattern that needs the regular expression
    for (size_t i = 0; i < m_regex.size(); ++i) {
        const Literal& l = m_literals[i];
        switch (l.kind) {
        case Literal::Kind::Whole:
            if (folded == l.text)
                return true;
            continue;
        case Literal::Kind::Prefix:
            if (folded.starts_with(l.text))
                return true;
            continue;
        case Literal::Kind::Suffix:
            if (folded.ends_with(l.text))
                return true;
            continue;
        case Literal::Kind::Anywhere:
            if (folded.find(l.text) != std::string_view::npos)
                return true;
            continue;
        case Literal::Kind::None: break;
        }
        if (!l.needle.empty() && folded.find(l.needle) == std::string_view::npos)
            continue;
        if (text.isEmpty())
            text = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
        if (m_regex[i].match(text).hasMatch())
            return true;
    }
    return false;
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
    if (!(bits & 0x8000))
        bits = 0x8000 | classify(m_strings.view(nameId));
    return bits & (1u << static_cast<unsigned>(id));
}

uint16_t NameClassifier::classify(std::string_view name) const
{
    uint16_t bits = 0;
    if (name.empty())
        return bits;
    if (NameRule::foldAscii(name, m_folded)) {
        for (size_t i = 0; i < kRuleCount; ++i)
            if (m_rules.rules[i].matchesFolded(name, m_folded))
                bits |= uint16_t(1u << i);
        return bits;
    }
    const QString text = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    for (size_t i = 0; i < kRuleCount; ++i)
        if (m_rules.rules[i].matches(text))
            bits |= uint16_t(1u << i);
    return bits;
}

} // namespace dspark
