#include "sale.h"

namespace OncePay {

QString saleStateName(SaleState state)
{
    switch (state) {
    case SaleState::Open:
        return QStringLiteral("open");
    case SaleState::Paying:
        return QStringLiteral("paying");
    case SaleState::Paid:
        return QStringLiteral("paid");
    case SaleState::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}

std::optional<SaleState> saleStateFromName(const QString &name)
{
    for (SaleState s : {SaleState::Open, SaleState::Paying, SaleState::Paid, SaleState::Cancelled}) {
        if (saleStateName(s) == name)
            return s;
    }
    return std::nullopt;
}

QString saleCancelledReason()
{
    return QStringLiteral("sale cancelled");
}

QString chargedLateReason()
{
    return QStringLiteral("charged after the customer paid another way");
}

QString autoRefundKey(const QString &paymentKey)
{
    return QStringLiteral("auto-ref-") + paymentKey;
}

bool isAutoRefundKey(const QString &key)
{
    return key.startsWith(QLatin1String("auto-ref-"));
}

QHash<QString, qint64> refundsOwed(const QList<Intent> &intents)
{
    QHash<QString, qint64> owed;
    QHash<QString, const Intent *> failed;   // by the card part it should have refunded
    for (const Intent &i : intents) {
        if (i.isRefund() && !i.isCash() && isAutoRefundKey(i.key) && isFinal(i.state) && i.state != IntentState::Succeeded) {
            owed.insert(i.key, i.amount.minorUnits());
            failed.insert(i.paymentKey, &i);
        }
    }
    for (const Intent &i : intents) {
        const Intent *refund = i.isRefund() && i.state == IntentState::Succeeded ? failed.value(i.paymentKey) : nullptr;
        if (refund && i.id > refund->id && owed.contains(refund->key))
            owed[refund->key] -= i.amount.minorUnits();
    }
    owed.removeIf([](const QHash<QString, qint64>::iterator &it) {
        return it.value() <= 0;
    });
    return owed;
}

QString tenderStateName(const Intent &part)
{
    if (part.givenUpAt > 0 && !isFinal(part.state))
        return QStringLiteral("given_up");
    return intentStateName(part.state);
}

SalePosition positionOf(const Sale &sale)
{
    SalePosition p;
    for (const Intent &i : sale.intents) {
        if (i.isRefund()) {
            if (i.isCash()) {
                if (i.state == IntentState::Succeeded)
                    p.handedBack += i.amount.minorUnits();
            } else if (isAutoRefundKey(i.key)) {
                if (i.state == IntentState::Succeeded)
                    p.refundedByTill += i.amount.minorUnits();
                else if (!isFinal(i.state))
                    p.refundingByTill += i.amount.minorUnits();
            }
            continue;
        }
        if (i.givenUpAt > 0) {
            if (!isFinal(i.state))
                ++p.givenUpOpen;
            continue;
        }
        if (i.state == IntentState::Succeeded)
            p.paid += i.amount.minorUnits();
        else if (!isFinal(i.state)) {
            p.waiting += i.amount.minorUnits();
            if (!i.isCash() && p.openCardKey.isEmpty())
                p.openCardKey = i.key;
        }
    }
    const qint64 total = sale.total.minorUnits();
    p.remaining = qMax<qint64>(0, total - p.paid - p.waiting);
    p.covered = p.paid >= total;
    return p;
}

}   // namespace OncePay
