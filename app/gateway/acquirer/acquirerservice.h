#pragma once

#include <QHostAddress>
#include "gateway/acquirer/acquirer.h"
#include "http/httprequest.h"
#include "http/httpresponder.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace OncePay::Http {
class HttpServer;
struct HttpAnswer;
}   // namespace OncePay::Http

namespace OncePay::Gateway {

class AcquirerSimulator;

// The simulated acquirer as a service of its own (`oncepay-acquirer`): a small JSON API over
// one AcquirerSimulator, shared by every gateway started with --acquirer (docs/api.md,
// "oncepay-acquirer's API"). No authentication: it listens on a private address.
class AcquirerService final : public QObject
{
    Q_OBJECT

public:
    struct Config
    {
        QHostAddress address = QHostAddress::LocalHost;
        quint16 port = 0;
        QString dbPath;   // the ledger (SQLite), created if missing
        qint64 keyMemoryMs = 0;   // forgets idempotency keys older than this (0: never)
    };

    explicit AcquirerService(Config config, QObject *parent = nullptr);
    ~AcquirerService() override;

    bool start(QString *error);
    quint16 port() const { return m_port; }
    QString baseUrl() const;

    // Stops accepting connections and closes the ledger after the work queued in it.
    void stop();

private:
    struct Request;
    using Respond = std::function<void(const Http::HttpAnswer &)>;

    void handle(Http::HttpRequest &&request, const Http::HttpResponder &responder);
    void route(const Request &rq, const Respond &respond);
    void postCharge(const Request &rq, const Respond &respond);
    void postReversal(const Request &rq, const Respond &respond);
    void postRefund(const Request &rq, const Respond &respond);
    // Runs `execute` with a context that lives as long as the caller's connection, and answers
    // its outcome (or drops the answer: a simulated loss).
    void executeMoney(const Request &rq, const QString &what, const QString &key, bool losesAnswer,
        const std::function<void(QObject *, Acquirer::AnswerCallback)> &execute, const Respond &respond);
    void getCharge(const Request &rq, const QString &merchant, const Respond &respond);
    void getRefund(const Request &rq, const QString &merchant, const Respond &respond);
    void getLedger(const Request &rq, const QString &merchant, const Respond &respond);
    void getRefundLedger(const Request &rq, const QString &merchant, const Respond &respond);
    void simulation(const Request &rq, const QString &merchant, const Respond &respond);

    Config m_config;
    quint16 m_port = 0;
    std::unique_ptr<AcquirerSimulator> m_simulator;
    Http::HttpServer *m_server = nullptr;
};

}   // namespace OncePay::Gateway
