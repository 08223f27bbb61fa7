// The demo's stories as steps: what each caption says, what the step does on the real till, and
// what it waits for before Next goes on. How a story plays is democontroller.cpp.
#include "democontroller.h"

#include "idempotencykey.h"
#include "simulatednetwork.h"
#include "simulationclient.h"

#include <QJsonObject>
#include <QRandomGenerator>

#include <algorithm>

namespace OncePay::Ui {

QList<DemoController::Step> DemoController::stepsFor(Story story)
{
    using P = CheckoutViewModel::Phase;
    auto text = [](const QString &t) {
        return std::function<QString()>([t] {
            return t;
        });
    };
    auto network = [this](NetSim::Mode mode) {
        setNetwork(mode);
    };
    auto newSaleWith = [this](std::initializer_list<const char *> codes) {
        m_checkout->startNewSale();
        QString reason;
        for (const char *c : codes)
            m_checkout->addProduct(QString::fromLatin1(c), &reason);
    };
    // A story's first step: a new sale of `code`, the network online.
    auto onlineSaleOf = [text, network, newSaleWith](const QString &caption, const char *code) {
        return Step{text(caption), [network, newSaleWith, code] {
                        network(NetSim::Mode::Online);
                        newSaleWith({code});
                    },
            {}};
    };
    // Paid by card, and every answer lost from the moment the payment leaves the till.
    auto payWithAnswersLost = [this] {
        loseAnswersOfThePayment();
        m_checkout->payByCard(QStringLiteral("tok_visa"));
    };
    // Asks the bank's ledger about the sale's payment; the next caption reports what it said.
    auto askBank = [this](const QString &caption) {
        return Step{[caption] {
                        return caption;
                    },
            [this] {
                if (m_checkout->intent() && !m_keys.contains(m_checkout->intent()->key))
                    m_keys << m_checkout->intent()->key;
                askLedger(m_keys, [this](int n) {
                    m_charges = n;
                });
            },
            [this] {
                return m_charges >= 0;
            }};
    };
    auto bankSaid = [this](const char *text) {
        return Step{[this, text] {
                        return tr(text, nullptr, m_charges);
                    },
            {}, {}};
    };
    auto post = [this](qint64 amount, int *status) {
        if (!m_otherRegister) {
            // The demo gateway's second register (API.md, demo credentials), reached straight.
            m_otherRegister = new GatewayClient(m_demo.simulation->gatewayUrl(), QStringLiteral("sk_test_demo_till2"),
                5000, this);
        }
        Intent i;
        i.key = m_key;
        i.orderId = QStringLiteral("DEMO-REUSE");
        i.amount = Money(amount, QStringLiteral("CNY"));
        i.paymentMethod = QStringLiteral("tok_visa");
        m_otherRegister->postPayment(i, this, [status](const GatewayResult &r) {
            *status = r.answered() ? r.status : -1;
        });
    };
    // One customer of the offline story: rung up, paid by card, kept in the queue.
    auto offlineCustomer = [this, newSaleWith](const char *code) {
        return [this, newSaleWith, code] {
            if (m_checkout->intent())
                m_checkout->startNewSale();   // the previous customer went home; their payment waits
            newSaleWith({code});
            m_checkout->payByCard(QStringLiteral("tok_visa"));
        };
    };
    auto queued = [this] {
        if (m_checkout->phase() != P::WaitingForConnection || !m_checkout->intent())
            return false;
        if (!m_keys.contains(m_checkout->intent()->key))
            m_keys << m_checkout->intent()->key;
        return true;
    };

    switch (story) {
    case Story::DoubleClick:
        return {
            {text(tr("A customer buys rice and tea.")),
                [=] {
                    network(NetSim::Mode::Online);
                    newSaleWith({"6901234500097", "6901234500011"});
                },
                {}},
            {text(tr("The cashier taps Pay twice by accident. Watch the Pay button: the second tap bounces off.")),
                [this] {
                    emit doubleClickRequested();
                },
                [this] {
                    return m_checkout->phase() == P::Paid;
                },
                true},
            askBank(tr("Paid. Asking the bank how many times it charged the customer…")),
            bankSaid(QT_TR_N_NOOP("The bank charged the customer %n time(s). A nervous double tap never charges twice.")),
        };
    case Story::AnswerLost:
        return {
            onlineSaleOf(tr("A customer buys an umbrella. The till is online."), "6901234500134"),
            {text(tr("The cashier pays, and from that moment the network loses every answer: the request arrives, the "
                     "bank charges the card, but the till never hears back.")),
                payWithAnswersLost,
                [this] {
                    return answerLost();
                },
                true},
            {text(tr("The till does not guess and does not charge again: it shows \"checking with the server\" and keeps the sale locked.")),
                {}, {}},
            {text(tr("The network comes back. The till asks the gateway by the payment's key…")),
                [=] {
                    network(NetSim::Mode::Online);
                },
                [this] {
                    return m_checkout->phase() == P::Paid;
                }},
            askBank(tr("The gateway says: paid. Asking the bank's ledger…")),
            bankSaid(QT_TR_N_NOOP("%n charge(s) in the bank's ledger: resolved by asking, not by charging again.")),
        };
    case Story::HourOffline:
        return {
            {text(tr("The shop's internet goes down (think of an hour without it). Below: the payments still waiting.")),
                [=] {
                    network(NetSim::Mode::Offline);
                    emit queueRequested();
                },
                {}},
            {text(tr("A customer buys rice and pays by card. The till keeps the payment in its queue; the customer goes home.")),
                offlineCustomer("6901234500097"), queued},
            {text(tr("The next customer: tea, by card. The queue grows.")),
                offlineCustomer("6901234500011"), queued},
            {text(tr("A third: noodles. Three payments wait, each written down before anything was sent.")),
                offlineCustomer("6901234500073"), queued},
            {text(tr("The internet is back. Watch the queue empty by itself, oldest first.")),
                [=] {
                    network(NetSim::Mode::Online);
                },
                [this] {
                    return m_session->engine()->waitingCount() == 0;
                }},
            askBank(tr("Every payment went through. Asking the bank how many times it charged…")),
            bankSaid(QT_TR_N_NOOP("%n charge(s) in the bank's ledger for the three sales: each sent once, however long it waited.")),
        };
    case Story::PaidAnotherWay:
        return {
            onlineSaleOf(tr("A customer buys noodles. The till is online."), "6901234500073"),
            {text(tr("The cashier pays by card, and from that moment the network loses every answer: the bank charges "
                     "the card, but the till never hears back.")),
                payWithAnswersLost,
                [this] {
                    if (!answerLost())
                        return false;
                    m_key = m_checkout->intent()->key;
                    m_keys = {m_key};
                    return true;
                },
                true},
            {text(tr("The customer will not wait and pays cash. The cashier presses F6, \"Customer pays another way\": "
                     "the card is given up in the journal, not forgotten.")),
                [this] {
                    // The till's own refund of the card, if it turns out charged, is watched from now.
                    disconnect(m_watch);
                    m_watch = connect(m_session->engine(), &SyncEngine::intentChanged, this, [this](const Intent &i) {
                        if (i.key == autoRefundKey(m_key) && i.state == IntentState::Succeeded)
                            m_tillRefunded = true;
                    });
                    m_checkout->payAnotherWay();
                },
                [this] {
                    return m_checkout->canPay();
                }},
            cashForTheRest(tr("The cashier takes the cash. The sale is paid once, in cash.")),
            {text(tr("The network comes back. The till asks about the given-up card: it was charged. So the till refunds "
                     "it through the bank by itself, once, with a key made from the card's.")),
                [=] {
                    network(NetSim::Mode::Online);
                },
                [this] {
                    return m_tillRefunded;
                }},
            {text(tr("Refunded. Asking the bank's own ledger…")),
                [this] {
                    askLedger(m_keys, [this](int n) {
                        m_charges = n;
                    });
                    m_demo.simulation->refunds(m_key, this, [this](bool, const QString &, const QList<LedgerRefund> &rows) {
                        m_refunds = int(std::count_if(rows.cbegin(), rows.cend(), [](const LedgerRefund &r) {
                            return r.refunded;
                        }));
                    });
                },
                [this] {
                    return m_charges >= 0 && m_refunds >= 0;
                }},
            {[this] {
                 return tr("The bank's ledger: %1 and %2 for the card. The customer paid once, in cash; the shift report "
                           "says \"charged late, refunded automatically\".")
                     .arg(tr("%n charge(s)", nullptr, m_charges), tr("%n refund(s)", nullptr, m_refunds));
             },
                [this] {
                    disconnect(m_watch);
                },
                {}},
        };
    case Story::WalletGivenUp:
        return walletStory();
    case Story::KeyReused:
        return {
            {text(tr("Another register of the shop, with buggy software, sends a payment of ¥10.00…")),
                [this, post] {
                    m_key = IdempotencyKey::generate(QStringLiteral("demo")).value();
                    post(1000, &m_firstStatus);
                },
                [this] {
                    return m_firstStatus != 0;
                }},
            {text(tr("…then sends the same payment again by mistake, with the same key but ¥20.00.")),
                [this, post] {
                    post(2000, &m_secondStatus);
                },
                [this] {
                    return m_secondStatus != 0;
                }},
            {[this] {
                 const QString first = m_firstStatus == 201 ? tr("took the first payment") : tr("did not take the first payment");
                 const QString second = m_secondStatus == 422 ? tr("refused the second: that key already belongs to another amount")
                                                              : tr("did not refuse the second");
                 return tr("The gateway %1 and %2. The customer pays ¥10.00 once; the bank's ledger opens next. "
                           "It was the other register's payment: this till's shift does not count it.")
                     .arg(first, second);
             },
                [this] {
                    m_keys << m_key;
                },
                {}},
        };
    }
    return {};
}

bool DemoController::answerLost() const
{
    // Sent, and its answer lost: the till asks the gateway by the key ("checking with the
    // server", after a while "not confirmed yet"), and never charges again meanwhile.
    const std::optional<Intent> i = m_checkout->intent();
    return i && !i->isCash() && (m_checkout->phase() == CheckoutViewModel::Phase::Checking || i->state == IntentState::Unknown);
}

DemoController::Step DemoController::cashForTheRest(const QString &caption)
{
    return {[caption] {
                return caption;
            },
        [this] {
            Money change;
            QString reason;
            m_checkout->payCash(m_checkout->remaining(), &change, &reason);
        },
        [this] {
            return m_checkout->phase() == CheckoutViewModel::Phase::Paid;
        }};
}

QList<DemoController::Step> DemoController::walletStory()
{
    using P = CheckoutViewModel::Phase;
    auto text = [](const QString &t) {
        return std::function<QString()>([t] {
            return t;
        });
    };
    // The bank's word for the wallet payment's charge: "none" when it holds no row.
    auto askLedgerStatus = [this] {
        m_demo.simulation->charges(m_key, this, [this](bool ok, const QString &, const QList<LedgerCharge> &rows) {
            if (ok)
                m_ledgerStatus = rows.isEmpty() ? QStringLiteral("none") : rows.constLast().status;
        });
    };
    return {
        {text(tr("A customer buys tea and pays with a wallet app: the cashier scans the payment code on their phone. "
                 "No key to press.")),
            [this] {
                setNetwork(NetSim::Mode::Online);
                m_checkout->startNewSale();
                QString reason;
                m_checkout->addProduct(QStringLiteral("6901234500011"), &reason);
                // The demo bank's rule: a code ending in 1 is confirmed on the phone after a
                // while; this customer takes just longer than the cashier waits.
                QString code = QStringLiteral("13");
                for (int i = 0; i < 15; ++i)
                    code += QString::number(QRandomGenerator::global()->bounded(10));
                code += QLatin1Char('1');
                m_demo.simulation->setAcquirer(QJsonObject{{QStringLiteral("wallet_confirm_ms"), m_pauseMs + 2000}}, this,
                    [this, code](bool, const QString &, bool) {
                        QString why;
                        m_checkout->payByWallet(code, &why);
                    });
            },
            [this] {
                if (m_checkout->phase() != P::BankProcessing || !m_checkout->intent())
                    return false;
                if (m_key.isEmpty()) {
                    m_key = m_checkout->intent()->key;
                    m_keys = {m_key};
                    // The bank is slow from now on: its answers take 2.5 s.
                    m_demo.simulation->setAcquirer(QJsonObject{{QStringLiteral("latency_ms"), 2500}}, this, [](bool, const QString &, bool) {});
                }
                return true;
            },
            true},
        {text(tr("The wallet asks the customer to confirm on the phone, and the till counts down. The customer cannot "
                 "find the phone; the cashier presses F6, \"Customer gave up\": the till cancels the payment at the bank "
                 "through the gateway, once, with its own key. Just then, the customer confirms…")),
            [this] {
                m_checkout->payAnotherWay();
            },
            [this] {
                return m_checkout->canPay();
            }},
        cashForTheRest(tr("The sale stays on the till; the customer pays cash.")),
        {text(tr("Asking the bank's own ledger about the wallet payment…")),
            [this, askLedgerStatus] {
                m_ledgerStatus.clear();
                askLedgerStatus();
            },
            [this, askLedgerStatus] {
                // Until the cancel has reached the slow bank: then the charge is reversed, or was never made.
                if (m_ledgerStatus == QLatin1String("reversed") || m_ledgerStatus == QLatin1String("none")
                    || m_ledgerStatus == QLatin1String("declined")) {
                    m_demo.simulation->setAcquirer(QJsonObject{{QStringLiteral("latency_ms"), 0}}, this, [](bool, const QString &, bool) {});
                    return true;
                }
                if (!m_ledgerStatus.isEmpty()) {
                    m_ledgerStatus.clear();
                    askLedgerStatus();
                }
                return false;
            }},
        {[this] {
             if (m_ledgerStatus == QLatin1String("reversed"))
                 return tr("The bank's ledger: the late confirmation was charged, and reversed by the cancel: money back, "
                           "never kept. The customer paid once, in cash.");
             return tr("The bank's ledger: no charge for the wallet payment, cancelled before the customer confirmed. "
                       "The customer paid once, in cash.");
         },
            {}, {}},
    };
}

}   // namespace OncePay::Ui
