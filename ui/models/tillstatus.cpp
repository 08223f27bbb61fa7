#include "tillstatus.h"

#include "money.h"
#include "tillsession.h"

#include <QStringList>

#include <algorithm>

namespace OncePay::Ui {

TillStatus::Facts TillStatus::read(const TillSession &session, bool demo, const QString &terminal, qint64 nowMs)
{
    const SyncEngine *e = session.engine();
    Facts f;
    f.connectivity = e->connectivity();
    f.paused = e->isPaused();
    f.nextRetryInMs = e->nextRetryAt() > 0 ? qMax<qint64>(0, e->nextRetryAt() - nowMs) : -1;
    f.waiting = e->waitingCount();
    f.waitingTotals = e->waitingTotals();
    if (!demo)
        f.gateway = session.gatewayUrl().toString();
    if (const GatewayClient *client = session.client()) {
        f.gatewayCount = client->gatewayCount();
        f.gatewayIndex = qMax(0, int(client->baseUrls().indexOf(client->baseUrl())));
    }
    f.terminal = terminal;
    return f;
}

QString TillStatus::connection(const Facts &f)
{
    using C = SyncEngine::Connectivity;
    QString text;
    switch (f.connectivity) {
    case C::Online:
        text = tr("● Online");
        break;
    case C::Offline:
        text = tr("○ Offline");
        break;
    case C::Reconnecting:
        text = tr("◐ Reconnecting…");
        break;
    case C::NoAnswer:
        text = tr("◌ No answer from the gateway");
        break;
    }
    if (f.paused)
        text = tr("⏸ Paused: the gateway refused this till's token");
    if (f.connectivity != C::Online && f.nextRetryInMs >= 0) {
        const qint64 s = qMax<qint64>(0, (f.nextRetryInMs + 999) / 1000);
        // Due now (a try on its way): never "next try in 0 s" for as long as it takes.
        text += QLatin1Char(' ') + (s > 0 ? tr("(next try in %n s)", nullptr, int(s)) : tr("(trying now)"));
    }
    return text;
}

QString TillStatus::totals(const QHash<QString, qint64> &waitingTotals)
{
    QStringList currencies = waitingTotals.keys();
    std::sort(currencies.begin(), currencies.end());   // the same order on every refresh
    QStringList parts;
    for (const QString &currency : std::as_const(currencies))
        parts << Money(waitingTotals.value(currency), currency).toDisplayString();
    return parts.join(QStringLiteral(", "));
}

QString TillStatus::queue(const Facts &f)
{
    const QString money = totals(f.waitingTotals);
    return tr("Waiting: %n payment(s)", nullptr, f.waiting) + (money.isEmpty() ? QString() : QStringLiteral(" · ") + money);
}

QString TillStatus::panelSummary(const Facts &f)
{
    const QString money = totals(f.waitingTotals);
    return tr("%n payment(s) waiting", nullptr, f.waiting) + (money.isEmpty() ? QString() : QStringLiteral(": ") + money);
}

bool TillStatus::officeIsLate(const OfficeSync::Status &s, bool hasOffice, qint64 nowMs)
{
    if (!hasOffice)
        return false;
    return s.stopped || (s.waiting > 0 && s.oldestWaitingAtMs > 0 && nowMs - s.oldestWaitingAtMs >= kOfficeLateMs);
}

QString TillStatus::office(const OfficeSync::Status &s, bool hasOffice, qint64 nowMs)
{
    if (!hasOffice || (s.waiting == 0 && !s.stopped))
        return {};
    if (s.stopped)
        return tr("Office: %n waiting, sending stopped: %1", nullptr, s.waiting).arg(s.problem);
    QString text = tr("Office: %n waiting", nullptr, s.waiting);
    if (officeIsLate(s, hasOffice, nowMs))
        text += QStringLiteral(" · ") + tr("the oldest for %n hour(s)", nullptr, int((nowMs - s.oldestWaitingAtMs) / kOfficeLateMs));
    if (s.offline)
        text += QStringLiteral(" · ") + tr("the office cannot be reached");
    return text;
}

QString TillStatus::gateway(const Facts &f)
{
    QString text = f.gateway.isEmpty() ? tr("Demo gateway") : f.gateway;
    if (f.gatewayCount > 1)
        text += QLatin1Char(' ') + tr("(gateway %1 of %2)").arg(f.gatewayIndex + 1).arg(f.gatewayCount);
    return text + QStringLiteral(" · ") + tr("terminal %1").arg(f.terminal);
}

}   // namespace OncePay::Ui
