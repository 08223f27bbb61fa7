#pragma once

#include "staffstore.h"

#include <QCoreApplication>
#include <QObject>
#include <QTimer>

namespace OncePay {
class IntentJournal;
}

namespace OncePay::Ui {

// What a dialog asks when something needs a manager: `granted` runs with the approving
// manager's name ("" when none was needed), or never (cancelled). MainWindow::withManager.
using ManagerGate = std::function<void(const QString &what, std::function<void(const QString &approver)> granted)>;

// Who works the till now (issue 23). A till with no manager defined needs no one (the demo, and
// every till before staff existed); once a manager exists, a person signs in with name and PIN,
// the journal stamps what they do (IntentJournal::setActor), the till locks on demand and after
// idle time, and what a cashier may not do alone waits for a manager's PIN on the spot.
class StaffSession final : public QObject
{
    Q_OBJECT

public:
    StaffSession(StaffStore *store, IntentJournal *journal, QObject *parent = nullptr);

    // Reads who exists; staffChanged() once known.
    void refresh();
    bool isLoaded() const { return m_loaded; }
    bool required() const { return m_required; }
    const QList<StaffMember> &members() const { return m_members; }
    QStringList managerNames() const;
    bool isSignedIn() const { return m_current.isValid(); }
    // Who signed in last, on this till and across restarts (the journal's sign-ins): the lock
    // screen offers this name first (issue 36). "" when no one has yet.
    QString lastSignedIn() const { return m_lastSignedIn; }
    StaffMember current() const { return m_current; }
    // No staff required, or a manager signed in: nothing to approve.
    bool mayApproveAlone() const { return !m_required || m_current.isManager(); }

    void signIn(const QString &name, const QString &pin, QObject *context,
        std::function<void(const StaffStore::Answer &answer)> done);
    // A manager's PIN for what the signed-in person may not do alone: `done` with the manager,
    // or a refusal (NotAManager when the person is not one).
    void approve(const QString &manager, const QString &pin, const QString &what, QObject *context,
        std::function<void(const StaffStore::Answer &answer, bool isManager)> done);
    void lock();
    // Idle time before the till locks by itself (0: never); restarted by noteActivity().
    void setIdleLockMs(int ms);
    void noteActivity();

signals:
    void staffChanged();
    void signedInChanged();   // signed in, or locked

private:
    void record(const QString &action, const QString &detail, const QString &approvedBy = {});
    void recordLockOut(const StaffStore::Answer &answer);

    StaffStore *m_store;
    IntentJournal *m_journal;
    QList<StaffMember> m_members;
    StaffMember m_current;
    QString m_lastSignedIn;
    bool m_required = false;
    bool m_loaded = false;
    QTimer m_idle;
};

}   // namespace OncePay::Ui
