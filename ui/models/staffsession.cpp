#include "staffsession.h"

#include "intentjournal.h"
#include "timeutil.h"

#include <QLoggingCategory>

namespace OncePay::Ui {

Q_LOGGING_CATEGORY(lcStaff, "oncepay.ui.staff", QtInfoMsg)

StaffSession::StaffSession(StaffStore *store, IntentJournal *journal, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_journal(journal)
{
    m_idle.setSingleShot(true);
    connect(&m_idle, &QTimer::timeout, this, [this] {
        if (m_required && isSignedIn())
            lock();
    });
    connect(m_store, &StaffStore::changed, this, &StaffSession::refresh);
}

void StaffSession::refresh()
{
    m_store->list(this, [this](bool ok, const QString &error, const QList<StaffMember> &members) {
        if (!ok) {
            qCWarning(lcStaff) << "the staff list could not be read:" << error;
            return;
        }
        m_members = members;
        m_required = std::any_of(members.cbegin(), members.cend(), [](const StaffMember &m) {
            return m.isManager();
        });
        // Known before the lock screen shows, which it does on staffChanged().
        m_journal->lastSignIn(this, [this](bool ok, const TillError &error, const QString &name) {
            if (!ok)
                qCWarning(lcStaff) << "the last sign-in could not be read:" << error;
            else if (m_lastSignedIn.isEmpty())
                m_lastSignedIn = name;
            m_loaded = true;
            emit staffChanged();
        });
    });
}

QStringList StaffSession::managerNames() const
{
    QStringList out;
    for (const StaffMember &m : m_members) {
        if (m.isManager())
            out << m.name;
    }
    return out;
}

void StaffSession::signIn(const QString &name, const QString &pin, QObject *context,
    std::function<void(const StaffStore::Answer &answer)> done)
{
    m_store->verify(name, pin, context, [this, done = std::move(done)](bool ok, const QString &error, StaffStore::Answer a) {
        if (!ok) {
            qCWarning(lcStaff) << "sign-in not checked:" << error;
            a.refusal = StaffStore::Refusal::NoSuchPerson;
        }
        if (a.refusal == StaffStore::Refusal::None) {
            m_current = a.member;
            m_lastSignedIn = m_current.name;
            m_journal->setActor(m_current.name);
            record(QStringLiteral("sign_in"), staffRoleName(m_current.role));
            noteActivity();
            emit signedInChanged();
        } else {
            // The name only: nothing about the PIN.
            qCInfo(lcStaff) << "sign-in refused for" << a.member.name << int(a.refusal);
            recordLockOut(a);
        }
        done(a);
    });
}

void StaffSession::approve(const QString &manager, const QString &pin, const QString &what, QObject *context,
    std::function<void(const StaffStore::Answer &answer, bool isManager)> done)
{
    m_store->verify(manager, pin, context, [this, what, done = std::move(done)](bool ok, const QString &, StaffStore::Answer a) {
        if (!ok)
            a.refusal = StaffStore::Refusal::NoSuchPerson;
        const bool isManager = a.refusal == StaffStore::Refusal::None && a.member.isManager();
        if (isManager)
            record(QStringLiteral("approve"), what, a.member.name);
        recordLockOut(a);
        done(a, isManager);
    });
}

void StaffSession::lock()
{
    if (!isSignedIn())
        return;
    record(QStringLiteral("lock"), {});
    m_current = {};
    m_journal->setActor({});
    m_idle.stop();
    emit signedInChanged();
}

void StaffSession::setIdleLockMs(int ms)
{
    m_idle.setInterval(ms);
    noteActivity();
}

void StaffSession::noteActivity()
{
    if (m_idle.interval() > 0 && m_required && isSignedIn())
        m_idle.start();
}

void StaffSession::recordLockOut(const StaffStore::Answer &a)
{
    // The try that locked the person out (not one refused while locked): a staff action, and so
    // an event for the office (issue 38), in that person's name.
    if (a.refusal != StaffStore::Refusal::LockedOut || a.lockedUntil == a.member.lockedUntil)
        return;
    IntentJournal::StaffAction lockOut;
    lockOut.staff = a.member.name;
    lockOut.action = QStringLiteral("lock_out");
    lockOut.detail = QStringLiteral("until %1").arg(toRfc3339(a.lockedUntil));
    m_journal->recordStaffAction(lockOut, this, [](bool ok, const TillError &error, bool) {
        if (!ok)
            qCWarning(lcStaff) << "a lock-out was not recorded:" << error;
    });
}

void StaffSession::record(const QString &action, const QString &detail, const QString &approvedBy)
{
    IntentJournal::StaffAction a;
    a.staff = m_current.name;
    a.action = action;
    a.approvedBy = approvedBy;
    a.detail = detail;
    m_journal->recordStaffAction(a, this, [](bool ok, const TillError &error, bool) {
        if (!ok)
            qCWarning(lcStaff) << "a staff action was not recorded:" << error;
    });
}

}   // namespace OncePay::Ui
