#include "catalogcsv.h"

#include "barcode.h"
#include "pricing.h"

#include <QHash>
#include <QStringDecoder>

namespace OncePay {

namespace {

using Kind = CatalogProblem::Kind;

struct Row
{
    int line = 0;   // where the record starts
    QStringList fields;
};

// RFC 4180 records, with the line each starts on; a quoted field may hold commas, quotes ("")
// and line breaks. False when a quote is never closed (`line` then says where it opened).
bool splitRecords(const QString &text, QList<Row> *rows, int *unclosedAt)
{
    Row row;
    QString field;
    int line = 1;
    row.line = 1;
    bool quoted = false;
    bool fieldStarted = false;
    int quoteLine = 0;
    const qsizetype n = text.size();
    for (qsizetype i = 0; i < n; ++i) {
        const QChar c = text.at(i);
        if (quoted) {
            if (c == QLatin1Char('"')) {
                if (i + 1 < n && text.at(i + 1) == QLatin1Char('"')) {
                    field += c;
                    ++i;
                } else {
                    quoted = false;
                }
            } else {
                if (c == QLatin1Char('\n'))
                    ++line;
                field += c;
            }
            continue;
        }
        if (c == QLatin1Char('"') && !fieldStarted) {
            quoted = true;
            fieldStarted = true;
            quoteLine = line;
        } else if (c == QLatin1Char(',')) {
            row.fields.append(field);
            field.clear();
            fieldStarted = false;
        } else if (c == QLatin1Char('\n') || c == QLatin1Char('\r')) {
            if (c == QLatin1Char('\r') && i + 1 < n && text.at(i + 1) == QLatin1Char('\n'))
                ++i;
            row.fields.append(field);
            // A blank line is no record.
            if (!(row.fields.size() == 1 && row.fields.first().isEmpty()))
                rows->append(row);
            field.clear();
            fieldStarted = false;
            row = Row();
            row.line = ++line;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted) {
        *unclosedAt = quoteLine;
        return false;
    }
    row.fields.append(field);
    if (!(row.fields.size() == 1 && row.fields.first().isEmpty()))
        rows->append(row);
    return true;
}

QString quoted(const QString &field)
{
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) && !field.contains(QLatin1Char('\n'))
        && !field.contains(QLatin1Char('\r')) && field.trimmed() == field)
        return field;
    QString out = field;
    out.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

bool barcodeIsWellFormed(const QString &b)
{
    for (QChar c : b) {
        if (!(c.isLetterOrNumber() && c.unicode() < 128) && c != QLatin1Char('-'))
            return false;
    }
    return !b.isEmpty() && Barcode::check(b) == Barcode::Check::Valid;
}

}   // namespace

QStringList CatalogCsv::requiredColumns()
{
    return {QStringLiteral("code"), QStringLiteral("barcode"), QStringLiteral("name"), QStringLiteral("name_zh"),
        QStringLiteral("price"), QStringLiteral("vat"), QStringLiteral("category"), QStringLiteral("unit")};
}

std::optional<QList<Product>> CatalogCsv::parse(const QByteArray &data, const QString &currency, CatalogProblem *problem)
{
    auto fail = [problem](Kind kind, int line, const QString &column = {}, const QString &value = {}) {
        *problem = {kind, line, column, value};
        return std::nullopt;
    };
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless);
    QString text = decoder.decode(data);
    if (decoder.hasError())
        return fail(Kind::NotUtf8, 0);
    if (text.startsWith(QChar(0xFEFF)))
        text.remove(0, 1);
    QList<Row> rows;
    int unclosedAt = 0;
    if (!splitRecords(text, &rows, &unclosedAt))
        return fail(Kind::UnclosedQuote, unclosedAt);
    if (rows.isEmpty())
        return fail(Kind::Empty, 1);

    QHash<QString, int> columns;
    const QStringList header = rows.first().fields;
    for (int i = 0; i < header.size(); ++i) {
        const QString name = header.at(i).trimmed().toLower();
        if (columns.contains(name) && !name.isEmpty())
            return fail(Kind::DuplicateColumn, 1, name);
        columns.insert(name, i);
    }
    for (const QString &required : requiredColumns()) {
        if (!columns.contains(required))
            return fail(Kind::MissingColumn, 1, required);
    }

    QList<Product> products;
    products.reserve(rows.size() - 1);
    QHash<QString, int> codes;
    QHash<QString, int> barcodes;
    codes.reserve(rows.size());
    for (qsizetype r = 1; r < rows.size(); ++r) {
        const Row &row = rows.at(r);
        if (row.fields.size() != header.size())
            return fail(Kind::WrongFieldCount, row.line, {}, QString::number(row.fields.size()));
        auto field = [&](const QString &column) {
            const int at = columns.value(column, -1);
            return at < 0 ? QString() : row.fields.at(at).trimmed();
        };
        Product p;
        p.code = field(QStringLiteral("code"));
        if (p.code.isEmpty())
            return fail(Kind::MissingValue, row.line, QStringLiteral("code"));
        if (codes.contains(p.code))
            return fail(Kind::DuplicateCode, row.line, QStringLiteral("code"), p.code);
        codes.insert(p.code, row.line);

        for (const QString &b : field(QStringLiteral("barcode")).split(QLatin1Char('|'), Qt::SkipEmptyParts)) {
            const QString barcode = b.trimmed();
            if (!barcodeIsWellFormed(barcode))
                return fail(Kind::BadBarcode, row.line, QStringLiteral("barcode"), barcode);
            if (barcodes.contains(barcode))
                return fail(Kind::DuplicateBarcode, row.line, QStringLiteral("barcode"), barcode);
            barcodes.insert(barcode, row.line);
            p.barcodes.append(barcode);
        }

        p.nameEn = field(QStringLiteral("name"));
        p.nameZh = field(QStringLiteral("name_zh"));
        if (p.nameEn.isEmpty() && p.nameZh.isEmpty())
            return fail(Kind::MissingValue, row.line, QStringLiteral("name"));
        if (p.nameEn.isEmpty())
            p.nameEn = p.nameZh;

        const QString openPrice = field(QStringLiteral("open_price")).toLower();
        if (openPrice == QLatin1String("yes") || openPrice == QLatin1String("true") || openPrice == QLatin1String("1"))
            p.openPrice = true;
        else if (!openPrice.isEmpty() && openPrice != QLatin1String("no") && openPrice != QLatin1String("false")
            && openPrice != QLatin1String("0"))
            return fail(Kind::BadOpenPrice, row.line, QStringLiteral("open_price"), openPrice);

        const QString price = field(QStringLiteral("price"));
        if (price.isEmpty() && p.openPrice) {
            p.price = Money(0, currency);
        } else {
            const std::optional<Money> m = Money::parse(price, currency);
            if (!m)
                return fail(price.isEmpty() ? Kind::MissingValue : Kind::BadPrice, row.line, QStringLiteral("price"), price);
            p.price = *m;
        }

        const QString vat = field(QStringLiteral("vat"));
        const std::optional<int> bp = parseVatPercent(vat);
        if (!bp)
            return fail(vat.isEmpty() ? Kind::MissingValue : Kind::BadVat, row.line, QStringLiteral("vat"), vat);
        p.vatBasisPoints = *bp;

        p.category = field(QStringLiteral("category"));
        // Issue 36: optional, as every column after `unit`: a file without it imports as before.
        p.categoryZh = field(QStringLiteral("category_zh"));
        const QString unit = field(QStringLiteral("unit")).toLower();
        if (unit == QLatin1String("kg"))
            p.unit = SaleUnit::Kilogram;
        else if (!unit.isEmpty() && unit != QLatin1String("each"))
            return fail(Kind::BadUnit, row.line, QStringLiteral("unit"), unit);

        const QString quickKey = field(QStringLiteral("quick_key"));
        if (!quickKey.isEmpty()) {
            bool ok = false;
            p.quickKey = quickKey.toInt(&ok);
            if (!ok || p.quickKey < 1 || p.quickKey > 9999)
                return fail(Kind::BadQuickKey, row.line, QStringLiteral("quick_key"), quickKey);
        }
        products.append(std::move(p));
    }
    return products;
}

std::optional<QList<Product>> CatalogCsv::parseAny(const QByteArray &data, const QString &currency, CatalogProblem *problem)
{
    const QByteArray start = data.left(64).trimmed();
    if (start.startsWith('{')) {
        Catalog catalog;
        QString why;
        if (!catalog.loadJson(data, &why)) {
            *problem = {Kind::NotACatalog, 0, {}, why};
            return std::nullopt;
        }
        return catalog.products();
    }
    return parse(data, currency, problem);
}

QByteArray CatalogCsv::write(const QList<Product> &products)
{
    QString out = QStringLiteral("code,barcode,name,name_zh,price,vat,category,category_zh,unit,quick_key,open_price,retired\n");
    for (const Product &p : products) {
        const QStringList fields{p.code, p.barcodes.join(QLatin1Char('|')), p.nameEn, p.nameZh,
            p.openPrice && p.price.minorUnits() == 0 ? QString() : p.price.toDecimalString(),
            vatRateText(p.vatBasisPoints).chopped(1), p.category, p.categoryZh, saleUnitName(p.unit),
            p.quickKey > 0 ? QString::number(p.quickKey) : QString(), p.openPrice ? QStringLiteral("yes") : QStringLiteral("no"),
            p.retired ? QStringLiteral("yes") : QStringLiteral("no")};
        QStringList cells;
        cells.reserve(fields.size());
        for (const QString &f : fields)
            cells.append(quoted(f));
        out += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out.toUtf8();
}

QString CatalogCsv::describe(const CatalogProblem &p)
{
    QString what;
    switch (p.kind) {
    case Kind::None:
        return {};
    case Kind::NotUtf8:
        return tr("The file is not UTF-8 text. Save it as \"CSV UTF-8\" and import it again.");
    case Kind::Empty:
        return tr("The file is empty: it needs a header row naming the columns %1.")
            .arg(requiredColumns().join(QLatin1Char(',')));
    case Kind::MissingColumn:
        return tr("Line 1: the header has no column \"%1\" (it needs %2).")
            .arg(p.column, requiredColumns().join(QLatin1Char(',')));
    case Kind::DuplicateColumn:
        return tr("Line 1: the column \"%1\" is named twice.").arg(p.column);
    case Kind::UnclosedQuote:
        return tr("Line %1: a quote (\") is opened and never closed.").arg(p.line);
    case Kind::WrongFieldCount:
        return tr("Line %1 has %2 fields; the header has a different number (a comma inside a name needs quotes).")
            .arg(p.line)
            .arg(p.value);
    case Kind::NotACatalog:
        return tr("The file is not a catalog: %1").arg(p.value);
    case Kind::MissingValue:
        what = tr("it is empty, and every product needs one");
        break;
    case Kind::DuplicateCode:
        what = tr("\"%1\" is the code of an earlier line too").arg(p.value);
        break;
    case Kind::DuplicateBarcode:
        what = tr("the barcode %1 is on an earlier line too").arg(p.value);
        break;
    case Kind::BadBarcode:
        what = Barcode::kindOf(p.value) != Barcode::Kind::Other
            ? tr("the barcode %1 has a wrong check digit (a typing error?)").arg(p.value)
            : tr("\"%1\" is not a barcode (digits and letters, several separated by |)").arg(p.value);
        break;
    case Kind::BadPrice:
        what = tr("\"%1\" is not a price such as 12.50").arg(p.value);
        break;
    case Kind::BadVat:
        what = tr("\"%1\" is not a VAT rate in percent such as 13, 9, 6 or 0").arg(p.value);
        break;
    case Kind::BadUnit:
        what = tr("\"%1\" is not a unit: write each or kg").arg(p.value);
        break;
    case Kind::BadQuickKey:
        what = tr("\"%1\" is not a place on the grid (a number from 1)").arg(p.value);
        break;
    case Kind::BadOpenPrice:
        what = tr("\"%1\" is not yes or no").arg(p.value);
        break;
    }
    return tr("Line %1, column %2: %3.").arg(p.line).arg(p.column, what);
}

}   // namespace OncePay
