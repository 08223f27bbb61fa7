#include "salecommands.h"

#include "catalog.h"
#include "catalogcommands.h"
#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"
#include "walletcode.h"
#include "followintent.h"
#include "salebook.h"
#include "saleitem.h"
#include "tillsession.h"

#include <QJsonArray>
#include <QJsonObject>

#include <cmath>

namespace OncePay::Ctl {

namespace {

struct TenderSpec
{
    Tender kind = Tender::Card;
    QString token = QStringLiteral("tok_visa");
    std::optional<Money> amount;   // none: what remains
};

// card[:AMOUNT], card/TOKEN[:AMOUNT], wallet/CODE[:AMOUNT], cash[:AMOUNT]; AMOUNT in major units.
std::optional<TenderSpec> parseTender(const QString &text, const QString &currency, QString *error)
{
    TenderSpec t;
    const QString kind = text.section(QLatin1Char(':'), 0, 0);
    const QString amount = text.section(QLatin1Char(':'), 1);
    if (kind == QLatin1String("cash")) {
        t.kind = Tender::Cash;
        t.token.clear();
    } else if (kind == QLatin1String("card")) {
    } else if (kind.startsWith(QLatin1String("card/")) && kind.size() > 5) {
        t.token = kind.mid(5);
    } else if (kind.startsWith(QLatin1String("wallet/"))) {
        // The customer's payment code, scanned from the phone (issue 26): sent as the wallet method.
        if (walletBrandOf(QStringView(kind).mid(7)).isEmpty()) {
            *error = QStringLiteral("--tender: \"%1\" is not a payment code (18 digits starting 10 to 15 or 25 to 30)").arg(kind.mid(7));
            return std::nullopt;
        }
        t.token = QStringLiteral("wallet:") + kind.mid(7);
    } else {
        *error = QStringLiteral("--tender: \"%1\" is not card[:AMOUNT], card/TOKEN[:AMOUNT], wallet/CODE[:AMOUNT] or cash[:AMOUNT]").arg(text);
        return std::nullopt;
    }
    if (text.contains(QLatin1Char(':'))) {
        t.amount = Money::parse(amount, currency);
        if (!t.amount || t.amount->minorUnits() < 1) {
            *error = QStringLiteral("--tender: \"%1\" is not an amount in %2 above 0").arg(amount, currency);
            return std::nullopt;
        }
    }
    return t;
}

std::optional<QList<TenderSpec>> parseTenders(const QStringList &texts, const QString &currency, int *rc)
{
    QList<TenderSpec> out;
    for (const QString &text : texts) {
        QString error;
        const auto t = parseTender(text, currency, &error);
        if (!t) {
            *rc = fail(Usage, error);
            return std::nullopt;
        }
        out.append(*t);
    }
    if (out.isEmpty()) {
        *rc = fail(Usage, QStringLiteral("at least one --tender is needed"));
        return std::nullopt;
    }
    return out;
}

// Runs one asynchronous call of the journal and waits for its answer.
template <typename T, typename Call>
bool await(Call call, T *value, QString *error)
{
    bool done = false;
    bool ok = false;
    EventWait wait([&] {
        return done;
    });
    call(wait.context(), [&](bool o, const TillError &e, T v) {
        done = true;
        ok = o;
        *error = e.text();
        *value = std::move(v);
        wait.recheck();
    });
    wait.exec();
    return ok;
}

Sale readSale(SaleBook &book, const QString &numberOrOrderId, QString *error)
{
    Sale sale;
    if (!await<Sale>([&](QObject *context, auto reply) {
            book.find(numberOrOrderId, context, reply);
        },
            &sale, error))
        return {};
    if (!sale.isValid())
        *error = QStringLiteral("there is no sale %1 in this journal").arg(numberOrOrderId);
    return sale;
}

QJsonObject saleJson(const Sale &sale)
{
    const SalePosition p = positionOf(sale);
    // Net, tax and gross per VAT rate, as the receipt shows them.
    QJsonArray tax;
    for (const TaxBand &b : pricingOfLines(sale.lines).bands) {
        tax.append(QJsonObject{{QStringLiteral("vat"), b.vatBasisPoints / 100.0}, {QStringLiteral("net"), b.net},
            {QStringLiteral("tax"), b.tax}, {QStringLiteral("gross"), b.gross}});
    }
    QJsonArray tenders;
    for (const Intent &part : sale.intents) {
        if (part.isRefund())
            continue;
        // A wallet payment goes through the gateway as a card does; scripts see its own kind.
        QJsonObject t{{QStringLiteral("kind"), part.isWallet() ? QStringLiteral("wallet") : tenderName(part.tender)},
            {QStringLiteral("amount"), part.amount.minorUnits()}};
        if (part.isWallet() && !part.cardBrand.isEmpty())
            t.insert(QStringLiteral("brand"), part.cardBrand);
        // What the till gave back for this part by itself: cash handed back, or a card refund.
        const Intent *back = nullptr;
        for (const Intent &r : sale.intents) {
            if (r.isRefund() && r.key == autoRefundKey(part.key))
                back = &r;
        }
        if (part.isCash()) {
            t.insert(QStringLiteral("state"), back && back->state == IntentState::Succeeded ? QStringLiteral("handed_back") : QStringLiteral("taken"));
        } else {
            t.insert(QStringLiteral("state"), tenderStateName(part));
            t.insert(QStringLiteral("key"), part.key);
            t.insert(QStringLiteral("given_up"), part.givenUpAt > 0);
            if (back) {
                t.insert(QStringLiteral("refund_key"), back->key);
                t.insert(QStringLiteral("refund_state"), intentStateName(back->state));
            }
        }
        tenders.append(t);
    }
    return QJsonObject{{QStringLiteral("sale"), sale.number},
        {QStringLiteral("order_id"), sale.orderId},
        {QStringLiteral("state"), saleStateName(sale.state)},
        {QStringLiteral("total"), sale.total.minorUnits()},
        {QStringLiteral("currency"), sale.total.currency()},
        {QStringLiteral("paid"), p.paid},
        {QStringLiteral("waiting"), p.waiting},
        {QStringLiteral("remaining"), sale.state == SaleState::Paid || sale.state == SaleState::Cancelled ? 0 : p.remaining},
        {QStringLiteral("cash_handed_back"), p.handedBack},
        {QStringLiteral("refunded_by_till"), p.refundedByTill},
        {QStringLiteral("lines"), sale.lines},
        {QStringLiteral("tax"), tax},
        {QStringLiteral("tenders"), tenders}};
}

// Takes the tenders in order for `sale`, then prints it (with the change a cash tender gave) and
// returns sale's exit code: 0 paid, 3 a part declined and not paid, 4 not final yet, 1 refused.
int runTenders(CtlSession &session, SaleBook &book, const Sale &sale, const QList<TenderSpec> &tenders, bool noWait,
    qint64 timeoutMs)
{
    SyncEngine &engine = *session.till().engine();
    bool declined = false;
    bool waiting = false;
    qint64 change = 0;
    QString refusal;
    for (const TenderSpec &t : tenders) {
        QString error;
        const Sale now = readSale(book, sale.orderId, &error);
        if (!now.isValid())
            return fail(Error, error);
        const SalePosition p = positionOf(now);
        if (now.state == SaleState::Paid || now.state == SaleState::Cancelled)
            break;
        qint64 amount = t.amount ? t.amount->minorUnits() : p.remaining;
        if (t.amount && t.amount->currency() != now.total.currency())
            return fail(Usage, QStringLiteral("--tender: sale %1 is in %2").arg(now.number, now.total.currency()));
        if (t.kind == Tender::Cash) {
            // More cash than remains is change, given back at once.
            const qint64 applied = qMin(amount, p.remaining);
            change += amount - applied;
            amount = applied;
        }
        if (amount <= 0) {
            waiting = waiting || p.waiting > 0;
            continue;
        }
        const Money money(amount, now.total.currency());
        const std::optional<Intent> part = storeAndFollow(
            engine, [&](SyncEngine::PayCallback stored) {
                if (t.kind == Tender::Cash)
                    engine.recordCash(now.orderId, money, &engine, std::move(stored));
                else
                    engine.pay(now.orderId, money, t.token, &engine, std::move(stored));
            },
            noWait, timeoutMs, &error);
        if (!part) {
            refusal = error;
            break;
        }
        if (part->state == IntentState::Declined || part->state == IntentState::NeedsAttention)
            declined = true;
        else if (!isFinal(part->state)) {
            waiting = true;   // the next card part waits for this one (or for it to be given up)
            break;
        }
        if (engine.isPaused())
            break;
    }
    QString error;
    const Sale after = readSale(book, sale.orderId, &error);
    if (!after.isValid())
        return fail(Error, error);
    QJsonObject json = saleJson(after);
    json.insert(QStringLiteral("change"), change);
    outJson(json);
    if (!refusal.isEmpty())
        return fail(Error, refusal);
    if (after.state == SaleState::Paid)
        return Succeeded;
    if (engine.isPaused())
        return paused(engine);
    if (waiting || positionOf(after).waiting > 0)
        return NotFinal;
    return declined ? Declined : NotFinal;
}

void addWaitOptions(CommandLine &cl)
{
    cl.addOptions({{QStringLiteral("no-wait"), QStringLiteral("Return after each card part's first try (or at once when offline).")},
        {QStringLiteral("wait"), QStringLiteral("Seconds to wait for each card part's final state (default 60)."),
            QStringLiteral("SECONDS"), QStringLiteral("60")}});
}

}   // namespace

int saleCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("sale"), QStringLiteral("--item CODE[:QTY]... --tender T... [--no-wait] [--wait SECONDS]"),
        QStringLiteral("Rings up a sale from the catalog and takes its tenders in the order given; prints the sale\n"
                       "as one JSON line. A tender is card[:AMOUNT], card/TOKEN[:AMOUNT] (a test token such as\n"
                       "tok_chargeDeclined), wallet/CODE[:AMOUNT] (the customer's 18-digit payment code) or\n"
                       "cash[:AMOUNT]; without an amount it takes what remains; more\n"
                       "cash than remains is change. Exit 0 the sale is paid, 3 a part was declined and the sale\n"
                       "is not paid, 4 not final yet, 1 refused, 2 bad usage."));
    cl.addOptions({{QStringLiteral("item"), QStringLiteral("A product's code or barcode (or a weighed-goods label), and how many: items, or kg for goods sold by weight (e.g. 0.532)."),
                       QStringLiteral("CODE[:QTY]")},
        {QStringLiteral("tender"), QStringLiteral("A tender, as above; repeat for a split tender."), QStringLiteral("T")}});
    addWaitOptions(cl);
    if (auto rc = cl.parse(arguments))
        return *rc;
    Catalog catalog;
    TaxMode taxMode = TaxMode::Inclusive;
    QString error;
    if (!loadSaleCatalog(session.options().dbPath, &catalog, &taxMode, &error))
        return fail(Error, error);
    const QStringList itemTexts = cl.values(QStringLiteral("item"));
    if (itemTexts.isEmpty())
        return fail(Usage, QStringLiteral("sale needs at least one --item"));
    QList<SaleItem> items;
    for (const QString &text : itemTexts) {
        const QString code = text.section(QLatin1Char(':'), 0, 0);
        const QString quantity = text.section(QLatin1Char(':'), 1);
        const ScanMatch match = matchScan(catalog, code, {EmbeddedLayout::defaultLayout()});
        switch (match.kind) {
        case ScanMatch::Kind::Product:
            break;
        case ScanMatch::Kind::WrongCheckDigit:
            return fail(Usage, QStringLiteral("--item: %1 has a wrong check digit (a misread or a typing error)").arg(code));
        case ScanMatch::Kind::NeedsPrice:
            return fail(Usage, QStringLiteral("--item: %1 is sold at a price the cashier types; the till asks for it").arg(code));
        case ScanMatch::Kind::EmbeddedNotFound:
            return fail(Usage, QStringLiteral("--item: the label %1 is for item %2, which no product has").arg(code, match.code));
        case ScanMatch::Kind::Several:
        case ScanMatch::Kind::NotFound:
            return fail(Usage, QStringLiteral("--item: no product has the code or barcode \"%1\"").arg(code));
        }
        SaleItem item = match.item;
        if (!quantity.isEmpty()) {
            if (item.isWeighed() || item.fixedAmount)
                return fail(Usage, QStringLiteral("--item: %1 is a label with its own weight or price; no quantity").arg(code));
            if (item.product.unit == SaleUnit::Kilogram) {
                // Kilograms, up to grams: "0.532".
                const std::optional<qint64> grams = parseKilograms(quantity);
                if (!grams)
                    return fail(Usage, QStringLiteral("--item: \"%1\" is not a weight in kg such as 0.532").arg(quantity));
                item.grams = *grams;
            } else {
                bool ok = false;
                item.quantity = quantity.toInt(&ok);
                if (!ok || item.quantity < 1 || item.quantity > 10'000)
                    return fail(Usage, QStringLiteral("--item: \"%1\" is not a quantity (a number of items from 1)").arg(quantity));
            }
        } else if (item.product.unit == SaleUnit::Kilogram && !item.isWeighed() && !item.fixedAmount) {
            return fail(Usage, QStringLiteral("--item: %1 is sold by weight: give CODE:KG, e.g. %1:0.5").arg(code));
        }
        items.append(item);
    }
    const SalePricing pricing = priceItems(items, {}, taxMode);
    const QJsonArray lines = saleLinesJson(items, pricing, taxMode);
    const qint64 total = pricing.total;
    int rc = 0;
    const auto tenders = parseTenders(cl.values(QStringLiteral("tender")), catalog.currency(), &rc);
    if (!tenders)
        return rc;
    std::optional<int> usage;
    const auto timeoutMs = waitMs(cl, &usage);
    if (!timeoutMs)
        return *usage;
    if (auto open = session.open(CtlSession::Use::Sync))
        return *open;
    SaleBook book(session.till().journal());
    Sale sale;
    if (!await<Sale>([&](QObject *context, auto reply) {
            book.open(Money(total, catalog.currency()), lines, context, reply);
        },
            &sale, &error))
        return fail(Error, error);
    return runTenders(session, book, sale, *tenders, cl.isSet(QStringLiteral("no-wait")), *timeoutMs);
}

int salesCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("sales"), QStringLiteral("[--json]"),
        QStringLiteral("Every sale of the journal, newest last, with its tenders."));
    cl.addOption({QStringLiteral("json"), QStringLiteral("One JSON array.")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (auto rc = session.open(CtlSession::Use::ReadJournal))
        return *rc;
    SaleBook book(session.till().journal());
    QList<Sale> sales;
    QString error;
    if (!await<QList<Sale>>([&](QObject *context, auto reply) {
            book.list(-1, context, reply);
        },
            &sales, &error))
        return fail(Error, error);
    if (cl.isSet(QStringLiteral("json"))) {
        QJsonArray all;
        for (const Sale &s : std::as_const(sales))
            all.append(saleJson(s));
        outJson(all);
        return Succeeded;
    }
    QByteArray text = QStringLiteral("%1 %2 %3 %4 %5\n").arg(QStringLiteral("SALE"), -10).arg(QStringLiteral("STATE"), -10).arg(QStringLiteral("TOTAL"), 10).arg(QStringLiteral("PAID"), 10).arg(QStringLiteral("TENDERS")).toUtf8();
    for (const Sale &s : std::as_const(sales)) {
        QStringList parts;
        const QJsonArray tenders = saleJson(s).value(QStringLiteral("tenders")).toArray();
        for (const QJsonValue &v : tenders) {
            const QJsonObject t = v.toObject();
            parts << QStringLiteral("%1 %2 %3").arg(t.value(QStringLiteral("kind")).toString(), Money(t.value(QStringLiteral("amount")).toInteger(), s.total.currency()).toDecimalString(), t.value(QStringLiteral("state")).toString());
        }
        text += QStringLiteral("%1 %2 %3 %4 %5\n").arg(s.number, -10).arg(saleStateName(s.state), -10).arg(s.total.toDecimalString(), 10).arg(Money(positionOf(s).paid, s.total.currency()).toDecimalString(), 10).arg(parts.join(QStringLiteral(", "))).toUtf8();
    }
    out(text);
    return Succeeded;
}

int payAnotherWayCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("pay-another-way"), QStringLiteral("KEY --tender T... [--no-wait] [--wait SECONDS]"),
        QStringLiteral("The customer pays another way for the card part KEY of a sale that is not final: it is\n"
                       "voided if it was never sent, otherwise given up (if it turns out charged, the till refunds\n"
                       "it by itself, once). The rest is taken with the tenders named, as in `sale`. Prints the\n"
                       "sale as one JSON line; exit codes as `sale`."));
    cl.addPositionalArgument(QStringLiteral("KEY"), QStringLiteral("The card part's idempotency key."));
    cl.addOption({QStringLiteral("tender"), QStringLiteral("A tender (card[:AMOUNT], card/TOKEN[:AMOUNT], wallet/CODE[:AMOUNT], cash[:AMOUNT])."),
        QStringLiteral("T")});
    addWaitOptions(cl);
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (cl.positionalArguments().size() != 1)
        return fail(Usage, QStringLiteral("pay-another-way needs one KEY"));
    int rc = 0;
    const QString key = cl.positionalArguments().constFirst();
    std::optional<int> usage;
    const auto timeoutMs = waitMs(cl, &usage);
    if (!timeoutMs)
        return *usage;
    if (auto open = session.open(CtlSession::Use::Sync))
        return *open;
    SyncEngine &engine = *session.till().engine();
    Intent part;
    QString error;
    if (!await<Intent>([&](QObject *context, auto reply) {
            engine.giveUp(key, context, reply);
        },
            &part, &error))
        return fail(Error, error);
    SaleBook book(session.till().journal());
    const Sale sale = readSale(book, part.orderId, &error);
    if (!sale.isValid())
        return fail(Error, error);
    const auto tenders = parseTenders(cl.values(QStringLiteral("tender")), sale.total.currency(), &rc);
    if (!tenders)
        return rc;
    return runTenders(session, book, sale, *tenders, cl.isSet(QStringLiteral("no-wait")), *timeoutMs);
}

int saleCancelCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("sale-cancel"), QStringLiteral("SALE [--wait SECONDS]"),
        QStringLiteral("Cancels a sale that is not paid: card parts never sent are voided, those whose outcome is\n"
                       "not known are given up, card parts charged are refunded by the till (once) and the cash\n"
                       "taken is handed back (cash_to_hand_back). Prints the sale as one JSON line. Exit 0 when\n"
                       "nothing of it is pending any more, 4 not final yet (the till finishes it), 1 refused."));
    cl.addPositionalArgument(QStringLiteral("SALE"), QStringLiteral("The sale's number (1-000123) or order id."));
    cl.addOption({QStringLiteral("wait"), QStringLiteral("Seconds to wait for the card refunds (default 60)."),
        QStringLiteral("SECONDS"), QStringLiteral("60")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (cl.positionalArguments().size() != 1)
        return fail(Usage, QStringLiteral("sale-cancel needs one SALE"));
    std::optional<int> usage;
    const auto timeoutMs = waitMs(cl, &usage);
    if (!timeoutMs)
        return *usage;
    if (auto open = session.open(CtlSession::Use::Sync))
        return *open;
    SyncEngine &engine = *session.till().engine();
    SaleBook book(session.till().journal());
    QString error;
    const Sale sale = readSale(book, cl.positionalArguments().constFirst(), &error);
    if (!sale.isValid())
        return fail(Error, error);
    QList<Intent> changed;
    if (!await<QList<Intent>>([&](QObject *context, auto reply) {
            engine.cancelSale(sale.orderId, context, reply);
        },
            &changed, &error))
        return fail(Error, error);
    qint64 handBack = 0;
    for (const Intent &i : std::as_const(changed)) {
        if (i.isRefund() && i.isCash())
            handBack += i.amount.minorUnits();
    }
    // The card parts given up and the refunds the till makes: followed until none is pending.
    auto pending = [&] {
        for (const Intent &i : engine.activeIntents()) {
            if (i.orderId == sale.orderId)
                return true;
        }
        return false;
    };
    EventWait settled([&] {
        return !pending() || engine.isPaused();
    });
    settled.recheckOn(&engine, &SyncEngine::queueChanged);
    settled.recheckOn(&engine, &SyncEngine::intentChanged);
    settled.recheckOn(&engine, &SyncEngine::pausedChanged);
    settled.exec(*timeoutMs);
    const Sale after = readSale(book, sale.orderId, &error);
    if (!after.isValid())
        return fail(Error, error);
    QJsonObject json = saleJson(after);
    json.insert(QStringLiteral("cash_to_hand_back"), handBack);
    outJson(json);
    if (engine.isPaused())
        return paused(engine);
    return pending() ? NotFinal : Succeeded;
}

}   // namespace OncePay::Ctl
