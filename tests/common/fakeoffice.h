#pragma once

// A small office as ../shared/OFFICE.md says it answers, in the test's own process, for the
// till's sender (OfficeSync) while oncepay-office is built beside it: POST /v1/events applied by
// (till, seq) with a fingerprint of each event's canonical JSON (replays counted, a mismatch
// 422 event-mismatch naming the seq, a gap 409 seq-gap with expected_seq, a batch all or
// nothing), GET /v1/tills/{till}/position, bearer tokens, and faults to script: 5xx with
// Retry-After, answers lost after the batch was applied.
#include <QElapsedTimer>
#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>

namespace OncePay::Http {
class HttpServer;
class HttpResponder;
struct HttpRequest;
}   // namespace OncePay::Http

class FakeOffice final : public QObject
{
    Q_OBJECT

public:
    explicit FakeOffice(QObject *parent = nullptr);
    ~FakeOffice() override;
    bool start(QString *error);
    QUrl url() const;

    void addTill(const QString &till, const QString &token) { m_tokens.insert(token, till); }

    // The events the office holds of `till`, by seq (each stored once, as first applied).
    QMap<qint64, QJsonObject> events(const QString &till) const { return m_events.value(till); }
    qint64 lastSeq(const QString &till) const;
    // Puts an event there as if an earlier upload had brought it (a preloaded or restored office).
    void preload(const QString &till, const QJsonObject &event);

    // Faults, each for the next `count` POSTs: answer `status` (nothing applied) with Retry-After
    // `retryAfterSeconds` (-1: none); or apply the batch and drop the connection unanswered.
    void failNext(int count, int status, int retryAfterSeconds = -1);
    void loseAnswersOfNext(int count);

    struct Stats
    {
        int posts = 0;
        int positions = 0;
        int applied = 0;
        int replayed = 0;
        int gaps = 0;   // 409 seq-gap answered
        int mismatches = 0;   // 422 answered
        int failed = 0;   // scripted 5xx answered
        int lost = 0;   // answers dropped after applying
        int largestBatch = 0;
        QList<qint64> postAtMs;   // when each POST arrived (monotonic, from start())
        QList<qint64> firstSeqOfPost;
    };
    const Stats &stats() const { return m_stats; }

    static QByteArray fingerprint(const QJsonObject &event);   // its canonical JSON

signals:
    void posted();

private:
    void handle(OncePay::Http::HttpRequest &&request, const OncePay::Http::HttpResponder &responder);
    void events(const QString &till, const QByteArray &body, const OncePay::Http::HttpResponder &responder);

    std::unique_ptr<OncePay::Http::HttpServer> m_server;
    quint16 m_port = 0;
    QHash<QString, QString> m_tokens;   // token -> till
    QHash<QString, QMap<qint64, QJsonObject>> m_events;
    int m_failCount = 0;
    int m_failStatus = 503;
    int m_retryAfter = -1;
    int m_loseCount = 0;
    Stats m_stats;
    QElapsedTimer m_clock;
};
