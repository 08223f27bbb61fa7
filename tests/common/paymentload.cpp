#include "paymentload.h"

#include "gatewayapi.h"

#include <QNetworkReply>
#include <QTimer>

using namespace GatewayApi;

PaymentLoad::PaymentLoad(const QList<QUrl> &targets, int loops, Targeting targeting, int timeoutMs)
    : m_targets(targets)
    , m_targeting(targeting)
{
    for (int i = 0; i < loops; ++i) {
        m_clients.push_back(std::make_unique<HttpClient>());
        m_clients.back()->setTimeoutMs(timeoutMs);
        m_round << i;
    }
    for (int i = 0; i < targets.size(); ++i)
        m_finishedOn << 0;
}

PaymentLoad::~PaymentLoad()
{
    m_stopped = true;
}

void PaymentLoad::start()
{
    m_stopped = false;
    for (int loop = 0; loop < int(m_clients.size()); ++loop)
        send(loop);
}

void PaymentLoad::send(int loop)
{
    if (m_stopped)
        return;
    const int n = m_sent++;
    const int target = (m_targeting == Targeting::Pinned ? loop : m_round[loop]++) % int(m_targets.size());
    // Mostly approvals, every fifth a decline: both are final answers the ledger must agree with.
    const QByteArray body = paymentBody(100 + n, n % 5 == 4 ? QStringLiteral("tok_chargeDeclined") : QStringLiteral("tok_visa"),
        QStringLiteral("ord-load-%1").arg(n));
    const QString key = uniqueKey(QStringLiteral("load"));
    HttpClient *client = m_clients[size_t(loop)].get();
    client->setBaseUrl(m_targets[target]);
    QNetworkReply *reply = client->start({"POST", QStringLiteral("/v1/payments"), body, keyHeader(key)});
    ++m_inFlight;
    m_watcher.watch(reply, [=](QNetworkReply *reply, const OncePay::ReplyProgress &) {
        m_outcomes << Outcome{key, body, target, client->collect(reply)};
        --m_inFlight;
        ++m_finishedOn[target];
        // The next payment of this loop from the event loop, not from inside the reply's signal.
        QTimer::singleShot(0, &m_context, [this, loop] {
            send(loop);
        });
    });
}
