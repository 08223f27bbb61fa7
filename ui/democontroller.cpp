#include "democontroller.h"

#include "faultproxy.h"
#include "idempotencykey.h"
#include "simulationclient.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace OncePay::Ui {

DemoController::DemoController(TillSession *session, DemoLinks demo, CheckoutViewModel *checkout, QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_demo(demo)
    , m_checkout(checkout)
{
    m_poll.setInterval(100);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        if (m_step < 0 || m_step >= m_steps.size())
            return;
        const Step &s = m_steps.at(m_step);
        if (s.done && !s.done())
            return;
        m_poll.stop();
        QTimer::singleShot(m_pauseMs, this, [this] {
            if (m_step < 0)
                return;
            ++m_step;
            runStep();
        });
    });
}

QString DemoController::title(Story story)
{
    switch (story) {
    case Story::DoubleClick: return tr("A double click on Pay");
    case Story::AnswerLost: return tr("Charged, but the answer was lost");
    case Story::HourOffline: return tr("An hour offline, then the queue drains");
    case Story::KeyReused: return tr("The same key reused with another amount");
    }
    return {};
}

void DemoController::play(Story story)
{
    stop();
    m_story = story;
    m_key.clear();
    m_charges = -1;
    m_firstStatus = m_secondStatus = 0;
    m_steps = stepsFor(story);
    m_step = 0;
    runStep();
}

void DemoController::stop()
{
    m_poll.stop();
    m_step = -1;
}

void DemoController::runStep()
{
    if (m_step < 0)
        return;
    if (m_step >= m_steps.size()) {
        m_step = -1;
        emit finished(m_story);
        return;
    }
    const Step &s = m_steps.at(m_step);
    emit captionChanged(s.caption(), m_step + 1, int(m_steps.size()));
    if (s.action)
        s.action();
    m_poll.start();
}

void DemoController::askLedger(const QString &key, std::function<void(int)> then)
{
    // The bank's own ledger, asked straight (not through the simulated network).
    m_demo.simulation->charges(key, this, [then = std::move(then)](bool, const QString &, const QList<LedgerCharge> &rows) {
        int charges = 0;
        for (const LedgerCharge &c : rows)
            charges += c.charged;
        then(charges);
    });
}

QList<DemoController::Step> DemoController::stepsFor(Story story)
{
    using P = CheckoutViewModel::Phase;
    auto text = [](const QString &t) { return std::function<QString()>([t] { return t; }); };
    auto network = [this](NetSim::Mode mode) {
        NetSim::Settings s;
        s.mode = mode;
        m_demo.network->setSettings(s);
        m_session->engine()->checkConnectionNow();
    };
    auto newSaleWith = [this](std::initializer_list<const char *> codes) {
        m_checkout->startNewSale();
        QString reason;
        for (const char *c : codes)
            m_checkout->addProduct(QString::fromLatin1(c), &reason);
    };
    // Asks the bank's ledger about the sale's payment; the next caption reports what it said.
    auto askBank = [this](const QString &caption) {
        return Step{[caption] { return caption; },
                    [this] { askLedger(m_checkout->intent() ? m_checkout->intent()->key : QString(),
                                       [this](int n) { m_charges = n; }); },
                    [this] { return m_charges >= 0; }};
    };
    auto bankSaid = [this](const char *text) {
        return Step{[this, text] { return tr(text).arg(m_charges); }, {}, {}};
    };
    auto post = [this](qint64 amount, int *status) {
        Intent i;
        i.key = m_key;
        i.orderId = QStringLiteral("DEMO-REUSE");
        i.amount = Money(amount, QStringLiteral("CNY"));
        i.paymentMethod = QStringLiteral("tok_visa");
        m_session->client()->postPayment(i, this, [status](const GatewayResult &r) { *status = r.answered() ? r.status : -1; });
    };

    switch (story) {
    case Story::DoubleClick:
        return {
            {text(tr("A customer buys rice and tea. The network is fine.")),
             [=] { network(NetSim::Mode::Online); newSaleWith({"6901234500097", "6901234500011"}); }, {}},
            {text(tr("The cashier double-clicks Pay. The first click locks the button in its own handler; the second finds it locked.")),
             [this] { m_checkout->payByCard(QStringLiteral("tok_visa")); m_checkout->payByCard(QStringLiteral("tok_visa")); },
             [this] { return m_checkout->phase() == P::Paid; }},
            askBank(tr("Paid. Asking the bank's own ledger how many times it charged…")),
            bankSaid(QT_TR_NOOP("The bank's ledger shows %1 charge(s) for this payment: one intent, one key.")),
        };
    case Story::AnswerLost:
        return {
            {text(tr("The network now loses every answer: requests arrive, answers never come back.")),
             [=] { network(NetSim::Mode::LoseResponses); newSaleWith({"6901234500134"}); }, {}},
            {text(tr("The cashier pays. The bank charges the card, but the till never hears back.")),
             [this] { m_checkout->payByCard(QStringLiteral("tok_visa")); },
             [this] { return m_checkout->phase() == P::Checking; }},
            {text(tr("The till does not guess and does not charge again: it shows \"checking with the server\" and keeps the sale locked.")),
             {}, {}},
            {text(tr("The network comes back. The till asks the gateway by the payment's key…")),
             [=] { network(NetSim::Mode::Online); },
             [this] { return m_checkout->phase() == P::Paid; }},
            askBank(tr("The gateway says: paid. Asking the bank's ledger…")),
            bankSaid(QT_TR_NOOP("%1 charge(s) in the bank's ledger: resolved by asking, not by charging again.")),
        };
    case Story::HourOffline:
        return {
            {text(tr("The connection drops (think of an hour without network).")),
             [=] { network(NetSim::Mode::Offline); }, {}},
            {text(tr("Three customers pay by card. Each payment is stored with its key and waits in the queue.")),
             [this] {
                 const QString batch = QString::number(QDateTime::currentMSecsSinceEpoch());
                 for (int i = 0; i < 3; ++i)
                     m_session->engine()->pay(QStringLiteral("DEMO-%1-%2").arg(batch).arg(i),
                                              Money(1500 + 100 * i, QStringLiteral("CNY")), QStringLiteral("tok_visa"),
                                              [](bool, const QString &, const Intent &) {});
             },
             [this] { return m_session->engine()->waitingCount() >= 3; }},
            {text(tr("The status bar shows what waits and when the next try is. Now the network returns…")),
             [=] { network(NetSim::Mode::Online); },
             [this] { return m_session->engine()->waitingCount() == 0; }},
            {text(tr("The queue drained by itself, oldest first, each payment with its own key.")), {}, {}},
        };
    case Story::KeyReused:
        return {
            {text(tr("A buggy client sends a payment of ¥10.00 with a new key…")),
             [this, post] {
                 m_key = IdempotencyKey::generate(QStringLiteral("demo")).value();
                 post(1000, &m_firstStatus);
             },
             [this] { return m_firstStatus != 0; }},
            {text(tr("…then the same key with ¥20.00.")),
             [this, post] { post(2000, &m_secondStatus); },
             [this] { return m_secondStatus != 0; }},
            {[this] {
                 return tr("The gateway answered %1 to the first and %2 to the second: a key belongs to one request, and the original payment is untouched.")
                     .arg(m_firstStatus).arg(m_secondStatus);
             }, {}, {}},
        };
    }
    return {};
}

} // namespace OncePay::Ui
