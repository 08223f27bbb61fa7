// MainWindow and the counter's devices (issue 24): the paid sale's receipt printed by itself, the
// drawer opened for cash and by a manager, Ctrl+P, reprints from the payments panel, and the
// printer's state in the status bar.
#include "mainwindow.h"

#include "counterdevices.h"
#include "elidedlabel.h"
#include "intentjournal.h"
#include "queuepanel.h"
#include "receipt.h"
#include "receiptdialog.h"
#include "refundslip.h"
#include "salerecords.h"
#include "salebook.h"
#include "tillstatusbar.h"

#include <QLabel>
#include <QLineEdit>
#include <QLoggingCategory>
#include <QPushButton>

namespace OncePay::Ui {

namespace {

// The key a document is printed once under: the sale's receipt, a refund's slip.
QString receiptOnceKey(const Intent &intent)
{
    if (intent.isRefund())
        return QStringLiteral("refund:") + intent.key;
    return QStringLiteral("receipt:") + (intent.saleNumber.isEmpty() ? intent.key : intent.saleNumber);
}

}   // namespace

void MainWindow::setDevices(CounterDevices *devices)
{
    m_devices = devices;
    if (!m_printerStatus) {
        // "Printer: 1 waiting — The printer at tcp://… cannot be reached: …" is elided, whole a
        // click away: it once made the window wider than its screen (issue 36).
        auto *label = new ElidedLabel(this);
        label->setPreferredChars(80);
        m_printerStatus = label;
        m_printerStatus->setAccessibleName(tr("Receipt printer"));
        m_statusBar->addMiddleWidget(m_printerStatus);
    }
    auto refresh = [this] {
        const QString text = m_devices ? m_devices->statusText() : QString();
        m_printerStatus->setText(text);
        m_printerStatus->setVisible(!text.isEmpty());
    };
    connect(m_devices, &CounterDevices::statusChanged, this, refresh);
    connect(m_devices, &CounterDevices::notice, this, &MainWindow::showSearchMessage);
    refresh();
    // Paid: the receipt prints by itself (once per sale, whatever shows the phase again).
    connect(&m_vm, &CheckoutViewModel::phaseChanged, this, [this](CheckoutViewModel::Phase phase) {
        if (phase == CheckoutViewModel::Phase::Paid)
            printPaidReceipt();
    });
    // Cash is in the journal: the drawer opens for it (and for the change).
    connect(&m_vm, &CheckoutViewModel::cashTaken, this, [this](const Intent &cash) {
        if (!m_devices->hasDrawer())
            return;   // no drawer the till can open: nothing to open, nothing to say
        pulseDrawer(QStringLiteral("cash sale"), m_vm.saleNumber(), cash.amount.minorUnits(), {});
    });
    connect(m_queuePanel, &QueuePanel::reprintRequested, this, &MainWindow::reprintIntent);
}

QString MainWindow::receiptHtml() const
{
    const auto intent = m_vm.intent();
    if (!intent || Receipt::kindFor(*intent) == Receipt::Kind::None)
        return {};
    const TillSettings settings = TillSettings::load();
    auto &vm = const_cast<CheckoutViewModel &>(m_vm);
    const ReceiptContext context{m_terminal, settings.shopName, settings.shopAddress, m_vm.cashTendered(), m_vm.earlierParts()};
    return Receipt::html(*intent, *vm.cart(), context);
}

void MainWindow::printPaidReceipt()
{
    const auto intent = m_vm.intent();
    if (!m_devices || !m_devices->autoPrint() || !intent || intent->state != IntentState::Succeeded)
        return;
    const QString html = receiptHtml();
    if (html.isEmpty())
        return;
    m_devices->print(PrintQueue::Kind::Receipt, tr("Receipt %1").arg(Receipt::number(*intent, m_terminal)), html,
        receiptOnceKey(*intent));
}

void MainWindow::reprintLastReceipt()
{
    QString reason;
    if (m_devices && m_devices->hasPrinter()) {
        // The sale on screen when it is paid; otherwise the last receipt printed.
        const auto intent = m_vm.intent();
        if (intent && intent->state == IntentState::Succeeded) {
            m_devices->print(PrintQueue::Kind::Receipt, tr("Receipt %1").arg(Receipt::number(*intent, m_terminal)), receiptHtml());
            showSearchMessage(tr("The receipt of %1 is printing again.").arg(Receipt::number(*intent, m_terminal)));
            return;
        }
        if (m_devices->reprintLast(&reason)) {
            showSearchMessage(tr("The last receipt is printing again."));
            return;
        }
        showSearchMessage(reason);
        return;
    }
    // No receipt printer: the receipt as before, through the system's print dialog or a PDF.
    if (m_receipt->isEnabled()) {
        m_receipt->click();
        return;
    }
    showSearchMessage(tr("No receipt to print: the sale is not paid yet."));
}

void MainWindow::reprintIntent(const Intent &intent)
{
    if (!m_devices || !m_devices->hasPrinter()) {
        showSearchMessage(tr("No receipt printer is set: choose one in Settings, Devices."));
        return;
    }
    if (!intent.isRefund() && intent.state != IntentState::Succeeded) {
        showSearchMessage(tr("Only a paid sale has a receipt to print."));
        return;
    }
    const QString number = Receipt::number(intent, m_terminal);
    m_devices->queue()->reprint(receiptOnceKey(intent), this, [this, intent, number](bool ok, const QString &error, bool found) {
        if (!ok) {
            showSearchMessage(tr("%1 was not queued for the printer: %2").arg(number, error));
            return;
        }
        if (found) {
            showSearchMessage(tr("%1 is printing again.").arg(number));
            return;
        }
        if (intent.isRefund()) {
            reprintRefundSlip(intent, number);
            return;
        }
        // Never printed here (no printer then): the receipt is drawn again from the journal.
        m_sales->find(intent.orderId, this, [this, intent, number](bool ok, const TillError &error, const Sale &sale) {
            if (!ok || !sale.isValid()) {
                showSearchMessage(tr("The sale of %1 cannot be read: %2").arg(number, error.text()));
                return;
            }
            QList<Intent> earlier;
            std::optional<Intent> last;
            for (const Intent &part : sale.intents) {
                if (part.isRefund() || part.state != IntentState::Succeeded)
                    continue;
                if (last)
                    earlier.append(*last);
                last = part;
            }
            if (!last)
                return;
            CartModel cart;
            cart.setLanguage(m_vm.cart()->language());
            cart.setLinesJson(sale.lines, sale.total.currency());
            const TillSettings settings = TillSettings::load();
            const ReceiptContext context{m_terminal, settings.shopName, settings.shopAddress, {}, earlier};
            m_devices->print(PrintQueue::Kind::Receipt, tr("Receipt %1").arg(number), Receipt::html(*last, cart, context));
            showSearchMessage(tr("%1 is printing again.").arg(number));
        });
    });
}

void MainWindow::reprintRefundSlip(const Intent &refund, const QString &number)
{
    // Never printed here: the slip drawn again from the journal (the payment, the sale's lines
    // and what this refund gave back of them, after what earlier refunds of the payment had).
    m_sales->find(refund.orderId, this, [this, refund, number](bool ok, const TillError &error, const Sale &sale) {
        const auto payment = std::find_if(sale.intents.cbegin(), sale.intents.cend(), [&refund](const Intent &i) {
            return !i.isRefund() && i.key == refund.paymentKey;
        });
        if (!ok || !sale.isValid() || payment == sale.intents.cend()) {
            showSearchMessage(tr("No slip of refund %1 was printed on this printer: open the refund (F8) and use Refund slip….").arg(number));
            if (!ok)
                qWarning() << "the sale of a refund was not read:" << error.text();
            return;
        }
        const Intent &paid = *payment;
        m_records->lines(refund.orderId, this, [this, refund, paid, number](bool ok, const TillError &, const QList<SaleLine> &lines) {
            if (!ok)
                return showSearchMessage(tr("The sale of %1 cannot be read.").arg(number));
            m_records->itemsOfRefund(refund, this, [this, refund, paid, lines, number](bool ok, const TillError &, const RefundItems &items) {
                if (!ok)
                    return showSearchMessage(tr("The sale of %1 cannot be read.").arg(number));
                const TillSettings settings = TillSettings::load();
                const ReceiptContext context{m_terminal, settings.shopName, settings.shopAddress, {}};
                m_devices->print(PrintQueue::Kind::RefundSlip, tr("Refund slip %1").arg(number),
                    RefundSlip::html(refund, paid, lines, items, m_vm.cart()->language(), context));
                showSearchMessage(tr("%1 is printing again.").arg(number));
            });
        });
    });
}

void MainWindow::openDrawerAsked()
{
    withManager(tr("Open the drawer"), [this](const QString &approver) {
        askText(tr("Open the drawer"), tr("Why is the drawer opened (such as \"change for the float\")?"), tr("Reason for opening the drawer"),
            [this, approver](const QString &text, QString *reason) {
                if (text.trimmed().isEmpty()) {
                    *reason = tr("Say why the drawer is opened: the journal keeps it.");
                    return false;
                }
                pulseDrawer(text.trimmed(), {}, 0, approver);
                return true;
            });
    });
}

void MainWindow::pulseDrawer(const QString &why, const QString &subject, qint64 amount, const QString &approver)
{
    // Who opened it and why, in the journal, whether or not the drawer answers.
    IntentJournal::StaffAction a;
    a.action = QStringLiteral("open_drawer");
    a.subject = subject;
    a.amount = amount;
    a.approvedBy = approver;
    a.detail = why;
    m_session->journal()->recordStaffAction(a, this, [](bool, const TillError &, bool) {});
    if (!m_devices)
        return;
    // Not opened, why; opened on a printer out of paper, that (issue 36).
    m_devices->openDrawer(this, [this](bool, const QString &reason) {
        if (!reason.isEmpty())
            showSearchMessage(reason);
    });
}

}   // namespace OncePay::Ui
