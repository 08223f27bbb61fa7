#include "signindialog.h"

#include "staffsession.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {
constexpr int kMaxPinLength = 8;   // a longer line is no PIN: a scan
}   // namespace

SignInDialog::SignInDialog(StaffSession *staff, Mode mode, const QString &what, QWidget *parent)
    : QDialog(parent)
    , m_staff(staff)
    , m_mode(mode)
    , m_what(what)
    , m_scans(kMaxPinLength)
{
    const bool signIn = mode == Mode::SignIn;
    setWindowTitle(signIn ? tr("Sign in") : tr("A manager's approval"));
    setAccessibleName(signIn ? tr("Sign in") : tr("Manager approval"));
    setModal(true);
    auto *layout = new QVBoxLayout(this);
    auto *heading = new QLabel(signIn ? tr("The till is locked. Sign in with your name and PIN.")
                                      : tr("%1 needs a manager. A manager types their PIN here.").arg(what),
        this);
    heading->setWordWrap(true);
    QFont big = heading->font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    heading->setFont(big);
    layout->addWidget(heading);

    auto *form = new QFormLayout;
    m_name = new QComboBox(this);
    m_name->setAccessibleName(tr("Name"));
    m_name->addItems(signIn ? [staff] {
        QStringList names;
        for (const StaffMember &m : staff->members())
            names << m.name;
        return names;
    }()
                            : staff->managerNames());
    // Issue 36: the person who signed in last is the likeliest to sign in now (one-person shops).
    if (signIn)
        m_name->setCurrentIndex(qMax(0, m_name->findText(staff->lastSignedIn())));
    m_name->setMinimumHeight(40);
    form->addRow(tr("&Name:"), m_name);
    m_pin = new QLineEdit(this);
    m_pin->setAccessibleName(tr("PIN"));
    m_pin->setEchoMode(QLineEdit::Password);
    m_pin->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{0,%1}").arg(kMaxPinLength)), m_pin));
    m_pin->setMinimumHeight(40);
    form->addRow(tr("&PIN:"), m_pin);
    layout->addLayout(form);
    m_message = new QLabel(this);
    m_message->setAccessibleName(tr("Sign-in message"));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("color: #b71c1c;"));
    layout->addWidget(m_message);

    auto *buttons = new QDialogButtonBox(this);
    m_ok = buttons->addButton(signIn ? tr("&Sign in") : tr("&Approve"), QDialogButtonBox::AcceptRole);
    m_ok->setDefault(true);
    m_ok->setMinimumHeight(48);
    if (!signIn)
        buttons->addButton(QDialogButtonBox::Cancel);
    connect(m_ok, &QPushButton::clicked, this, &SignInDialog::check);
    connect(buttons, &QDialogButtonBox::rejected, this, &SignInDialog::reject);
    layout->addWidget(buttons);
    // Name, PIN, then the button, whatever the layout made of the order.
    setTabOrder(m_name, m_pin);
    setTabOrder(m_pin, m_ok);
    // A scanner types into whichever of them has the keyboard: each key is seen before it acts.
    for (QWidget *w : {static_cast<QWidget *>(m_name), static_cast<QWidget *>(m_pin), static_cast<QWidget *>(m_ok)})
        w->installEventFilter(this);
    // The PIN has the keyboard from the start (the name is the last one chosen, or the first).
    m_pin->setFocus();
    setMinimumWidth(420);
}

void SignInDialog::reject()
{
    // The lock screen stays until someone signs in.
    if (m_mode == Mode::Approve)
        QDialog::reject();
}

bool SignInDialog::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress
        && m_scans.press(*static_cast<QKeyEvent *>(event)) == ScanDetector::Verdict::Scanned) {
        scanned(m_scans.code());
        return true;   // its Enter is no Sign in
    }
    return QDialog::eventFilter(watched, event);
}

void SignInDialog::scanned(const QString &code)
{
    // The scan's digits landed in the PIN field: they are no PIN, and no try is counted.
    m_pin->clear();
    m_pin->setFocus();
    if (m_mode == Mode::Approve) {
        m_message->setText(tr("That was a scan, not a PIN: %1 was not added. A manager types the PIN; scan it again afterwards.").arg(code));
        return;
    }
    m_scanned << code;
    m_message->setText(m_scanned.size() == 1
            ? tr("Sign in first: %1 is kept and added to the sale once you have signed in.").arg(code)
            : tr("Sign in first: %1 scanned items are kept and added to the sale once you have signed in.").arg(m_scanned.size()));
}

void SignInDialog::check()
{
    if (!m_ok->isEnabled())
        return;
    const QString name = m_name->currentText();
    const QString pin = m_pin->text();
    m_pin->clear();   // a PIN never stays on the screen
    if (name.isEmpty()) {
        m_message->setText(tr("No one to sign in as: add staff with oncepay-ctl staff add."));
        return;
    }
    if (pin.isEmpty()) {
        // Enter on an empty field (a bump, a second Enter) is no try at a PIN: nothing is counted.
        m_message->setText(tr("Type your PIN, then press Enter."));
        m_pin->setFocus();
        return;
    }
    m_ok->setEnabled(false);
    m_message->setText(tr("Checking…"));
    auto answered = [this](const StaffStore::Answer &a) {
        m_ok->setEnabled(true);
        m_message->setText(StaffStore::describe(a));
        m_pin->setFocus();
    };
    if (m_mode == Mode::SignIn) {
        m_staff->signIn(name, pin, this, [this, answered](const StaffStore::Answer &a) {
            if (a.refusal == StaffStore::Refusal::None)
                return accept();
            answered(a);
        });
    } else {
        m_staff->approve(name, pin, m_what, this, [this, answered](const StaffStore::Answer &a, bool isManager) {
            if (isManager) {
                m_approvedBy = a.member.name;
                return accept();
            }
            if (a.refusal == StaffStore::Refusal::None) {
                m_ok->setEnabled(true);
                m_message->setText(tr("%1 is not a manager.").arg(a.member.name));
                return;
            }
            answered(a);
        });
    }
}

}   // namespace OncePay::Ui
