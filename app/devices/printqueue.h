#pragma once

#include "printerlink.h"
#include "printeruri.h"
#include "sqlbatchworker.h"

#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace OncePay {

// The till's print queue (issue 24): every receipt, refund slip and shift report becomes a job
// in the till's own SQLite file beside the journal (`<journal>-print.db`) before a byte goes to
// the printer, and is printed in order, one at a time. A sale is paid before its receipt is
// queued and stays paid whatever the printer does: a printer that is off, out of paper or whose
// cable is pulled leaves the job waiting, and the queue tries again every few seconds until it
// prints. A job the printer took whole and said after it that it is fine is printed, and never
// sent again by the queue; one that may be half on paper (the link broke, the paper ran out
// during it) is sent again whole, once the printer is back. A job queued "once" (the automatic
// receipt of sale 1-000123) is queued at most once, however often it is asked for.
//
// The drawer's pulses are not kept: a drawer that opens minutes later, after a restart, opens
// for nobody. A pulse waits at most kDrawerPatienceMs for the printer, before the jobs.
class PrintQueue final : public QObject
{
    Q_OBJECT

public:
    static constexpr int kDrawerPatienceMs = 15000;
    // How long a printed job is kept for reprints (its once-key with it).
    static constexpr qint64 kKeepPrintedMs = 14LL * 24 * 3600 * 1000;

    enum class Kind {
        Receipt,
        RefundSlip,
        ShiftReport,
        TestPage
    };
    static QString kindName(Kind kind);

    struct Job
    {
        qint64 id = 0;
        Kind kind = Kind::Receipt;
        QString title;   // "Receipt 1-000123": the status bar and CUPS say it
        QByteArray data;   // the ESC/POS bytes, whole
        QString onceKey;   // not empty: queued once at most under this key
        QString state;   // "queued", "printing", "printed"
        int attempts = 0;
        QString lastError;
        qint64 createdAt = 0;
        qint64 printedAt = 0;
    };

    template <typename T>
    using Reply = std::function<void(bool ok, const QString &error, T value)>;

    // "…/till.db" -> "…/till-print.db".
    static QString pathBeside(const QString &journalPath);

    explicit PrintQueue(QString path, QObject *parent = nullptr);
    ~PrintQueue() override;
    bool open(QString *error);   // while starting up only
    QString path() const { return m_path; }
    void close();

    // Where jobs go (none: they wait); the drawer's own device, when it is not on the printer.
    void setPrinter(const std::optional<PrinterUri> &printer);
    void setDrawer(const std::optional<PrinterUri> &drawer);
    std::optional<PrinterUri> printer() const { return m_printerUri; }
    // How long the queue waits before it tries a waiting job again.
    void setRetryMs(int ms) { m_retryMs = ms; }
    // How long a drawer's pulse waits for the printer (kDrawerPatienceMs; tests shorten it).
    void setDrawerPatienceMs(int ms) { m_drawerPatienceMs = ms; }
    void setTimeoutMs(int ms);

    // Stores the job, then prints it when its turn comes. `value`: the job's id, and whether it
    // was added (false: a job of the same once-key was queued before, and nothing was added).
    struct Queued
    {
        qint64 id = 0;
        bool added = false;
    };
    void enqueue(Kind kind, const QString &title, const QByteArray &data, const QString &onceKey, QObject *context,
        Reply<Queued> reply);
    // The drawer's pulse, now (before any job); `done` says whether the printer took it. The
    // drawer needs no paper: it opens on a printer out of paper or with its cover open, and
    // `reason` then says so (ok and a reason); not opened, `reason` is what the printer said last.
    void pulseDrawer(QObject *context, std::function<void(bool ok, const QString &reason)> done);

    // The job queued under `onceKey` (a sale's receipt, a refund's slip) printed again as a new
    // job; `value`: false when no such job was ever queued.
    void reprint(const QString &onceKey, QObject *context, Reply<bool> reply);

    // The newest jobs first.
    void jobs(int limit, QObject *context, Reply<QList<Job>> reply);

    // What waits (queued, or being printed) and why the last attempt did not print, for the
    // status bar: "2 waiting — the printer is out of paper".
    int waiting() const { return m_waiting; }
    QString problem() const { return m_problem; }
    bool busy() const { return m_busy; }

signals:
    void changed();   // waiting() or problem() may have changed
    void printed(qint64 id, const QString &title);

private:
    void kick();
    void next();
    void finishJob(const Job &job, const PrinterLink::Result &result);
    void refreshWaiting();
    void setProblem(const QString &problem);
    void runPulse();

    QString m_path;
    std::unique_ptr<SqlBatchWorker> m_worker;
    std::optional<PrinterUri> m_printerUri;
    std::optional<PrinterUri> m_drawerUri;
    std::unique_ptr<PrinterLink> m_printer;
    std::unique_ptr<PrinterLink> m_drawer;
    QTimer m_retry;
    int m_retryMs = 3000;
    int m_drawerPatienceMs = kDrawerPatienceMs;
    int m_timeoutMs = 10000;
    bool m_busy = false;
    int m_waiting = 0;
    QString m_problem;
    struct Pulse
    {
        qint64 deadline = 0;
        QPointer<QObject> context;
        std::function<void(bool ok, const QString &reason)> done;
        QString lastReason;   // why the last try did not open it, in the printer's words
    };
    QList<Pulse> m_pulses;
    quint64 m_generation = 0;   // a new printer: answers of the old link's jobs are dropped
};

}   // namespace OncePay
