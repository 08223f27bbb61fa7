#include "counterdevices.h"

#include "receiptraster.h"

namespace OncePay::Ui {

CounterDevices::CounterDevices(PrintQueue *queue, QObject *parent)
    : QObject(parent)
    , m_queue(queue)
{
    connect(m_queue, &PrintQueue::changed, this, &CounterDevices::statusChanged);
}

void CounterDevices::apply(const TillSettings &settings)
{
    m_autoPrint = settings.autoPrint;
    m_paperMm = settings.paperWidthMm == 58 ? 58 : 80;
    m_uriProblem.clear();
    std::optional<PrinterUri> printer;
    if (!settings.printerUri.trimmed().isEmpty()) {
        printer = PrinterUri::parse(settings.printerUri, &m_uriProblem);
    }
    m_queue->setPrinter(printer);
    std::optional<PrinterUri> drawer;
    if (!settings.drawerUri.trimmed().isEmpty()) {
        QString error;
        drawer = PrinterUri::parse(settings.drawerUri, &error);
        if (!drawer)
            m_uriProblem = error;
    }
    m_queue->setDrawer(drawer);
    m_hasOwnDrawer = drawer.has_value();
    emit statusChanged();
}

void CounterDevices::print(PrintQueue::Kind kind, const QString &title, const QString &html, const QString &onceKey)
{
    const QByteArray data = ReceiptRaster::job(html, m_paperMm);
    if (kind == PrintQueue::Kind::Receipt || kind == PrintQueue::Kind::RefundSlip)
        m_last = Last{kind, title, data};
    m_queue->enqueue(kind, title, data, onceKey, this, [this, title](bool ok, const QString &error, const PrintQueue::Queued &) {
        if (!ok)
            emit notice(tr("%1 was not queued for the printer: %2").arg(title, error));
    });
}

bool CounterDevices::reprintLast(QString *reason)
{
    if (!hasPrinter()) {
        *reason = tr("No receipt printer is set: choose one in Settings, Devices.");
        return false;
    }
    if (!m_last) {
        *reason = tr("No receipt was printed yet: reprint an earlier sale from the payments panel (F9).");
        return false;
    }
    const Last last = *m_last;
    m_queue->enqueue(last.kind, last.title, last.data, {}, this, [this, title = last.title](bool ok, const QString &error, const PrintQueue::Queued &) {
        if (!ok)
            emit notice(tr("%1 was not queued for the printer: %2").arg(title, error));
    });
    return true;
}

void CounterDevices::openDrawer(QObject *context, std::function<void(bool opened, const QString &reason)> done)
{
    m_queue->pulseDrawer(context, std::move(done));
}

QString CounterDevices::statusText() const
{
    if (!m_uriProblem.isEmpty())
        return tr("Printer: %1").arg(m_uriProblem);
    if (!hasPrinter())
        return {};
    const int waiting = m_queue->waiting();
    const QString problem = m_queue->problem();
    if (waiting == 0)
        return problem.isEmpty() ? QString() : tr("Printer: %1").arg(problem);
    return problem.isEmpty() ? tr("Printer: %n waiting", nullptr, waiting)
                             : tr("Printer: %n waiting — %1", nullptr, waiting).arg(problem);
}

}   // namespace OncePay::Ui
