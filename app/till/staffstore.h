#pragma once

#include "sqlbatchworker.h"

#include <QCoreApplication>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace OncePay {

enum class StaffRole {
    Cashier,
    Manager,   // approves what a cashier may not do alone, on the spot, with their PIN
};
QString staffRoleName(StaffRole role);   // "cashier", "manager"
std::optional<StaffRole> staffRoleFromName(const QString &name);

struct StaffMember
{
    qint64 id = 0;
    QString name;
    StaffRole role = StaffRole::Cashier;
    qint64 lockedUntil = 0;   // ms since the epoch: five wrong PINs lock the person out until then

    bool isValid() const { return id > 0; }
    bool isManager() const { return role == StaffRole::Manager; }
};

// The people who work the till, in its own SQLite file beside the journal ("…/till-staff.db"):
// names, roles and PINs, each PIN kept only as a salted PBKDF2-SHA256 hash (QPasswordDigestor,
// 100,000 iterations: a check costs about 0.15 s, done on the store's thread, never the
// window's). Five wrong PINs in a row lock that person out for five minutes, across restarts.
// Nothing about a PIN is ever logged.
class StaffStore final : public QObject
{
    Q_OBJECT

public:
    template <typename T>
    using Reply = std::function<void(bool ok, const QString &error, T value)>;

    static constexpr int kMaxWrongPins = 5;
    static constexpr qint64 kLockoutMs = 5 * 60 * 1000;

    // A refusal, as a kind: words are made where they are shown (describe()).
    enum class Refusal {
        None,
        NameEmpty,
        NameTaken,
        PinNotDigits,   // 4 to 8 digits
        NoSuchPerson,
        WrongPin,
        LockedOut,
    };
    struct Answer
    {
        Refusal refusal = Refusal::None;
        StaffMember member;   // on success: who
        int attemptsLeft = 0;   // WrongPin: before the lockout
        qint64 lockedUntil = 0;   // LockedOut
    };
    static QString describe(const Answer &answer);

    // "…/till.db" -> "…/till-staff.db".
    static QString pathBeside(const QString &journalPath);
    static bool isValidPin(const QString &pin);

    explicit StaffStore(QString path, QObject *parent = nullptr);
    ~StaffStore() override;
    bool open(QString *error);   // creates the file; only while starting up
    void close();
    QString path() const { return m_path; }

    // Everyone, by name.
    void list(QObject *context, Reply<QList<StaffMember>> reply);
    void add(const QString &name, StaffRole role, const QString &pin, QObject *context, Reply<Answer> reply);
    // The PIN of `name` checked: Accepted (the member), or why not. A wrong one counts toward
    // the lockout; a right one clears the count.
    void verify(const QString &name, const QString &pin, QObject *context, Reply<Answer> reply);

signals:
    void changed();   // someone was added

private:
    QString m_path;
    std::unique_ptr<SqlBatchWorker> m_worker;
};

}   // namespace OncePay
