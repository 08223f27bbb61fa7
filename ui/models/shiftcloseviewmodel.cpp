#include "shiftcloseviewmodel.h"

#include "intenttext.h"
#include "shiftreportdocument.h"

#include <QJsonObject>
#include <utility>

namespace OncePay::Ui {

namespace {

ShiftCheck::Options reconcilerOptions(const QString &terminal)
{
    ShiftCheck::Options o;
    o.terminalId = terminal;
    return o;
}

}   // namespace

ShiftCloseViewModel::ShiftCloseViewModel(TillSession *session, const QString &currency, const QString &terminal,
    QObject *parent)
    : QObject(parent)
    , m_session(session)
    , m_currency(currency)
    , m_book(std::make_unique<ShiftBook>(session->journal()))
    , m_reconciler(session->client(), m_book.get(), reconcilerOptions(terminal))
{
    m_report.currency = currency;
    m_refreshSoon.setSingleShot(true);
    m_refreshSoon.setInterval(1000);
    connect(&m_refreshSoon, &QTimer::timeout, this, &ShiftCloseViewModel::refresh);
    connect(session->engine(), &SyncEngine::intentChanged, this, [this] {
        if (m_phase == Phase::Ready || m_phase == Phase::Unreconciled)
            m_refreshSoon.start();
    });
}

ShiftCloseViewModel::~ShiftCloseViewModel() = default;

void ShiftCloseViewModel::setPhase(Phase phase, const QString &problem)
{
    m_problem = problem;
    if (m_phase == phase && problem.isEmpty())
        return;
    m_phase = phase;
    emit phaseChanged(phase);
}

void ShiftCloseViewModel::refresh()
{
    if (m_phase == Phase::Closing || m_phase == Phase::Closed || m_reading)
        return;
    m_reading = true;
    setPhase(Phase::Loading);
    m_book->current(this, [this](bool ok, const TillError &error, ShiftBook::Snapshot snapshot) {
        m_reading = false;
        if (!ok)
            return setPhase(Phase::Unreconciled, tr("The journal could not be read: %1").arg(error.text()));
        m_snapshot = std::move(snapshot);
        m_snapshotRead = true;
        recompute();
        m_reconciler.run(m_snapshot, this, [this](bool ok, const QString &error, const ShiftCheck::Result &result) {
            if (m_phase == Phase::Closing || m_phase == Phase::Closed)
                return;
            if (!ok) {
                m_reconciliation = {};
                m_findings.setFindings({});
                return setPhase(Phase::Unreconciled,
                    tr("The shift cannot be checked with the server (%1). It can be closed without the check: "
                       "the payments still waiting move to the next shift.")
                        .arg(error));
            }
            m_reconciliation = result;
            m_findings.setFindings(result.findings);
            emit reportChanged();
            setPhase(Phase::Ready);
        });
    });
}

void ShiftCloseViewModel::recompute()
{
    ShiftReport::Input in = m_snapshot.reportInput(m_currency, m_counted);
    if (m_snapshot.isFirst() && m_openingFloat)
        in.openingFloat = *m_openingFloat;
    m_report = ShiftReport::compute(in);
    m_totals.setReport(m_report);
    emit reportChanged();
}

std::optional<qint64> ShiftCloseViewModel::parseAmount(const QString &text, bool *ok) const
{
    *ok = true;
    const QString t = text.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    const auto m = Money::parse(t, m_report.currency);
    *ok = m && m->minorUnits() >= 0;
    return *ok ? std::optional<qint64>(m->minorUnits()) : std::nullopt;
}

bool ShiftCloseViewModel::setCountedCash(const QString &text)
{
    bool ok = false;
    const std::optional<qint64> counted = parseAmount(text, &ok);
    if (!ok)
        return false;
    if (counted != m_counted) {
        m_counted = counted;
        m_report.countedCash = counted;
        emit reportChanged();
    }
    return true;
}

bool ShiftCloseViewModel::setOpeningFloat(const QString &text)
{
    bool ok = false;
    const std::optional<qint64> amount = parseAmount(text, &ok);
    if (!ok || (amount && *amount > ShiftBook::kMaxFloat))
        return false;
    if (amount != m_openingFloat) {
        m_openingFloat = amount;
        recompute();
    }
    return true;
}

bool ShiftCloseViewModel::setNextFloat(const QString &text)
{
    bool ok = false;
    const std::optional<qint64> amount = parseAmount(text, &ok);
    if (ok)
        m_nextFloat = amount.value_or(0);
    return ok;
}

QStringList ShiftCloseViewModel::waitingLines() const
{
    return waitingLinesOf(m_report);
}

QStringList ShiftCloseViewModel::waitingLinesOf(const ShiftReport &report)
{
    QStringList lines;
    for (const ShiftReport::Waiting &w : report.waiting) {
        const QString what = w.kind == IntentKind::Refund ? tr("Refund for sale %1").arg(w.saleLabel())
                                                          : tr("Sale %1").arg(w.saleLabel());
        lines << tr("%1: %2, %3%4").arg(what, w.amount.toDisplayString(), IntentText::state(w.state), w.carriedOver ? tr(" (from an earlier shift)") : QString());
    }
    return lines;
}

QStringList ShiftCloseViewModel::tillRefundLines() const
{
    return tillRefundLinesOf(m_report);
}

QStringList ShiftCloseViewModel::tillRefundLinesOf(const ShiftReport &report)
{
    QStringList lines;
    for (const ShiftReport::Waiting &w : report.refundsByTill) {
        const QString amount = w.amount.toDisplayString();
        QString what;
        if (w.state == IntentState::Succeeded) {
            what = ShiftReport::isChargedLate(w) ? tr("%1 charged late, refunded automatically").arg(amount)
                                                 : tr("%1 refunded by the till (sale cancelled)").arg(amount);
        } else if (isFinal(w.state)) {
            what = tr("%1 charged late; the till's refund was refused: needs attention").arg(amount);
        } else {
            what = tr("%1 charged late; the till's refund is on its way").arg(amount);
        }
        lines << tr("Sale %1: %2").arg(w.saleLabel(), what);
    }
    return lines;
}

QStringList ShiftCloseViewModel::owedLines() const
{
    QStringList lines;
    for (const ShiftReport::Waiting &w : m_report.refundsOwed)
        lines << ShiftReportDocument::owedLine(w);
    return lines;
}

QStringList ShiftCloseViewModel::endedLines() const
{
    return endedLinesOf(m_report);
}

QStringList ShiftCloseViewModel::endedLinesOf(const ShiftReport &report)
{
    QStringList lines;
    for (const ShiftReport::Waiting &w : report.carriedOverEnded) {
        const QString what = w.kind == IntentKind::Refund ? tr("Refund for sale %1").arg(w.saleLabel())
                                                          : tr("Sale %1").arg(w.saleLabel());
        lines << tr("%1: %2, %3").arg(what, w.amount.toDisplayString(), IntentText::state(w.state));
    }
    return lines;
}

bool ShiftCloseViewModel::closeNeedsManager() const
{
    const std::optional<qint64> difference = m_report.cashDifference();
    return difference && qAbs(*difference) > m_cashDifferenceLimit;
}

ShiftReportDocument::Context ShiftCloseViewModel::documentContext(const ShiftReport &report, bool reconciled)
{
    ShiftReportDocument::Context c;
    c.reconciled = reconciled;
    c.waitingLines = waitingLinesOf(report);
    c.tillRefundLines = tillRefundLinesOf(report);
    c.endedLines = endedLinesOf(report);
    return c;
}

void ShiftCloseViewModel::close()
{
    if (!canClose())
        return;
    ShiftBook::Close request;
    request.number = m_snapshot.number;
    request.lastIntentId = m_snapshot.lastIntentId;
    request.currency = m_report.currency;
    request.countedCash = m_counted;
    request.nextFloat = m_nextFloat;
    if (m_snapshot.isFirst())
        request.openingFloat = m_openingFloat;
    for (const ShiftReport::Waiting &w : std::as_const(m_report.waiting))
        request.confirmedWaiting << w.key;
    for (const ShiftReport::Waiting &w : std::as_const(m_report.refundsOwed))
        request.confirmedOwed << w.key;
    request.reconciliation = m_reconciliation.toJson();
    if (!isReconciled()) {
        // Closed while the server did not answer: said in the report kept, with why.
        request.reconciliation = QJsonObject{{QStringLiteral("checked"), false}, {QStringLiteral("problem"), m_problem}};
    }
    setPhase(Phase::Closing);
    m_book->close(request, this, [this](bool ok, const TillError &error, ShiftReport report) {
        if (!ok) {
            setPhase(isReconciled() ? Phase::Ready : Phase::Unreconciled, m_problem);
            emit closeRefused(tr("The shift was not closed: %1").arg(error.text()));
            refresh();
            return;
        }
        m_report = std::move(report);
        m_totals.setReport(m_report);
        emit reportChanged();
        setPhase(Phase::Closed);
        emit closed(m_report);
    });
}

}   // namespace OncePay::Ui
