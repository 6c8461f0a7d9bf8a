#include "io/ProfilerCsv.h"

#include <atomic>

#include <QCoreApplication>
#include <QFile>

#include <charconv>
#include <cmath>

namespace dspark {

namespace {

std::string trimmed(std::string s)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && space(s.back()))
        s.pop_back();
    size_t i = 0;
    while (i < s.size() && space(s[i]))
        ++i;
    return s.substr(i);
}

// A decimal number of µs ("1736408883704643.212") to ns, exactly (a double would lose the last digits
// of an epoch time); digits past the ns are rounded half up. nullopt when it is not a number.
std::optional<int64_t> microsToNs(const std::string& text)
{
    const std::string t = trimmed(text);
    if (t.empty())
        return std::nullopt;
    const size_t dot = t.find('.');
    const std::string whole = t.substr(0, dot);
    std::string frac = dot == std::string::npos ? std::string() : t.substr(dot + 1);
    const bool negative = !whole.empty() && whole[0] == '-';
    int64_t w = 0;
    const char* b = whole.data() + (negative ? 1 : 0);
    if (b == whole.data() + whole.size() && frac.empty())
        return std::nullopt;
    if (b != whole.data() + whole.size()) {
        auto [p, ec] = std::from_chars(b, whole.data() + whole.size(), w);
        if (ec != std::errc() || p != whole.data() + whole.size())
            return std::nullopt;
    }
    for (char c : frac)
        if (c < '0' || c > '9')
            return std::nullopt;
    const bool roundUp = frac.size() > 3 && frac[3] >= '5';
    frac.resize(3, '0');
    const int64_t ns = w * 1000 + std::stoll(frac) + (roundUp ? 1 : 0);
    return negative ? -ns : ns;
}

std::optional<int64_t> integer(const std::string& text)
{
    const std::string t = trimmed(text);
    int64_t v = 0;
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || p != t.data() + t.size())
        return std::nullopt;
    return v;
}

// The file's lines as fields, the header first; an error naming the file when it cannot be read.
std::vector<std::vector<std::string>> readCsv(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error =
                QCoreApplication::translate("ProfilerCsv", "%1: cannot be read (%2)").arg(path, file.errorString());
        return {};
    }
    std::vector<std::vector<std::string>> rows;
    std::string pending; // a record whose quoted field spans lines
    while (!file.atEnd()) {
        pending += file.readLine().toStdString();
        size_t quotes = 0;
        for (char c : pending)
            quotes += c == '"';
        if (quotes % 2 != 0 && !file.atEnd())
            continue;
        if (!trimmed(pending).empty())
            rows.push_back(splitCsvLine(pending));
        pending.clear();
    }
    if (rows.empty() && error)
        *error = QCoreApplication::translate("ProfilerCsv", "%1: empty file").arg(path);
    return rows;
}

// Index of the first header column named one of `names`, -1 when none.
int column(const std::vector<std::string>& header, std::initializer_list<const char*> names)
{
    for (const char* n : names)
        for (size_t i = 0; i < header.size(); ++i)
            if (header[i] == n)
                return static_cast<int>(i);
    return -1;
}

const std::string& field(const std::vector<std::string>& row, int c)
{
    static const std::string empty;
    return c >= 0 && static_cast<size_t>(c) < row.size() ? row[c] : empty;
}

QString missingColumn(const QString& path, const char* name)
{
    return QCoreApplication::translate("ProfilerCsv", "%1: no \"%2\" column in the header").arg(path, name);
}

} // namespace

std::vector<std::string> splitCsvLine(const std::string& line)
{
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                cur += '"';
                ++i;
            } else if (c == '"')
                quoted = false;
            else
                cur += c;
        } else if (c == '"')
            quoted = true;
        else if (c == ',') {
            out.push_back(trimmed(cur));
            cur.clear();
        } else
            cur += c;
    }
    out.push_back(trimmed(cur));
    return out;
}

static std::atomic<uint64_t> g_kernelDetailsReads{0};

uint64_t kernelDetailsReadCount()
{
    return g_kernelDetailsReads.load();
}

std::vector<KernelDetailRow> readKernelDetailsCsv(const QString& path, QString* error)
{
    ++g_kernelDetailsReads;
    const auto rows = readCsv(path, error);
    if (rows.empty())
        return {};
    const auto& h = rows.front();
    const int cName = column(h, {"Name"}), cStart = column(h, {"Start Time(us)"}), cDur = column(h, {"Duration(us)"}),
              cStep = column(h, {"Step Id", "Step"}), cType = column(h, {"Type"}),
              cCore = column(h, {"Accelerator Core", "Task Type"});
    for (auto [c, name] : {std::pair{cName, "Name"}, {cStart, "Start Time(us)"}, {cDur, "Duration(us)"}})
        if (c < 0) {
            if (error)
                *error = missingColumn(path, name);
            return {};
        }
    std::vector<KernelDetailRow> out;
    for (size_t r = 1; r < rows.size(); ++r) {
        const auto& row = rows[r];
        const auto start = microsToNs(field(row, cStart));
        const auto dur = microsToNs(field(row, cDur));
        if (!start || !dur) {
            if (error)
                *error = QCoreApplication::translate("ProfilerCsv", "%1: line %2: start or duration is not a number")
                             .arg(path)
                             .arg(r + 1);
            return {};
        }
        out.push_back(
            {integer(field(row, cStep)), field(row, cName), field(row, cType), field(row, cCore), *start, *dur});
    }
    return out;
}

std::vector<StepTraceRow> readStepTraceTimeCsv(const QString& path, QString* error)
{
    const auto rows = readCsv(path, error);
    if (rows.empty())
        return {};
    const auto& h = rows.front();
    const int cComputing = column(h, {"Computing"});
    if (cComputing < 0) {
        if (error)
            *error = missingColumn(path, "Computing");
        return {};
    }
    const int cStep = column(h, {"Step", "Step Id"}), cNot = column(h, {"Communication(Not Overlapped)"}),
              cOver = column(h, {"Overlapped"}), cComm = column(h, {"Communication"}), cFree = column(h, {"Free"}),
              cStage = column(h, {"Stage"});
    std::vector<StepTraceRow> out;
    for (size_t r = 1; r < rows.size(); ++r) {
        const auto& row = rows[r];
        // The figures are µs written as doubles (8873.756000000001): rounded to the ns.
        auto ns = [&](int c) {
            const std::string t = trimmed(field(row, c));
            return t.empty() ? int64_t(0) : static_cast<int64_t>(std::llround(std::stod(t) * 1000.0));
        };
        try {
            out.push_back(
                {integer(field(row, cStep)), ns(cComputing), ns(cNot), ns(cOver), ns(cComm), ns(cFree), ns(cStage)});
        } catch (const std::exception&) {
            if (error)
                *error = QCoreApplication::translate("ProfilerCsv", "%1: line %2: a figure is not a number")
                             .arg(path)
                             .arg(r + 1);
            return {};
        }
    }
    return out;
}

} // namespace dspark
