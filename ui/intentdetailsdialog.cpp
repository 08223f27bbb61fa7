#include "intentdetailsdialog.h"

#include "intenttext.h"
#include "timelinewidget.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {
QLabel *valueLabel(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setWordWrap(true);
    return label;
}
} // namespace

IntentDetailsDialog::IntentDetailsDialog(TillSession *session, const Intent &intent, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_intent(intent)
{
    setWindowTitle(intent.isRefund() ? tr("Refund for sale %1").arg(intent.saleLabel()) : tr("Payment %1").arg(intent.saleLabel()));
    auto *layout = new QVBoxLayout(this);

    // The timeline keeps its natural width; wider than the dialog, it scrolls.
    m_timeline = new TimelineWidget(this);
    m_timelineArea = new QScrollArea(this);
    m_timelineArea->setWidget(m_timeline);
    m_timelineArea->setWidgetResizable(true);
    m_timelineArea->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_timelineArea->setFrameShape(QFrame::NoFrame);
    m_timelineArea->setFixedHeight(m_timeline->sizeHint().height() + m_timelineArea->horizontalScrollBar()->sizeHint().height() + 4);
    m_timelineArea->setAccessibleName(tr("Timeline of attempts"));
    layout->addWidget(m_timelineArea);

    // The two records side by side, the journal below at full width (one change a line).
    auto *columns = new QHBoxLayout;

    auto *localBox = new QGroupBox(tr("This till's record"), this);
    localBox->setAccessibleName(tr("The till's record"));
    auto *local = new QFormLayout(localBox);
    const QString none = tr("—", "no value");
    local->addRow(tr("Kind:"), valueLabel(IntentText::kind(intent.kind), localBox));
    local->addRow(tr("Sale:"), valueLabel(intent.saleLabel(), localBox));
    local->addRow(tr("Amount:"), valueLabel(IntentText::amount(intent), localBox));
    local->addRow(intent.isRefund() ? tr("Back to:") : tr("Paid with:"), valueLabel(IntentText::paymentMethod(intent), localBox));
    local->addRow(tr("State:"), valueLabel(IntentText::stateOf(intent), localBox));
    if (!intent.isRefund() && intent.amountRefunded > 0)
        local->addRow(tr("Given back:"), valueLabel(Money(intent.amountRefunded, intent.amount.currency()).toDisplayString(), localBox));
    local->addRow(tr("Payment id:"), valueLabel(intent.paymentId.isEmpty() ? none : intent.paymentId, localBox));
    if (intent.isRefund()) {
        local->addRow(tr("Refund id:"), valueLabel(intent.refundId.isEmpty() ? none : intent.refundId, localBox));
        local->addRow(tr("Refund of payment:"), valueLabel(intent.paymentKey, localBox));
        local->addRow(tr("Reason:"), valueLabel(intent.reason.isEmpty() ? none : intent.reason, localBox));
    }
    local->addRow(tr("Tries:"), valueLabel(QString::number(intent.attempts), localBox));
    if (!intent.lastProblem.isEmpty())
        local->addRow(tr("Problem:"), valueLabel(intent.lastProblem, localBox));
    local->addRow(tr("Idempotency key:"), valueLabel(intent.key, localBox));
    columns->addWidget(localBox, 1);

    auto *remoteBox = new QGroupBox(tr("The gateway's record"), this);
    remoteBox->setAccessibleName(tr("The gateway's record"));
    auto *remote = new QVBoxLayout(remoteBox);
    m_remoteFields = new QFormLayout;
    remote->addLayout(m_remoteFields);
    m_showRaw = new QPushButton(tr("Show raw"), remoteBox);
    m_showRaw->setCheckable(true);
    m_showRaw->setEnabled(false);
    m_showRaw->setAccessibleName(tr("Show the gateway's raw answer"));
    m_raw = new QPlainTextEdit(remoteBox);
    m_raw->setReadOnly(true);
    m_raw->setAccessibleName(tr("The gateway's raw answer"));
    m_raw->hide();
    connect(m_showRaw, &QPushButton::toggled, m_raw, &QWidget::setVisible);
    connect(m_showRaw, &QPushButton::toggled, this, [this](bool on) { m_showRaw->setText(on ? tr("Hide raw") : tr("Show raw")); });
    remote->addWidget(m_raw, 1);
    remote->addStretch();
    remote->addWidget(m_showRaw, 0, Qt::AlignLeft);
    columns->addWidget(remoteBox, 1);
    layout->addLayout(columns, 1);

    auto *journalBox = new QGroupBox(tr("Journal"), this);
    m_journal = new QPlainTextEdit(journalBox);
    m_journal->setReadOnly(true);
    m_journal->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_journal->setAccessibleName(tr("Journal of state changes"));
    (new QVBoxLayout(journalBox))->addWidget(m_journal);
    layout->addWidget(journalBox, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *fetch = buttons->addButton(tr("Ask the gateway"), QDialogButtonBox::ActionRole);
    auto *retry = buttons->addButton(tr("Retry now"), QDialogButtonBox::ActionRole);
    retry->setEnabled(!isFinal(intent.state));
    fetch->setEnabled(!intent.isCash());   // cash never went to the gateway
    connect(fetch, &QPushButton::clicked, this, &IntentDetailsDialog::fetchGatewayRecord);
    connect(retry, &QPushButton::clicked, this, [this] { m_session->engine()->retryNow(m_intent.key); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);

    showGatewayMessage(intent.isCash() ? tr("Cash: the gateway is never asked.") : tr("Not asked yet."));
    session->journal()->attempts(intent.key, this, [this](bool ok, const QString &, QList<Attempt> a) {
        if (!ok)
            return;
        m_timeline->setAttempts(a);
        // The newest attempt is the one people look for: scrolled into view.
        m_timelineArea->horizontalScrollBar()->setValue(m_timelineArea->horizontalScrollBar()->maximum());
    });
    session->journal()->journal(intent.key, this, [this, kind = intent.kind](bool ok, const QString &, QList<JournalEntry> entries) {
        if (!ok)
            return;
        QStringList lines;
        for (const JournalEntry &e : entries)
            lines << IntentText::journalLine(e, kind);
        m_journal->setPlainText(lines.join(QLatin1Char('\n')));
    });
    resize(980, 640);
}

void IntentDetailsDialog::showGatewayMessage(const QString &message)
{
    while (m_remoteFields->rowCount() > 0)
        m_remoteFields->removeRow(0);
    m_remoteFields->addRow(valueLabel(message, this));
}

void IntentDetailsDialog::showGatewayFields(const QList<QPair<QString, QString>> &fields)
{
    while (m_remoteFields->rowCount() > 0)
        m_remoteFields->removeRow(0);
    for (const auto &[label, value] : fields)
        m_remoteFields->addRow(tr("%1:", "a field's label").arg(label), valueLabel(value, this));
}

void IntentDetailsDialog::fetchGatewayRecord()
{
    showGatewayMessage(tr("Asking…"));
    auto answer = [this](const GatewayResult &r) {
        if (r.answered() && r.status == 200 && m_intent.isRefund()) {
            showGatewayFields(IntentText::gatewayRefundFields(r.refund()));
            m_raw->setPlainText(QString::fromUtf8(QJsonDocument(r.json).toJson(QJsonDocument::Indented)));
            m_showRaw->setEnabled(true);
        } else if (r.answered() && r.status == 200) {
            showGatewayFields(IntentText::gatewayFields(r.payment()));
            m_raw->setPlainText(QString::fromUtf8(QJsonDocument(r.json).toJson(QJsonDocument::Indented)));
            m_showRaw->setEnabled(true);
        } else if (r.answered() && r.status == 404) {
            showGatewayMessage(m_intent.isRefund() ? tr("The gateway has no refund with this key: it was never executed.")
                                                   : tr("The gateway has no payment with this key: it was never executed."));
        } else {
            showGatewayMessage(tr("The gateway could not be asked: %1").arg(r.summary()));
        }
    };
    if (m_intent.isRefund())
        m_session->client()->getRefundByKey(m_intent.key, this, answer);
    else
        m_session->client()->getPaymentByKey(m_intent.key, this, answer);
}

} // namespace OncePay::Ui
