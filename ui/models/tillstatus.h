#pragma once

#include "officesync.h"
#include "syncengine.h"

#include <QCoreApplication>
#include <QHash>
#include <QString>

namespace OncePay {
class TillSession;
}

namespace OncePay::Ui {

// What the status bar, the payments panel and the quit question say about the till's link to
// its gateway and the payments waiting, made from plain facts so that the words are tested
// without a window. Read once per refresh: the waiting totals are the engine's running totals
// (SyncEngine::waitingTotals), never a walk of the queue.
class TillStatus
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Ui::TillStatus)

public:
    struct Facts
    {
        SyncEngine::Connectivity connectivity = SyncEngine::Connectivity::Online;
        bool paused = false;
        qint64 nextRetryInMs = -1;   // -1: nothing scheduled; 0: due now
        int waiting = 0;   // payments and refunds not final
        QHash<QString, qint64> waitingTotals;   // payments, by currency, minor units
        QString gateway;   // empty: the demo gateway
        int gatewayIndex = 0;   // 0-based, of gatewayCount
        int gatewayCount = 1;
        QString terminal;
    };

    static Facts read(const TillSession &session, bool demo, const QString &terminal, qint64 nowMs);

    static QString connection(const Facts &f);   // "● Online", "○ Offline (next try in 3 s)"...
    static QString queue(const Facts &f);   // "Waiting: 2 payments · ¥12.00"
    static QString gateway(const Facts &f);   // "Demo gateway · terminal 1"
    static QString panelSummary(const Facts &f);   // "2 payments waiting: ¥12.00"
    static QString totals(const QHash<QString, qint64> &waitingTotals);   // "¥12.00, $3.00"

    // Issue 38, the till's records on their way to the shop's office: "Office: 12 waiting";
    // nothing when there is no office or everything was sent. A warning (officeIsLate) once the
    // oldest has waited an hour, or when the office refused them (sending stopped).
    static constexpr qint64 kOfficeLateMs = 3600 * 1000;
    static QString office(const OfficeSync::Status &s, bool hasOffice, qint64 nowMs);
    static bool officeIsLate(const OfficeSync::Status &s, bool hasOffice, qint64 nowMs);
};

}   // namespace OncePay::Ui
