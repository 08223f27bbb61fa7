#include "officesync.h"

#include "gatewayclient.h"
#include "intentpolicy.h"
#include "timeutil.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QPointer>
#include <QSqlQuery>

namespace OncePay {

namespace {

Q_LOGGING_CATEGORY(lcOffice, "oncepay.till.office", QtInfoMsg)

QString problemSlug(const GatewayResult &r)
{
    // The last segment of the problem's type ("…/problems/seq-gap"), whatever its content type.
    const QString type = r.problem ? r.problem->slug : r.json.value(QStringLiteral("type")).toString();
    return type.section(QLatin1Char('/'), -1);
}

}   // namespace

OfficeSync::OfficeSync(IntentJournal *journal, GatewayTransport *transport, Config config, QObject *parent)
    : QObject(parent)
    , m_journal(journal)
    , m_transport(transport)
    , m_config(std::move(config))
    , m_rng(m_config.seed != 0 ? m_config.seed : QRandomGenerator::global()->generate())
{
    m_config.batch = qBound(1, m_config.batch, kMaxBatch);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &OfficeSync::pump);
}

void OfficeSync::start()
{
    m_started = true;
    pump();
}

void OfficeSync::kick()
{
    if (!m_started || m_status.stopped)
        return;
    if (m_step != Step::Idle) {
        m_again = true;
        return;
    }
    // A backoff in progress is kept: a new sale does not make an office that failed answer sooner.
    if (m_failures == 0 || !m_timer.isActive())
        pump();
}

void OfficeSync::reconfigure(const QUrl &office, const QString &token)
{
    m_config.office = office;
    m_config.token = token;
    m_status.stopped = false;
    m_status.problem.clear();
    m_failures = 0;
    m_probeFirst = true;   // where the office stands first: it may be another one
    if (m_started && m_step == Step::Idle)
        pump();
}

void OfficeSync::readStatus(QObject *context, std::function<void(const Status &)> done)
{
    QPointer<OfficeSync> self(this);
    m_journal->transact<OfficeEvents::Status>(
        this, [](SqlTx &tx) {
            return OfficeEvents::status(tx);
        },
        [self, context = QPointer<QObject>(context), done = std::move(done)](bool ok, const TillError &, const OfficeEvents::Status &s) {
            if (!self)
                return;
            if (ok)
                self->setStatus(s);
            if (context)
                done(self->m_status);
        });
}

void OfficeSync::setStatus(const OfficeEvents::Status &s)
{
    const Status before = m_status;
    m_status.waiting = s.waiting;
    m_status.lastSentSeq = s.lastSentSeq;
    m_status.lastSeq = s.lastSeq;
    m_status.oldestWaitingAtMs = s.oldestWaitingAtMs;
    if (before.waiting != m_status.waiting || before.lastSentSeq != m_status.lastSentSeq
        || before.oldestWaitingAtMs != m_status.oldestWaitingAtMs || before.stopped != m_status.stopped
        || before.offline != m_status.offline || before.problem != m_status.problem)
        emit statusChanged(m_status);
}

void OfficeSync::wait(qint64 ms)
{
    // QTimer runs on the monotonic clock: a wall clock set back or forward moves no wait.
    m_timer.start(int(qBound<qint64>(0, ms, qint64(INT_MAX))));
}

void OfficeSync::pump()
{
    if (!m_started || m_step != Step::Idle)
        return;
    m_timer.stop();
    m_again = false;
    if (!hasOffice() || m_status.stopped) {
        // No office (or a refusal a person must see to): the status is still read for the
        // status bar and oncepay-ctl, slowly.
        m_step = Step::Reading;
        readStatus(this, [this](const Status &) {
            m_step = Step::Idle;
            wait(m_config.pollMs * 5);
        });
        return;
    }
    if (m_probeFirst)
        return probe();
    m_step = Step::Reading;
    const int limit = m_config.batch;
    m_journal->transact<QPair<OfficeEvents::Status, QList<OfficeEvents::Event>>>(
        this, [limit](SqlTx &tx) {
            return qMakePair(OfficeEvents::status(tx), OfficeEvents::waiting(tx, limit));
        },
        [this](bool ok, const TillError &error, const QPair<OfficeEvents::Status, QList<OfficeEvents::Event>> &r) {
            m_step = Step::Idle;
            if (!ok) {
                qCWarning(lcOffice) << "the outbox cannot be read:" << error;
                return wait(m_config.pollMs);
            }
            setStatus(r.first);
            if (r.second.isEmpty())
                return m_again ? pump() : wait(m_config.pollMs);
            send(r.second);
        });
}

GatewayRequest OfficeSync::request(const QByteArray &method, const QString &path, const QByteArray &body) const
{
    GatewayRequest r;
    r.method = method;
    QUrl url = m_config.office;
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + path);
    r.url = url;
    r.headers = {{QByteArrayLiteral("Authorization"), QByteArrayLiteral("Bearer ") + m_config.token.toUtf8()},
        {QByteArrayLiteral("Accept"), QByteArrayLiteral("application/json")}};
    if (!body.isEmpty())
        r.headers.append({QByteArrayLiteral("Content-Type"), QByteArrayLiteral("application/json")});
    r.body = body;
    r.timeoutMs = m_config.requestTimeoutMs;
    return r;
}

void OfficeSync::send(const QList<OfficeEvents::Event> &events)
{
    QJsonArray list;
    for (const OfficeEvents::Event &e : events)
        list.append(e.toJson());
    const QByteArray body = QJsonDocument(QJsonObject{{QStringLiteral("till"), m_config.till}, {QStringLiteral("events"), list}})
                                .toJson(QJsonDocument::Compact);
    m_step = Step::Sending;
    QPointer<OfficeSync> self(this);
    m_transport->exchange(request("POST", QStringLiteral("/v1/events"), body), [self, events](const GatewayResult &result) {
        if (self)
            self->answered(events, result);
    });
}

void OfficeSync::answered(const QList<OfficeEvents::Event> &events, const GatewayResult &result)
{
    m_step = Step::Idle;
    if (!result.answered() || result.status >= 500 || result.status == 429)
        return failed(result);
    const QString slug = problemSlug(result);
    if (result.status == 200) {
        m_failures = 0;
        m_status.offline = false;
        // The office holds all of the batch (applied and replayed alike): up to its last seq.
        return acknowledge(result.json.value(QStringLiteral("last_seq")).toInteger(events.constLast().seq));
    }
    if (result.status == 409 && slug == QLatin1String("seq-gap")) {
        qCInfo(lcOffice) << "the office expects seq" << result.json.value(QStringLiteral("expected_seq")).toInteger()
                         << "; asking its position";
        return probe();
    }
    if (result.status == 422 && slug == QLatin1String("event-mismatch")) {
        const qint64 seq = result.json.value(QStringLiteral("seq")).toInteger();
        return stop(tr("The office holds event %1 of this till with other contents: the till's record changed. Sending stopped; nothing was skipped.")
                        .arg(seq > 0 ? QString::number(seq) : result.json.value(QStringLiteral("detail")).toString()));
    }
    if (result.status == 401 || result.status == 403)
        return stop(tr("The office refused the till's token (HTTP %1): check --office-token or the Settings.").arg(result.status));
    stop(tr("The office refused the till's events (HTTP %1 %2). Sending stopped; nothing was skipped.").arg(result.status).arg(slug));
}

void OfficeSync::probe()
{
    m_step = Step::Probing;
    QPointer<OfficeSync> self(this);
    const QString path = QStringLiteral("/v1/tills/%1/position").arg(QString::fromLatin1(QUrl::toPercentEncoding(m_config.till)));
    m_transport->exchange(request("GET", path), [self](const GatewayResult &result) {
        if (self)
            self->probed(result);
    });
}

void OfficeSync::probed(const GatewayResult &result)
{
    m_step = Step::Idle;
    if (!result.answered() || result.status >= 500 || result.status == 429)
        return failed(result);
    if (result.status == 401 || result.status == 403)
        return stop(tr("The office refused the till's token (HTTP %1): check --office-token or the Settings.").arg(result.status));
    if (result.status != 200 || !result.json.contains(QStringLiteral("last_seq")))
        return stop(tr("The office's position of this till could not be read (HTTP %1).").arg(result.status));
    m_failures = 0;
    m_probeFirst = false;
    m_status.offline = false;
    acknowledge(result.json.value(QStringLiteral("last_seq")).toInteger());
}

void OfficeSync::acknowledge(qint64 lastSeq)
{
    m_step = Step::Reading;
    const qint64 now = nowMs();
    m_journal->transact<QPair<bool, OfficeEvents::Status>>(
        this, [lastSeq, now](SqlTx &tx) {
            // The office holding an event this till never committed is no state to go on from.
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT COALESCE(MAX(seq), 0) FROM outbox"));
            const qint64 ours = q.next() ? q.value(0).toLongLong() : 0;
            q.finish();
            if (lastSeq > ours)
                return qMakePair(false, OfficeEvents::status(tx));
            OfficeEvents::acknowledgeUpTo(tx, lastSeq, now);
            return qMakePair(true, OfficeEvents::status(tx));
        },
        [this, lastSeq](bool ok, const TillError &error, const QPair<bool, OfficeEvents::Status> &r) {
            m_step = Step::Idle;
            if (!ok) {
                qCWarning(lcOffice) << "the outbox cannot be marked sent:" << error;
                return wait(m_config.pollMs);
            }
            setStatus(r.second);
            if (!r.first) {
                return stop(tr("The office holds events of this till up to %1, and this till's journal only up to %2: is it another till's journal, or one restored from a copy?")
                                .arg(lastSeq)
                                .arg(r.second.lastSeq));
            }
            pump();
        });
}

void OfficeSync::failed(const GatewayResult &result)
{
    ++m_failures;
    m_probeFirst = true;   // the next try asks where the office stands: a batch may have reached it
    const bool wasOffline = m_status.offline;
    m_status.offline = true;
    if (!wasOffline)
        emit statusChanged(m_status);
    const qint64 delay = backoffDelayMs(m_failures, m_config.backoffBaseMs, m_config.backoffCapMs, m_rng, result.retryAfterMs);
    qCInfo(lcOffice) << "the office did not take the events:" << result.summary() << "; again in" << delay << "ms";
    wait(delay);
}

void OfficeSync::stop(const QString &why)
{
    qCWarning(lcOffice).noquote() << why;
    m_status.stopped = true;
    m_status.problem = why;
    emit statusChanged(m_status);
    emit refused(why);
    wait(m_config.pollMs * 5);   // the status is still read for the status bar
}

}   // namespace OncePay
