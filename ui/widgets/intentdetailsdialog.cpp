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
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTime>
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

constexpr QSize kCashierSize(620, 0);   // height: what the summary needs
constexpr QSize kTechnicalSize(980, 680);
}   // namespace

IntentDetailsDialog::IntentDetailsDialog(TillSession *session, const Intent &intent, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_intent(intent)
{
    setWindowTitle(intent.isRefund() ? tr("Refund for sale %1").arg(intent.saleLabel()) : tr("Payment %1").arg(intent.saleLabel()));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(makeSummary());

    m_technicalButton = new QPushButton(tr("&Technical details (for support)"), this);
    m_technicalButton->setCheckable(true);
    m_technicalButton->setAccessibleName(tr("Show the technical details"));
    m_technicalButton->setToolTip(tr("The key, the attempts, the gateway's record and the journal (Alt+T)"));
    layout->addWidget(m_technicalButton, 0, Qt::AlignLeft);
    m_technical = makeTechnical();
    m_technical->hide();
    layout->addWidget(m_technical, 1);
    connect(m_technicalButton, &QPushButton::toggled, this, &IntentDetailsDialog::showTechnical);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *fetch = buttons->addButton(tr("Ask the gateway"), QDialogButtonBox::ActionRole);
    auto *retry = buttons->addButton(tr("Retry now"), QDialogButtonBox::ActionRole);
    retry->setEnabled(!isFinal(intent.state) && !intent.isCash());
    retry->setToolTip(tr("Send it again now instead of waiting for the next try: with the same key, so it is never charged twice"));
    fetch->setEnabled(!intent.isCash());   // cash never went to the gateway
    connect(fetch, &QPushButton::clicked, this, &IntentDetailsDialog::fetchGatewayRecord);
    connect(retry, &QPushButton::clicked, this, [this] {
        m_session->engine()->retryNow(m_intent.key);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    buttons->button(QDialogButtonBox::Close)->setDefault(true);

    session->journal()->attempts(intent.key, this, [this](bool ok, const TillError &, const QList<Attempt> &a) {
        if (!ok)
            return;
        m_timeline->setAttempts(a);
        // The newest attempt is the one people look for: scrolled into view.
        m_timelineArea->horizontalScrollBar()->setValue(m_timelineArea->horizontalScrollBar()->maximum());
    });
    session->journal()->journal(intent.key, this, [this, kind = intent.kind](bool ok, const TillError &, const QList<JournalEntry> &entries) {
        if (ok)
            m_journal->setPlainText(IntentText::journalLines(entries, kind).join(QLatin1Char('\n')));
    });
    if (intent.isCash()) {
        showGatewayMessage(tr("Cash: the gateway is never asked."));
    } else {
        showGatewayMessage(tr("Not asked yet."));
        fetchGatewayRecord();   // what the cashier wants to know: asked at once
    }
    showTechnical(false);
}

QWidget *IntentDetailsDialog::makeSummary()
{
    auto *box = new QWidget(this);
    box->setAccessibleName(tr("In short"));
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);

    auto *state = new QLabel(IntentText::stateOf(m_intent), box);
    QFont big = state->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    state->setFont(big);
    state->setWordWrap(true);
    state->setAccessibleName(tr("State"));
    layout->addWidget(state);

    auto *meaning = valueLabel(IntentText::meaning(m_intent), box);
    meaning->setAccessibleName(tr("What it means"));
    layout->addWidget(meaning);

    auto *form = new QFormLayout;
    form->addRow(tr("Sale:"), valueLabel(m_intent.saleLabel(), box));
    form->addRow(tr("Amount:"), valueLabel(IntentText::amount(m_intent), box));
    form->addRow(m_intent.isRefund() ? tr("Back to:") : tr("Paid with:"), valueLabel(IntentText::paymentMethod(m_intent), box));
    if (!m_intent.isRefund() && m_intent.amountRefunded > 0)
        form->addRow(tr("Given back:"), valueLabel(Money(m_intent.amountRefunded, m_intent.amount.currency()).toDisplayString(), box));
    if (m_intent.isRefund() && !m_intent.reason.isEmpty())
        form->addRow(tr("Reason:"), valueLabel(m_intent.reason, box));
    form->addRow(tr("Time:"), valueLabel(IntentText::shortTime(m_intent.createdAt), box));
    layout->addLayout(form);

    m_gatewaySays = valueLabel(QString(), box);
    m_gatewaySays->setAccessibleName(tr("What the gateway says"));
    m_gatewaySays->setVisible(!m_intent.isCash());
    layout->addWidget(m_gatewaySays);
    return box;
}

QWidget *IntentDetailsDialog::makeTechnical()
{
    auto *panel = new QWidget(this);
    panel->setAccessibleName(tr("Technical details"));
    auto *layout = new QVBoxLayout(panel);
    layout->setContentsMargins(0, 0, 0, 0);

    // The timeline keeps its natural width; wider than the dialog, it scrolls.
    m_timeline = new TimelineWidget(panel);
    m_timelineArea = new QScrollArea(panel);
    m_timelineArea->setWidget(m_timeline);
    m_timelineArea->setWidgetResizable(true);
    m_timelineArea->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_timelineArea->setFrameShape(QFrame::NoFrame);
    m_timelineArea->setFixedHeight(m_timeline->sizeHint().height() + m_timelineArea->horizontalScrollBar()->sizeHint().height() + 4);
    m_timelineArea->setAccessibleName(tr("Timeline of attempts"));
    layout->addWidget(m_timelineArea);

    // The two records side by side, the journal below at full width (one change a line).
    auto *columns = new QHBoxLayout;
    const Intent &intent = m_intent;
    auto *localBox = new QGroupBox(tr("This till's record"), panel);
    localBox->setAccessibleName(tr("The till's record"));
    auto *local = new QFormLayout(localBox);
    const QString none = tr("—", "no value");
    local->addRow(tr("Kind:"), valueLabel(IntentText::kind(intent.kind), localBox));
    local->addRow(tr("State:"), valueLabel(IntentText::state(intent.state), localBox));
    local->addRow(tr("Payment id:"), valueLabel(intent.paymentId.isEmpty() ? none : intent.paymentId, localBox));
    if (intent.isRefund()) {
        local->addRow(tr("Refund id:"), valueLabel(intent.refundId.isEmpty() ? none : intent.refundId, localBox));
        local->addRow(tr("Refund of payment:"), valueLabel(intent.paymentKey, localBox));
    }
    local->addRow(tr("Order id:"), valueLabel(intent.orderId, localBox));
    local->addRow(tr("Tries:"), valueLabel(QString::number(intent.attempts), localBox));
    if (!intent.lastProblem.isEmpty())
        local->addRow(tr("Problem:"), valueLabel(intent.lastProblem, localBox));
    local->addRow(tr("Idempotency key:"), valueLabel(intent.key, localBox));
    columns->addWidget(localBox, 1);

    auto *remoteBox = new QGroupBox(tr("The gateway's record"), panel);
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
    connect(m_showRaw, &QPushButton::toggled, this, [this](bool on) {
        m_showRaw->setText(on ? tr("Hide raw") : tr("Show raw"));
    });
    remote->addWidget(m_raw, 1);
    remote->addStretch();
    remote->addWidget(m_showRaw, 0, Qt::AlignLeft);
    columns->addWidget(remoteBox, 1);
    layout->addLayout(columns, 1);

    auto *journalBox = new QGroupBox(tr("Journal"), panel);
    m_journal = new QPlainTextEdit(journalBox);
    m_journal->setReadOnly(true);
    m_journal->setLineWrapMode(QPlainTextEdit::WidgetWidth);
    m_journal->setAccessibleName(tr("Journal of state changes"));
    (new QVBoxLayout(journalBox))->addWidget(m_journal);
    layout->addWidget(journalBox, 1);
    return panel;
}

void IntentDetailsDialog::showTechnical(bool on)
{
    m_technical->setVisible(on);
    // The cashier's view is small; the technical one as large as it needs, within the screen.
    const QRect screen = (parentWidget() ? parentWidget()->screen() : this->screen())->availableGeometry();
    if (on) {
        resize(qMin(kTechnicalSize.width(), screen.width() - 40), qMin(kTechnicalSize.height(), screen.height() - 40));
    } else {
        layout()->activate();
        resize(qMin(kCashierSize.width(), screen.width() - 40), minimumSizeHint().height());
    }
    if (!isVisible())
        return;
    // Grown, it stays on the screen: moved up and left as far as it needs.
    const QRect frame = frameGeometry();
    const int dx = qMin(0, screen.right() - frame.right()) + qMax(0, screen.left() - frame.left());
    const int dy = qMin(0, screen.bottom() - frame.bottom()) + qMax(0, screen.top() - frame.top());
    if (dx || dy)
        move(pos() + QPoint(dx, dy));
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
    m_gatewaySays->setText(tr("Asking the gateway…"));
    auto answer = [this](const GatewayResult &r) {
        const QString at = QLocale().toString(QTime::currentTime(), QStringLiteral("HH:mm:ss"));
        if (r.answered() && r.status == 200) {
            const QJsonObject record = m_intent.isRefund() ? r.refund() : r.payment();
            const QString status = record.value(QStringLiteral("status")).toString();
            const QString word = m_intent.isRefund() ? IntentText::refundStatus(status) : IntentText::paymentStatus(status);
            m_gatewaySays->setText(tr("The gateway says: %1 (asked at %2).").arg(word, at));
            showGatewayFields(m_intent.isRefund() ? IntentText::gatewayRefundFields(record) : IntentText::gatewayFields(record));
            m_raw->setPlainText(QString::fromUtf8(QJsonDocument(r.json).toJson(QJsonDocument::Indented)));
            m_showRaw->setEnabled(true);
        } else if (r.answered() && r.status == 404) {
            const QString text = m_intent.isRefund()
                ? tr("The gateway has no refund with this key: it was never executed.")
                : tr("The gateway has no payment with this key: it was never executed.");
            m_gatewaySays->setText(m_intent.isRefund()
                    ? tr("The gateway has no refund with this key yet: nothing went back so far (asked at %1).").arg(at)
                    : tr("The gateway has no payment with this key yet: the card has not been charged so far (asked at %1).").arg(at));
            showGatewayMessage(text);
        } else {
            m_gatewaySays->setText(tr("The gateway could not be asked just now (%1); the till keeps trying by itself.").arg(at));
            showGatewayMessage(tr("The gateway could not be asked: %1").arg(r.summary()));
        }
    };
    if (m_intent.isRefund())
        m_session->client()->getRefundByKey(m_intent.key, this, answer);
    else
        m_session->client()->getPaymentByKey(m_intent.key, this, answer);
}

}   // namespace OncePay::Ui
