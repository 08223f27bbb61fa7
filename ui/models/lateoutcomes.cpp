#include "lateoutcomes.h"

#include "intentjournal.h"
#include "sale.h"
#include "syncengine.h"

namespace OncePay::Ui {

LateOutcomes::LateOutcomes(IntentJournal *journal, SyncEngine *engine, QObject *parent)
    : QObject(parent)
    , m_journal(journal)
{
    connect(engine, &SyncEngine::intentChanged, this, &LateOutcomes::intentChanged);
}

void LateOutcomes::load()
{
    m_journal->lateOutcomes(this, [this](bool ok, const TillError &, const QList<Intent> &intents) {
        if (!ok)
            return;
        for (const Intent &i : intents) {
            if (isFinal(i.state))
                addAlert(i);
            else
                m_followed.insert(i.key);
        }
    });
}

void LateOutcomes::customerLeft(const Intent &intent)
{
    if (isFinal(intent.state) || m_followed.contains(intent.key))
        return;
    m_followed.insert(intent.key);
    m_journal->markCustomerLeft(intent.key, this, [](bool, const TillError &, bool) {});
}

void LateOutcomes::acknowledge(const QString &key)
{
    const auto it = std::find_if(m_alerts.cbegin(), m_alerts.cend(), [&key](const Intent &i) {
        return i.key == key;
    });
    if (it == m_alerts.cend())
        return;
    m_alerts.erase(it);
    m_acknowledged.insert(key);
    emit alertsChanged();
    m_journal->acknowledge(key, this, [](bool, const TillError &, bool) {});
}

bool LateOutcomes::isRefundOfChargedLate(const Intent &intent)
{
    return intent.isRefund() && isAutoRefundKey(intent.key) && intent.reason == chargedLateReason() && intent.customerLeftAt > 0;
}

void LateOutcomes::intentChanged(const Intent &intent)
{
    const bool tillRefund = isRefundOfChargedLate(intent);
    if (tillRefund && !isFinal(intent.state)) {
        m_followed.insert(intent.key);   // stored while the till runs: followed from here
        return;
    }
    if (!isFinal(intent.state) || !m_followed.remove(intent.key))
        return;
    if (tillRefund) {
        // Said once, whether refunded (tell the customer) or not (a person must give it back).
        if (intent.state == IntentState::Voided || m_acknowledged.contains(intent.key) || intent.acknowledgedAt > 0)
            return;
        addAlert(intent);
        emit alertRaised(intent);
        return;
    }
    if (intent.state == IntentState::Succeeded) {
        emit settledQuietly(intent);
        return;
    }
    if (intent.state == IntentState::Voided)
        return;   // the cashier cancelled it on the till, knowingly: nothing to alert about
    addAlert(intent);
    emit alertRaised(intent);
}

void LateOutcomes::addAlert(const Intent &intent)
{
    for (const Intent &a : std::as_const(m_alerts)) {
        if (a.key == intent.key)
            return;
    }
    m_alerts.append(intent);
    emit alertsChanged();
}

}   // namespace OncePay::Ui
