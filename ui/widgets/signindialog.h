#pragma once

#include "scandetector.h"

#include <QDialog>
#include <QStringList>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace OncePay::Ui {

class StaffSession;

// The till's lock screen (sign in: anyone, and it cannot be dismissed) or a manager's approval
// on the spot (a manager's name and PIN, for `what`; Esc cancels). Name from a list, PIN typed;
// Enter checks it on the staff store's thread, never the window's. A barcode scanner's burst
// (ScanDetector) is never a PIN try, nor is an empty PIN: nothing counts toward the lockout
// (issue 36). The lock screen says "Sign in first" and keeps what was scanned for the sale
// (scannedCodes(), added once someone signed in); the approval drops it and says so.
class SignInDialog final : public QDialog
{
    Q_OBJECT

public:
    enum class Mode {
        SignIn,
        Approve,
    };
    SignInDialog(StaffSession *staff, Mode mode, const QString &what, QWidget *parent = nullptr);
    QString approvedBy() const { return m_approvedBy; }
    // What was scanned at the lock screen, in order: the sale's, once someone has signed in.
    QStringList scannedCodes() const { return m_scanned; }

protected:
    void reject() override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void check();
    void scanned(const QString &code);

    StaffSession *m_staff;
    Mode m_mode;
    QString m_what;
    QString m_approvedBy;
    QComboBox *m_name = nullptr;
    QLineEdit *m_pin = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_ok = nullptr;
    ScanDetector m_scans;
    QStringList m_scanned;
};

}   // namespace OncePay::Ui
