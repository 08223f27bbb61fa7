// oncepay-bench-outbox (issue 38): what the office's outbox costs the sale's commit at the till.
// The commit that ends a sale stores its last tender and marks the sale paid; with the outbox it
// also builds the sale's event (its lines, tenders, totals) and appends it, in the same
// transaction. Three ways, in alternating blocks on one journal (the disk changes speed within
// seconds on a shared machine):
//   without  the commit's own SQL (the tender's row and journal line, the sale read, marked paid)
//   with     the same and OfficeEvents::saleEnded: the only difference is the event (--event:
//            or only its JSON built, or only a tiny event appended)
//   create   IntentJournal::create of the cash tender that pays the sale: the till's real path
// Each sale has `--lines` lines. Latency from the call to its callback (synchronous=FULL).
#include "bench_util.h"

#include "intentjournal.h"
#include "journalschema.h"
#include "officeevents.h"
#include "salebook.h"
#include "timeutil.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonObject>
#include <QSqlQuery>
#include <QTemporaryDir>

#include <cstdio>

using namespace OncePay;

namespace {

// --event: the whole event (the default), or one of its halves, to see where its cost lies:
// build-only builds its JSON and appends nothing, append-only appends a tiny one.
enum class EventPart {
    Whole,
    BuildOnly,
    AppendOnly
};
EventPart g_event = EventPart::Whole;

enum class Way {
    Without,
    With,
    Create
};

QJsonArray linesOf(int count)
{
    QJsonArray lines;
    for (int n = 0; n < count; ++n) {
        lines.append(QJsonObject{{QStringLiteral("code"), QStringLiteral("69012345%1").arg(n, 5, 10, QLatin1Char('0'))},
            {QStringLiteral("name"), QStringLiteral("Item %1").arg(n)}, {QStringLiteral("name_zh"), QStringLiteral("商品%1").arg(n)},
            {QStringLiteral("category"), QStringLiteral("Grocery")}, {QStringLiteral("unit_price"), 450},
            {QStringLiteral("quantity"), 2}, {QStringLiteral("total"), 900}, {QStringLiteral("vat"), n % 2 ? 900 : 1300},
            {QStringLiteral("amount"), 900}});
    }
    return lines;
}

// The transaction that ends the sale, without the till's code around it: the cash tender's row
// and journal line, the sale read with its intents and marked paid; `event`: its event too.
bool endSale(SqlTx &tx, const QString &orderId, qint64 amount, const QString &key, bool event)
{
    const qint64 now = nowMs();
    tx.exec(QStringLiteral("INSERT INTO intents (idem_key, kind, order_id, amount, currency, tender, payment_method, state,"
                           " created_at, updated_at) VALUES (?, 'payment', ?, ?, 'CNY', 'cash', '', 'succeeded', ?, ?)"),
        {key, orderId, amount, now, now});
    JournalSchema::appendJournal(tx, key, now, {}, QStringLiteral("succeeded"), QStringLiteral("created"));
    std::optional<Sale> sale = SaleBook::read(tx, orderId);
    if (!sale || !positionOf(*sale).covered)
        return false;
    tx.exec(QStringLiteral("UPDATE sales SET state = 'paid', updated_at = ? WHERE order_id = ?"), {now, orderId});
    if (event) {
        sale->state = SaleState::Paid;
        if (g_event == EventPart::BuildOnly) {
            const QJsonObject d = OfficeEvents::saleData(*sale);
            if (d.isEmpty())
                return false;
        } else if (g_event == EventPart::AppendOnly) {
            OfficeEvents::append(tx, QStringLiteral("sale"), now, QJsonObject{{QStringLiteral("x"), 1}});
        } else {
            OfficeEvents::saleEnded(tx, *sale, now);
        }
    }
    return true;
}

struct Block
{
    std::vector<bench::Nanos> samples;
    int failures = 0;
};

// `count` sales, one at a time: each opened (not timed), then its ending commit timed.
void run(IntentJournal &journal, SaleBook &book, Way way, int count, const QJsonArray &lines, qint64 &serial, Block *out)
{
    const qint64 total = 900LL * lines.size();
    for (int n = 0; n < count; ++n) {
        QEventLoop loop;
        Sale sale;
        book.open(Money(total, QStringLiteral("CNY")), lines, &loop, [&](bool ok, const TillError &, const Sale &s) {
            if (ok)
                sale = s;
            loop.quit();
        });
        loop.exec();
        const QString key = QStringLiteral("bench-cash-%1").arg(++serial);
        const bench::Nanos t0 = bench::nowNs();
        auto done = [&, t0](bool ok) {
            out->samples.push_back(bench::nowNs() - t0);
            out->failures += ok ? 0 : 1;
            loop.quit();
        };
        if (way == Way::Create) {
            Intent cash;
            cash.key = key;
            cash.orderId = sale.orderId;
            cash.amount = Money(total, QStringLiteral("CNY"));
            cash.tender = Tender::Cash;
            cash.state = IntentState::Succeeded;
            journal.create(cash, &loop, [done](bool ok, const TillError &, const Intent &) {
                done(ok);
            });
        } else {
            const bool event = way == Way::With;
            const QString orderId = sale.orderId;
            journal.transact<bool>(
                &loop, [orderId, total, key, event](SqlTx &tx) {
                    return endSale(tx, orderId, total, key, event);
                },
                [done](bool ok, const TillError &, bool ended) {
                    done(ok && ended);
                });
        }
        loop.exec();
    }
}

double us(bench::Nanos ns)
{
    return double(ns) / 1e3;
}

}   // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser p;
    p.setApplicationDescription(QStringLiteral("The office outbox's cost on the sale's commit at the till."));
    p.addHelpOption();
    p.addOptions({{QStringLiteral("dir"), QStringLiteral("Directory on the disk to measure (default: current)."), QStringLiteral("PATH"), QStringLiteral(".")},
        {QStringLiteral("count"), QStringLiteral("Sales per way (default 2000)."), QStringLiteral("N"), QStringLiteral("2000")},
        {QStringLiteral("lines"), QStringLiteral("Lines per sale (default 5)."), QStringLiteral("N"), QStringLiteral("5")},
        {QStringLiteral("event"), QStringLiteral("whole (default), build-only (its JSON, not appended) or append-only (a tiny one)."), QStringLiteral("PART"), QStringLiteral("whole")}});
    if (!p.parse(QCoreApplication::arguments())) {
        std::fprintf(stderr, "oncepay-bench-outbox: %s (see --help)\n", qPrintable(p.errorText()));
        return 2;
    }
    if (p.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(p.helpText()), stdout);
        return 0;
    }
    const int count = bench::parseValue("--count", p.value(QStringLiteral("count")).toStdString(), 10, 10'000'000);
    const QString part = p.value(QStringLiteral("event"));
    if (part == QLatin1String("build-only"))
        g_event = EventPart::BuildOnly;
    else if (part == QLatin1String("append-only"))
        g_event = EventPart::AppendOnly;
    else if (part != QLatin1String("whole")) {
        std::fprintf(stderr, "oncepay-bench-outbox: --event is whole, build-only or append-only\n");
        return 2;
    }
    const int lineCount = bench::parseValue("--lines", p.value(QStringLiteral("lines")).toStdString(), 1, 1000);
    QTemporaryDir dir(QDir(p.value(QStringLiteral("dir"))).filePath(QStringLiteral("oncepay-bench-outbox-XXXXXX")));
    if (!dir.isValid()) {
        std::fprintf(stderr, "oncepay-bench-outbox: cannot create a directory: %s\n", qPrintable(dir.errorString()));
        return 1;
    }
    IntentJournal journal({dir.filePath(QStringLiteral("journal.db"))});
    TillError error;
    if (!journal.open(&error)) {
        std::fprintf(stderr, "oncepay-bench-outbox: %s\n", qPrintable(error.text()));
        return 1;
    }
    SaleBook book(&journal);
    const QJsonArray lines = linesOf(lineCount);
    qint64 serial = 0;
    Block warm;
    run(journal, book, Way::With, 50, lines, serial, &warm);
    Block blocks[3];
    const int rounds = 10;
    for (int r = 0; r < rounds; ++r) {
        for (Way way : {Way::Without, Way::With, Way::Create})
            run(journal, book, way, count / rounds, lines, serial, &blocks[int(way)]);
    }
    journal.close();
    const char *names[] = {"without the event", "with the event   ", "create (the till)"};
    double p50s[3] = {};
    for (int w = 0; w < 3; ++w) {
        Block &b = blocks[w];
        std::sort(b.samples.begin(), b.samples.end());
        double sum = 0;
        for (bench::Nanos s : b.samples)
            sum += double(s);
        p50s[w] = us(bench::percentile(b.samples, 0.50));
        std::printf("%s  %6zu sales  mean %7.0f us  p50 %7.0f us  p90 %7.0f us  p99 %7.0f us%s\n", names[w], b.samples.size(),
            sum / 1e3 / double(std::max<size_t>(1, b.samples.size())), p50s[w], us(bench::percentile(b.samples, 0.90)),
            us(bench::percentile(b.samples, 0.99)), b.failures ? "  FAILURES" : "");
    }
    std::printf("the event adds %.1f%% to the sale's commit (p50; target <= 10%%), %d lines a sale\n",
        (p50s[1] / std::max(1.0, p50s[0]) - 1.0) * 100.0, lineCount);
    return blocks[0].failures + blocks[1].failures + blocks[2].failures ? 1 : 0;
}
