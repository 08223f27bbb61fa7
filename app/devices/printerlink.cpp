#include "printerlink.h"

#include "completionrelay.h"
#include "oncontext.h"
#include "world.h"

#include <QCoreApplication>
#include <QFile>
#include <QPointer>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTimer>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <termios.h>
#include <thread>
#include <unistd.h>

namespace OncePay {

namespace {

struct LinkText
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::PrinterLink)
};

using Result = PrinterLink::Result;

Result printed(std::optional<EscPos::Status> status = std::nullopt)
{
    return Result{Result::Kind::Printed, {}, status};
}

Result notReady(const EscPos::Status &status)
{
    return Result{Result::Kind::NotReady, LinkText::tr("The printer is %1.").arg(status.problem()), status};
}

Result failed(const QString &reason, std::optional<EscPos::Status> status = std::nullopt)
{
    return Result{Result::Kind::Failed, reason, status};
}

// After the job: the printer ran out or stopped while printing it.
Result afterJob(const EscPos::Status &status)
{
    if (status.ready())
        return printed(status);
    return failed(LinkText::tr("The printer stopped during the receipt (%1); it is printed again, whole, once the printer is back.")
                      .arg(status.problem()),
        status);
}

// A real-time drawer pulse sent to a printer stopped for its paper or cover: it went out, unless
// the printer fell into error meanwhile; the reason says why the printer itself cannot print.
Result pulsedWhileStopped(const EscPos::Status &after)
{
    if (!after.takesRealTimePulse())
        return notReady(after);
    return Result{Result::Kind::Printed, after.ready() ? QString() : LinkText::tr("The printer is %1.").arg(after.problem()), after};
}

// ---- TCP: one connection a job (a printer's raw port serves one client at a time). ----

class TcpExchange final : public QObject
{
public:
    TcpExchange(const PrinterUri &uri, QByteArray job, int timeoutMs, PrinterLink::Done done)
        : m_uri(uri)
        , m_job(std::move(job))
        , m_done(std::move(done))
    {
        m_timer.setSingleShot(true);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            finish(failed(m_step == Step::Connecting
                    ? LinkText::tr("The printer at %1 does not answer.").arg(m_uri.toString())
                    : LinkText::tr("The printer at %1 stopped answering.").arg(m_uri.toString())));
        });
        connect(&m_socket, &QTcpSocket::connected, this, [this] {
            // The status queries are a few bytes after many: without this, Nagle's algorithm and
            // the printer's delayed ACK hold each of them back by tens of milliseconds.
            m_socket.setSocketOption(QAbstractSocket::LowDelayOption, 1);
            m_step = Step::StatusBefore;
            m_socket.write(EscPos::statusQueries());
        });
        connect(&m_socket, &QTcpSocket::readyRead, this, &TcpExchange::readStatus);
        connect(&m_socket, &QTcpSocket::bytesWritten, this, [this] {
            if (m_step == Step::Job && m_socket.bytesToWrite() == 0) {
                m_step = Step::StatusAfter;
                m_socket.write(EscPos::statusQueries());
            }
        });
        connect(&m_socket, &QTcpSocket::errorOccurred, this, [this](QAbstractSocket::SocketError) {
            if (m_step == Step::Connecting)
                finish(failed(LinkText::tr("The printer at %1 cannot be reached: %2").arg(m_uri.toString(), m_socket.errorString())));
            else
                finish(failed(LinkText::tr("The connection to the printer broke: %1").arg(m_socket.errorString())));
        });
        m_timer.start(timeoutMs);
        m_socket.connectToHost(m_uri.host, m_uri.port);
    }

    // Only the status answers matter (and a probe sends no job).
    bool probeOnly = false;
    // Sent instead of the job when the printer says it is stopped but not in error (the drawer's
    // real-time pulse); empty: nothing is sent to a printer that is not ready.
    QByteArray whenStopped;

private:
    enum class Step {
        Connecting,
        StatusBefore,
        Job,
        StatusAfter,
        Done
    };

    void readStatus()
    {
        m_answer += m_socket.readAll();
        if (m_answer.size() < EscPos::kStatusAnswerBytes)
            return;
        const auto status = EscPos::parseStatus(m_answer.left(EscPos::kStatusAnswerBytes));
        m_answer.clear();
        if (!status)
            return finish(failed(LinkText::tr("The device at %1 does not answer as an ESC/POS printer.").arg(m_uri.toString())));
        if (m_step == Step::StatusBefore) {
            if (!probeOnly && !status->ready() && !whenStopped.isEmpty() && status->takesRealTimePulse()) {
                m_stopped = true;
                m_step = Step::Job;
                m_socket.write(whenStopped);
                return;
            }
            if (probeOnly || !status->ready())
                return finish(status->ready() ? printed(status) : notReady(*status));
            m_step = Step::Job;
            m_socket.write(m_job);
            return;
        }
        if (m_step == Step::StatusAfter)
            finish(m_stopped ? pulsedWhileStopped(*status) : afterJob(*status));
    }

    void finish(const Result &result)
    {
        if (m_step == Step::Done)
            return;
        m_step = Step::Done;
        m_timer.stop();
        m_socket.disconnect(this);
        m_socket.abort();
        PrinterLink::Done done = std::move(m_done);
        deleteLater();
        done(result);
    }

    PrinterUri m_uri;
    QByteArray m_job;
    PrinterLink::Done m_done;
    QTcpSocket m_socket;
    QTimer m_timer;
    QByteArray m_answer;
    Step m_step = Step::Connecting;
    bool m_stopped = false;   // whenStopped was sent, not the job
};

class TcpLink final : public PrinterLink
{
public:
    TcpLink(const PrinterUri &uri, QObject *parent)
        : PrinterLink(parent)
        , m_uri(uri)
    {
    }

    void send(const QByteArray &job, const QString &, QObject *context, Handed, Done done) override
    {
        new TcpExchange(m_uri, job, m_timeoutMs, onContext(context, std::move(done)));
    }

    void probe(QObject *context, Done done) override
    {
        auto *exchange = new TcpExchange(m_uri, {}, qMin(m_timeoutMs, 3000), onContext(context, std::move(done)));
        exchange->probeOnly = true;
    }

    void pulseDrawer(const QString &, QObject *context, Done done) override
    {
        auto *exchange = new TcpExchange(m_uri, EscPos::drawerOnly(), m_timeoutMs, onContext(context, std::move(done)));
        exchange->whenStopped = EscPos::realTimeDrawerPulse();
    }

private:
    PrinterUri m_uri;
};

// ---- A device file (or a plain file): blocking I/O on a thread of its own. ----

// Writes all of `data` to `fd` within `deadline` (monotonic ms); false with errno's words.
bool writeAll(int fd, const QByteArray &data, qint64 deadlineMs, QString *error)
{
    qint64 done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n > 0) {
            done += n;
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR) {
            *error = QString::fromLocal8Bit(std::strerror(errno));
            return false;
        }
        const qint64 left = deadlineMs - monotonicMs();
        if (left <= 0) {
            *error = LinkText::tr("the device took nothing for too long");
            return false;
        }
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, int(qMin<qint64>(left, 1000)));
    }
    return true;
}

// The three status answers, or nothing when the device says nothing within `waitMs`.
QByteArray readStatus(int fd, int waitMs)
{
    QByteArray answer;
    const qint64 deadline = monotonicMs() + waitMs;
    while (answer.size() < EscPos::kStatusAnswerBytes) {
        const qint64 left = deadline - monotonicMs();
        if (left <= 0)
            break;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, int(left)) <= 0 || !(p.revents & POLLIN))
            break;
        char buffer[16];
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0)
            break;
        answer.append(buffer, int(n));
    }
    return answer;
}

// `whenStopped`, when not empty, is written instead of the job to a device that says it is
// stopped but not in error (the drawer's real-time pulse).
Result fileExchange(const QString &path, const QByteArray &job, bool probeOnly, int timeoutMs, const QByteArray &whenStopped = {})
{
    const QByteArray native = QFile::encodeName(path);
    struct stat st
    {};
    if (::stat(native.constData(), &st) != 0)
        return failed(LinkText::tr("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    const bool device = S_ISCHR(st.st_mode);
    const int fd = device ? ::open(native.constData(), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
                          : ::open(native.constData(), O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return failed(LinkText::tr("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    const qint64 deadline = monotonicMs() + timeoutMs;
    QString error;
    std::optional<EscPos::Status> before;
    Result result = printed();
    // A device file may answer its status (USB printer class, a serial line): asked when it does;
    // one that says nothing within a second is written one way, as a plain file is.
    if (device) {
        ::tcflush(fd, TCIFLUSH);   // a serial line or a pty: an answer left from an earlier exchange is not this one's
        if (!writeAll(fd, EscPos::statusQueries(), deadline, &error)) {
            ::close(fd);
            return failed(LinkText::tr("%1: %2").arg(path, error));
        }
        const QByteArray answer = readStatus(fd, 1000);
        before = EscPos::parseStatus(answer);
        if (!answer.isEmpty() && !before) {
            ::close(fd);
            return failed(LinkText::tr("The device %1 does not answer as an ESC/POS printer.").arg(path));
        }
        if (before && !before->ready() && !probeOnly && !whenStopped.isEmpty() && before->takesRealTimePulse()) {
            if (!writeAll(fd, whenStopped, deadline, &error) || !writeAll(fd, EscPos::statusQueries(), deadline, &error)) {
                ::close(fd);
                return failed(LinkText::tr("Writing to %1 failed: %2").arg(path, error), before);
            }
            const auto after = EscPos::parseStatus(readStatus(fd, int(qMax<qint64>(1000, deadline - monotonicMs()))));
            ::close(fd);
            return pulsedWhileStopped(after.value_or(*before));
        }
        if (before && !before->ready()) {
            ::close(fd);
            return notReady(*before);
        }
    }
    if (!probeOnly) {
        if (!writeAll(fd, job, deadline, &error)) {
            ::close(fd);
            return failed(LinkText::tr("Writing to %1 failed: %2").arg(path, error), before);
        }
        if (before) {
            if (!writeAll(fd, EscPos::statusQueries(), deadline, &error)) {
                ::close(fd);
                return failed(LinkText::tr("Writing to %1 failed: %2").arg(path, error), before);
            }
            const auto after = EscPos::parseStatus(readStatus(fd, int(qMax<qint64>(1000, deadline - monotonicMs()))));
            result = after ? afterJob(*after) : failed(LinkText::tr("The printer at %1 stopped answering.").arg(path));
        }
    } else {
        result = printed(before);
    }
    ::close(fd);
    return result;
}

class FileLink final : public PrinterLink
{
public:
    FileLink(const PrinterUri &uri, QObject *parent)
        : PrinterLink(parent)
        , m_path(uri.path)
    {
    }

    void send(const QByteArray &job, const QString &, QObject *context, Handed, Done done) override
    {
        run(job, false, context, std::move(done));
    }

    void probe(QObject *context, Done done) override
    {
        run({}, true, context, std::move(done));
    }

    void pulseDrawer(const QString &, QObject *context, Done done) override
    {
        run(EscPos::drawerOnly(), false, context, std::move(done), EscPos::realTimeDrawerPulse());
    }

private:
    // Each exchange on a thread of its own, joined before the next: the queue sends one job at
    // a time, and an exchange ends within the timeout.
    void run(const QByteArray &job, bool probeOnly, QObject *context, Done done, const QByteArray &whenStopped = {})
    {
        CompletionRelay *relay = CompletionRelay::forContext(context);
        if (!relay)
            return done(failed(LinkText::tr("The printer cannot be used from this thread.")));
        std::thread([relay, context = QPointer<QObject>(context), path = m_path, job, probeOnly, whenStopped,
                        timeout = m_timeoutMs, done = std::move(done)]() mutable {
            Result result = fileExchange(path, job, probeOnly, timeout, whenStopped);
            relay->post(context, [done = std::move(done), result = std::move(result)] {
                done(result);
            });
        }).detach();
    }

    QString m_path;
};

// ---- CUPS: `lp -o raw` hands the job over, `lpstat` follows it. ----

QString cupsProgram(const char *name)
{
    const QByteArray dir = qgetenv("ONCEPAY_CUPS_BIN_DIR");   // tests put stand-ins there
    return dir.isEmpty() ? QString::fromLatin1(name) : QString::fromLocal8Bit(dir) + QLatin1Char('/') + QLatin1String(name);
}

class CupsLink final : public PrinterLink
{
public:
    CupsLink(const PrinterUri &uri, QObject *parent)
        : PrinterLink(parent)
        , m_queue(uri.queue)
    {
    }

    void send(const QByteArray &job, const QString &title, QObject *context, Handed handed, Done done) override
    {
        auto *lp = new QProcess(this);
        auto finish = onContext(context, std::move(done));
        connect(lp, &QProcess::errorOccurred, lp, [lp, finish](QProcess::ProcessError error) {
            if (error != QProcess::FailedToStart)
                return;
            lp->deleteLater();
            finish(failed(LinkText::tr("CUPS's lp cannot be run: %1").arg(lp->errorString())));
        });
        connect(lp, &QProcess::finished, this,
            [this, lp, context = QPointer<QObject>(context), handed = std::move(handed), finish](int code, QProcess::ExitStatus) {
                lp->deleteLater();
                const QString out = QString::fromLocal8Bit(lp->readAllStandardOutput());
                static const QRegularExpression requestId(QStringLiteral("request id is (\\S+)"));
                const auto match = requestId.match(out);
                if (code != 0 || !match.hasMatch()) {
                    const QString why = QString::fromLocal8Bit(lp->readAllStandardError()).trimmed();
                    return finish(failed(LinkText::tr("CUPS refused the job: %1").arg(why.isEmpty() ? out.trimmed() : why)));
                }
                if (!context)
                    return;
                const QString id = match.captured(1);
                if (handed)
                    onContext(context, handed)(id);
                follow(id, context, finish);
            });
        lp->start(cupsProgram("lp"), {QStringLiteral("-d"), m_queue, QStringLiteral("-o"), QStringLiteral("raw"), QStringLiteral("-t"), title.isEmpty() ? QStringLiteral("OncePay") : title});
        lp->write(job);
        lp->closeWriteChannel();
    }

    // Polls `lpstat` until CUPS names the job completed (printed), or no longer knows it
    // (cancelled: send again).
    void follow(const QString &handle, QObject *context, Done done) override
    {
        poll(handle, QPointer<QObject>(context), onContext(context, std::move(done)), 0);
    }

    void probe(QObject *context, Done done) override
    {
        auto *lpstat = new QProcess(this);
        auto finish = onContext(context, std::move(done));
        connect(lpstat, &QProcess::finished, this, [lpstat, finish, queue = m_queue](int code, QProcess::ExitStatus) {
            lpstat->deleteLater();
            const QString out = QString::fromLocal8Bit(lpstat->readAllStandardOutput());
            if (code != 0)
                return finish(failed(LinkText::tr("CUPS does not know the queue %1.").arg(queue)));
            if (out.contains(QLatin1String("disabled")))
                return finish(failed(LinkText::tr("The CUPS queue %1 is stopped.").arg(queue)));
            finish(printed());
        });
        connect(lpstat, &QProcess::errorOccurred, lpstat, [lpstat, finish](QProcess::ProcessError error) {
            if (error != QProcess::FailedToStart)
                return;
            lpstat->deleteLater();
            finish(failed(LinkText::tr("CUPS's lpstat cannot be run: %1").arg(lpstat->errorString())));
        });
        lpstat->start(cupsProgram("lpstat"), {QStringLiteral("-p"), m_queue});
    }

private:
    // Whether `lpstat -o` lists the job (its lines start with the job id).
    static bool listsJob(const QString &lpstatOut, const QString &handle)
    {
        const QStringList lines = lpstatOut.split(QLatin1Char('\n'));
        return std::any_of(lines.cbegin(), lines.cend(), [&handle](const QString &line) {
            return line.startsWith(handle) && line.size() > handle.size() && line.at(handle.size()).isSpace();
        });
    }

    void lpstat(const QStringList &arguments, std::function<void(const QString &out)> then)
    {
        auto *process = new QProcess(this);
        connect(process, &QProcess::finished, this, [process, then = std::move(then)](int, QProcess::ExitStatus) {
            process->deleteLater();
            then(QString::fromLocal8Bit(process->readAllStandardOutput()));
        });
        process->start(cupsProgram("lpstat"), arguments);
    }

    // Completed: printed. Otherwise, still waiting: asked again in 2 s; neither: CUPS dropped it.
    void poll(const QString &handle, const QPointer<QObject> &context, const Done &done, int round)
    {
        if (!context)
            return;
        lpstat({QStringLiteral("-W"), QStringLiteral("completed"), QStringLiteral("-o"), m_queue}, [this, handle, context, done, round](const QString &completed) {
            if (listsJob(completed, handle))
                return done(printed());
            lpstat({QStringLiteral("-W"), QStringLiteral("not-completed"), QStringLiteral("-o"), m_queue}, [this, handle, context, done, round](const QString &waiting) {
                if (!listsJob(waiting, handle))
                    return done(failed(LinkText::tr("CUPS no longer has the job %1 (cancelled?).").arg(handle)));
                QTimer::singleShot(2000, this, [this, handle, context, done, round] {
                    poll(handle, context, done, round + 1);
                });
            });
        });
    }

    QString m_queue;
};

}   // namespace

void PrinterLink::follow(const QString &, QObject *context, Done done)
{
    onContext(context, std::move(done))(failed(LinkText::tr("The job was not kept by the printer; it is sent again.")));
}

void PrinterLink::pulseDrawer(const QString &title, QObject *context, Done done)
{
    send(EscPos::drawerOnly(), title, context, {}, std::move(done));
}

std::unique_ptr<PrinterLink> PrinterLink::make(const PrinterUri &uri, QObject *parent)
{
    switch (uri.kind) {
    case PrinterUri::Kind::Tcp:
        return std::make_unique<TcpLink>(uri, parent);
    case PrinterUri::Kind::File:
        return std::make_unique<FileLink>(uri, parent);
    case PrinterUri::Kind::Cups:
        return std::make_unique<CupsLink>(uri, parent);
    }
    return nullptr;
}

}   // namespace OncePay
