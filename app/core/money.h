#pragma once

#include <QString>
#include <QtGlobal>

#include <optional>

namespace OncePay {

// An amount of money as an integer count of minor units plus its ISO 4217 currency.
// Parsing and formatting never go through floating point.
class Money final
{
public:
    Money() = default;
    Money(qint64 minorUnits, const QString &currency)
        : m_minor(minorUnits)
        , m_currency(currency) {}

    qint64 minorUnits() const { return m_minor; }
    QString currency() const { return m_currency; }
    bool isValid() const { return !m_currency.isEmpty(); }

    // Number of digits after the decimal point (2 for CNY, 0 for JPY), or -1 if unknown.
    static int minorDigits(const QString &currency);
    static bool isSupportedCurrency(const QString &currency);

    // "19.99" with currency CNY -> 1999. Rejects more fraction digits than the currency has,
    // signs, exponents, white space inside and values beyond qint64.
    static std::optional<Money> parse(QStringView text, const QString &currency);

    // 1999 CNY -> "19.99"; -5 USD -> "-0.05"; 1200 JPY -> "1200".
    QString toDecimalString() const;
    // For people: the currency's symbol and the decimal amount, "¥19.99", "$5.00", "¥1200" (JPY);
    // a negative amount with the minus sign first, "−¥4.80".
    QString toDisplayString() const;

    friend bool operator==(const Money &a, const Money &b)
    {
        return a.m_minor == b.m_minor && a.m_currency == b.m_currency;
    }
    friend bool operator!=(const Money &a, const Money &b) { return !(a == b); }

private:
    qint64 m_minor = 0;
    QString m_currency;
};

}   // namespace OncePay
