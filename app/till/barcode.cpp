#include "barcode.h"

namespace OncePay {

bool Barcode::isAllDigits(QStringView text)
{
    if (text.isEmpty())
        return false;
    for (QChar c : text) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    }
    return true;
}

Barcode::Kind Barcode::kindOf(const QString &code)
{
    if (!isAllDigits(code))
        return Kind::Other;
    switch (code.size()) {
    case 13:
        return Kind::Ean13;
    case 12:
        return Kind::UpcA;
    case 8:
        return Kind::Ean8;
    default:
        return Kind::Other;
    }
}

int Barcode::checkDigit(QStringView digits)
{
    // From the right (the digit next to the check digit): weights 3, 1, 3, 1 ... The same rule
    // for EAN-13, EAN-8, UPC-A (and GTIN-14).
    int sum = 0;
    int weight = 3;
    for (qsizetype i = digits.size() - 1; i >= 0; --i) {
        sum += (digits.at(i).unicode() - '0') * weight;
        weight = 4 - weight;
    }
    return (10 - sum % 10) % 10;
}

Barcode::Check Barcode::check(const QString &code)
{
    if (kindOf(code) == Kind::Other)
        return Check::Valid;
    const int expected = checkDigit(QStringView(code).left(code.size() - 1));
    return code.back().unicode() - '0' == expected ? Check::Valid : Check::WrongCheckDigit;
}

EmbeddedLayout EmbeddedLayout::defaultLayout()
{
    return {QStringLiteral("2TIIIIIVVVVVC"), Value::ByUnit};
}

std::optional<EmbeddedLayout> EmbeddedLayout::parse(const QString &text)
{
    QStringList words = text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    EmbeddedLayout layout;
    if (!words.isEmpty()) {
        const QString last = words.last().toLower();
        if (last == QLatin1String("price") || last == QLatin1String("weight")) {
            layout.value = last == QLatin1String("price") ? Value::Price : Value::Weight;
            words.removeLast();
        }
    }
    layout.pattern = words.join(QString()).toUpper();
    if (layout.pattern.size() != 13 || !layout.pattern.contains(QLatin1Char('I')) || !layout.pattern.contains(QLatin1Char('V')))
        return std::nullopt;
    for (QChar c : std::as_const(layout.pattern)) {
        if (!c.isDigit() && !QStringLiteral("TIVPC").contains(c))
            return std::nullopt;
    }
    return layout;
}

QString EmbeddedLayout::toString() const
{
    QString out = pattern;
    if (out == defaultLayout().pattern)
        out = QStringLiteral("2T IIIII VVVVV C");
    if (value == Value::Price)
        out += QStringLiteral(" price");
    else if (value == Value::Weight)
        out += QStringLiteral(" weight");
    return out;
}

std::optional<EmbeddedCode> matchEmbedded(const QString &code, const QList<EmbeddedLayout> &layouts)
{
    if (Barcode::kindOf(code) != Barcode::Kind::Ean13 || Barcode::check(code) != Barcode::Check::Valid)
        return std::nullopt;
    for (const EmbeddedLayout &layout : layouts) {
        if (layout.pattern.size() != 13)
            continue;
        EmbeddedCode out;
        out.meaning = layout.value;
        bool fits = true;
        for (int i = 0; i < 13 && fits; ++i) {
            const QChar p = layout.pattern.at(i);
            const QChar d = code.at(i);
            if (p.isDigit())
                fits = p == d;
            else if (p == QLatin1Char('I'))
                out.itemCode += d;
            else if (p == QLatin1Char('V'))
                out.value = out.value * 10 + (d.unicode() - '0');
        }
        if (fits)
            return out;
    }
    return std::nullopt;
}

}   // namespace OncePay
