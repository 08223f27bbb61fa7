// oncepay-bench-shift: how long a shift's reconciliation takes (DESIGN.md / issue 10: a shift of
// 10,000 payments in under 2 s, paging the gateway's list).
//
// Everything runs in this process, each part on its own thread as separate programs would be: a
// demo GatewayServer (SQLite in a fresh directory on the disk given by --dir) and the till's core
// on the main thread. N card payments are made through the till's SyncEngine (so the journal and
// the gateway hold the same shift), then, timed on the main thread:
//  - reading the open shift from the journal (ShiftBook::current) and computing its report;
//  - ShiftCheck: the terminal learnt from the gateway, the gateway's list of the shift paged
//    500 at a time (GET /v1/payments?terminal_id=&created_after=&limit=500&cursor=), payments of
//    earlier shifts left out, matchShift(); --rounds times, without the bank (a production
//    gateway has no acquirer ledger), then once with the demo's acquirer ledgers (past 1,000
//    charges the ledger is asked key by key, --bank-concurrency at a time).
// --refunds R: the first R payments are sales of two lines (13 % and 9 %) and each gets one item
// back by a card refund with its refund lines, so that reading the shift also reads what came
// back (the Z report's tax per rate, issue 23).
// Exit 1 if any row of the reconciliation is not "matched".

#include "bench_util.h"

#include "gatewayclient.h"
#include "gateway/gatewayserver.h"
#include "intentjournal.h"
#include "salebook.h"
#include "shiftbook.h"
#include "shiftcheck.h"
#include "syncengine.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <cstdio>
#include <functional>

using namespace OncePay;

namespace {

constexpr char kToken[] = "sk_test_demo_till1";

void onThread(QObject *anchor, const std::function<void()> &f)
{
    QMetaObject::invokeMethod(anchor, f, Qt::BlockingQueuedConnection);
}

// A demo gateway on a thread of its own, on a fresh database in `dir`.
class GatewayHost final
{
public:
    ~GatewayHost()
    {
        if (m_anchor)
            onThread(m_anchor, [this] {
                delete m_server;
            });
        m_thread.quit();
        m_thread.wait();
        delete m_anchor;
    }
    bool start(const QString &dir, QString *error)
    {
        m_thread.setObjectName(QStringLiteral("gateway"));
        m_thread.start();
        m_anchor = new QObject;
        m_anchor->moveToThread(&m_thread);
        bool ok = false;
        onThread(m_anchor, [&] {
            Gateway::GatewayServer::Config c;
            c.dbPath = QDir(dir).filePath(QStringLiteral("gateway.db"));
            c.demo = true;
            m_server = new Gateway::GatewayServer(c);
            ok = m_server->start(error);
            m_port = m_server->port();
        });
        return ok;
    }
    QUrl url() const { return QUrl(QStringLiteral("http://127.0.0.1:%1").arg(m_port)); }

private:
    QThread m_thread;
    QObject *m_anchor = nullptr;
    Gateway::GatewayServer *m_server = nullptr;
    quint16 m_port = 0;
};

// Runs the event loop until `done` says so.
void waitFor(const std::function<bool()> &done)
{
    QEventLoop loop;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &loop, [&] {
        if (done())
            loop.quit();
    });
    tick.start(1);
    if (!done())
        loop.exec();
}

}   // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("oncepay.*.info=false\nqt.*.warning=false"));
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("A shift's reconciliation with the gateway, timed."));
    p.addHelpOption();
    p.addOptions({{QStringLiteral("dir"), QStringLiteral("Directory for the databases (default: current)."), QStringLiteral("PATH"), QStringLiteral(".")},
        {QStringLiteral("count"), QStringLiteral("Payments in the shift (default 10000)."), QStringLiteral("N"), QStringLiteral("10000")},
        {QStringLiteral("rounds"), QStringLiteral("Reconciliations without the bank (default 3)."), QStringLiteral("R"), QStringLiteral("3")},
        {QStringLiteral("refunds"), QStringLiteral("Of the payments, sales that get one item back by a refund (default 0)."), QStringLiteral("N"), QStringLiteral("0")},
        {QStringLiteral("bank-concurrency"), QStringLiteral("Ledger questions in flight (default 16)."), QStringLiteral("C"), QStringLiteral("16")}});
    if (!p.parse(QCoreApplication::arguments())) {
        std::fprintf(stderr, "oncepay-bench-shift: %s (see --help)\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    const int count = bench::parseValue("--count", p.value(QStringLiteral("count")).toStdString(), 1, 1'000'000);
    const int rounds = bench::parseValue("--rounds", p.value(QStringLiteral("rounds")).toStdString(), 1, 100);
    const int refunds = bench::parseValue("--refunds", p.value(QStringLiteral("refunds")).toStdString(), 0, count);
    const int bankConcurrency = bench::parseValue("--bank-concurrency", p.value(QStringLiteral("bank-concurrency")).toStdString(), 1, 256);
    QTemporaryDir dir(QDir(p.value(QStringLiteral("dir"))).filePath(QStringLiteral("oncepay-bench-shift-XXXXXX")));
    if (!dir.isValid()) {
        std::fprintf(stderr, "oncepay-bench-shift: cannot create a directory in %s\n", qPrintable(p.value(QStringLiteral("dir"))));
        return 1;
    }

    QString error;
    GatewayHost gateway;
    if (!gateway.start(dir.path(), &error)) {
        std::fprintf(stderr, "oncepay-bench-shift: gateway: %s\n", qPrintable(error));
        return 1;
    }
    IntentJournal journal(IntentJournal::Options{dir.filePath(QStringLiteral("till.db"))});
    TillError refusal;
    if (!journal.open(&refusal)) {
        std::fprintf(stderr, "oncepay-bench-shift: journal: %s\n", qPrintable(refusal.text()));
        return 1;
    }
    GatewayClient client(gateway.url(), QString::fromLatin1(kToken), 30'000, nullptr, 36);
    SyncEngine::Config ec;
    ec.maxInFlight = 32;
    SyncEngine engine(&journal, &client, ec);
    bool started = false;
    engine.start(&engine, [&](bool, const QString &) {
        started = true;
    });
    waitFor([&] {
        return started;
    });

    // The shift: N card payments made by the till, the first R of them sales of two lines.
    QElapsedTimer t;
    t.start();
    SaleBook sales(&journal);
    QList<Sale> opened;
    for (int i = 0; i < refunds; ++i) {
        auto line = [](qint64 price, int vat) {
            return QJsonObject{{QStringLiteral("code"), QStringLiteral("x")}, {QStringLiteral("unit_price"), price},
                {QStringLiteral("quantity"), 1}, {QStringLiteral("total"), price}, {QStringLiteral("vat"), vat},
                {QStringLiteral("amount"), price}};
        };
        sales.open(Money(1500, QStringLiteral("CNY")), QJsonArray{line(1000, 1300), line(500, 900)}, &engine,
            [&](bool ok, const TillError &e, const Sale &s) {
                if (!ok && error.isEmpty())
                    error = e.text();
                opened.append(s);
            });
    }
    waitFor([&] {
        return opened.size() == refunds;
    });
    int stored = 0;
    QList<Intent> paidSales;
    for (int i = 0; i < count; ++i) {
        const bool sale = i < refunds;
        engine.pay(sale ? opened.at(i).orderId : QStringLiteral("bench-%1").arg(i),
            Money(sale ? 1500 : 100 + i % 9000, QStringLiteral("CNY")), QStringLiteral("tok_visa"), &engine,
            [&, sale](bool ok, const TillError &e, const Intent &intent) {
                if (!ok && error.isEmpty())
                    error = e.text();
                if (sale)
                    paidSales.append(intent);
                ++stored;
            });
    }
    waitFor([&] {
        return stored == count && engine.waitingCount() == 0;
    });
    int refunded = 0;
    for (const Intent &payment : std::as_const(paidSales)) {
        engine.refund(payment.key, Money(1000, QStringLiteral("CNY")), QStringLiteral("bench"), &engine,
            [&, payment](bool ok, const TillError &e, const Intent &refund) {
                if (!ok) {
                    error = e.text();
                    ++refunded;
                    return;
                }
                sales.recordRefundLines(refund.key, payment.orderId, {{0, 1}}, &engine, [&](bool, const TillError &, bool) {
                    ++refunded;
                });
            });
    }
    waitFor([&] {
        return refunded == refunds && engine.waitingCount() == 0;
    });
    if (!error.isEmpty()) {
        std::fprintf(stderr, "oncepay-bench-shift: a payment was refused: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("shift of %d card payments (%d of them sales with an item refunded) made through the till in %.1f s\n",
        count, refunds, t.elapsed() / 1000.0);

    ShiftBook book(&journal);
    int failures = 0;
    auto round = [&](bool bank) {
        QElapsedTimer total;
        total.start();
        ShiftBook::Snapshot snapshot;
        bool read = false;
        book.current(&app, [&](bool, const TillError &, ShiftBook::Snapshot s) {
            snapshot = std::move(s);
            read = true;
        });
        waitFor([&] {
            return read;
        });
        const qint64 readMs = total.elapsed();
        QElapsedTimer r;
        r.start();
        const ShiftReport report = ShiftReport::compute(snapshot.reportInput(QStringLiteral("CNY"), std::nullopt));
        const qint64 reportMs = r.elapsed();
        ShiftCheck::Options options;
        options.askBank = bank;
        options.concurrency = bankConcurrency;
        ShiftCheck reconciler(&client, &book, options);
        ShiftCheck::Result result;
        bool done = false;
        r.restart();
        reconciler.run(snapshot, &app, [&](bool ok, const QString &e, const ShiftCheck::Result &res) {
            if (!ok)
                error = e;
            result = res;
            done = true;
        });
        waitFor([&] {
            return done;
        });
        const qint64 reconcileMs = r.elapsed();
        // A row per payment, per refund, and per refunded payment's refunded total.
        const int rows = count + 2 * refunds;
        int matched = 0;
        for (const ShiftFinding &f : result.findings)
            matched += f.kind == ShiftFinding::Kind::Matched && !f.needsAction();
        if (!error.isEmpty() || matched != rows) {
            ++failures;
            std::fprintf(stderr, "oncepay-bench-shift: %d of %d rows matched (%s)\n", matched, rows, qPrintable(error));
        }
        // The items that came back are off the 13 % rate: each sale left 5.00 at 9 % and nothing at 13 %.
        qint64 gross13 = 0;
        for (const TaxBand &b : report.taxBands)
            gross13 += b.vatBasisPoints == 1300 ? b.gross : 0;
        if (gross13 != 0) {
            ++failures;
            std::fprintf(stderr, "oncepay-bench-shift: 13 %% still holds %lld after the returns\n", gross13);
        }
        std::printf("%-13s journal read %4lld ms, report %3lld ms, reconciliation %5lld ms (%d pages, %d listed, %d rows, "
                    "%d matched), total %5lld ms; sales %s\n",
            bank ? "with bank:" : "gateway only:", readMs, reportMs, reconcileMs, result.pages, result.listed,
            int(result.findings.size()), matched, total.elapsed(),
            qPrintable(report.money(report.salesTotal()).toDecimalString()));
        std::fflush(stdout);
    };
    for (int i = 0; i < rounds; ++i)
        round(false);
    round(true);
    return failures == 0 ? 0 : 1;
}
