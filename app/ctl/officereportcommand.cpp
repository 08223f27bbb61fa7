#include "officereportcommand.h"

#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "exitcode.h"
#include "gatewaysecurity.h"
#include "money.h"
#include "problem.h"

#include <QDate>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QRegularExpression>
#include <QTimer>
#include <QUrlQuery>

namespace OncePay::Ctl {

namespace {

const QStringList kFigures{QStringLiteral("sales"), QStringLiteral("gross"), QStringLiteral("discounts"),
    QStringLiteral("tax"), QStringLiteral("refunds"), QStringLiteral("net")};

bool isDay(const QString &text)
{
    static const QRegularExpression form(QStringLiteral("^\\d{4}-\\d{2}-\\d{2}$"));
    return form.match(text).hasMatch() && QDate::fromString(text, QStringLiteral("yyyy-MM-dd")).isValid();
}

QString keyText(const QJsonObject &row)
{
    const QJsonValue key = row.value(QStringLiteral("key"));
    if (key.isDouble())
        return QString::number(key.toInteger());
    return key.isNull() ? QStringLiteral("(none)") : key.toString();
}

// A figure for people: an amount in the currency's units ("12.50"), a count as it is.
QString figureText(const QJsonObject &row, const QString &figure, const QString &currency)
{
    const qint64 value = row.value(figure).toInteger();
    if (figure == QLatin1String("sales") || Money::minorDigits(currency) < 0)
        return QString::number(value);
    return Money(value, currency).toDecimalString();
}

QString csvField(QString text)
{
    if (!text.contains(QLatin1Char(',')) && !text.contains(QLatin1Char('"')) && !text.contains(QLatin1Char('\n')))
        return text;
    return QLatin1Char('"') + text.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"');
}

// key,sales,gross,discounts,tax,refunds,net in minor units, a row a key, then the totals as "total".
QByteArray csv(const QJsonObject &report)
{
    QString text = QStringLiteral("key,") + kFigures.join(QLatin1Char(',')) + QLatin1Char('\n');
    const auto line = [&](const QString &key, const QJsonObject &row) {
        text += csvField(key);
        for (const QString &f : kFigures)
            text += QLatin1Char(',') + QString::number(row.value(f).toInteger());
        text += QLatin1Char('\n');
    };
    const QJsonArray rows = report.value(QStringLiteral("rows")).toArray();
    for (const QJsonValue &r : rows)
        line(keyText(r.toObject()), r.toObject());
    line(QStringLiteral("total"), report.value(QStringLiteral("totals")).toObject());
    return text.toUtf8();
}

// A table for people: a heading, a row a key, and the totals, amounts in the currency's units.
QByteArray table(const QJsonObject &report)
{
    const QString currency = report.value(QStringLiteral("currency")).toString();
    QList<QStringList> cells{{report.value(QStringLiteral("group_by")).toString().toUpper()}};
    for (const QString &f : kFigures)
        cells[0].append(f.toUpper());
    const auto add = [&](const QString &key, const QJsonObject &row) {
        QStringList c{key};
        for (const QString &f : kFigures)
            c.append(figureText(row, f, currency));
        cells.append(c);
    };
    const QJsonArray rows = report.value(QStringLiteral("rows")).toArray();
    for (const QJsonValue &r : rows)
        add(keyText(r.toObject()), r.toObject());
    add(QStringLiteral("TOTAL"), report.value(QStringLiteral("totals")).toObject());
    QList<qsizetype> widths(cells[0].size(), 0);
    for (const QStringList &c : cells) {
        for (qsizetype i = 0; i < c.size(); ++i)
            widths[i] = qMax(widths[i], c[i].size());
    }
    QString text = QStringLiteral("%1 to %2, %3\n")
                       .arg(report.value(QStringLiteral("from")).toString(), report.value(QStringLiteral("to")).toString(),
                           currency.isEmpty() ? QStringLiteral("no sales") : currency);
    for (const QStringList &c : cells) {
        QString line = c[0].leftJustified(widths[0]);
        for (qsizetype i = 1; i < c.size(); ++i)
            line += QStringLiteral("  ") + c[i].rightJustified(widths[i]);
        text += line + QLatin1Char('\n');
    }
    return text.toUtf8();
}

}   // namespace

int officeReportCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("office report"), QStringLiteral("--from DAY --to DAY [--group-by G] [--json|--csv]"),
        QStringLiteral("The shop's sales report from the office (an owner's --office-token): a row a day, hour,\n"
                       "till, staff, product, category, tender or VAT rate, and the totals. DAY is YYYY-MM-DD in\n"
                       "the office's time zone. A table for people; --json the office's answer as one line;\n"
                       "--csv key,sales,gross,discounts,tax,refunds,net in minor units."));
    cl.addOptions({{QStringLiteral("from"), QStringLiteral("The first day, YYYY-MM-DD."), QStringLiteral("DAY")},
        {QStringLiteral("to"), QStringLiteral("The last day, YYYY-MM-DD."), QStringLiteral("DAY")},
        {QStringLiteral("group-by"), QStringLiteral("day, hour, till, staff, product, category, tender or vat (default day)."),
            QStringLiteral("G"), QStringLiteral("day")},
        {QStringLiteral("store"), QStringLiteral("One store only."), QStringLiteral("S")},
        {QStringLiteral("till"), QStringLiteral("One till only."), QStringLiteral("N")},
        {QStringLiteral("json"), QStringLiteral("The office's answer as one JSON line.")},
        {QStringLiteral("csv"), QStringLiteral("CSV, amounts in minor units.")}});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (!cl.positionalArguments().isEmpty())
        return fail(Usage, QStringLiteral("office report takes no argument (try --help)"));
    for (const QString &name : {QStringLiteral("from"), QStringLiteral("to")}) {
        if (!isDay(cl.value(name)))
            return fail(Usage, QStringLiteral("--%1: expected a day as YYYY-MM-DD, got \"%2\"").arg(name, cl.value(name)));
    }
    static const QStringList groupings{QStringLiteral("day"), QStringLiteral("hour"), QStringLiteral("till"), QStringLiteral("staff"),
        QStringLiteral("product"), QStringLiteral("category"), QStringLiteral("tender"), QStringLiteral("vat")};
    if (!groupings.contains(cl.value(QStringLiteral("group-by"))))
        return fail(Usage, QStringLiteral("--group-by: expected one of %1").arg(groupings.join(QStringLiteral(", "))));
    if (cl.isSet(QStringLiteral("json")) && cl.isSet(QStringLiteral("csv")))
        return fail(Usage, QStringLiteral("--json and --csv: choose one"));
    const CtlSession::Options &o = session.options();
    if (o.office.isEmpty())
        return fail(Usage, QStringLiteral("no office: give --office URL or set ONCEPAY_OFFICE"));
    if (o.officeToken.isEmpty())
        return fail(Usage, QStringLiteral("no office token: give an owner's --office-token T or set ONCEPAY_OFFICE_TOKEN"));

    QUrl url(o.office);
    QString path = url.path();   // an office behind a prefix keeps it
    if (!path.endsWith(QLatin1Char('/')))
        path += QLatin1Char('/');
    url.setPath(path + QStringLiteral("v1/reports/sales"));
    QUrlQuery query{{QStringLiteral("from"), cl.value(QStringLiteral("from"))}, {QStringLiteral("to"), cl.value(QStringLiteral("to"))},
        {QStringLiteral("group_by"), cl.value(QStringLiteral("group-by"))}};
    for (const QString &name : {QStringLiteral("store"), QStringLiteral("till")}) {
        if (cl.isSet(name))
            query.addQueryItem(name, cl.value(name));
    }
    url.setQuery(query);
    // The owner's token travels as the till's does: HTTPS verified (and --ca-file), plain HTTP to
    // this machine only unless --allow-insecure-http.
    if (url.scheme() == QLatin1String("http") && !isLoopback(url) && !o.allowInsecureHttp) {
        return fail(Usage, QStringLiteral("the office %1 is plain HTTP on another machine: the owner's token would cross the network"
                                          " unencrypted. Use its https:// address, or allow plain HTTP (--allow-insecure-http).")
                               .arg(o.office));
    }
    QNetworkAccessManager nam;
    QNetworkRequest request(url);
    if (url.scheme() == QLatin1String("https")) {
        QString why;
        const std::optional<QSslConfiguration> tls = gatewayTls(o.caFile, &why);
        if (!tls)
            return fail(Usage, QStringLiteral("--ca-file: %1").arg(why));
        request.setSslConfiguration(*tls);
    }
    request.setRawHeader("Authorization", "Bearer " + o.officeToken.toUtf8());
    request.setTransferTimeout(o.requestTimeoutMs);
    QNetworkReply *reply = nam.get(request);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->readAll();
    if (status == 0)
        return fail(Error, QStringLiteral("the office at %1 cannot be reached: %2").arg(o.office, reply->errorString()));
    if (status != 200) {
        const std::optional<Problem> p = Problem::fromJson(body);
        return fail(Error, QStringLiteral("the office refused the report (%1): %2").arg(status).arg(p ? p->detail : QString::fromUtf8(body.left(200))));
    }
    const QJsonObject report = QJsonDocument::fromJson(body).object();
    if (cl.isSet(QStringLiteral("json")))
        outJson(report);
    else if (cl.isSet(QStringLiteral("csv")))
        out(csv(report));
    else
        out(table(report));
    return Succeeded;
}

}   // namespace OncePay::Ctl
