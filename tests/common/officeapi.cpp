#include "officeapi.h"

#include "testdatabase.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>

namespace OfficeApi {

namespace {

QJsonObject saleData(qint64 seq, int variant)
{
    const qint64 total = 1000 + seq + variant;
    const QJsonObject line{{QStringLiteral("code"), QStringLiteral("6901234567892")}, {QStringLiteral("name"), QStringLiteral("Green tea")},
        {QStringLiteral("name_zh"), QStringLiteral("绿茶")}, {QStringLiteral("category"), QStringLiteral("drinks")},
        {QStringLiteral("quantity"), 1}, {QStringLiteral("unit_price"), total}, {QStringLiteral("amount"), total},
        {QStringLiteral("vat"), 1300}};
    const QJsonObject tender{{QStringLiteral("kind"), QStringLiteral("card")}, {QStringLiteral("brand"), QStringLiteral("visa")},
        {QStringLiteral("amount"), total}, {QStringLiteral("state"), QStringLiteral("succeeded")},
        {QStringLiteral("key"), QStringLiteral("pay-%1-%2").arg(seq).arg(variant)}};
    return {{QStringLiteral("number"), QStringLiteral("1-%1").arg(seq, 6, 10, QLatin1Char('0'))}, {QStringLiteral("state"), QStringLiteral("paid")},
        {QStringLiteral("currency"), QStringLiteral("CNY")}, {QStringLiteral("staff"), QStringLiteral("Li Wei")},
        {QStringLiteral("lines"), QJsonArray{line}}, {QStringLiteral("tenders"), QJsonArray{tender}},
        {QStringLiteral("totals"), QJsonObject{{QStringLiteral("subtotal"), total}, {QStringLiteral("discounts"), 0}, {QStringLiteral("tax"), total * 1300 / 11300}, {QStringLiteral("total"), total}}}};
}

}   // namespace

QByteArray eventsBody(const QString &till, qint64 firstSeq, int count, int variant, const QString &marker)
{
    QJsonArray events;
    for (qint64 seq = firstSeq; seq < firstSeq + count; ++seq) {
        QString kind;
        QJsonObject data;
        switch (seq % 3) {
        case 0:
            kind = QStringLiteral("cash");
            data = {{QStringLiteral("amount"), 500 + variant}, {QStringLiteral("reason"), QStringLiteral("float")},
                {QStringLiteral("staff"), QStringLiteral("Li Wei")}};
            break;
        case 1:
            kind = QStringLiteral("sale");
            data = saleData(seq, variant);
            break;
        default:
            kind = QStringLiteral("staff");
            data = {{QStringLiteral("who"), QStringLiteral("Li Wei")}, {QStringLiteral("what"), QStringLiteral("sign-in %1").arg(variant)}};
            break;
        }
        if (!marker.isEmpty())
            data.insert(QStringLiteral("note"), marker);
        events.append(QJsonObject{{QStringLiteral("seq"), seq}, {QStringLiteral("kind"), kind},
            {QStringLiteral("at"), QStringLiteral("2026-12-07T10:%1:%2.113Z").arg(seq / 60 % 60, 2, 10, QLatin1Char('0')).arg(seq % 60, 2, 10, QLatin1Char('0'))},
            {QStringLiteral("data"), data}});
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("till"), till}, {QStringLiteral("events"), events}}).toJson(QJsonDocument::Compact);
}

HttpReply postEvents(HttpClient &client, const QByteArray &body)
{
    return client.post(QStringLiteral("/v1/events"), body);
}

Position position(HttpClient &client, const QString &till)
{
    const HttpReply reply = client.get(QStringLiteral("/v1/tills/%1/position").arg(till));
    Position p;
    p.raw = reply.describe();
    const QJsonValue last = reply.object().value(QStringLiteral("last_seq"));
    p.ok = reply.status == 200 && last.isDouble();
    p.lastSeq = p.ok ? qint64(last.toDouble()) : -1;
    return p;
}

StoredEvents storedEvents(const TestDatabase &db, const QString &till)
{
    StoredEvents out;
    const QString name = QStringLiteral("office-check-") + QUuid::createUuid().toString(QUuid::Id128);
    if (db.connect(name, &out.error)) {
        QSqlQuery q(QSqlDatabase::database(name, false));
        if (q.prepare(QStringLiteral("SELECT COUNT(*), COUNT(DISTINCT seq), COALESCE(MIN(seq), 0), COALESCE(MAX(seq), 0)"
                                     " FROM events WHERE till = ?"))) {
            q.addBindValue(till);
            if (q.exec() && q.next()) {
                out.ok = true;
                out.rows = q.value(0).toLongLong();
                out.distinctSeqs = q.value(1).toLongLong();
                out.firstSeq = q.value(2).toLongLong();
                out.lastSeq = q.value(3).toLongLong();
            }
        }
        if (!out.ok)
            out.error = q.lastError().text();
        q = QSqlQuery();
        QSqlDatabase::database(name, false).close();
    }
    QSqlDatabase::removeDatabase(name);
    return out;
}

QByteArray batchMismatch(const HttpReply &reply, int applied, int replayed, qint64 lastSeq)
{
    const QJsonObject o = reply.object();
    if (reply.status == 200 && o.value(QStringLiteral("applied")).toInt(-1) == applied
        && o.value(QStringLiteral("replayed")).toInt(-1) == replayed
        && qint64(o.value(QStringLiteral("last_seq")).toDouble(-1)) == lastSeq)
        return {};
    return QStringLiteral("expected 200 {applied: %1, replayed: %2, last_seq: %3}, got ")
               .arg(applied)
               .arg(replayed)
               .arg(lastSeq)
               .toUtf8()
        + reply.describe();
}

}   // namespace OfficeApi
