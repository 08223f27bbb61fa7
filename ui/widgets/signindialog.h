#pragma once

#include <QDialog>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace OncePay::Ui {

class StaffSession;

// The till's lock screen (sign in: anyone, and it cannot be dismissed) or a manager's approval
// on the spot (a manager's name and PIN, for `what`; Esc cancels). Name from a list, PIN typed;
// Enter checks it on the staff store's thread, never the window's.
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

protected:
    void reject() override;

private:
    void check();

    StaffSession *m_staff;
    Mode m_mode;
    QString m_what;
    QString m_approvedBy;
    QComboBox *m_name = nullptr;
    QLineEdit *m_pin = nullptr;
    QLabel *m_message = nullptr;
    QPushButton *m_ok = nullptr;
};

}   // namespace OncePay::Ui
