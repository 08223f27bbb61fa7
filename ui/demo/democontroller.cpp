// DemoController, how a story plays: its steps one after another, each caption shown, its action
// run once the till can take it, Next held while the step works, and a step that does not get
// where it goes said so. The stories themselves are demostories.cpp.
#include "democontroller.h"

#include "simulatednetwork.h"
#include "simulationclient.h"
#include "tillstatus.h"
#include "timeutil.h"

#include <QJsonObject>

namespace OncePay::Ui {

DemoController::DemoController(TillSession *session, DemoLinks demo, CheckoutViewModel *checkout, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_demo(demo)
    , m_checkout(checkout)
{
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, &DemoController::tick);
    m_advance.setSingleShot(true);
    connect(&m_advance, &QTimer::timeout, this, &DemoController::advance);
    m_watchdog.setSingleShot(true);
    connect(&m_watchdog, &QTimer::timeout, this, [this] {
        if (m_step >= 0 && m_working)
            emit stepStuck(tr("This step could not go on: %1").arg(whatTheTillIsDoing()));
    });
}

void DemoController::advance()
{
    if (m_step < 0)
        return;
    ++m_step;
    runStep();
}

void DemoController::next()
{
    // Only once the step's own work is done: Next never skips past what it shows.
    if (m_step < 0 || m_working)
        return;
    m_advance.stop();
    advance();
}

QString DemoController::title(Story story)
{
    switch (story) {
    case Story::DoubleClick:
        return tr("A double click on Pay");
    case Story::AnswerLost:
        return tr("Charged, but the answer was lost");
    case Story::HourOffline:
        return tr("An hour offline, then the queue drains");
    case Story::KeyReused:
        return tr("The same key reused with another amount");
    case Story::PaidAnotherWay:
        return tr("The card's answer is lost, the customer pays cash, the till refunds the card by itself");
    case Story::WalletGivenUp:
        return tr("A wallet payment: the customer takes too long to confirm, the cashier gives up");
    }
    return {};
}

void DemoController::play(Story story)
{
    stop();
    m_story = story;
    m_key.clear();
    m_keys.clear();
    m_charges = -1;
    m_refunds = -1;
    m_tillRefunded = false;
    m_ledgerStatus.clear();
    // A clean start: no sale in progress, the network and the bank as normal, and the till told
    // at once (a story stopped while the network lost answers left it probing a silent gateway).
    m_checkout->startNewSale();
    setNetwork(NetSim::Mode::Online);
    m_demo.simulation->setAcquirer(QJsonObject{{QStringLiteral("mode"), QStringLiteral("normal")}, {QStringLiteral("latency_ms"), 0},
                                       {QStringLiteral("wallet_confirm_ms"), 5000}},
        this, [](bool, const QString &, bool) {});
    m_firstStatus = m_secondStatus = 0;
    m_steps = stepsFor(story);
    m_step = 0;
    runStep();
}

void DemoController::stop()
{
    const bool playing = m_step >= 0;
    disconnect(m_watch);
    disconnect(m_arm);
    m_poll.stop();
    m_advance.stop();
    m_watchdog.stop();
    m_step = -1;
    setWorking(false);
    if (!playing)
        return;
    // What the story did to the network and the bank ends with it: a payment it left waiting
    // goes through, and the till is as the cashier had it.
    setNetwork(NetSim::Mode::Online);
    m_demo.simulation->setAcquirer(QJsonObject{{QStringLiteral("mode"), QStringLiteral("normal")}, {QStringLiteral("latency_ms"), 0}},
        this, [](bool, const QString &, bool) {});
}

void DemoController::setWorking(bool working)
{
    if (working == m_working)
        return;
    m_working = working;
    emit workingChanged(working);
}

void DemoController::setNetwork(NetSim::Mode mode)
{
    NetSim::Settings s;
    s.mode = mode;
    m_demo.network->setSettings(s);
    m_session->engine()->checkConnectionNow();   // like the OS telling the till the network changed
}

void DemoController::loseAnswersOfThePayment()
{
    disconnect(m_arm);
    m_arm = connect(m_session->engine(), &SyncEngine::intentChanged, this, [this](const Intent &i) {
        // Announced once `sending` is durable, just before the request leaves: the request meets
        // the new mode (SimulatedNetwork::setSettings returns once the proxy applies it).
        if (i.orderId != m_checkout->orderId() || i.isRefund() || i.isCash() || i.state != IntentState::Sending)
            return;
        disconnect(m_arm);
        NetSim::Settings s;
        s.mode = NetSim::Mode::LoseResponses;
        m_demo.network->setSettings(s);
    });
}

void DemoController::runStep()
{
    if (m_step < 0)
        return;
    if (m_step >= m_steps.size()) {
        m_step = -1;
        setWorking(false);
        emit ledgerRequested(m_keys);
        emit finished(m_story);
        return;
    }
    const Step &s = m_steps.at(m_step);
    emit captionChanged(s.caption(), m_step + 1, int(m_steps.size()));
    m_actionRun = false;
    if (s.online && m_session->engine()->connectivity() != SyncEngine::Connectivity::Online)
        m_session->engine()->checkConnectionNow();   // once: tick() waits for its answer
    else {
        m_actionRun = true;
        if (s.action)
            s.action();
        if (!s.done)
            return endStep();
    }
    setWorking(true);
    m_watchdog.start(m_stepTimeoutMs);
    m_poll.start();
}

void DemoController::tick()
{
    if (m_step < 0 || m_step >= m_steps.size())
        return;
    const Step s = m_steps.at(m_step);   // a copy: the action may end the story
    if (!m_actionRun) {
        if (m_session->engine()->connectivity() != SyncEngine::Connectivity::Online)
            return;
        m_actionRun = true;
        if (s.action)
            s.action();
        return;   // done is asked from the next tick on, as for a step that acts at once
    }
    if (s.done && !s.done())
        return;
    endStep();
}

void DemoController::endStep()
{
    m_poll.stop();
    m_watchdog.stop();
    setWorking(false);
    m_advance.start(m_pauseMs);
}

QString DemoController::whatTheTillIsDoing() const
{
    // What the cashier's screen says about the sale, and the till's link to its gateway.
    QStringList parts;
    if (!m_checkout->message().isEmpty())
        parts << m_checkout->message();
    parts << TillStatus::connection(TillStatus::read(*m_session, true, QString(), nowMs()));
    return parts.join(QStringLiteral(" · "));
}

void DemoController::askLedger(const QStringList &keys, const std::function<void(int)> &then)
{
    // The bank's own ledger, asked straight (not through the simulated network), for every key.
    auto charges = std::make_shared<int>(0);
    auto pending = std::make_shared<int>(int(keys.size()));
    if (keys.isEmpty())
        return then(0);
    for (const QString &key : keys) {
        m_demo.simulation->charges(key, this, [charges, pending, then](bool, const QString &, const QList<LedgerCharge> &rows) {
            for (const LedgerCharge &c : rows)
                *charges += c.charged;
            if (--*pending == 0)
                then(*charges);
        });
    }
}

}   // namespace OncePay::Ui
