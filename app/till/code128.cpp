#include "code128.h"

#include "barcode.h"

namespace OncePay {

namespace {

// ISO/IEC 15417:2007 table 1: bar and space widths of symbols 0-106 (checked in tst_code128).
constexpr const char *kWidths[107] = {"212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312",
    "132212", "221213", "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211",
    "221132", "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
    "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313", "231113",
    "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331", "231131", "213113",
    "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111", "314111", "221411", "431111",
    "111224", "111422", "121124", "121421", "141122", "141221", "112214", "112412", "122114", "122411", "142112",
    "142211", "241211", "221114", "413111", "241112", "134111", "111242", "121142", "121241", "114212", "124112",
    "124211", "411212", "421112", "421211", "212141", "214121", "412121", "111143", "111341", "131141", "114113",
    "114311", "411113", "411311", "113141", "114131", "311141", "411131", "211412", "211214", "211232", "2331112"};

constexpr int kStartB = 104;
constexpr int kStartC = 105;
constexpr int kStop = 106;

}   // namespace

QByteArray Code128::widths(int value)
{
    return value >= 0 && value <= kStop ? QByteArray(kWidths[value]) : QByteArray();
}

std::optional<QList<int>> Code128::symbols(const QString &text)
{
    if (text.isEmpty())
        return std::nullopt;
    QList<int> out;
    if (Barcode::isAllDigits(text) && text.size() % 2 == 0) {
        out.append(kStartC);
        for (qsizetype i = 0; i < text.size(); i += 2)
            out.append((text.at(i).unicode() - '0') * 10 + (text.at(i + 1).unicode() - '0'));
    } else {
        out.append(kStartB);
        for (QChar c : text) {
            if (c.unicode() < 32 || c.unicode() > 127)
                return std::nullopt;
            out.append(c.unicode() - 32);
        }
    }
    int sum = out.first();
    for (qsizetype i = 1; i < out.size(); ++i)
        sum += int(i) * out.at(i);
    out.append(sum % 103);
    out.append(kStop);
    return out;
}

std::optional<QByteArray> Code128::modules(const QString &text)
{
    const std::optional<QList<int>> values = symbols(text);
    if (!values)
        return std::nullopt;
    QByteArray out;
    for (int v : *values) {
        const QByteArray w = widths(v);
        for (qsizetype i = 0; i < w.size(); ++i)
            out.append(QByteArray(w.at(i) - '0', i % 2 == 0 ? '1' : '0'));
    }
    return out;
}

std::optional<QString> Code128::decode(const QByteArray &modules)
{
    // Run lengths, then six widths (11 modules) a symbol until the stop's seven.
    QByteArray runs;
    for (qsizetype i = 0; i < modules.size();) {
        qsizetype j = i;
        while (j < modules.size() && modules.at(j) == modules.at(i))
            ++j;
        if (j - i > 4)
            return std::nullopt;
        runs.append(char('0' + (j - i)));
        i = j;
    }
    if (modules.isEmpty() || modules.front() != '1' || (runs.size() - 7) % 6 != 0 || !runs.endsWith(kWidths[kStop]))
        return std::nullopt;
    QList<int> values;
    for (qsizetype at = 0; at < runs.size() - 7; at += 6) {
        const QByteArray w = runs.mid(at, 6);
        int value = -1;
        for (int v = 0; v < kStop && value < 0; ++v) {
            if (w == kWidths[v])
                value = v;
        }
        if (value < 0)
            return std::nullopt;
        values.append(value);
    }
    if (values.size() < 3 || (values.first() != kStartB && values.first() != kStartC))
        return std::nullopt;
    int sum = values.first();
    for (qsizetype i = 1; i + 1 < values.size(); ++i)
        sum += int(i) * values.at(i);
    if (sum % 103 != values.last())
        return std::nullopt;
    QString text;
    for (qsizetype i = 1; i + 1 < values.size(); ++i) {
        const int v = values.at(i);
        if (values.first() == kStartC) {
            if (v > 99)
                return std::nullopt;
            text += QStringLiteral("%1").arg(v, 2, 10, QLatin1Char('0'));
        } else {
            if (v > 95)
                return std::nullopt;
            text += QChar(v + 32);
        }
    }
    return text;
}

}   // namespace OncePay
