#pragma once

#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// What a scanned code is, judged by its digits alone (GS1 General Specifications, 7.9: the
// check digit of EAN-13, EAN-8 and UPC-A). A misread that still has the length of one fails its
// check digit; the till says so in words instead of "no such product".
class Barcode final
{
public:
    enum class Kind {
        Ean13,
        Ean8,
        UpcA,
        Other,   // not 8, 12 or 13 digits: a shop's own code, taken as it is
    };
    enum class Check {
        Valid,   // a GTIN whose check digit matches, or Kind::Other
        WrongCheckDigit,
    };
    static Kind kindOf(const QString &code);
    static Check check(const QString &code);
    // The check digit the other digits call for (the last digit of `digits` not included).
    static int checkDigit(QStringView digitsWithoutCheck);
    static bool isAllDigits(QStringView text);
};

// A price- or weight-embedded EAN-13 (GS1 "restricted circulation numbers", prefix 2): which
// digits are the item, which the value, and what the value means. Written as a pattern of 13
// places, spaces ignored: a digit must be itself, T is any digit (a type or department), I a
// digit of the item code, V of the value, P a price check digit (not checked) and C the EAN
// check digit. The default "2T IIIII VVVVV C".
struct EmbeddedLayout
{
    enum class Value {
        ByUnit,   // the product's unit says: grams for goods sold by the kg, fen otherwise
        Price,   // the price in minor units (fen)
        Weight,   // the weight in grams
    };
    QString pattern;   // 13 places after removing spaces
    Value value = Value::ByUnit;

    static EmbeddedLayout defaultLayout();
    // A layout from its text ("2T IIIII VVVVV C", optionally followed by " price" or " weight");
    // nullopt when it does not have 13 places, no I or V, or a letter it does not know.
    static std::optional<EmbeddedLayout> parse(const QString &text);
    QString toString() const;
};

// What an embedded barcode carries, once a layout matched it.
struct EmbeddedCode
{
    QString itemCode;   // the I digits as printed, e.g. "00123"
    qint64 value = 0;   // the V digits as a number
    EmbeddedLayout::Value meaning = EmbeddedLayout::Value::ByUnit;
};

// The first of `layouts` that `code` fits (a valid EAN-13), or nullopt.
std::optional<EmbeddedCode> matchEmbedded(const QString &code, const QList<EmbeddedLayout> &layouts);

}   // namespace OncePay
