#include "staffstore.h"

#include "oncontext.h"
#include "timeutil.h"
#include "world.h"

#include <QAtomicInt>
#include <QCryptographicHash>
#include <QDateTime>
#include <QFileInfo>
#include <QPasswordDigestor>
#include <QPointer>
#include <QRandomGenerator>

namespace OncePay {

namespace {

QAtomicInt g_counter;
constexpr int kIterations = 100'000;

void migrate(SqlTx &tx, int fromVersion)
{
    if (fromVersion < 1) {
        tx.exec(QStringLiteral(
            "CREATE TABLE staff (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, role TEXT NOT NULL,"
            " pin_hash BLOB NOT NULL, salt BLOB NOT NULL, iterations INTEGER NOT NULL, wrong_pins INTEGER NOT NULL DEFAULT 0,"
            " locked_until INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL)"));
    }
}

QByteArray hashPin(const QString &pin, const QByteArray &salt, int iterations)
{
    return QPasswordDigestor::deriveKeyPbkdf2(QCryptographicHash::Sha256, pin.toUtf8(), salt, iterations, 32);
}

// Compares without stopping at the first difference.
bool sameBytes(const QByteArray &a, const QByteArray &b)
{
    if (a.size() != b.size())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a.at(i) ^ b.at(i));
    return diff == 0;
}

StaffMember readMember(const QSqlQuery &q)
{
    StaffMember m;
    m.id = q.value(0).toLongLong();
    m.name = q.value(1).toString();
    m.role = staffRoleFromName(q.value(2).toString()).value_or(StaffRole::Cashier);
    m.lockedUntil = q.value(3).toLongLong();
    return m;
}

}   // namespace

QString staffRoleName(StaffRole role)
{
    return role == StaffRole::Manager ? QStringLiteral("manager") : QStringLiteral("cashier");
}

std::optional<StaffRole> staffRoleFromName(const QString &name)
{
    if (name == QLatin1String("manager"))
        return StaffRole::Manager;
    if (name == QLatin1String("cashier"))
        return StaffRole::Cashier;
    return std::nullopt;
}

QString StaffStore::describe(const Answer &a)
{
    switch (a.refusal) {
    case Refusal::None:
        return {};
    case Refusal::NameEmpty:
        return tr("Give the person's name.");
    case Refusal::NameTaken:
        return tr("Someone is already called \"%1\".").arg(a.member.name);
    case Refusal::PinNotDigits:
        return tr("A PIN is 4 to 8 digits.");
    case Refusal::NoSuchPerson:
        return tr("No one at this till is called \"%1\".").arg(a.member.name);
    case Refusal::WrongPin:
        return tr("Wrong PIN. %n more tries before %1 is locked out for five minutes.", nullptr, a.attemptsLeft)
            .arg(a.member.name);
    case Refusal::LockedOut:
        return tr("%1 is locked out after five wrong PINs, until %2.")
            .arg(a.member.name, QDateTime::fromMSecsSinceEpoch(a.lockedUntil).toString(QStringLiteral("HH:mm")));
    }
    return {};
}

QString StaffStore::pathBeside(const QString &journalPath)
{
    const QFileInfo info(journalPath);
    return info.path() + QLatin1Char('/') + info.completeBaseName() + QStringLiteral("-staff.db");
}

bool StaffStore::isValidPin(const QString &pin)
{
    if (pin.size() < 4 || pin.size() > 8)
        return false;
    for (QChar c : pin) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    }
    return true;
}

StaffStore::StaffStore(QString path, QObject *parent)
    : QObject(parent)
    , m_path(std::move(path))
{
}

StaffStore::~StaffStore()
{
    close();
}

bool StaffStore::open(QString *error)
{
    SqlBatchWorker::Options o;
    o.path = m_path;
    o.connectionName = QStringLiteral("oncepay-staff-%1").arg(g_counter.fetchAndAddRelaxed(1));
    o.schemaVersion = 1;
    o.migrate = migrate;
    o.applicationId = 0x4F505354;   // "OPST": OncePay staff
    o.markerTable = QStringLiteral("staff");
    o.ownerOnly = true;
    m_worker = std::make_unique<SqlBatchWorker>(o);
    if (!m_worker->start(error)) {
        m_worker.reset();
        return false;
    }
    return true;
}

void StaffStore::close()
{
    if (m_worker)
        m_worker->stop();
    m_worker.reset();
}

void StaffStore::list(QObject *context, Reply<QList<StaffMember>> reply)
{
    if (!m_worker)
        return reply(false, tr("The staff list is not open."), {});
    m_worker->transact<QList<StaffMember>>(
        context, [](SqlTx &tx) {
            QList<StaffMember> out;
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT id, name, role, locked_until FROM staff ORDER BY name COLLATE NOCASE"));
            while (q.next())
                out.append(readMember(q));
            q.finish();
            return out;
        },
        onContext(context, std::move(reply)));
}

void StaffStore::add(const QString &name, StaffRole role, const QString &pin, QObject *context, Reply<Answer> reply)
{
    if (!m_worker)
        return reply(false, tr("The staff list is not open."), {});
    const QString trimmed = name.simplified();
    if (trimmed.isEmpty())
        return reply(true, {}, Answer{Refusal::NameEmpty, {}, 0, 0});
    if (!isValidPin(pin))
        return reply(true, {}, Answer{Refusal::PinNotDigits, {}, 0, 0});
    // The salt is made here (the thread that owns the random source), the hash on the store's.
    QByteArray salt(16, '\0');
    for (char &c : salt)
        c = char(randomSource()->bounded(256));
    m_worker->transact<Answer>(
        this, [trimmed, role, pin, salt](SqlTx &tx) {
            Answer a;
            a.member.name = trimmed;
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT 1 FROM staff WHERE name = ? COLLATE NOCASE"), {trimmed});
            const bool taken = q.next();
            q.finish();
            if (taken) {
                a.refusal = Refusal::NameTaken;
                return a;
            }
            QSqlQuery &ins = tx.exec(QStringLiteral("INSERT INTO staff (name, role, pin_hash, salt, iterations, created_at)"
                                                    " VALUES (?, ?, ?, ?, ?, ?) RETURNING id"),
                {trimmed, staffRoleName(role), hashPin(pin, salt, kIterations), salt, kIterations, nowMs()});
            a.member.id = ins.next() ? ins.value(0).toLongLong() : 0;
            ins.finish();
            a.member.role = role;
            return a;
        },
        [this, context = QPointer<QObject>(context), reply = std::move(reply)](bool ok, const QString &error, const Answer &a) {
            if (ok && a.refusal == Refusal::None)
                emit changed();
            if (context)
                reply(ok, error, a);
        });
}

void StaffStore::verify(const QString &name, const QString &pin, QObject *context, Reply<Answer> reply)
{
    if (!m_worker)
        return reply(false, tr("The staff list is not open."), {});
    const qint64 now = nowMs();
    m_worker->transact<Answer>(
        context, [name = name.simplified(), pin, now](SqlTx &tx) {
            Answer a;
            a.member.name = name;
            QSqlQuery &q = tx.exec(QStringLiteral("SELECT id, name, role, locked_until, pin_hash, salt, iterations, wrong_pins"
                                                  " FROM staff WHERE name = ? COLLATE NOCASE"),
                {name});
            if (!q.next()) {
                q.finish();
                a.refusal = Refusal::NoSuchPerson;
                return a;
            }
            a.member = readMember(q);
            const QByteArray stored = q.value(4).toByteArray();
            const QByteArray salt = q.value(5).toByteArray();
            const int iterations = q.value(6).toInt();
            const int wrong = q.value(7).toInt();
            q.finish();
            if (a.member.lockedUntil > now) {
                a.refusal = Refusal::LockedOut;
                a.lockedUntil = a.member.lockedUntil;
                return a;
            }
            if (isValidPin(pin) && sameBytes(hashPin(pin, salt, iterations), stored)) {
                tx.exec(QStringLiteral("UPDATE staff SET wrong_pins = 0, locked_until = 0 WHERE id = ?"), {a.member.id});
                a.member.lockedUntil = 0;
                return a;
            }
            const int wrongNow = wrong + 1;
            if (wrongNow >= kMaxWrongPins) {
                a.refusal = Refusal::LockedOut;
                a.lockedUntil = now + kLockoutMs;
                tx.exec(QStringLiteral("UPDATE staff SET wrong_pins = 0, locked_until = ? WHERE id = ?"), {a.lockedUntil, a.member.id});
            } else {
                a.refusal = Refusal::WrongPin;
                a.attemptsLeft = kMaxWrongPins - wrongNow;
                tx.exec(QStringLiteral("UPDATE staff SET wrong_pins = ? WHERE id = ?"), {wrongNow, a.member.id});
            }
            return a;
        },
        onContext(context, std::move(reply)));
}

}   // namespace OncePay
