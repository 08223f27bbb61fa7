#pragma once

#include "escpos.h"
#include "printeruri.h"

#include <QObject>

#include <functional>
#include <memory>

namespace OncePay {

// One way to a receipt printer (printeruri.h), one job at a time, never blocking the caller's
// thread: TCP on the caller's event loop, a device file on a thread of its own, CUPS through its
// `lp` and `lpstat` programs. Every answer comes on the caller's context.
class PrinterLink : public QObject
{
    Q_OBJECT

public:
    struct Result
    {
        enum class Kind {
            Printed,   // the printer took the job whole and said after it that it is fine
            NotReady,   // it said before the job that it cannot print: nothing was sent
            Failed,   // the link broke, or the printer stopped during the job: part of it may be on paper
        };
        Kind kind = Kind::Failed;
        // In the cashier's words (translated); empty when printed, but for a drawer's pulse that
        // went out while the printer is stopped (pulseDrawer): why it cannot print.
        QString reason;
        std::optional<EscPos::Status> status;   // what the printer said last, when it said anything
    };
    using Done = std::function<void(const Result &result)>;
    using Handed = std::function<void(const QString &handle)>;

    static std::unique_ptr<PrinterLink> make(const PrinterUri &uri, QObject *parent = nullptr);

    explicit PrinterLink(QObject *parent = nullptr)
        : QObject(parent)
    {
    }

    // Sends `job` whole. Where another system takes the job over (CUPS), `handed` is called with
    // its job id before the end (the queue keeps it: after a restart it follows that job rather
    // than sending it again).
    virtual void send(const QByteArray &job, const QString &title, QObject *context, Handed handed, Done done) = 0;
    // Follows a job handed over before (CUPS); others answer Failed at once (send it again).
    virtual void follow(const QString &handle, QObject *context, Done done);
    // Asks the printer's state without sending anything (Printed: ready).
    virtual void probe(QObject *context, Done done) = 0;
    // The drawer's pulse. The drawer needs no paper: a printer that says it is out of paper or
    // its cover is open (not in error) gets the real-time pulse, and the answer is Printed with
    // `reason` saying why the printer itself cannot print (issue 36). Others send drawerOnly().
    virtual void pulseDrawer(const QString &title, QObject *context, Done done);
    // How long a job may take before the link gives up on it.
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    int timeoutMs() const { return m_timeoutMs; }

protected:
    int m_timeoutMs = 10000;
};

}   // namespace OncePay
