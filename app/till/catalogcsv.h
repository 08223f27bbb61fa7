#pragma once

#include "catalog.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QString>

#include <optional>

namespace OncePay {

// What is wrong with a catalog file, where: its line (1 is the header) and column (by the
// header's name). A kind, so tests compare kinds; CatalogCsv::describe() makes the words.
struct CatalogProblem
{
    enum class Kind {
        None,
        NotUtf8,
        Empty,   // no header row
        MissingColumn,   // `column` is the one required and absent
        DuplicateColumn,
        UnclosedQuote,
        WrongFieldCount,   // the row has `value` fields, the header more or fewer
        MissingValue,   // a required field is empty
        DuplicateCode,
        DuplicateBarcode,   // `value` is the barcode
        BadBarcode,   // not digits or letters, or a GTIN whose check digit is wrong
        BadPrice,
        BadVat,
        BadUnit,
        BadQuickKey,
        BadOpenPrice,
        NotACatalog,   // a JSON file that is not one (`value` says why)
    };
    Kind kind = Kind::None;
    int line = 0;
    QString column;
    QString value;
};

// The shop's catalog as CSV (issue 23): UTF-8, a header row naming at least
// code,barcode,name,name_zh,price,vat,category,unit in any order, more columns allowed (ignored),
// and optionally category_zh (the category's Chinese name, issue 36), quick_key and open_price. RFC 4180 quoting; LF or CRLF; a byte order mark is
// skipped. `price` is in major units as written on a shelf ("12.50"), `vat` a percent ("13"),
// `unit` each or kg, `barcode` one or several separated by "|", `open_price` yes or no.
class CatalogCsv final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::CatalogCsv)

public:
    static QStringList requiredColumns();
    // The products of a whole file, or nullopt and the first problem (nothing is half taken).
    static std::optional<QList<Product>> parse(const QByteArray &data, const QString &currency, CatalogProblem *problem);
    // A CSV or a JSON catalog (by its first character), as parse() and Catalog::loadJson().
    static std::optional<QList<Product>> parseAny(const QByteArray &data, const QString &currency, CatalogProblem *problem);
    // Every product, retired ones included, with every column (parse() reads it back equal).
    static QByteArray write(const QList<Product> &products);
    // One sentence for a person: "Line 7, column price: "12,50" is not a price such as 12.50."
    static QString describe(const CatalogProblem &problem);
};

}   // namespace OncePay
