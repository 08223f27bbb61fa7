#include "gateway/acquirer/walletledger.h"

#include "sqlbatchworker.h"
#include "timeutil.h"
#include "world.h"

#include <QRandomGenerator>
#include <QSqlQuery>

namespace OncePay::Gateway {

QString WalletLedger::newAuthorizationCode()
{
    static const char alphabet[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    QString code;
    auto *rng = randomSource();
    for (int i = 0; i < 6; ++i)
        code.append(QLatin1Char(alphabet[rng->bounded(36)]));
    return code;
}

void WalletLedger::confirmDue(SqlTx &tx)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT seq FROM charges WHERE status = 'processing' AND confirm_at IS NOT NULL"
                                          " AND confirm_at <= ?"),
        {nowMs()});
    QList<qint64> due;
    while (q.next())
        due.append(q.value(0).toLongLong());
    q.finish();
    for (const qint64 seq : std::as_const(due)) {
        tx.exec(QStringLiteral("UPDATE charges SET status = 'succeeded', auth_code = ? WHERE seq = ?"),
            {newAuthorizationCode(), seq});
    }
}

bool WalletLedger::firstPresentation(SqlTx &tx, const ChargeRequest &rq, qint64 now)
{
    return tx.numRowsAffected(QStringLiteral("INSERT INTO wallet_codes (code, merchant, idem_key, created_at)"
                                             " VALUES (?, ?, ?, ?) ON CONFLICT (code) DO NOTHING"),
               {rq.token, rq.merchant, rq.key, now})
        == 1;
}

bool WalletLedger::isReversed(SqlTx &tx, const QString &merchant, const QString &key)
{
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT 1 FROM reversals WHERE merchant = ? AND idem_key = ?"), {merchant, key});
    const bool found = q.next();
    q.finish();
    return found;
}

AcquirerAnswer WalletLedger::reverse(SqlTx &tx, const QString &merchant, const QString &key, SimulationState::Mode mode,
    qint64 now)
{
    using Mode = SimulationState::Mode;
    if (mode == Mode::ErrorBeforeCharge)
        return AcquirerAnswer{AcquirerAnswer::Kind::Refused, {}, QStringLiteral("the acquirer refused the request")};
    confirmDue(tx);
    QSqlQuery &q = tx.exec(QStringLiteral("SELECT seq, status, decline_code, (SELECT COUNT(*) FROM refunds r"
                                          " WHERE r.merchant = c.merchant AND r.charge_key = c.idem_key AND"
                                          " r.status = 'succeeded') FROM charges c WHERE c.merchant = ?"
                                          " AND c.idem_key = ? ORDER BY c.seq DESC LIMIT 1"),
        {merchant, key});
    const bool found = q.next();
    const qint64 seq = found ? q.value(0).toLongLong() : 0;
    const QString status = found ? q.value(1).toString() : QString();
    const QString code = found ? q.value(2).toString() : QString();
    const bool refunded = found && q.value(3).toLongLong() > 0;
    q.finish();
    // Money never goes back twice: a charge refunded in part or in whole stands, and
    // nothing is recorded (a reversal on top would hand back more than was charged).
    if (status == QLatin1String("succeeded") && refunded)
        return AcquirerAnswer::conflict("charge_refunded", "the charge was refunded: it cannot be reversed");
    tx.exec(QStringLiteral("INSERT INTO reversals (merchant, idem_key, created_at) VALUES (?, ?, ?)"
                           " ON CONFLICT (merchant, idem_key) DO NOTHING"),
        {merchant, key, now});
    AcquirerAnswer a{AcquirerAnswer::Kind::Reversed, {}, {}};
    if (found) {
        if (status == QLatin1String("processing")) {
            // The customer never confirmed: nothing was charged, and the ledger keeps no row.
            tx.exec(QStringLiteral("DELETE FROM charges WHERE seq = ?"), {seq});
        } else if (status == QLatin1String("succeeded")) {
            // Confirmed in the meantime: the charge is undone, money back.
            tx.exec(QStringLiteral("UPDATE charges SET status = 'reversed' WHERE seq = ?"), {seq});
        } else if (status == QLatin1String("declined")) {
            a = AcquirerAnswer{AcquirerAnswer::Kind::Declined, code, {}};
        }
    }
    if (mode == Mode::TimeoutAfterCharge)
        return AcquirerAnswer{AcquirerAnswer::Kind::AnswerLost, {}, QStringLiteral("the acquirer's answer was lost")};
    return a;
}

}   // namespace OncePay::Gateway
