#pragma once

#include "gateway/acquirer/acquirer.h"
#include "gateway/acquirer/acquirersimulation.h"

#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;
class QNetworkRequest;

namespace OncePay {
class ReplyWatcher;
}

namespace OncePay::Gateway {

// The acquirer as a separate service (`oncepay-acquirer`) reached over HTTP. Every request
// has a transfer deadline; transport failures are mapped to what they mean for money:
// Refused only where the request cannot have reached the acquirer, AnswerLost otherwise.
class HttpAcquirer final : public Acquirer
    , public AcquirerSimulation
{
    Q_OBJECT

public:
    static constexpr int defaultTimeoutMs = 10'000;

    explicit HttpAcquirer(const QUrl &baseUrl, int timeoutMs = defaultTimeoutMs, QObject *parent = nullptr);
    ~HttpAcquirer() override;

    bool open(QString *error) override;
    void close() override;

    void charge(const ChargeRequest &request, QObject *context, AnswerCallback done) override;
    void lookup(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) override;
    void reverse(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) override;
    void refund(const RefundCall &call, QObject *context, AnswerCallback done) override;
    void lookupRefund(const QString &merchant, const QString &key, QObject *context, AnswerCallback done) override;
    AcquirerSimulation *simulated() override { return this; }
    void ledger(const QString &merchant, const QString &key, QObject *context, LedgerCallback done) override;
    void refundLedger(const QString &merchant, const QString &chargeKey, QObject *context,
        RefundLedgerCallback done) override;
    void simulation(const QString &merchant, QObject *context, SimulationCallback done) override;
    void setSimulation(const QString &merchant, const SimulationState &state, QObject *context,
        SimulationCallback done) override;

private:
    struct Reply;
    using Finished = std::function<void(const Reply &)>;

    QNetworkRequest request(const QString &path, const QList<QPair<QString, QString>> &query) const;
    // Sends, and calls `finished` on `context`'s thread unless `context` is gone by then.
    void send(const QByteArray &verb, const QNetworkRequest &request, const QByteArray &body, QObject *context,
        Finished finished);
    // POST of a request that moves money (/v1/charges, /v1/refunds), answered as in charge();
    // `timeoutMs` > 0: the caller's deadline, when shorter than the client's own.
    void postMoney(const QString &path, const QJsonObject &body, const QString &key, qint64 timeoutMs,
        QObject *context, AnswerCallback done);
    // GET of a key (/v1/charges, /v1/refunds): NotFound on 404, AnswerLost when it could not ask.
    void lookupAt(const QString &path, const QString &merchant, const QString &key, QObject *context,
        AnswerCallback done);

    QUrl m_baseUrl;
    int m_timeoutMs;
    ReplyWatcher *m_watcher;   // a child made before the manager: close() aborts through it
    QNetworkAccessManager *m_manager = nullptr;
};

}   // namespace OncePay::Gateway
