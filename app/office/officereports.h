#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QTimeZone>

namespace OncePay::Office::OfficeReports {

// One stored event as the reports read it (docs/office.md, "Reports").
struct StoredEvent
{
    QString store;
    QString till;
    qint64 seq = 0;
    QString kind;
    QString at;
    qint64 atMs = 0;
    QByteArray data;   // the event's data, canonical JSON
};

// The figures of a report's row: every amount in minor units.
struct Figures
{
    qint64 sales = 0;   // paid sales
    qint64 gross = 0;   // what they came to, after discounts, tax included
    qint64 discounts = 0;   // taken off them (already out of gross)
    qint64 tax = 0;   // included in gross
    qint64 refunds = 0;   // succeeded refunds
    qint64 net() const { return gross - refunds; }
    QJsonObject toJson() const;
    bool isEmpty() const { return !sales && !gross && !discounts && !tax && !refunds; }
};

inline const QStringList &groupings()
{
    static const QStringList g{QStringLiteral("day"), QStringLiteral("hour"), QStringLiteral("till"), QStringLiteral("staff"),
        QStringLiteral("product"), QStringLiteral("category"), QStringLiteral("tender"), QStringLiteral("vat")};
    return g;
}

// GET /v1/reports/sales's body from the sale and refund events of the range, days and hours
// in `zone`: {"currency", "group_by", "rows": [{"key", figures...}], "totals": {figures}}.
QJsonObject sales(const QList<StoredEvent> &events, const QString &groupBy, const QTimeZone &zone);

// The shift's own totals beside the same four figures summed from its sale and refund events.
QJsonObject shift(const StoredEvent &shiftEvent, const QList<StoredEvent> &itsEvents);

}   // namespace OncePay::Office::OfficeReports
