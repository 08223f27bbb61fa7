#pragma once

#include "intent.h"

#include <QList>
#include <QObject>
#include <QSet>

namespace OncePay {
class IntentJournal;
class SyncEngine;
}   // namespace OncePay

namespace OncePay::Ui {

// The payments of customers who left before the payment was final (the cashier served the
// next one while it waited, or while the gateway did not answer). The till settles them by
// itself; when one ends:
//  - paid: settledQuietly() (a passing word is enough);
//  - declined or needing attention: an alert, kept (in the journal, across restarts) until the
//    cashier acknowledges it, because the goods left without being paid for.
// The till's own refund of a card part charged after the customer paid another way (issue 36) is
// an alert too, once it ends, kept the same way: the customer is gone and must hear of it.
class LateOutcomes final : public QObject
{
    Q_OBJECT

public:
    LateOutcomes(IntentJournal *journal, SyncEngine *engine, QObject *parent = nullptr);

    // Reads what an earlier run left: the open payments followed, the alerts not acknowledged.
    void load();
    // The customer of this payment left (it is not final): follow it.
    void customerLeft(const Intent &intent);
    void acknowledge(const QString &key);

    QList<Intent> alerts() const { return m_alerts; }   // oldest first
    // A refund the till made by itself of a card part charged after the customer paid another
    // way (IntentJournal::createAutoRefund): followed like a payment whose customer left.
    static bool isRefundOfChargedLate(const Intent &intent);
    int followedCount() const { return int(m_followed.size()); }

signals:
    void alertRaised(const OncePay::Intent &intent);   // a new one, as it happens
    void alertsChanged();
    void settledQuietly(const OncePay::Intent &intent);

private:
    void intentChanged(const Intent &intent);
    void addAlert(const Intent &intent);

    IntentJournal *m_journal;
    QSet<QString> m_followed;   // keys of payments left before they were final
    QList<Intent> m_alerts;
    QSet<QString> m_acknowledged;   // this run's: an intent told again is not raised again
};

}   // namespace OncePay::Ui
