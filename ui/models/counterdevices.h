#pragma once

#include "printqueue.h"
#include "tillsettings.h"

#include <QObject>

#include <functional>

namespace OncePay::Ui {

// The counter's printer and drawer as the till's screens use them (issue 24): documents drawn
// into rasters (ReceiptRaster) and handed to the persistent PrintQueue, the drawer's pulse, the
// last receipt for Ctrl+P, and the queue's state in the cashier's words for the status bar.
// Never blocks: the queue stores and prints on its own.
class CounterDevices final : public QObject
{
    Q_OBJECT

public:
    explicit CounterDevices(PrintQueue *queue, QObject *parent = nullptr);

    // The printer, paper, automatic printing and drawer of these settings. An address that is not
    // one (PrinterUri) leaves the till without a printer; problem() says why.
    void apply(const TillSettings &settings);
    PrintQueue *queue() const { return m_queue; }
    bool hasPrinter() const { return m_queue->printer().has_value(); }
    bool autoPrint() const { return m_autoPrint && hasPrinter(); }
    // A drawer the till can open: on the printer, or on its own device. Without one, cash is taken
    // as before (the drawer opened with its key) and nothing is said about it.
    bool hasDrawer() const { return hasPrinter() || m_hasOwnDrawer; }
    int paperMm() const { return m_paperMm; }

    // Draws `html` and queues it; a non-empty `onceKey` queues it at most once (a sale's receipt
    // printed by itself). A receipt or slip is remembered for reprintLast().
    void print(PrintQueue::Kind kind, const QString &title, const QString &html, const QString &onceKey = {});
    // Ctrl+P: the last receipt or slip again (a new job); false and why when there is none.
    bool reprintLast(QString *reason);
    // The drawer's pulse; `done` says whether it opened, and words for the cashier when it did
    // not, or when it did on a printer that cannot print (out of paper: PrintQueue::pulseDrawer).
    void openDrawer(QObject *context, std::function<void(bool opened, const QString &reason)> done);

    // "Printer: 2 waiting — out of paper"; empty while all is printed and the printer is fine.
    QString statusText() const;

signals:
    void statusChanged();
    // Something the cashier should read now: a job that could not be queued, a drawer that did
    // not open.
    void notice(const QString &text);

private:
    PrintQueue *m_queue;
    bool m_autoPrint = true;
    int m_paperMm = 80;
    bool m_hasOwnDrawer = false;
    QString m_uriProblem;
    struct Last
    {
        PrintQueue::Kind kind = PrintQueue::Kind::Receipt;
        QString title;
        QByteArray data;
    };
    std::optional<Last> m_last;
};

}   // namespace OncePay::Ui
