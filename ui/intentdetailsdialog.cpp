#include "intentdetailsdialog.h"

#include "cartmodel.h"
#include "queuemodel.h"
#include "timelinewidget.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace OncePay::Ui {

IntentDetailsDialog::IntentDetailsDialog(TillSession *session, const Intent &intent, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_intent(intent)
{
    setWindowTitle(tr("Payment %1").arg(intent.orderId));
    auto *layout = new QVBoxLayout(this);
    m_timeline = new TimelineWidget(this);
    layout->addWidget(m_timeline);
    auto *grid = new QGridLayout;
    m_journal = new QPlainTextEdit(this);
    m_local = new QPlainTextEdit(this);
    m_remote = new QPlainTextEdit(this);
    for (QPlainTextEdit *e : {m_journal, m_local, m_remote})
        e->setReadOnly(true);
    m_journal->setAccessibleName(tr("Journal of state changes"));
    m_local->setAccessibleName(tr("The till's record"));
    m_remote->setAccessibleName(tr("The gateway's record"));
    grid->addWidget(new QLabel(tr("Journal"), this), 0, 0);
    grid->addWidget(new QLabel(tr("This till's record"), this), 0, 1);
    grid->addWidget(new QLabel(tr("The gateway's record"), this), 0, 2);
    grid->addWidget(m_journal, 1, 0);
    grid->addWidget(m_local, 1, 1);
    grid->addWidget(m_remote, 1, 2);
    layout->addLayout(grid, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *fetch = buttons->addButton(tr("Ask the gateway"), QDialogButtonBox::ActionRole);
    auto *retry = buttons->addButton(tr("Retry now"), QDialogButtonBox::ActionRole);
    retry->setEnabled(!isFinal(intent.state));
    connect(fetch, &QPushButton::clicked, this, &IntentDetailsDialog::fetchGatewayRecord);
    connect(retry, &QPushButton::clicked, this, [this] { m_session->engine()->retryNow(m_intent.key); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    m_local->setPlainText(tr("key: %1\nsale: %2\namount: %3\nstate: %4\npayment: %5\ntries: %6\nproblem: %7")
                              .arg(intent.key, intent.orderId, intent.amount.toDisplayString(), QueueModel::stateText(intent.state),
                                   intent.paymentId).arg(intent.attempts).arg(intent.lastProblem));
    m_remote->setPlainText(tr("Not asked yet."));
    session->journal()->attempts(intent.key, this, [this](bool ok, const QString &, QList<Attempt> a) {
        if (ok)
            m_timeline->setAttempts(a);
    });
    session->journal()->journal(intent.key, this, [this](bool ok, const QString &, QList<JournalEntry> entries) {
        if (!ok)
            return;
        QString text;
        for (const JournalEntry &e : entries) {
            text += QStringLiteral("%1  %2 → %3  %4\n")
                        .arg(QDateTime::fromMSecsSinceEpoch(e.at).toString(QStringLiteral("HH:mm:ss.zzz")),
                             e.fromState.isEmpty() ? QStringLiteral("·") : e.fromState, e.toState, e.detail);
        }
        m_journal->setPlainText(text);
    });
    resize(980, 520);
}

void IntentDetailsDialog::fetchGatewayRecord()
{
    m_remote->setPlainText(tr("Asking…"));
    m_session->client()->getPaymentByKey(m_intent.key, this, [this](const GatewayResult &r) {
        if (r.answered() && r.status == 200)
            m_remote->setPlainText(QString::fromUtf8(QJsonDocument(r.json).toJson(QJsonDocument::Indented)));
        else if (r.answered() && r.status == 404)
            m_remote->setPlainText(tr("The gateway has no payment with this key: it was never executed."));
        else
            m_remote->setPlainText(tr("The gateway could not be asked: %1").arg(r.summary()));
    });
}

} // namespace OncePay::Ui
