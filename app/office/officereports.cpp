#include "office/officereports.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSet>

namespace OncePay::Office::OfficeReports {

namespace {

qint64 integer(const QJsonValue &v)
{
    return v.isDouble() ? v.toInteger() : 0;
}

// `total` shared by `weights` in proportion, rounded down, what rounding left over going to the
// last share with a weight (or the last share when none has one): the shares always add up to
// `total`, so a report's rows add up to its totals to the minor unit.
QList<qint64> spread(qint64 total, const QList<qint64> &weights)
{
    QList<qint64> out(weights.size(), 0);
    if (weights.isEmpty())
        return out;
    __int128 sum = 0;
    qsizetype last = weights.size() - 1;
    for (qsizetype i = 0; i < weights.size(); ++i) {
        sum += qMax<qint64>(0, weights[i]);
        if (weights[i] > 0)
            last = i;
    }
    qint64 given = 0;
    for (qsizetype i = 0; sum > 0 && i < weights.size(); ++i) {
        out[i] = qint64(__int128(total) * qMax<qint64>(0, weights[i]) / sum);
        given += out[i];
    }
    out[last] += total - given;
    return out;
}

// A row's key as JSON, how rows sort, and what is shown beside the key.
struct Key
{
    QJsonValue value;
    QString order;
    QJsonObject extra;
};

struct Part
{
    Key key;
    Figures figures;
};

Key textKey(const QString &text)
{
    return {text, text, {}};
}

Key numberKey(qint64 n)
{
    return {n, QStringLiteral("%1").arg(n, 12, 10, QLatin1Char('0')), {}};
}

Key noKey()
{
    return {QJsonValue(QJsonValue::Null), QString(), {}};
}

Key lineKey(const QJsonObject &line, const QString &groupBy)
{
    if (groupBy == QLatin1String("vat"))
        return numberKey(integer(line.value(QStringLiteral("vat"))));
    if (groupBy == QLatin1String("category"))
        return textKey(line.value(QStringLiteral("category")).toString());
    Key k = textKey(line.value(QStringLiteral("code")).toString());
    k.extra.insert(QStringLiteral("name"), line.value(QStringLiteral("name")).toString());
    if (line.contains(QStringLiteral("name_zh")))
        k.extra.insert(QStringLiteral("name_zh"), line.value(QStringLiteral("name_zh")).toString());
    return k;
}

bool byLine(const QString &groupBy)
{
    return groupBy == QLatin1String("product") || groupBy == QLatin1String("category") || groupBy == QLatin1String("vat");
}

// The key of the whole event for the groupings that do not split it.
Key eventKey(const StoredEvent &e, const QJsonObject &data, const QString &groupBy, const QTimeZone &zone)
{
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(e.atMs, zone);
    if (groupBy == QLatin1String("day"))
        return textKey(local.date().toString(Qt::ISODate));
    if (groupBy == QLatin1String("hour"))
        return numberKey(local.time().hour());
    if (groupBy == QLatin1String("staff"))
        return textKey(data.value(QStringLiteral("staff")).toString());
    Key k = textKey(e.till);   // till
    k.order = e.store + QChar(0x1f) + e.till;
    k.extra.insert(QStringLiteral("store"), e.store);
    return k;
}

// The tax of each VAT rate of a sale: each rate's lines' amounts (tax included) at that rate,
// rounded half up, then the sale's own tax figure kept by giving any difference to its largest
// rate; within a rate, shared by the lines' amounts.
QList<qint64> lineTaxes(const QJsonArray &lines, qint64 saleTax)
{
    QMap<qint64, qint64> perRate;   // vat -> amount
    for (const QJsonValue &l : lines)
        perRate[integer(l.toObject().value(QStringLiteral("vat")))] += integer(l.toObject().value(QStringLiteral("amount")));
    QMap<qint64, qint64> rateTax;
    qint64 sum = 0;
    qint64 largest = perRate.isEmpty() ? 0 : perRate.firstKey();
    for (auto it = perRate.cbegin(); it != perRate.cend(); ++it) {
        const __int128 num = __int128(it.value()) * it.key() * 2 + (10000 + it.key());
        rateTax[it.key()] = qint64(num / (2 * (10000 + it.key())));
        sum += rateTax[it.key()];
        if (it.value() > perRate.value(largest))
            largest = it.key();
    }
    rateTax[largest] += saleTax - sum;
    QList<qint64> out(lines.size(), 0);
    for (auto it = rateTax.cbegin(); it != rateTax.cend(); ++it) {
        QList<qsizetype> at;
        QList<qint64> weights;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (integer(lines[i].toObject().value(QStringLiteral("vat"))) == it.key()) {
                at.append(i);
                weights.append(integer(lines[i].toObject().value(QStringLiteral("amount"))));
            }
        }
        const QList<qint64> shares = spread(it.value(), weights);
        for (qsizetype n = 0; n < at.size(); ++n)
            out[at[n]] = shares[n];
    }
    return out;
}

// What the till handed back for a sale by its own refunds (a cancelled sale's cash, a card part
// that succeeded after the sale was paid another way): the sale event names them in
// `handed_back`, and each is also a `refund` event of its own.
QList<QJsonObject> handedBack(const QJsonObject &data)
{
    QList<QJsonObject> out;
    const QJsonArray handedBack = data.value(QStringLiteral("handed_back")).toArray();
    for (const QJsonValue &h : handedBack) {
        if (h.toObject().value(QStringLiteral("state")).toString() == QLatin1String("succeeded"))
            out.append(h.toObject());
    }
    return out;
}

// A paid sale's parts: one for the whole sale, or one a line, or one a succeeded tender.
QList<Part> saleParts(const StoredEvent &e, const QJsonObject &data, const QString &groupBy, const QTimeZone &zone)
{
    const QJsonObject totals = data.value(QStringLiteral("totals")).toObject();
    Figures whole;
    whole.sales = 1;
    whole.gross = integer(totals.value(QStringLiteral("total")));
    whole.discounts = integer(totals.value(QStringLiteral("discounts")));
    whole.tax = integer(totals.value(QStringLiteral("tax")));
    if (!byLine(groupBy) && groupBy != QLatin1String("tender"))
        return {{eventKey(e, data, groupBy, zone), whole}};
    QList<Part> parts;
    QList<qint64> weights;
    if (groupBy == QLatin1String("tender")) {
        // What each way of paying kept: its succeeded tenders less what the till handed back by it.
        QMap<QString, qint64> kept;
        const QJsonArray tenders = data.value(QStringLiteral("tenders")).toArray();
        for (const QJsonValue &t : tenders) {
            const QJsonObject tender = t.toObject();
            if (tender.value(QStringLiteral("state")).toString() == QLatin1String("succeeded"))   // only these took money
                kept[tender.value(QStringLiteral("kind")).toString()] += integer(tender.value(QStringLiteral("amount")));
        }
        for (const QJsonObject &h : handedBack(data))
            kept[h.value(QStringLiteral("kind")).toString()] -= integer(h.value(QStringLiteral("amount")));
        for (auto it = kept.cbegin(); it != kept.cend(); ++it) {
            if (it.value() == 0)
                continue;
            Figures f;
            f.sales = 1;
            f.gross = it.value();
            parts.append({textKey(it.key()), f});
            weights.append(f.gross);
        }
        const QList<qint64> discounts = spread(whole.discounts, weights);
        const QList<qint64> taxes = spread(whole.tax, weights);
        for (qsizetype i = 0; i < parts.size(); ++i) {
            parts[i].figures.discounts = discounts[i];
            parts[i].figures.tax = taxes[i];
        }
        return parts;
    }
    const QJsonArray lines = data.value(QStringLiteral("lines")).toArray();
    if (lines.isEmpty())
        return {{noKey(), whole}};
    // A line's own discount is its own; what was taken off the whole sale is shared by amount.
    qint64 own = 0;
    for (const QJsonValue &l : lines) {
        own += integer(l.toObject().value(QStringLiteral("discount")));
        weights.append(integer(l.toObject().value(QStringLiteral("amount"))));
    }
    const QList<qint64> saleDiscount = spread(whole.discounts - own, weights);
    const QList<qint64> taxes = lineTaxes(lines, whole.tax);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QJsonObject line = lines[i].toObject();
        Figures f;
        f.sales = 1;
        f.gross = weights[i];
        f.discounts = integer(line.value(QStringLiteral("discount"))) + saleDiscount[i];
        f.tax = taxes[i];
        parts.append({lineKey(line, groupBy), f});
    }
    return parts;
}

// A succeeded refund's parts: by its lines (its amount shared by their amounts) or as a whole.
QList<Part> refundParts(const StoredEvent &e, const QJsonObject &data, const QString &groupBy, const QTimeZone &zone)
{
    Figures whole;
    whole.refunds = integer(data.value(QStringLiteral("amount")));
    if (groupBy == QLatin1String("tender"))
        return {{textKey(data.value(QStringLiteral("tender")).toString()), whole}};
    if (!byLine(groupBy))
        return {{eventKey(e, data, groupBy, zone), whole}};
    const QJsonArray lines = data.value(QStringLiteral("lines")).toArray();
    if (lines.isEmpty())
        return {{noKey(), whole}};   // an amount given back with no lines: no product, no rate
    QList<qint64> weights;
    for (const QJsonValue &l : lines)
        weights.append(integer(l.toObject().value(QStringLiteral("amount"))));
    const QList<qint64> shares = spread(whole.refunds, weights);
    QList<Part> parts;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        Figures f;
        f.refunds = shares[i];
        parts.append({lineKey(lines[i].toObject(), groupBy), f});
    }
    return parts;
}

void add(Figures &to, const Figures &f)
{
    to.sales += f.sales;
    to.gross += f.gross;
    to.discounts += f.discounts;
    to.tax += f.tax;
    to.refunds += f.refunds;
}

bool isPaidSale(const StoredEvent &e, const QJsonObject &data)
{
    return e.kind == QLatin1String("sale") && data.value(QStringLiteral("state")).toString() == QLatin1String("paid");
}

bool isSucceededRefund(const StoredEvent &e, const QJsonObject &data)
{
    return e.kind == QLatin1String("refund") && data.value(QStringLiteral("state")).toString() == QLatin1String("succeeded");
}

// The whole figures of one event (nothing for a cancelled sale or a refund that did not succeed).
Figures wholeFigures(const StoredEvent &e, const QJsonObject &data)
{
    Figures f;
    if (isPaidSale(e, data)) {
        const QJsonObject totals = data.value(QStringLiteral("totals")).toObject();
        f.sales = 1;
        f.gross = integer(totals.value(QStringLiteral("total")));
        f.discounts = integer(totals.value(QStringLiteral("discounts")));
        f.tax = integer(totals.value(QStringLiteral("tax")));
    } else if (isSucceededRefund(e, data)) {
        f.refunds = integer(data.value(QStringLiteral("amount")));
    }
    return f;
}

QJsonObject object(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

}   // namespace

QJsonObject Figures::toJson() const
{
    return {{QStringLiteral("sales"), sales}, {QStringLiteral("gross"), gross}, {QStringLiteral("discounts"), discounts},
        {QStringLiteral("tax"), tax}, {QStringLiteral("refunds"), refunds}, {QStringLiteral("net"), net()}};
}

QJsonObject sales(const QList<StoredEvent> &events, const QString &groupBy, const QTimeZone &zone)
{
    struct Row
    {
        Key key;
        Figures figures;
    };
    QMap<QString, Row> rows;   // by Key::order
    Figures totals;
    QString currency;
    QList<QJsonObject> datas;
    QSet<QString> handBacks;   // refund keys: money the till handed back for a sale, not a refund
    for (const StoredEvent &e : events) {
        datas.append(object(e.data));
        if (e.kind == QLatin1String("sale")) {
            for (const QJsonObject &h : handedBack(datas.constLast())) {
                if (!h.value(QStringLiteral("key")).toString().isEmpty())
                    handBacks.insert(h.value(QStringLiteral("key")).toString());
            }
        }
    }
    for (qsizetype n = 0; n < events.size(); ++n) {
        const StoredEvent &e = events[n];
        const QJsonObject &data = datas[n];
        QList<Part> parts;
        if (isPaidSale(e, data))
            parts = saleParts(e, data, groupBy, zone);
        else if (isSucceededRefund(e, data) && !handBacks.contains(data.value(QStringLiteral("key")).toString()))
            parts = refundParts(e, data, groupBy, zone);
        else
            continue;
        if (currency.isEmpty())
            currency = data.value(QStringLiteral("currency")).toString();
        add(totals, wholeFigures(e, data));
        // A sale with two lines of one product counts once in that product's row.
        QMap<QString, Row> mine;
        for (const Part &p : parts) {
            Row &r = mine[p.key.order];
            r.key = p.key;
            const qint64 sales = r.figures.sales;
            add(r.figures, p.figures);
            r.figures.sales = qMax(sales, p.figures.sales);
        }
        for (const Row &m : std::as_const(mine)) {
            Row &r = rows[m.key.order];
            r.key = m.key;
            add(r.figures, m.figures);
        }
    }
    QJsonArray out;
    for (const Row &r : std::as_const(rows)) {
        if (r.figures.isEmpty())
            continue;
        QJsonObject row = r.figures.toJson();
        row.insert(QStringLiteral("key"), r.key.value);
        for (auto it = r.key.extra.begin(); it != r.key.extra.end(); ++it)
            row.insert(it.key(), it.value());
        out.append(row);
    }
    return {{QStringLiteral("group_by"), groupBy}, {QStringLiteral("currency"), currency}, {QStringLiteral("rows"), out},
        {QStringLiteral("totals"), totals.toJson()}};
}

QJsonObject shift(const StoredEvent &shiftEvent, const QList<StoredEvent> &itsEvents)
{
    const QJsonObject data = object(shiftEvent.data);
    const QJsonObject own = data.value(QStringLiteral("totals")).toObject();
    // As the Z report counts: the money the tenders took (a paid sale's total, and what the till
    // handed back for any sale, paid or cancelled, which it took first) and every refund.
    Figures summed;
    for (const StoredEvent &e : itsEvents) {
        const QJsonObject d = object(e.data);
        add(summed, wholeFigures(e, d));
        if (e.kind == QLatin1String("sale")) {
            for (const QJsonObject &h : handedBack(d))
                summed.gross += integer(h.value(QStringLiteral("amount")));
        }
    }
    const QJsonObject sums{{QStringLiteral("sales"), summed.sales}, {QStringLiteral("gross"), summed.gross},
        {QStringLiteral("refunds"), summed.refunds}, {QStringLiteral("net"), summed.net()}};
    bool agrees = true;
    for (auto it = sums.begin(); it != sums.end(); ++it)
        agrees = agrees && own.value(it.key()).isDouble() && integer(own.value(it.key())) == it.value().toInteger();
    return {{QStringLiteral("store"), shiftEvent.store}, {QStringLiteral("till"), shiftEvent.till},
        {QStringLiteral("seq"), shiftEvent.seq}, {QStringLiteral("at"), shiftEvent.at},
        {QStringLiteral("number"), data.value(QStringLiteral("number"))}, {QStringLiteral("staff"), data.value(QStringLiteral("staff"))},
        {QStringLiteral("currency"), data.value(QStringLiteral("currency"))},
        {QStringLiteral("counted_cash"), data.value(QStringLiteral("counted_cash"))},
        {QStringLiteral("difference"), data.value(QStringLiteral("difference"))}, {QStringLiteral("totals"), own},
        {QStringLiteral("events"), sums}, {QStringLiteral("agrees"), agrees}};
}

}   // namespace OncePay::Office::OfficeReports
