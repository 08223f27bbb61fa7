#pragma once

#include "gatewaytransport.h"
#include "intentjournal.h"
#include "officeevents.h"

#include <QObject>
#include <QRandomGenerator>
#include <QTimer>
#include <QUrl>

#include <functional>

namespace OncePay {

struct GatewayResult;

// Sends the journal's outbox (OfficeEvents) to the office (../shared/OFFICE.md), in the
// background, with the sync engine's rules: batches of up to 500 events in seq order to
// POST {office}/v1/events; an event is sent (marked so in the journal) once the office's 200
// says it holds it, so after kill -9 at any instant the till resumes from the journal and sends
// again what was not acknowledged (the office counts it as replayed). 409 seq-gap: the office's
// position is asked and the till goes on from there. 422 event-mismatch (or any refusal): it
// stops and says so: an event is never skipped. No answer, 5xx: backoff with full jitter,
// Retry-After as a floor, waits on the monotonic clock (QTimer), the next try a probe of the
// position. Nothing here waits: every read and write of the journal is on its thread.
class OfficeSync final : public QObject
{
    Q_OBJECT

public:
    struct Config
    {
        QUrl office;   // empty: no office (the outbox fills; nothing is sent)
        QString token;
        QString till = QStringLiteral("1");
        int batch = 500;
        qint64 backoffBaseMs = 500;
        qint64 backoffCapMs = 60'000;
        int requestTimeoutMs = 15'000;
        qint64 pollMs = 2'000;   // how often the outbox is looked at while nothing waits
        quint32 seed = 0;   // 0: random jitter
    };
    // Where the till stands with its office, as the status bar and `oncepay-ctl office status`
    // say it.
    struct Status
    {
        int waiting = 0;
        qint64 lastSentSeq = 0;
        qint64 lastSeq = 0;
        qint64 oldestWaitingAtMs = 0;   // epoch ms; 0: nothing waits
        bool stopped = false;   // refused (422, 401, ...): a person must look; `problem` says why
        QString problem;
        bool offline = false;   // the last try had no answer, or a 5xx
    };

    OfficeSync(IntentJournal *journal, GatewayTransport *transport, Config config, QObject *parent = nullptr);

    bool hasOffice() const { return m_config.office.isValid() && !m_config.office.isEmpty(); }
    QUrl office() const { return m_config.office; }
    // Starts sending (no office: only reads the status).
    void start();
    // Something was committed that may have queued an event: look now rather than at the next poll.
    void kick();
    // After the token or address changed: a stopped sender goes again.
    void reconfigure(const QUrl &office, const QString &token);
    Status status() const { return m_status; }
    // Reads the outbox's status from the journal; `done` on this object's thread.
    void readStatus(QObject *context, std::function<void(const Status &)> done);
    int triesInARow() const { return m_failures; }

    static constexpr int kMaxBatch = 500;

signals:
    void statusChanged(const OncePay::OfficeSync::Status &status);
    // The office refused the till's events (422 event-mismatch: the till's record changed; a
    // token refused): sending stopped. In words, for the person at the till and the log.
    void refused(const QString &why);

private:
    enum class Step {
        Idle,
        Reading,
        Sending,
        Probing
    };
    void pump();
    void send(const QList<OfficeEvents::Event> &events);
    void answered(const QList<OfficeEvents::Event> &events, const GatewayResult &result);
    void probe();
    void probed(const GatewayResult &result);
    void acknowledge(qint64 lastSeq);
    void failed(const GatewayResult &result);
    void stop(const QString &why);
    void wait(qint64 ms);
    void setStatus(const OfficeEvents::Status &s);
    GatewayRequest request(const QByteArray &method, const QString &path, const QByteArray &body = {}) const;

    IntentJournal *m_journal;
    GatewayTransport *m_transport;
    Config m_config;
    QRandomGenerator m_rng;
    Status m_status;
    Step m_step = Step::Idle;
    bool m_started = false;
    bool m_again = false;   // kicked while busy
    bool m_probeFirst = false;   // after a failure: ask the position before sending again
    int m_failures = 0;
    QTimer m_timer;   // backoff (monotonic) and polling
};

}   // namespace OncePay

Q_DECLARE_METATYPE(OncePay::OfficeSync::Status)
