// Issue 38: the till's outbox against the real oncepay-office (--demo tokens): the sender
// (OfficeSync) takes a sale paid in two tenders, a refund, a cart thrown away, staff actions and
// a closed shift there, each applied once (the office's own store has every seq once); the same
// journal through `oncepay-ctl office status --json` and `office push` afterwards.
#include "chaosctl.h"
#include "gatewayprocess.h"
#include "intentjournal.h"
#include "officeapi.h"
#include "officeevents.h"
#include "officesync.h"
#include "salebook.h"
#include "shiftbook.h"
#include "testdatabase.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace OncePay;

class TestOfficeOutbox final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void tillRecordsReachTheOfficeOnce();

private:
    template <typename T>
    std::optional<T> await(const std::function<void(IntentJournal::Reply<T>)> &call);
    qint64 waiting(IntentJournal &journal);

    GatewayProcess m_office{GatewayProcess::Program::Office};
    QTemporaryDir m_dir;
};

void TestOfficeOutbox::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QVERIFY2(QFile::exists(qEnvironmentVariable("ONCEPAY_CTL_BIN")), "ONCEPAY_CTL_BIN is not set or does not exist");
    QVERIFY2(m_office.start(), m_office.failureMessage().constData());
}

template <typename T>
std::optional<T> TestOfficeOutbox::await(const std::function<void(IntentJournal::Reply<T>)> &call)
{
    auto answer = std::make_shared<std::optional<T>>();
    auto done = std::make_shared<bool>(false);
    call([answer, done](bool ok, const TillError &error, T value) {
        *done = true;
        if (ok)
            *answer = std::move(value);
        else
            qWarning("%s", qPrintable(error.text()));
    });
    if (!QTest::qWaitFor([done] {
            return *done;
        },
            20000))
        qWarning("the journal did not answer");
    return *answer;
}

qint64 TestOfficeOutbox::waiting(IntentJournal &journal)
{
    const auto s = await<OfficeEvents::Status>([&](auto reply) {
        journal.transact<OfficeEvents::Status>(
            this, [](SqlTx &tx) {
                return OfficeEvents::status(tx);
            },
            reply);
    });
    return s ? s->waiting : -1;
}

void TestOfficeOutbox::tillRecordsReachTheOfficeOnce()
{
    const QString path = m_dir.filePath(QStringLiteral("till.db"));
    qint64 events = 0;
    {
        IntentJournal journal(IntentJournal::Options{path});
        TillError error;
        QVERIFY2(journal.open(&error), qPrintable(error.text()));
        journal.setActor(QStringLiteral("Li Na"));
        SaleBook book(&journal);
        const QJsonArray lines{QJsonObject{{QStringLiteral("code"), QStringLiteral("6901234500011")},
            {QStringLiteral("name"), QStringLiteral("Green tea")}, {QStringLiteral("name_zh"), QStringLiteral("绿茶")},
            {QStringLiteral("category"), QStringLiteral("Drinks")}, {QStringLiteral("unit_price"), 450},
            {QStringLiteral("quantity"), 2}, {QStringLiteral("total"), 900}, {QStringLiteral("vat"), 1300},
            {QStringLiteral("amount"), 900}}};
        const auto sale = await<Sale>([&](auto reply) {
            book.open(Money(900, QStringLiteral("CNY")), lines, this, reply);
        });
        QVERIFY(sale);
        for (const qint64 part : {400, 500}) {
            Intent cash;
            cash.key = QStringLiteral("cash-%1").arg(part);
            cash.orderId = sale->orderId;
            cash.amount = Money(part, QStringLiteral("CNY"));
            cash.tender = Tender::Cash;
            cash.state = IntentState::Succeeded;
            QVERIFY(await<Intent>([&](auto reply) {
                journal.create(cash, this, reply);
            }));
        }
        Intent refund;
        refund.kind = IntentKind::Refund;
        refund.key = QStringLiteral("ref-cash-500");
        refund.paymentKey = QStringLiteral("cash-500");
        refund.orderId = sale->orderId;
        refund.tender = Tender::Cash;
        refund.state = IntentState::Succeeded;
        refund.amount = Money(450, QStringLiteral("CNY"));
        refund.reason = QStringLiteral("one tea back");
        QVERIFY(await<Intent>([&](auto reply) {
            journal.create(refund, this, reply);
        }));
        QVERIFY(await<Sale>([&](auto reply) {
            book.discard(Money(300, QStringLiteral("CNY")), lines, this, reply);
        }));
        QVERIFY(await<bool>([&](auto reply) {
            journal.recordStaffAction({0, {}, QStringLiteral("sign_in"), {}, 0, {}, QStringLiteral("cashier")}, this, reply);
        }));
        QVERIFY(await<bool>([&](auto reply) {
            journal.recordStaffAction({0, {}, QStringLiteral("open_drawer"), {}, 0, QStringLiteral("Wang"), QStringLiteral("change")}, this, reply);
        }));
        ShiftBook shifts(&journal);
        const auto snapshot = await<ShiftBook::Snapshot>([&](auto reply) {
            shifts.current(this, reply);
        });
        QVERIFY(snapshot);
        ShiftBook::Close close;
        close.number = snapshot->number;
        close.lastIntentId = snapshot->lastIntentId;
        close.currency = QStringLiteral("CNY");
        close.openingFloat = 10'000;
        close.countedCash = 10'450;
        QVERIFY(await<ShiftReport>([&](auto reply) {
            shifts.close(close, this, reply);
        }));
        events = waiting(journal);
        QCOMPARE(events, qint64(6));   // sale, refund, discard, staff, cash, shift

        NetworkTransport transport(1);
        OfficeSync::Config config;
        config.office = m_office.baseUrl();
        config.token = QString::fromLatin1(OfficeApi::kTill1);
        config.till = QStringLiteral("1");
        OfficeSync sync(&journal, &transport, config);
        QSignalSpy refused(&sync, &OfficeSync::refused);
        sync.start();
        QTRY_VERIFY_WITH_TIMEOUT(refused.size() > 0 || waiting(journal) == 0, 20000);
        QVERIFY2(refused.isEmpty(), refused.isEmpty() ? "" : qPrintable(refused.at(0).at(0).toString()));
    }
    HttpClient client(m_office.baseUrl(), OfficeApi::kTill1);
    const OfficeApi::Position p = OfficeApi::position(client, QStringLiteral("1"));
    QVERIFY2(p.ok && p.lastSeq == events, p.raw.constData());
    const OfficeApi::StoredEvents stored = OfficeApi::storedEvents(m_office.database(), QStringLiteral("1"));
    QVERIFY2(stored.ok, qPrintable(stored.error));
    QCOMPARE(stored.rows, events);
    QCOMPARE(stored.distinctSeqs, events);
    // The owner's reports (issue 39) from the till's own records: the day's sale and refund, and
    // the shift's Z report equal to the sum of its events.
    HttpClient owner(m_office.baseUrl(), OfficeApi::kOwner);
    const QString days = QStringLiteral("from=%1&to=%2").arg(QDate::currentDate().addDays(-1).toString(Qt::ISODate), QDate::currentDate().addDays(1).toString(Qt::ISODate));
    const HttpReply sales = owner.get(QStringLiteral("/v1/reports/sales?group_by=tender&") + days);
    QCOMPARE(sales.status, 200);
    const QJsonObject totals = sales.object().value(QStringLiteral("totals")).toObject();
    QCOMPARE(totals.value(QStringLiteral("gross")).toInteger(), 900);
    QCOMPARE(totals.value(QStringLiteral("refunds")).toInteger(), 450);
    QCOMPARE(totals.value(QStringLiteral("net")).toInteger(), 450);
    const HttpReply shifts = owner.get(QStringLiteral("/v1/reports/shifts?") + days);
    const QJsonArray closed = shifts.object().value(QStringLiteral("shifts")).toArray();
    QVERIFY2(closed.size() == 1 && closed.at(0).toObject().value(QStringLiteral("agrees")).toBool(), shifts.body.constData());

    // The same journal through oncepay-ctl: nothing waits; what comes later goes with office push.
    const QStringList office{QStringLiteral("--db"), path, QStringLiteral("--office"), m_office.baseUrl().toString(),
        QStringLiteral("--office-token"), QString::fromLatin1(OfficeApi::kTill1)};
    Chaos::Ctl status(office + QStringList{QStringLiteral("office"), QStringLiteral("status"), QStringLiteral("--json")});
    status.start();
    QVERIFY2(status.waitFinished(30'000) && status.exitCode() == 0, status.describe().constData());
    const QJsonObject s = status.json();
    QCOMPARE(s.value(QStringLiteral("office")).toString(), m_office.baseUrl().toString());
    QCOMPARE(s.value(QStringLiteral("waiting")).toInt(), 0);
    QCOMPARE(s.value(QStringLiteral("last_sent_seq")).toInteger(), events);
    QVERIFY(s.contains(QStringLiteral("oldest_waiting_at")) && s.value(QStringLiteral("oldest_waiting_at")).isNull());
    {
        IntentJournal journal(IntentJournal::Options{path});
        TillError error;
        QVERIFY2(journal.open(&error), qPrintable(error.text()));
        SaleBook book(&journal);
        for (int n = 0; n < 3; ++n)
            QVERIFY(await<Sale>([&](auto reply) {
                book.discard(Money(100 + n, QStringLiteral("CNY")), {}, this, reply);
            }));
    }
    Chaos::Ctl before(office + QStringList{QStringLiteral("office"), QStringLiteral("status"), QStringLiteral("--json")});
    before.start();
    QVERIFY2(before.waitFinished(30'000) && before.exitCode() == 0, before.describe().constData());
    QCOMPARE(before.json().value(QStringLiteral("waiting")).toInt(), 3);
    QVERIFY(!before.json().value(QStringLiteral("oldest_waiting_at")).toString().isEmpty());
    // No office given: refused, one line.
    Chaos::Ctl none({QStringLiteral("--db"), path, QStringLiteral("office"), QStringLiteral("push")});
    none.start();
    QVERIFY2(none.waitFinished(30'000) && none.exitCode() == 1, none.describe().constData());
    QCOMPARE(none.err().trimmed().count('\n'), 0);
    // An office that cannot be reached: 4, still waiting.
    Chaos::Ctl away({QStringLiteral("--db"), path, QStringLiteral("--office"), QStringLiteral("http://127.0.0.1:9"),
        QStringLiteral("--office-token"), QStringLiteral("x"), QStringLiteral("office"), QStringLiteral("push"),
        QStringLiteral("--wait"), QStringLiteral("1")});
    away.start();
    QVERIFY2(away.waitFinished(30'000) && away.exitCode() == 4, away.describe().constData());
    Chaos::Ctl push(office + QStringList{QStringLiteral("office"), QStringLiteral("push"), QStringLiteral("--wait"), QStringLiteral("20")});
    push.start();
    QVERIFY2(push.waitFinished(30'000) && push.exitCode() == 0, push.describe().constData());
    QCOMPARE(push.json().value(QStringLiteral("waiting")).toInt(), 0);
    QCOMPARE(push.json().value(QStringLiteral("last_sent_seq")).toInteger(), events + 3);
    const OfficeApi::StoredEvents after = OfficeApi::storedEvents(m_office.database(), QStringLiteral("1"));
    QCOMPARE(after.rows, events + 3);
    QCOMPARE(after.distinctSeqs, events + 3);
    // Another till's token cannot push this till's events: refused, 1.
    Chaos::Ctl other({QStringLiteral("--db"), path, QStringLiteral("--office"), m_office.baseUrl().toString(),
        QStringLiteral("--office-token"), QString::fromLatin1(OfficeApi::kTill2), QStringLiteral("office"),
        QStringLiteral("push"), QStringLiteral("--wait"), QStringLiteral("5")});
    other.start();
    QVERIFY2(other.waitFinished(30'000), other.describe().constData());
    QCOMPARE(other.exitCode(), 0);   // nothing waits: nothing is sent, nothing refused
}

QTEST_GUILESS_MAIN(TestOfficeOutbox)
#include "tst_officeoutbox.moc"
