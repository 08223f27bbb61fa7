// MainWindow and who works the till (issue 23): the name in the status bar, the lock screen when
// someone must sign in, and a manager's approval on the spot. What was scanned at the lock screen
// is the sale's once someone has signed in (issue 36).
#include "mainwindow.h"

#include "elidedlabel.h"
#include "queuepanel.h"
#include "signindialog.h"
#include "staffsession.h"
#include "tillstatusbar.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>

namespace OncePay::Ui {

void MainWindow::setStaff(StaffSession *staff)
{
    m_staff = staff;
    m_staffLabel = new ElidedLabel(this);
    m_staffLabel->setAccessibleName(tr("Signed in"));
    m_statusBar->addPermanentWidget(m_staffLabel);
    m_staff->setIdleLockMs(TillSettings::load().idleLockMinutes * 60'000);
    m_queuePanel->setManagerGate(managerGate(), Money(TillSettings::load().refundLimit, m_vm.cart()->total().currency()));
    qApp->installEventFilter(this);
    connect(m_staff, &StaffSession::staffChanged, this, &MainWindow::requireSignIn);
    connect(m_staff, &StaffSession::signedInChanged, this, &MainWindow::requireSignIn);
    requireSignIn();
}

void MainWindow::showStaff()
{
    if (!m_staffLabel)
        return;
    const bool shown = m_staff && m_staff->required() && m_staff->isSignedIn();
    m_staffLabel->setVisible(shown);
    if (shown) {
        const StaffMember who = m_staff->current();
        m_staffLabel->setText(who.isManager() ? tr("%1 (manager)").arg(who.name) : who.name);
    }
}

void MainWindow::requireSignIn()
{
    showStaff();
    if (!m_staff || !m_staff->isLoaded() || !m_staff->required() || m_staff->isSignedIn() || m_lockScreen)
        return;
    auto *dialog = new SignInDialog(m_staff, SignInDialog::Mode::SignIn, {}, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    m_lockScreen = dialog;
    // Signed in: what the scanner read at the lock screen goes into the sale, as if scanned now.
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        addScannedAtLock(dialog->scannedCodes());
    });
    connect(dialog, &QDialog::finished, this, [this] {
        activateWindow();
        m_search->setFocus();
    });
    dialog->open();
}

void MainWindow::addScannedAtLock(const QStringList &codes)
{
    for (qsizetype i = 0; i < codes.size(); ++i) {
        // A code that asks something (a price, a weight, how the last customer left) stops here:
        // the rest would answer its question.
        if (!m_search->isEnabled() || QApplication::activeModalWidget()) {
            showSearchMessage(tr("%n item(s) scanned at the lock screen were not added: scan them again.", nullptr, int(codes.size() - i)));
            return;
        }
        m_search->setText(codes.at(i));
        addFromSearch();
    }
}

ManagerGate MainWindow::managerGate()
{
    return [window = QPointer<MainWindow>(this)](const QString &what, std::function<void(const QString &)> granted) {
        if (window)
            window->withManager(what, std::move(granted));
    };
}

void MainWindow::withManager(const QString &what, std::function<void(const QString &approver)> granted)
{
    if (!m_staff || m_staff->mayApproveAlone())
        return granted(m_staff && m_staff->required() ? m_staff->current().name : QString());
    auto *dialog = new SignInDialog(m_staff, SignInDialog::Mode::Approve, what, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [dialog, granted = std::move(granted)] {
        granted(dialog->approvedBy());
    });
    // Approved or not, the scan field has the keyboard again (unless what was approved opened a
    // window of its own, which then has it).
    connect(dialog, &QDialog::finished, this, [this] {
        if (!QApplication::activeModalWidget()) {
            activateWindow();
            m_search->setFocus();
        }
    });
    dialog->open();
}

}   // namespace OncePay::Ui
