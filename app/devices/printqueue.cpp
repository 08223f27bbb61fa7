#include "printqueue.h"

#include "oncontext.h"
#include "timeutil.h"
#include "world.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QFileInfo>

namespace OncePay {

namespace {

// A reason the printer gave ("The printer is offline.") inside a sentence of ours: without its
// full stop, which the sentence has.
QString clause(QString reason)
{
    while (reason.endsWith(QLatin1Char('.')) || reason.endsWith(QChar(0x3002)))
        reason.chop(1);
    return reason;
}

QAtomicInt g_counter;
constexpr int kSchemaVersion = 1;

void migrate(SqlTx &tx, int fromVersion)
{
    if (fromVersion < 1) {
        // once_key: NULL for a reprint (any number of them); a key for what is printed by itself.
        tx.exec(QStringLiteral(
            "CREATE TABLE print_jobs (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, title TEXT NOT NULL,"
            " data BLOB NOT NULL, once_key TEXT UNIQUE, state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,"
            " last_error TEXT NOT NULL DEFAULT '', handle TEXT NOT NULL DEFAULT '', created_at INTEGER NOT NULL,"
            " printed_at INTEGER NOT NULL DEFAULT 0)"));
        tx.exec(QStringLiteral("CREATE INDEX print_jobs_waiting ON print_jobs (state, id)"));
    }
}

PrintQueue::Kind kindFromName(const QString &name)
{
    if (name == QLatin1String("refund_slip"))
        return PrintQueue::Kind::RefundSlip;
    if (name == QLatin1String("shift_report"))
        return PrintQueue::Kind::ShiftReport;
    if (name == QLatin1String("test_page"))
        return PrintQueue::Kind::TestPage;
    return PrintQueue::Kind::Receipt;
}

const QString kJobColumns = QStringLiteral("id, kind, title, data, once_key, state, attempts, last_error, created_at, printed_at, handle");

PrintQueue::Job readJob(const QSqlQuery &q, QString *handle = nullptr)
{
    PrintQueue::Job job;
    job.id = q.value(0).toLongLong();
    job.kind = kindFromName(q.value(1).toString());
    job.title = q.value(2).toString();
    job.data = q.value(3).toByteArray();
    job.onceKey = q.value(4).toString();
    job.state = q.value(5).toString();
    job.attempts = q.value(6).toInt();
    job.lastError = q.value(7).toString();
    job.createdAt = q.value(8).toLongLong();
    job.printedAt = q.value(9).toLongLong();
    if (handle)
        *handle = q.value(10).toString();
    return job;
}

int countWaiting(SqlTx &tx)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT COUNT(*) FROM print_jobs WHERE state IN ('queued', 'printing')"));
    const int n = q.next() ? q.value(0).toInt() : 0;
    q.finish();
    return n;
}

}   // namespace

QString PrintQueue::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Receipt:
        return QStringLiteral("receipt");
    case Kind::RefundSlip:
        return QStringLiteral("refund_slip");
    case Kind::ShiftReport:
        return QStringLiteral("shift_report");
    case Kind::TestPage:
        return QStringLiteral("test_page");
    }
    return {};
}

QString PrintQueue::pathBeside(const QString &journalPath)
{
    const QFileInfo info(journalPath);
    return info.path() + QLatin1Char('/') + info.completeBaseName() + QStringLiteral("-print.db");
}

PrintQueue::PrintQueue(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &PrintQueue::kick);
}

PrintQueue::~PrintQueue()
{
    close();
}

bool PrintQueue::open(QString *error)
{
    SqlBatchWorker::Options o;
    o.path = m_path;
    o.connectionName = QStringLiteral("oncepay-print-%1").arg(g_counter.fetchAndAddRelaxed(1));
    o.schemaVersion = kSchemaVersion;
    o.migrate = migrate;
    o.applicationId = 0x4F505052;   // "OPPR": OncePay print queue
    o.markerTable = QStringLiteral("print_jobs");
    o.ownerOnly = true;
    m_worker = std::make_unique<SqlBatchWorker>(o);
    if (!m_worker->start(error)) {
        m_worker.reset();
        return false;
    }
    // A printed job keeps its bytes for reprints a while, then goes: a receipt's raster is tens
    // of kilobytes, a busy till prints hundreds a day. Older sales are reprinted from the journal.
    m_worker->submit([cutoff = nowMs() - kKeepPrintedMs](SqlTx &tx) {
        tx.exec(QStringLiteral("DELETE FROM print_jobs WHERE state = 'printed' AND printed_at < ?"), {cutoff});
    },
        this, [](bool, const QString &) {});
    refreshWaiting();
    return true;
}

void PrintQueue::close()
{
    m_retry.stop();
    if (m_worker)
        m_worker->stop();
    m_worker.reset();
}

void PrintQueue::setPrinter(const std::optional<PrinterUri> &printer)
{
    if (printer && m_printerUri && printer->toString() == m_printerUri->toString())
        return;
    m_printerUri = printer;
    m_printer = printer ? PrinterLink::make(*printer) : nullptr;
    if (m_printer)
        m_printer->setTimeoutMs(m_timeoutMs);
    // A job on its way to the old printer is forgotten here: it stays "printing" in the file,
    // and is sent whole to the new one.
    ++m_generation;
    m_busy = false;
    setProblem(printer ? QString() : tr("no printer is set"));
    kick();
}

void PrintQueue::setDrawer(const std::optional<PrinterUri> &drawer)
{
    m_drawerUri = drawer;
    m_drawer = drawer ? PrinterLink::make(*drawer) : nullptr;
    if (m_drawer)
        m_drawer->setTimeoutMs(qMin(m_timeoutMs, 5000));
}

void PrintQueue::setTimeoutMs(int ms)
{
    m_timeoutMs = ms;
    if (m_printer)
        m_printer->setTimeoutMs(ms);
}

void PrintQueue::enqueue(Kind kind, const QString &title, const QByteArray &data, const QString &onceKey,
    QObject *context, Reply<Queued> reply)
{
    if (!m_worker)
        return reply(false, tr("The print queue is not open."), {});
    m_worker->transact<Queued>(
        this, [kind, title, data, onceKey](SqlTx &tx) {
            Queued q;
            if (!onceKey.isEmpty()) {
                QSqlQuery &found = tx.exec(QStringLiteral("SELECT id FROM print_jobs WHERE once_key = ?"), {onceKey});
                if (found.next())
                    q.id = found.value(0).toLongLong();
                found.finish();
                if (q.id > 0)
                    return q;
            }
            QSqlQuery &ins = tx.exec(QStringLiteral("INSERT INTO print_jobs (kind, title, data, once_key, state, created_at)"
                                                    " VALUES (?, ?, ?, ?, 'queued', ?)"),
                {kindName(kind), title, data, onceKey.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(onceKey),
                    nowMs()});
            q.id = ins.lastInsertId().toLongLong();
            q.added = true;
            return q;
        },
        [this, guard = QPointer<QObject>(context), reply = std::move(reply)](bool ok, const QString &error, const Queued &q) {
            if (ok && q.added) {
                refreshWaiting();
                kick();
            }
            if (guard)
                reply(ok, error, q);
        });
}

void PrintQueue::reprint(const QString &onceKey, QObject *context, Reply<bool> reply)
{
    if (!m_worker)
        return reply(false, tr("The print queue is not open."), false);
    m_worker->transact<bool>(
        this, [onceKey](SqlTx &tx) {
            QSqlQuery &found = tx.exec(QStringLiteral("SELECT kind, title, data FROM print_jobs WHERE once_key = ?"), {onceKey});
            if (!found.next()) {
                found.finish();
                return false;
            }
            const QVariantList copy{found.value(0), found.value(1), found.value(2), nowMs()};
            found.finish();
            tx.exec(QStringLiteral("INSERT INTO print_jobs (kind, title, data, state, created_at) VALUES (?, ?, ?, 'queued', ?)"), copy);
            return true;
        },
        [this, guard = QPointer<QObject>(context), reply = std::move(reply)](bool ok, const QString &error, bool found) {
            if (ok && found) {
                refreshWaiting();
                kick();
            }
            if (guard)
                reply(ok, error, found);
        });
}

void PrintQueue::pulseDrawer(QObject *context, std::function<void(bool ok, const QString &reason)> done)
{
    m_pulses.append(Pulse{monotonicMs() + m_drawerPatienceMs, QPointer<QObject>(context), std::move(done), {}});
    runPulse();
}

void PrintQueue::runPulse()
{
    while (!m_pulses.isEmpty()) {
        Pulse &first = m_pulses.first();
        if (monotonicMs() <= first.deadline)
            break;
        Pulse expired = m_pulses.takeFirst();
        // What the printer said last, not "did not answer" when it answered (issue 36).
        const QString why = !expired.lastReason.isEmpty() ? expired.lastReason
            : !m_problem.isEmpty()                        ? m_problem
                                                          : tr("the printer did not answer");
        if (expired.context)
            expired.done(false, tr("The drawer did not open: %1. Open it with its key.").arg(clause(why)));
    }
    if (m_pulses.isEmpty())
        return;
    PrinterLink *link = m_drawer ? m_drawer.get() : m_printer.get();
    if (!link) {
        const QList<Pulse> pulses = std::exchange(m_pulses, {});
        for (const Pulse &p : pulses) {
            if (p.context)
                p.done(false, tr("The drawer did not open: no printer or drawer is set. Open it with its key."));
        }
        return;
    }
    if (!m_drawer && m_busy)
        return;   // after the job the printer is on (next() comes back here)
    const Pulse pulse = m_pulses.takeFirst();
    if (!m_drawer)
        m_busy = true;
    link->pulseDrawer(tr("Drawer"), this,
        [this, pulse, shared = !m_drawer, generation = m_generation](const PrinterLink::Result &result) {
            if (shared && generation == m_generation)
                m_busy = false;
            if (result.kind == PrinterLink::Result::Kind::Printed) {
                // Opened; a printer out of paper is said as such, the receipt waiting for it.
                if (pulse.context)
                    pulse.done(true, result.reason.isEmpty() ? QString() : tr("The drawer opened. %1").arg(result.reason));
            } else if (monotonicMs() < pulse.deadline) {
                Pulse again = pulse;
                again.lastReason = result.reason;
                m_pulses.prepend(again);   // tried again with the queue's next attempt
                if (!m_retry.isActive())
                    m_retry.start(qMin(m_retryMs, 1000));
                return;
            } else if (pulse.context) {
                pulse.done(false, tr("The drawer did not open: %1. Open it with its key.").arg(clause(result.reason)));
            }
            kick();
        });
}

void PrintQueue::kick()
{
    if (!m_pulses.isEmpty())
        runPulse();
    if (m_busy || !m_printer || !m_worker)
        return;
    next();
}

void PrintQueue::next()
{
    m_busy = true;
    const quint64 generation = m_generation;
    struct Next
    {
        std::optional<Job> job;
        QString handle;
    };
    // The oldest job not printed: marked "printing" (and its attempt counted) before a byte is sent.
    m_worker->transact<Next>(
        this, [](SqlTx &tx) {
            Next n;
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM print_jobs WHERE state IN ('queued', 'printing') ORDER BY id LIMIT 1").arg(kJobColumns));
            if (q.next())
                n.job = readJob(q, &n.handle);
            q.finish();
            if (n.job) {
                tx.exec(QStringLiteral("UPDATE print_jobs SET state = 'printing', attempts = attempts + 1 WHERE id = ?"), {n.job->id});
                n.job->attempts += 1;
            }
            return n;
        },
        [this, generation](bool ok, const QString &error, const Next &n) {
            if (generation != m_generation)
                return;
            if (!ok) {
                m_busy = false;
                setProblem(tr("the print queue cannot be read: %1").arg(error));
                m_retry.start(m_retryMs);
                return;
            }
            if (!n.job) {
                m_busy = false;
                if (!m_pulses.isEmpty())
                    runPulse();
                return;
            }
            const Job job = *n.job;
            auto done = [this, job, generation](const PrinterLink::Result &result) {
                if (generation != m_generation)
                    return;
                finishJob(job, result);
            };
            if (!n.handle.isEmpty()) {
                m_printer->follow(n.handle, this, done);
                return;
            }
            m_printer->send(
                job.data, job.title, this,
                [this, id = job.id](const QString &handle) {
                    m_worker->submit([id, handle](SqlTx &tx) {
                        tx.exec(QStringLiteral("UPDATE print_jobs SET handle = ? WHERE id = ?"), {handle, id});
                    },
                        this, [](bool, const QString &) {});
                },
                done);
        });
}

void PrintQueue::finishJob(const Job &job, const PrinterLink::Result &result)
{
    const bool ok = result.kind == PrinterLink::Result::Kind::Printed;
    m_worker->submit([id = job.id, ok, reason = result.reason](SqlTx &tx) {
        if (ok)
            tx.exec(QStringLiteral("UPDATE print_jobs SET state = 'printed', printed_at = ?, last_error = '' WHERE id = ?"), {nowMs(), id});
        else
            tx.exec(QStringLiteral("UPDATE print_jobs SET state = 'queued', handle = '', last_error = ? WHERE id = ?"), {reason, id});
    },
        this, [this, ok, job, reason = result.reason](bool stored, const QString &error) {
            m_busy = false;
            if (!stored) {
                setProblem(tr("the print queue cannot be written: %1").arg(error));
                m_retry.start(m_retryMs);
                return;
            }
            refreshWaiting();
            if (ok) {
                setProblem({});
                emit printed(job.id, job.title);
                kick();
            } else {
                setProblem(reason);
                if (!m_pulses.isEmpty())
                    runPulse();
                m_retry.start(m_retryMs);
            }
        });
}

void PrintQueue::jobs(int limit, QObject *context, Reply<QList<Job>> reply)
{
    if (!m_worker)
        return reply(false, tr("The print queue is not open."), {});
    m_worker->transact<QList<Job>>(
        context, [limit](SqlTx &tx) {
            QList<Job> out;
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT %1 FROM print_jobs ORDER BY id DESC LIMIT ?").arg(kJobColumns), {limit});
            while (q.next())
                out.append(readJob(q));
            q.finish();
            return out;
        },
        onContext(context, std::move(reply)));
}

void PrintQueue::refreshWaiting()
{
    if (!m_worker)
        return;
    m_worker->transact<int>(
        this, [](SqlTx &tx) {
            return countWaiting(tx);
        },
        [this](bool ok, const QString &, int n) {
            if (ok && n != m_waiting) {
                m_waiting = n;
                emit changed();
            }
        });
}

void PrintQueue::setProblem(const QString &problem)
{
    if (problem == m_problem)
        return;
    m_problem = problem;
    emit changed();
}

}   // namespace OncePay
