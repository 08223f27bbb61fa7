#include "shiftreport.h"

#include "saleitem.h"

#include <QMap>

#include "sale.h"
#include "timeutil.h"
#include "walletcode.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>

#include <algorithm>

namespace OncePay {

namespace {

constexpr qint64 kHourMs = 3600 * 1000;

// The first millisecond of the local clock hour `ms` falls in.
qint64 hourStart(qint64 ms, const QTimeZone &zone)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms, zone);
    return QDateTime(t.date(), QTime(t.time().hour(), 0), zone).toMSecsSinceEpoch();
}

QString majorityCurrency(const QList<Intent> &intents)
{
    QHash<QString, int> uses;
    QString best;
    for (const Intent &i : intents) {
        const int n = ++uses[i.amount.currency()];
        if (n > uses.value(best))
            best = i.amount.currency();
    }
    return best.isEmpty() ? QStringLiteral("CNY") : best;
}

ShiftReport::Waiting waitingItem(const Intent &i, bool carriedOver)
{
    return {i.key, i.kind, i.orderId, i.amount, i.state, i.createdAt, carriedOver, i.saleNumber, i.reason, i.paymentKey};
}

// A wallet payment given up before the customer paid: the cashier cancelled it, or the customer did
// not confirm on the phone in time (the gateway's decline codes). Not a decline: nothing was asked
// of a bank that refused it.
bool notTaken(const Intent &i)
{
    return i.isWallet() && (i.declineCode == QLatin1String("cancelled") || i.declineCode == QLatin1String("wallet_timeout"));
}

QJsonObject totalsJson(const ShiftReport::Totals &t)
{
    return {{QStringLiteral("count"), t.count}, {QStringLiteral("amount"), t.amount}};
}

ShiftReport::Totals totalsFrom(const QJsonValue &v)
{
    const QJsonObject o = v.toObject();
    return {o.value(QStringLiteral("count")).toInt(), o.value(QStringLiteral("amount")).toInteger()};
}

QJsonValue optionalAmount(const std::optional<qint64> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QJsonValue timeOrNull(qint64 ms)
{
    return ms > 0 ? QJsonValue(toRfc3339(ms)) : QJsonValue(QJsonValue::Null);
}

qint64 timeFrom(const QJsonValue &v)
{
    return v.isString() ? fromRfc3339(v.toString()).value_or(0) : 0;
}

QJsonArray itemsJson(const QList<ShiftReport::Waiting> &items)
{
    QJsonArray out;
    for (const ShiftReport::Waiting &w : items) {
        QJsonObject o{
            {QStringLiteral("key"), w.key}, {QStringLiteral("kind"), intentKindName(w.kind)},
            {QStringLiteral("order_id"), w.orderId}, {QStringLiteral("amount"), w.amount.minorUnits()},
            {QStringLiteral("currency"), w.amount.currency()}, {QStringLiteral("state"), intentStateName(w.state)},
            {QStringLiteral("created_at"), timeOrNull(w.createdAt)}, {QStringLiteral("carried_over"), w.carriedOver},
            {QStringLiteral("sale"), w.saleNumber.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(w.saleNumber)}};
        if (!w.reason.isEmpty())
            o.insert(QStringLiteral("reason"), w.reason);
        if (!w.paymentKey.isEmpty())
            o.insert(QStringLiteral("payment_key"), w.paymentKey);
        out.append(o);
    }
    return out;
}

QList<ShiftReport::Waiting> itemsFrom(const QJsonValue &array)
{
    QList<ShiftReport::Waiting> out;
    const QJsonArray values = array.toArray();
    for (const QJsonValue &v : values) {
        const QJsonObject w = v.toObject();
        out.append({w.value(QStringLiteral("key")).toString(),
            intentKindFromName(w.value(QStringLiteral("kind")).toString()).value_or(IntentKind::Payment),
            w.value(QStringLiteral("order_id")).toString(),
            Money(w.value(QStringLiteral("amount")).toInteger(), w.value(QStringLiteral("currency")).toString()),
            intentStateFromName(w.value(QStringLiteral("state")).toString()).value_or(IntentState::Unknown),
            timeFrom(w.value(QStringLiteral("created_at"))), w.value(QStringLiteral("carried_over")).toBool(),
            w.value(QStringLiteral("sale")).toString(), w.value(QStringLiteral("reason")).toString(),
            w.value(QStringLiteral("payment_key")).toString()});
    }
    return out;
}

// The refunds owed, with what to do about each (the report as kept and printed by oncepay-ctl).
QJsonObject owedJson(const QList<ShiftReport::Waiting> &owed)
{
    QJsonArray items = itemsJson(owed);
    qint64 amount = 0;
    for (qsizetype n = 0; n < owed.size(); ++n) {
        QJsonObject o = items.at(n).toObject();
        o.insert(QStringLiteral("to_do"), ShiftReport::owedAdvice(owed.at(n).amount, owed.at(n).paymentKey));
        items.replace(n, o);
        amount += owed.at(n).amount.minorUnits();
    }
    return {{QStringLiteral("count"), int(owed.size())}, {QStringLiteral("amount"), amount}, {QStringLiteral("items"), items}};
}

// The sales on hold: {"count", "amount", "items": [{"number", "parked_at", "parked_by", "items",
// "total", "currency"}]}.
QJsonObject parkedJson(const QList<ShiftReport::Parked> &parked, const ShiftReport::Totals &totals)
{
    QJsonArray items;
    for (const ShiftReport::Parked &p : parked) {
        items.append(QJsonObject{{QStringLiteral("number"), p.number}, {QStringLiteral("parked_at"), timeOrNull(p.parkedAt)},
            {QStringLiteral("parked_by"), p.parkedBy}, {QStringLiteral("items"), p.itemCount},
            {QStringLiteral("total"), p.total.minorUnits()}, {QStringLiteral("currency"), p.total.currency()}});
    }
    return {{QStringLiteral("count"), totals.count}, {QStringLiteral("amount"), totals.amount}, {QStringLiteral("items"), items}};
}

QList<ShiftReport::Parked> parkedFrom(const QJsonValue &v)
{
    QList<ShiftReport::Parked> out;
    const QJsonArray items = v.toObject().value(QStringLiteral("items")).toArray();
    for (const QJsonValue &item : items) {
        const QJsonObject p = item.toObject();
        out.append({p.value(QStringLiteral("number")).toString(), timeFrom(p.value(QStringLiteral("parked_at"))),
            p.value(QStringLiteral("parked_by")).toString(), p.value(QStringLiteral("items")).toInt(),
            Money(p.value(QStringLiteral("total")).toInteger(), p.value(QStringLiteral("currency")).toString())});
    }
    return out;
}

}   // namespace

QString ShiftReport::owedAdvice(const Money &owed, const QString &paymentKey)
{
    return tr("Give the customer %1 back in cash, or refund the card payment %2 again.").arg(owed.toDisplayString(), paymentKey);
}

bool ShiftReport::isChargedLate(const Waiting &tillRefund)
{
    return tillRefund.reason != saleCancelledReason();
}

std::optional<qint64> ShiftReport::cashDifference() const
{
    if (!countedCash)
        return std::nullopt;
    return *countedCash - cashExpected();
}

ShiftReport ShiftReport::compute(const Input &in)
{
    ShiftReport r;
    r.number = in.number;
    r.openedAt = in.openedAt;
    r.generatedAt = in.generatedAt;
    r.firstIntentId = in.firstIntentId;
    r.lastIntentId = in.lastIntentId;
    r.currency = in.currency.isEmpty() ? majorityCurrency(in.intents) : in.currency;
    r.openingFloat = in.openingFloat;
    r.countedCash = in.countedCash;

    // Hours are counted from the first intent's; gaps are filled below.
    QList<const Intent *> own;
    own.reserve(in.intents.size());
    for (const Intent &i : in.intents) {
        if (i.amount.currency() != r.currency) {
            ++r.otherCurrency;
            continue;
        }
        own.append(&i);
    }
    std::sort(own.begin(), own.end(), [](const Intent *a, const Intent *b) {
        return a->id < b->id;
    });
    qint64 first = 0, last = 0;
    for (const Intent *i : std::as_const(own)) {
        first = first == 0 ? i->createdAt : qMin(first, i->createdAt);
        last = qMax(last, i->createdAt);
    }
    const qint64 firstHour = own.isEmpty() ? 0 : hourStart(first, in.zone);
    if (!own.isEmpty()) {
        for (qint64 h = firstHour; h <= last; h += kHourMs)
            r.perHour.append(Hour{h, {}, {}, {}});
    }
    auto hourOf = [&](const Intent &i) -> Hour & {
        return r.perHour[qsizetype((i.createdAt - firstHour) / kHourMs)];
    };

    for (const Intent *p : std::as_const(own)) {
        const Intent &i = *p;
        const qint64 amount = i.amount.minorUnits();
        const bool cash = i.isCash();
        if (i.isRefund() && !cash && isAutoRefundKey(i.key))
            r.refundsByTill.append(waitingItem(i, false));
        if (!isFinal(i.state)) {
            (i.isRefund() ? r.waitingRefunds : r.waitingPayments).add(amount);
            r.waiting.append(waitingItem(i, false));
            continue;
        }
        if (i.state == IntentState::Voided) {
            r.voided.add(amount);
            continue;
        }
        if (i.isRefund()) {
            if (i.state == IntentState::Succeeded) {
                (cash ? r.cashRefunds : r.cardRefunds).add(amount);
                hourOf(i).refunds.add(amount);
            } else {
                r.failedRefunds.add(amount);
            }
            continue;
        }
        switch (i.state) {
        case IntentState::Succeeded:
            (cash ? r.cashSales : r.cardSales).add(amount);
            (cash ? hourOf(i).cash : hourOf(i).card).add(amount);
            if (i.isWallet()) {
                const QString brand = i.cardBrand.isEmpty() ? walletBrandOf(i.walletCode()) : i.cardBrand;
                if (brand == QLatin1String("wechat"))
                    r.wechatSales.add(amount);
                else if (brand == QLatin1String("alipay"))
                    r.alipaySales.add(amount);
            }
            break;
        case IntentState::Declined:
            (notTaken(i) ? r.cancelledWallet : r.declined).add(amount);
            break;
        default:   // needs_attention: the gateway refused it without executing it
            r.needsAttention.add(amount);
            break;
        }
    }
    for (const Intent &i : in.carriedOver) {
        if (i.amount.currency() != r.currency) {
            ++r.otherCurrency;
            continue;
        }
        if (!isFinal(i.state)) {
            (i.isRefund() ? r.waitingRefunds : r.waitingPayments).add(i.amount.minorUnits());
            r.waiting.append(waitingItem(i, true));
        } else {
            r.carriedOverEnded.append(waitingItem(i, true));
            if (!i.isRefund() && i.state == IntentState::Succeeded)
                r.carriedOverSettled.add(i.amount.minorUnits());
        }
    }
    // Refunds the till owes and could not make (issue 35), this shift's and those carried over.
    QList<Intent> tillsOwn;
    for (const Intent *p : std::as_const(own))
        tillsOwn.append(*p);
    for (const Intent &i : in.carriedOver) {
        if (i.amount.currency() == r.currency)
            tillsOwn.append(i);
    }
    const QHash<QString, qint64> owed = OncePay::refundsOwed(tillsOwn);
    for (qsizetype n = 0; n < tillsOwn.size() && !owed.isEmpty(); ++n) {
        const Intent &i = tillsOwn.at(n);
        if (owed.contains(i.key)) {
            r.refundsOwed.append(waitingItem(i, n >= own.size()));
            r.refundsOwed.last().amount = r.money(owed.value(i.key));
            r.needsAttention.add(owed.value(i.key));   // a person must give it back
        }
    }
    // Per person: what they took (payments that succeeded) and gave back (refunds that did).
    QMap<QString, StaffLine> staff;
    for (const Intent *p : std::as_const(own)) {
        if (p->state != IntentState::Succeeded)
            continue;
        StaffLine &line = staff[p->staff];
        line.staff = p->staff;
        (p->isRefund() ? line.refunds : line.sales).add(p->amount.minorUnits());
    }
    r.perStaff = staff.values();
    r.parked = in.parked;
    // Tax per rate over the sales paid in the shift, each sale's as its receipt shows it.
    QMap<int, TaxBand> bands;
    for (const Sale &sale : in.paidSales) {
        if (sale.total.currency() != r.currency)
            continue;
        const SalePricing p = pricingOfLines(sale.lines);
        for (const TaxBand &b : p.bands) {
            TaxBand &sum = bands[b.vatBasisPoints];
            sum.vatBasisPoints = b.vatBasisPoints;
            sum.net += b.net;
            sum.tax += b.tax;
            sum.gross += b.gross;
        }
        if (p.lineDiscounts + p.saleDiscount > 0)
            r.discounts.add(p.lineDiscounts + p.saleDiscount);
    }
    for (const Intent *i : std::as_const(own)) {
        const auto back = in.returns.constFind(i->key);
        if (!i->isRefund() || i->state != IntentState::Succeeded || back == in.returns.cend())
            continue;
        if (back->isEmpty())
            r.refundsNotByItem.add(i->amount.minorUnits());
        for (const TaxBand &b : *back) {
            TaxBand &sum = bands[b.vatBasisPoints];
            sum.vatBasisPoints = b.vatBasisPoints;
            sum.net -= b.net;
            sum.tax -= b.tax;
            sum.gross -= b.gross;
        }
    }
    for (auto it = bands.cbegin(); it != bands.cend(); ++it)
        r.taxBands.prepend(*it);
    // Oldest first: the one that waited longest leads the list the cashier confirms.
    std::stable_sort(r.waiting.begin(), r.waiting.end(),
        [](const Waiting &a, const Waiting &b) {
            return a.createdAt < b.createdAt;
        });
    std::stable_sort(r.carriedOverEnded.begin(), r.carriedOverEnded.end(),
        [](const Waiting &a, const Waiting &b) {
            return a.createdAt < b.createdAt;
        });
    return r;
}

QJsonObject ShiftReport::toJson() const
{
    const QJsonArray waitingItems = itemsJson(waiting);
    QJsonArray hours;
    for (const Hour &h : perHour) {
        hours.append(QJsonObject{{QStringLiteral("hour"), toRfc3339(h.start)}, {QStringLiteral("card"), totalsJson(h.card)},
            {QStringLiteral("cash"), totalsJson(h.cash)}, {QStringLiteral("refunds"), totalsJson(h.refunds)}});
    }
    const std::optional<qint64> difference = cashDifference();
    QJsonArray taxJson;
    for (const TaxBand &b : taxBands) {
        taxJson.append(QJsonObject{{QStringLiteral("vat"), b.vatBasisPoints / 100.0}, {QStringLiteral("net"), b.net},
            {QStringLiteral("tax"), b.tax}, {QStringLiteral("gross"), b.gross}});
    }
    QJsonArray staffJson;
    for (const StaffLine &l : perStaff) {
        staffJson.append(QJsonObject{{QStringLiteral("staff"), l.staff}, {QStringLiteral("sales"), totalsJson(l.sales)},
            {QStringLiteral("refunds"), totalsJson(l.refunds)}});
    }
    return {
        {QStringLiteral("shift"), number},
        {QStringLiteral("opened_at"), timeOrNull(openedAt)},
        {QStringLiteral("closed_at"), timeOrNull(closedAt)},
        {QStringLiteral("generated_at"), timeOrNull(generatedAt)},
        {QStringLiteral("first_intent_id"), firstIntentId},
        {QStringLiteral("last_intent_id"), lastIntentId},
        {QStringLiteral("currency"), currency},
        {QStringLiteral("sales"), QJsonObject{{QStringLiteral("card"), totalsJson(cardSales)}, {QStringLiteral("cash"), totalsJson(cashSales)}, {QStringLiteral("total"), salesTotal()},
                                      // the wallet payments among the card sales, by brand
                                      {QStringLiteral("wallet"), QJsonObject{{QStringLiteral("wechat"), totalsJson(wechatSales)}, {QStringLiteral("alipay"), totalsJson(alipaySales)}}}}},
        {QStringLiteral("refunds"), QJsonObject{{QStringLiteral("card"), totalsJson(cardRefunds)}, {QStringLiteral("cash"), totalsJson(cashRefunds)}, {QStringLiteral("failed"), totalsJson(failedRefunds)}, {QStringLiteral("total"), refundsTotal()}}},
        {QStringLiteral("net"), netTotal()},
        {QStringLiteral("declined"), totalsJson(declined)},
        {QStringLiteral("cancelled"), QJsonObject{{QStringLiteral("wallet"), totalsJson(cancelledWallet)}}},
        {QStringLiteral("voided"), totalsJson(voided)},
        {QStringLiteral("needs_attention"), totalsJson(needsAttention)},
        {QStringLiteral("cash_drawer"), QJsonObject{{QStringLiteral("opening_float"), openingFloat}, {QStringLiteral("cash_sales"), cashSales.amount}, {QStringLiteral("cash_refunds"), cashRefunds.amount}, {QStringLiteral("expected"), cashExpected()}, {QStringLiteral("counted"), optionalAmount(countedCash)}, {QStringLiteral("difference"), optionalAmount(difference)}}},
        {QStringLiteral("waiting"), QJsonObject{{QStringLiteral("payments"), totalsJson(waitingPayments)}, {QStringLiteral("refunds"), totalsJson(waitingRefunds)}, {QStringLiteral("items"), waitingItems}}},
        {QStringLiteral("carried_over_settled"), totalsJson(carriedOverSettled)},
        {QStringLiteral("carried_over_ended"), itemsJson(carriedOverEnded)},
        {QStringLiteral("refunds_by_till"), itemsJson(refundsByTill)},
        {QStringLiteral("refunds_owed"), owedJson(refundsOwed)},
        {QStringLiteral("other_currency"), otherCurrency},
        {QStringLiteral("per_hour"), hours},
        {QStringLiteral("tax"), taxJson},
        {QStringLiteral("discounts"), totalsJson(discounts)},
        {QStringLiteral("refunds_not_by_item"), totalsJson(refundsNotByItem)},
        {QStringLiteral("per_staff"), staffJson},
        {QStringLiteral("parked"), parkedJson(parked, parkedTotals())},
    };
}

std::optional<ShiftReport> ShiftReport::fromJson(const QJsonObject &o)
{
    if (!o.value(QStringLiteral("shift")).isDouble() || !o.value(QStringLiteral("currency")).isString())
        return std::nullopt;
    ShiftReport r;
    r.number = o.value(QStringLiteral("shift")).toInt();
    r.openedAt = timeFrom(o.value(QStringLiteral("opened_at")));
    r.closedAt = timeFrom(o.value(QStringLiteral("closed_at")));
    r.generatedAt = timeFrom(o.value(QStringLiteral("generated_at")));
    r.firstIntentId = o.value(QStringLiteral("first_intent_id")).toInteger();
    r.lastIntentId = o.value(QStringLiteral("last_intent_id")).toInteger();
    r.currency = o.value(QStringLiteral("currency")).toString();
    const QJsonObject sales = o.value(QStringLiteral("sales")).toObject();
    r.cardSales = totalsFrom(sales.value(QStringLiteral("card")));
    r.cashSales = totalsFrom(sales.value(QStringLiteral("cash")));
    const QJsonObject wallet = sales.value(QStringLiteral("wallet")).toObject();   // reports before issue 26: none
    r.wechatSales = totalsFrom(wallet.value(QStringLiteral("wechat")));
    r.alipaySales = totalsFrom(wallet.value(QStringLiteral("alipay")));
    const QJsonObject refunds = o.value(QStringLiteral("refunds")).toObject();
    r.cardRefunds = totalsFrom(refunds.value(QStringLiteral("card")));
    r.cashRefunds = totalsFrom(refunds.value(QStringLiteral("cash")));
    r.failedRefunds = totalsFrom(refunds.value(QStringLiteral("failed")));
    r.declined = totalsFrom(o.value(QStringLiteral("declined")));
    // Reports before issue 36: none (counted among the declined).
    r.cancelledWallet = totalsFrom(o.value(QStringLiteral("cancelled")).toObject().value(QStringLiteral("wallet")));
    r.voided = totalsFrom(o.value(QStringLiteral("voided")));
    r.needsAttention = totalsFrom(o.value(QStringLiteral("needs_attention")));
    const QJsonObject drawer = o.value(QStringLiteral("cash_drawer")).toObject();
    r.openingFloat = drawer.value(QStringLiteral("opening_float")).toInteger();
    if (drawer.value(QStringLiteral("counted")).isDouble())
        r.countedCash = drawer.value(QStringLiteral("counted")).toInteger();
    const QJsonObject waiting = o.value(QStringLiteral("waiting")).toObject();
    r.waitingPayments = totalsFrom(waiting.value(QStringLiteral("payments")));
    r.waitingRefunds = totalsFrom(waiting.value(QStringLiteral("refunds")));
    r.waiting = itemsFrom(waiting.value(QStringLiteral("items")));
    r.carriedOverSettled = totalsFrom(o.value(QStringLiteral("carried_over_settled")));
    r.carriedOverEnded = itemsFrom(o.value(QStringLiteral("carried_over_ended")));
    r.refundsByTill = itemsFrom(o.value(QStringLiteral("refunds_by_till")));
    r.refundsOwed = itemsFrom(o.value(QStringLiteral("refunds_owed")).toObject().value(QStringLiteral("items")));   // none before issue 35
    r.otherCurrency = o.value(QStringLiteral("other_currency")).toInt();
    const QJsonArray perHour = o.value(QStringLiteral("per_hour")).toArray();
    for (const QJsonValue &v : perHour) {
        const QJsonObject h = v.toObject();
        r.perHour.append({timeFrom(h.value(QStringLiteral("hour"))), totalsFrom(h.value(QStringLiteral("card"))),
            totalsFrom(h.value(QStringLiteral("cash"))), totalsFrom(h.value(QStringLiteral("refunds")))});
    }
    // Reports kept before issue 23 have none of these: empty.
    const QJsonArray tax = o.value(QStringLiteral("tax")).toArray();
    for (const QJsonValue &v : tax) {
        const QJsonObject b = v.toObject();
        r.taxBands.append({int(qRound(b.value(QStringLiteral("vat")).toDouble() * 100)), b.value(QStringLiteral("net")).toInteger(),
            b.value(QStringLiteral("tax")).toInteger(), b.value(QStringLiteral("gross")).toInteger()});
    }
    r.discounts = totalsFrom(o.value(QStringLiteral("discounts")));
    r.refundsNotByItem = totalsFrom(o.value(QStringLiteral("refunds_not_by_item")));
    const QJsonArray staff = o.value(QStringLiteral("per_staff")).toArray();
    for (const QJsonValue &v : staff) {
        const QJsonObject l = v.toObject();
        r.perStaff.append({l.value(QStringLiteral("staff")).toString(), totalsFrom(l.value(QStringLiteral("sales"))),
            totalsFrom(l.value(QStringLiteral("refunds")))});
    }
    r.parked = parkedFrom(o.value(QStringLiteral("parked")));   // none before issue 36
    return r;
}

ShiftReport::Totals ShiftReport::parkedTotals() const
{
    Totals t;
    for (const Parked &p : parked)
        t.add(p.total.minorUnits());
    return t;
}

}   // namespace OncePay
