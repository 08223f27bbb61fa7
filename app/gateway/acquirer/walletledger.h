#pragma once

#include "gateway/acquirer/acquirer.h"
#include "gateway/acquirer/acquirersimulation.h"

#include <QString>

namespace OncePay {
class SqlTx;
}

namespace OncePay::Gateway {

// The simulated bank's wallet payments (API.md "Wallet payments"), in the ledger's own
// transactions (AcquirerSimulator's units call these). A wallet charge waits, `processing`, for
// the customer to confirm on the phone (its confirm_at); a payment code is presented once; a
// payment given up is reversed, and a charge arriving after its reversal is never made.
class WalletLedger final
{
public:
    WalletLedger() = delete;

    // The customers who confirmed on the phone by now: their waiting charges are made. Run first
    // by every unit that reads or writes charges, so that what it sees is the bank's present.
    static void confirmDue(SqlTx &tx);
    // A payment code is single-use, whatever became of its first presentation (declined, given up
    // before the customer confirmed, reversed): remembered for good, so that shown again under
    // another key it has expired. False when it was presented before.
    static bool firstPresentation(SqlTx &tx, const ChargeRequest &rq, qint64 now);
    // Whether (merchant, key) was given up.
    static bool isReversed(SqlTx &tx, const QString &merchant, const QString &key);
    // Gives up (merchant, key), the unit of Acquirer::reverse: Reversed (nothing kept), Declined
    // (it was declined anyway), Conflict "charge_refunded" (money went back on it already: it
    // stands), or what the merchant's mode makes of it.
    static AcquirerAnswer reverse(SqlTx &tx, const QString &merchant, const QString &key, SimulationState::Mode mode,
        qint64 now);

    // An approved charge's authorization code (a card's, or a wallet's once confirmed): 6 uppercase
    // letters and digits, kept in the ledger.
    static QString newAuthorizationCode();
};

}   // namespace OncePay::Gateway
