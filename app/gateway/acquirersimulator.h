#pragma once

#include "sqlbatchworker.h"

#include <QJsonObject>
#include <QObject>
#include <QString>

#include <functional>
#include <optional>
#include <memory>

namespace OncePay::Gateway {

struct ChargeRequest
{
    QString merchant;
    QString key;        // the gateway passes the payment's idempotency key down
    qint64 amount = 0;
    QString currency;
    QString token;
};

struct AcquirerAnswer
{
    enum class Kind {
        Approved,
        Declined,
        AnswerLost,   // the request may have been executed but no answer came back
        Refused,      // refused before charging: nothing happened
        NotFound,     // lookup: the acquirer never saw this key
    };
    Kind kind = Kind::AnswerLost;
    QString declineCode;
    QString error;
};

struct LedgerEntry
{
    QString key;
    qint64 amount = 0;
    QString currency;
    QString status;     // succeeded or declined
    QString declineCode;
    qint64 createdAt = 0;
    QJsonObject toJson() const;
};

// The simulated bank. It keeps its own ledger in its own SQLite file, outside the gateway's
// transactions, and is idempotent by (merchant, key): charging a key twice charges once.
// Test tokens and the simulation mode decide the outcome.
class AcquirerSimulator final : public QObject
{
    Q_OBJECT

public:
    enum class Mode { Normal, DeclineAll, TimeoutAfterCharge, ErrorBeforeCharge };
    Q_ENUM(Mode)

    explicit AcquirerSimulator(const QString &ledgerPath, QObject *parent = nullptr);
    ~AcquirerSimulator() override;

    bool open(QString *error);
    void close();
    qint64 ledgerCommits() const { return m_worker ? m_worker->batchesCommitted() : 0; }
    qint64 ledgerUnits() const { return m_worker ? m_worker->unitsCommitted() : 0; }

    static bool isKnownToken(const QString &token);
    static QString modeName(Mode mode);
    static std::optional<Mode> modeFromName(const QString &name);

    void setMode(Mode mode, int latencyMs);
    Mode mode() const { return m_mode; }
    int latencyMs() const { return m_latencyMs; }

    using AnswerCallback = std::function<void(const AcquirerAnswer &)>;
    // Both answer on `context`'s thread. The latency of the mode applies before the bank acts.
    void charge(const ChargeRequest &request, QObject *context, AnswerCallback done);
    void lookup(const QString &merchant, const QString &key, QObject *context, AnswerCallback done);
    void ledger(const QString &merchant, const QString &key, QObject *context,
                std::function<void(bool ok, QList<LedgerEntry>)> done);

private:
    void execute(const ChargeRequest &request, Mode mode, QObject *context, AnswerCallback done);

    std::unique_ptr<SqlBatchWorker> m_worker;
    QString m_path;
    Mode m_mode = Mode::Normal;
    int m_latencyMs = 0;
};

} // namespace OncePay::Gateway
