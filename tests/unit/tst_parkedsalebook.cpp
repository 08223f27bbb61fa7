// The sale on hold (issue 36) in the journal: a cart parked, listed, recalled exactly as it was
// (once), deleted (a staff action), there again after the journal is reopened, refused when a
// part of its sale is paid or waits, carried by a journal of version 8 migrated, and named in
// the shift's Z report while it stays parked. The journal alone: no network.
#include "journaltest.h"
#include "parkedsalebook.h"
#include "salebook.h"
#include "shiftbook.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

using namespace OncePay;
using namespace JournalTest;

class TestParkedSaleBook final : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void parkListRecallDelete();
    void parkedSaleSurvivesReopening();
    void saleWithAPaidPartIsNotParked();
    void saleWithAPaymentWaitingIsNotParked();
    void declinedSaleIsParkedAndCancelled();
    void version8JournalIsMigrated();
    void zReportNamesTheSalesLeftParked();

private:
    std::unique_ptr<IntentJournal> open();
    static ParkedSaleBook::Park cart();
    Answer<ParkedSale> park(ParkedSaleBook &book, const ParkedSaleBook::Park &request);
    QList<ParkedSale> parked(ParkedSaleBook &book);
    Sale newSale(IntentJournal &j, qint64 total);

    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

namespace {
const QString kCny = QStringLiteral("CNY");

Product product(const QString &code, const QString &name, qint64 price, SaleUnit unit = SaleUnit::Each)
{
    Product p{code, name, name + QStringLiteral("（中）"), Money(price, kCny)};
    p.vatBasisPoints = 1300;
    p.unit = unit;
    return p;
}

// Every part of a cart that must come back as it was.
bool sameCart(const ParkedCart &a, const ParkedCart &b)
{
    if (a.items.size() != b.items.size() || !(a.saleDiscount == b.saleDiscount) || a.taxMode != b.taxMode)
        return false;
    for (qsizetype n = 0; n < a.items.size(); ++n) {
        const SaleItem &x = a.items.at(n);
        const SaleItem &y = b.items.at(n);
        if (!(x.product == y.product) || x.quantity != y.quantity || x.grams != y.grams || x.fixedAmount != y.fixedAmount
            || !(x.discount == y.discount))
            return false;
    }
    return true;
}
}   // namespace

void TestParkedSaleBook::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(QStringLiteral("journal.db"));
}

void TestParkedSaleBook::cleanup()
{
    m_dir.reset();
}

std::unique_ptr<IntentJournal> TestParkedSaleBook::open()
{
    auto j = std::make_unique<IntentJournal>(IntentJournal::Options{m_path});
    TillError error;
    if (!j->open(&error)) {
        qWarning("%s", qPrintable(error.text()));
        return nullptr;
    }
    return j;
}

ParkedSaleBook::Park TestParkedSaleBook::cart()
{
    // Tea x3 with 10 % off its line, apples weighed, a price typed by the cashier, and 5.00 off
    // the whole sale: a percent must come back a percent, a weight a weight.
    ParkedSaleBook::Park p;
    SaleItem tea;
    tea.product = product(QStringLiteral("1001"), QStringLiteral("Tea"), 450);
    tea.quantity = 3;
    tea.discount = Discount{Discount::Kind::Percent, 1000};
    SaleItem apples;
    apples.product = product(QStringLiteral("2001"), QStringLiteral("Apples"), 1200, SaleUnit::Kilogram);
    apples.grams = 532;
    SaleItem cake;
    cake.product = product(QStringLiteral("3001"), QStringLiteral("Cake"), 0);
    cake.product.openPrice = true;
    cake.fixedAmount = 1250;
    p.cart.items = {tea, apples, cake};
    p.cart.saleDiscount = Discount{Discount::Kind::Amount, 500};
    const SalePricing priced = priceItems(p.cart.items, p.cart.saleDiscount, p.cart.taxMode);
    p.total = Money(priced.total, kCny);
    p.itemCount = 5;
    return p;
}

Answer<ParkedSale> TestParkedSaleBook::park(ParkedSaleBook &book, const ParkedSaleBook::Park &request)
{
    return await<ParkedSale>([&](auto reply) {
        book.park(request, this, reply);
    });
}

QList<ParkedSale> TestParkedSaleBook::parked(ParkedSaleBook &book)
{
    return await<QList<ParkedSale>>([&](auto reply) {
        book.parked(this, reply);
    })
        .value;
}

Sale TestParkedSaleBook::newSale(IntentJournal &j, qint64 total)
{
    SaleBook sales(&j);
    const QJsonArray lines{QJsonObject{{QStringLiteral("code"), QStringLiteral("1001")}, {QStringLiteral("unit_price"), total},
        {QStringLiteral("quantity"), 1}}};
    return await<Sale>([&](auto reply) {
        sales.open(Money(total, kCny), lines, this, reply);
    })
        .value;
}

void TestParkedSaleBook::parkListRecallDelete()
{
    auto j = open();
    QVERIFY(j);
    j->setActor(QStringLiteral("Ana"));
    ParkedSaleBook book(j.get());
    const ParkedSaleBook::Park request = cart();
    const auto first = park(book, request);
    VERIFY_OK(first);
    QCOMPARE(first.value.number, QStringLiteral("P1"));
    QCOMPARE(first.value.state, ParkedState::Parked);
    QCOMPARE(first.value.parkedBy, QStringLiteral("Ana"));
    QCOMPARE(first.value.total, request.total);
    QCOMPARE(first.value.itemCount, 5);
    QVERIFY(first.value.parkedAt > 0);
    const auto second = park(book, request);
    VERIFY_OK(second);
    QCOMPARE(second.value.number, QStringLiteral("P2"));

    QList<ParkedSale> list = parked(book);
    QCOMPARE(list.size(), 2);
    QCOMPARE(list.at(0).number, QStringLiteral("P1"));   // oldest first
    QVERIFY(sameCart(list.at(0).parkedCart(), request.cart));

    // Recalled once, exactly as it was; a second recall (a repeated Enter, another window) is refused.
    const auto recalled = await<ParkedSale>([&](auto reply) {
        book.recall(first.value.id, this, reply);
    });
    VERIFY_OK(recalled);
    QCOMPARE(recalled.value.state, ParkedState::Recalled);
    QVERIFY(sameCart(recalled.value.parkedCart(), request.cart));
    QCOMPARE(priceItems(recalled.value.parkedCart().items, recalled.value.parkedCart().saleDiscount, TaxMode::Inclusive).total,
        request.total.minorUnits());
    VERIFY_REFUSED_AS(await<ParkedSale>([&](auto reply) {
        book.recall(first.value.id, this, reply);
    }),
        TillError::Kind::ParkedSaleGone);
    list = parked(book);
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.at(0).number, QStringLiteral("P2"));

    // Deleted: gone from the list, kept as a staff action with its number and total.
    VERIFY_OK(await<ParkedSale>([&](auto reply) {
        book.remove(second.value.id, this, reply);
    }));
    QVERIFY(parked(book).isEmpty());
    VERIFY_REFUSED_AS(await<ParkedSale>([&](auto reply) {
        book.remove(second.value.id, this, reply);
    }),
        TillError::Kind::ParkedSaleGone);
    const auto actions = await<QList<IntentJournal::StaffAction>>([&](auto reply) {
        j->staffActions(this, reply);
    });
    VERIFY_OK(actions);
    QCOMPARE(actions.value.size(), 1);
    QCOMPARE(actions.value.at(0).action, QStringLiteral("delete_parked"));
    QCOMPARE(actions.value.at(0).subject, QStringLiteral("P2"));
    QCOMPARE(actions.value.at(0).staff, QStringLiteral("Ana"));
    QCOMPARE(actions.value.at(0).amount, request.total.minorUnits());
}

void TestParkedSaleBook::parkedSaleSurvivesReopening()
{
    const ParkedSaleBook::Park request = cart();
    {
        auto j = open();
        QVERIFY(j);
        ParkedSaleBook book(j.get());
        VERIFY_OK(park(book, request));
    }
    auto j = open();
    QVERIFY(j);
    ParkedSaleBook book(j.get());
    const QList<ParkedSale> list = parked(book);
    QCOMPARE(list.size(), 1);
    QCOMPARE(list.at(0).number, QStringLiteral("P1"));
    QCOMPARE(list.at(0).total, request.total);
    QVERIFY(sameCart(list.at(0).parkedCart(), request.cart));
}

void TestParkedSaleBook::saleWithAPaidPartIsNotParked()
{
    auto j = open();
    QVERIFY(j);
    const Sale sale = newSale(*j, 2000);
    QVERIFY(sale.isValid());
    Intent cash = newIntent(sale.orderId, 500, Tender::Cash);
    cash.state = IntentState::Succeeded;
    VERIFY_OK(await<Intent>([&](auto reply) {
        j->create(cash, this, reply);
    }));
    ParkedSaleBook book(j.get());
    ParkedSaleBook::Park request = cart();
    request.orderId = sale.orderId;
    const auto refused = park(book, request);
    VERIFY_REFUSED_AS(refused, TillError::Kind::ParkPartlyPaid);
    QCOMPARE(refused.error.args(), QStringList{Money(500, kCny).toDisplayString()});
    QVERIFY(parked(book).isEmpty());
}

void TestParkedSaleBook::saleWithAPaymentWaitingIsNotParked()
{
    auto j = open();
    QVERIFY(j);
    const Sale sale = newSale(*j, 2000);
    VERIFY_OK(await<Intent>([&](auto reply) {
        j->create(newIntent(sale.orderId, 2000), this, reply);   // a card part, queued
    }));
    ParkedSaleBook book(j.get());
    ParkedSaleBook::Park request = cart();
    request.orderId = sale.orderId;
    VERIFY_REFUSED_AS(park(book, request), TillError::Kind::ParkPaymentWaiting);
    QVERIFY(parked(book).isEmpty());
}

void TestParkedSaleBook::declinedSaleIsParkedAndCancelled()
{
    // A card declined, the customer goes for another: the cart is parked, its sale cancelled in
    // the same transaction (never restored to the window at the next start as well).
    auto j = open();
    QVERIFY(j);
    const Sale sale = newSale(*j, 2000);
    const auto card = await<Intent>([&](auto reply) {
        j->create(newIntent(sale.orderId, 2000), this, reply);
    });
    VERIFY_OK(card);
    Intent declined = card.value;
    declined.state = IntentState::Declined;
    declined.declineCode = QStringLiteral("card_declined");
    Attempt a;
    a.startedAt = a.endedAt = 1;
    VERIFY_OK(await<bool>([&](auto reply) {
        j->update(declined, card.value.state, QStringLiteral("test"), a, this, reply);
    }));
    ParkedSaleBook book(j.get());
    ParkedSaleBook::Park request = cart();
    request.orderId = sale.orderId;
    const auto p = park(book, request);
    VERIFY_OK(p);
    QCOMPARE(p.value.fromSale, sale.number);
    SaleBook sales(j.get());
    const auto after = await<Sale>([&](auto reply) {
        sales.find(sale.orderId, this, reply);
    });
    QCOMPARE(after.value.state, SaleState::Cancelled);
    const auto unfinished = await<QList<Sale>>([&](auto reply) {
        sales.unfinished(this, reply);
    });
    QVERIFY(unfinished.value.isEmpty());
}

void TestParkedSaleBook::version8JournalIsMigrated()
{
    {
        auto j = open();
        QVERIFY(j);
    }
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v8"));
        db.setDatabaseName(m_path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral("DROP TABLE parked_sales")));
        QVERIFY(q.exec(QStringLiteral("PRAGMA user_version=8")));
        q.finish();
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("v8"));
    auto j = open();
    QVERIFY(j);
    ParkedSaleBook book(j.get());
    QVERIFY(parked(book).isEmpty());
    VERIFY_OK(park(book, cart()));
    QCOMPARE(parked(book).size(), 1);
}

void TestParkedSaleBook::zReportNamesTheSalesLeftParked()
{
    auto j = open();
    QVERIFY(j);
    j->setActor(QStringLiteral("Ana"));
    ParkedSaleBook book(j.get());
    const ParkedSaleBook::Park request = cart();
    const auto left = park(book, request);
    VERIFY_OK(left);
    const auto recalled = park(book, request);
    VERIFY_OK(recalled);
    VERIFY_OK(await<ParkedSale>([&](auto reply) {
        book.recall(recalled.value.id, this, reply);
    }));
    // A cash sale, so that the shift has something to close.
    const Sale sale = newSale(*j, 300);
    Intent cash = newIntent(sale.orderId, 300, Tender::Cash);
    cash.state = IntentState::Succeeded;
    VERIFY_OK(await<Intent>([&](auto reply) {
        j->create(cash, this, reply);
    }));

    ShiftBook shifts(j.get());
    const auto snapshot = await<ShiftBook::Snapshot>([&](auto reply) {
        shifts.current(this, reply);
    });
    VERIFY_OK(snapshot);
    ShiftBook::Close close;
    close.number = snapshot.value.number;
    close.lastIntentId = snapshot.value.lastIntentId;
    close.currency = kCny;
    close.countedCash = 300;
    const auto closed = await<ShiftReport>([&](auto reply) {
        shifts.close(close, this, reply);
    });
    VERIFY_OK(closed);
    // Only the one still parked, by its number and time, with its items and total.
    const ShiftReport &r = closed.value;
    QCOMPARE(r.parked.size(), 1);
    QCOMPARE(r.parked.at(0).number, left.value.number);
    QCOMPARE(r.parked.at(0).parkedAt, left.value.parkedAt);
    QCOMPARE(r.parked.at(0).parkedBy, QStringLiteral("Ana"));
    QCOMPARE(r.parked.at(0).itemCount, 5);
    QCOMPARE(r.parked.at(0).total, request.total);
    QCOMPARE(r.parkedTotals().count, 1);
    QCOMPARE(r.parkedTotals().amount, request.total.minorUnits());
    QCOMPARE(r.salesTotal(), qint64(300));   // nothing of a parked sale is takings

    // As the journal keeps it and oncepay-ctl prints it, and read back (the past shifts' reprint).
    const auto kept = await<QJsonArray>([&](auto reply) {
        shifts.closedShifts(1, this, reply);
    });
    VERIFY_OK(kept);
    const QJsonObject stored = kept.value.at(0).toObject().value(QStringLiteral("report")).toObject();
    const QJsonObject parkedJson = stored.value(QStringLiteral("parked")).toObject();
    QCOMPARE(parkedJson.value(QStringLiteral("count")).toInt(), 1);
    QCOMPARE(parkedJson.value(QStringLiteral("items")).toArray().at(0).toObject().value(QStringLiteral("number")).toString(),
        left.value.number);
    const std::optional<ShiftReport> back = ShiftReport::fromJson(stored);
    QVERIFY(back);
    QCOMPARE(back->parked.size(), 1);
    QCOMPARE(back->parked.at(0).number, left.value.number);
    QCOMPARE(back->parked.at(0).parkedAt, left.value.parkedAt);
    QCOMPARE(back->parked.at(0).total, request.total);
}

QTEST_GUILESS_MAIN(TestParkedSaleBook)
#include "tst_parkedsalebook.moc"
