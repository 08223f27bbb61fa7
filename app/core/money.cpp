#include "money.h"

#include <limits>

namespace OncePay {

namespace {
struct CurrencyInfo
{
    const char *code;
    int digits;
};
constexpr CurrencyInfo kCurrencies[] = {
    {"CNY", 2},
    {"USD", 2},
    {"EUR", 2},
    {"JPY", 0},
    {"GBP", 2},
    {"HKD", 2},
    {"KRW", 0},
};
}   // namespace

int Money::minorDigits(const QString &currency)
{
    for (const auto &c : kCurrencies) {
        if (currency == QLatin1String(c.code))
            return c.digits;
    }
    return -1;
}

bool Money::isSupportedCurrency(const QString &currency)
{
    return minorDigits(currency) >= 0;
}

std::optional<Money> Money::parse(QStringView text, const QString &currency)
{
    const int digits = minorDigits(currency);
    if (digits < 0 || text.isEmpty())
        return std::nullopt;
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    const QStringView whole = dot < 0 ? text : text.left(dot);
    const QStringView frac = dot < 0 ? QStringView() : text.mid(dot + 1);
    if (whole.isEmpty() || (dot >= 0 && (frac.isEmpty() || frac.size() > digits)))
        return std::nullopt;

    constexpr qint64 kMax = std::numeric_limits<qint64>::max();
    qint64 value = 0;
    auto accumulate = [&](QStringView part) {
        for (QChar ch : part) {
            if (ch < QLatin1Char('0') || ch > QLatin1Char('9'))
                return false;
            const int d = ch.unicode() - '0';
            if (value > (kMax - d) / 10)
                return false;
            value = value * 10 + d;
        }
        return true;
    };
    if (!accumulate(whole))
        return std::nullopt;
    if (!accumulate(frac))
        return std::nullopt;
    for (qsizetype i = frac.size(); i < digits; ++i) {
        if (value > kMax / 10)
            return std::nullopt;
        value *= 10;
    }
    return Money(value, currency);
}

QString Money::toDecimalString() const
{
    const int digits = qMax(0, minorDigits(m_currency));
    // Work on the magnitude as unsigned so that the minimum qint64 does not overflow.
    const bool negative = m_minor < 0;
    const quint64 magnitude = negative ? quint64(0) - quint64(m_minor) : quint64(m_minor);
    QString s = QString::number(magnitude);
    if (digits > 0) {
        if (s.size() <= digits)
            s.prepend(QString(digits - s.size() + 1, QLatin1Char('0')));
        s.insert(s.size() - digits, QLatin1Char('.'));
    }
    if (negative)
        s.prepend(QLatin1Char('-'));
    return s;
}

QString Money::toDisplayString() const
{
    const QString symbol = m_currency == QLatin1String("CNY") || m_currency == QLatin1String("JPY") ? QStringLiteral("¥")
        : m_currency == QLatin1String("USD")                                                        ? QStringLiteral("$")
        : m_currency == QLatin1String("EUR")                                                        ? QStringLiteral("€")
                                                                                                    : m_currency + QLatin1Char(' ');
    // A negative amount is written one way, on the screen and on paper: the minus sign (U+2212)
    // before the symbol, "−¥4.80", never "¥-4.80" (issue 36).
    if (m_minor < 0)
        return QStringLiteral("\u2212") + symbol + toDecimalString().mid(1);
    return symbol + toDecimalString();
}

}   // namespace OncePay
