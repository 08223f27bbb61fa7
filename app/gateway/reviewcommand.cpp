#include "gateway/reviewcommand.h"

#include "gateway/store/sqlgatewaystore.h"
#include "timeutil.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

namespace OncePay::Gateway {

namespace {

// Runs one store call to its answer: the command is a short-lived program of its own.
template <typename T, typename Call>
bool await(Call call, T *value, QString *error)
{
    QEventLoop loop;
    QObject context;
    bool ok = false;
    call(&context, [&](bool callOk, const QString &callError, T v) {
        ok = callOk;
        *error = callError;
        *value = std::move(v);
        loop.quit();
    });
    loop.exec();
    return ok;
}

QJsonObject withMerchant(QJsonObject o, const QString &merchant)
{
    o.insert(QStringLiteral("merchant"), merchant);
    return o;
}

// A stored text as one harmless run of characters on a terminal: a note, an order id or a key
// (written by a client, another program, an older version) holding ESC or a newline must not
// forge a line or move the cursor. Control, format and line-separator characters are printed
// as escapes (\x1b, \n, \u202e), and the backslash itself as \\.
QString escaped(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        const QChar::Category category = c.category();
        if (c == QLatin1Char('\\'))
            out += QStringLiteral("\\\\");
        else if (c == QLatin1Char('\n'))
            out += QStringLiteral("\\n");
        else if (c == QLatin1Char('\r'))
            out += QStringLiteral("\\r");
        else if (c == QLatin1Char('\t'))
            out += QStringLiteral("\\t");
        else if (category == QChar::Other_Control || category == QChar::Other_Format
            || category == QChar::Separator_Line || category == QChar::Separator_Paragraph)
            out += c.unicode() < 0x100 ? QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'))
                                       : QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

// One record, one line: every stored text in it escaped. `more` (already escaped): what else
// tells it apart, a payment's order or a refund's payment. One arg() call, so that a "%5" in a
// text is never taken for a place of its own.
QString line(const QString &id, const char *object, const QString &merchant, const QString &key, qint64 amount,
    const QString &currency, qint64 createdAt, const QString &more, const QString &note)
{
    QString out = QStringLiteral("%1  %2  merchant %3  key %4  %5 %6 (minor units)  created %7  %8")
                      .arg(escaped(id), QString::fromLatin1(object), escaped(merchant), escaped(key),
                          QString::number(amount), escaped(currency), toRfc3339(createdAt), more);
    if (!note.isEmpty())
        out += QStringLiteral("  note \"%1\"").arg(escaped(note));
    return out;
}

}   // namespace

int ReviewCommand::run(const QStringList &arguments, QTextStream &out, QTextStream &err)
{
    auto usage = [&err](const QString &message) {
        err << "oncepay-gateway review: " << message << '\n';
        return 2;
    };
    auto refused = [&err](const QString &message) {
        err << "oncepay-gateway review: " << message << '\n';
        return 1;
    };

    QCommandLineParser p;
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help and exit."));
    const QCommandLineOption db(QStringLiteral("db"),
        QStringLiteral("The gateway's store: a SQLite file, or postgresql://USER:PASS@HOST:PORT/DBNAME."),
        QStringLiteral("DB"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print JSON instead of lines."));
    const QCommandLineOption resolve(QStringLiteral("resolve"),
        QStringLiteral("Settle this payment or refund (pay_... or re_...) after checking with the acquirer."),
        QStringLiteral("ID"));
    const QCommandLineOption outcome(QStringLiteral("outcome"),
        QStringLiteral("With --resolve: what the acquirer did. A payment: succeeded or declined; a refund: "
                       "succeeded or failed."),
        QStringLiteral("OUTCOME"));
    p.addOptions({help, db, json, resolve, outcome});
    QStringList args = arguments;
    if (args.size() >= 2)
        args.removeAt(1);   // "review"
    if (!p.parse(args))
        return usage(p.errorText());
    if (p.isSet(help)) {
        out << "Usage: oncepay-gateway review --db DB [--json]\n"
               "       oncepay-gateway review --db DB --resolve ID --outcome succeeded|declined|failed [--json]\n\n"
               "Payments and refunds older than the acquirer's key window (--acquirer-key-window) that the\n"
               "acquirer says it does not know are never sent again: they wait here, status processing with\n"
               "needs_review true, for a person to ask the acquirer and settle them.\n"
               "Exit codes: 0 done, 1 refused, 2 usage.\n\n"
            << p.helpText().section(QLatin1Char('\n'), 2);
        return 0;
    }
    if (!p.positionalArguments().isEmpty())
        return usage(QStringLiteral("unexpected argument: %1").arg(p.positionalArguments().constFirst()));
    if (!p.isSet(db))
        return usage(QStringLiteral("--db is required"));
    if (p.isSet(resolve) != p.isSet(outcome))
        return usage(QStringLiteral("--resolve and --outcome go together"));
    static const QStringList outcomes{QStringLiteral("succeeded"), QStringLiteral("declined"), QStringLiteral("failed")};
    if (p.isSet(outcome) && !outcomes.contains(p.value(outcome)))
        return usage(QStringLiteral("--outcome: expected succeeded, declined (a payment) or failed (a refund), got \"%1\"")
                         .arg(p.value(outcome)));

    QString error;
    std::optional<SqlGatewayStore::Options> options = SqlGatewayStore::fromSpec(p.value(db), &error);
    if (!options)
        return usage(QStringLiteral("--db: %1").arg(error));
    if (options->driver == SqlBatchWorker::Driver::Sqlite && !QFileInfo::exists(options->path))
        return refused(QStringLiteral("no gateway store at %1").arg(options->path));
    options->connections = 1;
    options->minFreeBytes = 0;
    SqlGatewayStore store(*options);
    if (!store.open(&error))
        return refused(QStringLiteral("cannot open the store: %1").arg(error));

    if (p.isSet(resolve)) {
        const QString id = p.value(resolve);
        ReviewResolution r;
        const bool ok = await<ReviewResolution>([&](QObject *ctx, GatewayStore::Reply<ReviewResolution> reply) {
            store.resolveReview(id, p.value(outcome), 30'000, ctx, std::move(reply));
        },
            &r, &error);
        if (!ok)
            return refused(QStringLiteral("the store failed: %1").arg(error));
        switch (r.kind) {
        case ReviewResolution::Kind::Resolved:
            if (p.isSet(json))
                out << QJsonDocument(r.resource).toJson(QJsonDocument::Compact) << '\n';
            else
                out << "resolved " << r.object << ' ' << escaped(id) << ": "
                    << r.resource.value(QStringLiteral("status")).toString() << '\n';
            return 0;
        case ReviewResolution::Kind::NotFound:
            return refused(QStringLiteral("no payment or refund %1").arg(escaped(id)));
        case ReviewResolution::Kind::NotInReview:
            return refused(QStringLiteral("%1 %2 does not need review").arg(r.object, escaped(id)));
        case ReviewResolution::Kind::Busy:
            return refused(QStringLiteral("%1 %2 is being worked on right now; try again").arg(r.object, escaped(id)));
        case ReviewResolution::Kind::BadOutcome:
            return refused(QStringLiteral("a %1 is resolved as %2").arg(r.object, r.object == QLatin1String("refund") ? QStringLiteral("succeeded or failed") : QStringLiteral("succeeded or declined")));
        }
        return refused(QStringLiteral("unexpected answer from the store"));
    }

    ReviewList list;
    if (!await<ReviewList>([&](QObject *ctx, GatewayStore::Reply<ReviewList> reply) {
            store.listNeedsReview(ctx, std::move(reply));
        },
            &list, &error))
        return refused(QStringLiteral("the store failed: %1").arg(error));
    if (p.isSet(json)) {
        QJsonArray data;
        for (const Payment &pay : std::as_const(list.payments))
            data.append(withMerchant(pay.toJson(), pay.merchant));
        for (const Refund &re : std::as_const(list.refunds))
            data.append(withMerchant(re.toJson(), re.merchant));
        out << QJsonDocument(QJsonObject{{QStringLiteral("data"), data}}).toJson(QJsonDocument::Compact) << '\n';
        return 0;
    }
    if (list.payments.isEmpty() && list.refunds.isEmpty()) {
        out << "nothing needs review\n";
        return 0;
    }
    for (const Payment &pay : std::as_const(list.payments)) {
        out << line(pay.id, "payment", pay.merchant, pay.idempotencyKey, pay.amount, pay.currency, pay.createdAt,
            QStringLiteral("order ") + escaped(pay.orderId), pay.description)
            << '\n';
    }
    for (const Refund &re : std::as_const(list.refunds)) {
        out << line(re.id, "refund", re.merchant, re.idempotencyKey, re.amount, re.currency, re.createdAt,
            QStringLiteral("of ") + escaped(re.paymentId), re.reason)
            << '\n';
    }
    return 0;
}

}   // namespace OncePay::Gateway
