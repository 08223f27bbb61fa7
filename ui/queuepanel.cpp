#include "queuepanel.h"

#include "cartmodel.h"
#include "timeutil.h"

#include <QComboBox>
#include <QDateTime>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace OncePay::Ui {

QueuePanel::QueuePanel(TillSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(session->journal())
{
    auto *layout = new QVBoxLayout(this);
    auto *bar = new QHBoxLayout;
    auto *filterLabel = new QLabel(tr("Show:"), this);
    m_filter = new QComboBox(this);
    m_filter->setAccessibleName(tr("Filter payments by state"));
    filterLabel->setBuddy(m_filter);
    m_filter->addItem(tr("Waiting (not final)"), QStringLiteral("active"));
    m_filter->addItem(tr("All"), QString());
    for (IntentState s : {IntentState::Queued, IntentState::Processing, IntentState::Unknown, IntentState::Succeeded,
                          IntentState::Declined, IntentState::NeedsAttention})
        m_filter->addItem(QueueModel::stateText(s), intentStateName(s));
    connect(m_filter, &QComboBox::currentIndexChanged, this, &QueuePanel::applyFilter);
    m_summary = new QLabel(this);
    m_summary->setAccessibleName(tr("Waiting payments summary"));
    auto *retry = new QPushButton(tr("Retry now"), this);
    retry->setAccessibleName(tr("Retry the selected payment now"));
    auto *details = new QPushButton(tr("Details…"), this);
    details->setAccessibleName(tr("Show the selected payment's details"));
    bar->addWidget(filterLabel);
    bar->addWidget(m_filter);
    bar->addWidget(m_summary, 1);
    bar->addWidget(retry);
    bar->addWidget(details);
    layout->addLayout(bar);

    m_view = new QTableView(this);
    m_view->setModel(&m_model);
    m_view->setAccessibleName(tr("Payments"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_view->horizontalHeader()->setSectionResizeMode(int(QueueModel::Column::Key), QHeaderView::Stretch);
    m_view->setWordWrap(false);
    layout->addWidget(m_view);

    connect(retry, &QPushButton::clicked, this, [this] {
        const Intent i = m_model.intentAt(m_view->currentIndex().row());
        if (i.isValid())
            m_session->engine()->retryNow(i.key);
    });
    connect(details, &QPushButton::clicked, this, &QueuePanel::showDetails);
    connect(m_view, &QTableView::activated, this, &QueuePanel::showDetails);
    connect(session->engine(), &SyncEngine::intentChanged, &m_model, &QueueModel::intentChanged);
    connect(session->engine(), &SyncEngine::queueChanged, this, &QueuePanel::refreshSummary);
    connect(&m_model, &QueueModel::countChanged, this, &QueuePanel::refreshSummary);
    applyFilter();
}

void QueuePanel::applyFilter()
{
    const QString v = m_filter->currentData().toString();
    if (v == QLatin1String("active"))
        m_model.setFilter(std::nullopt, true);
    else
        m_model.setFilter(v.isEmpty() ? std::nullopt : intentStateFromName(v), false);
}

void QueuePanel::refreshSummary()
{
    const SyncEngine *e = m_session->engine();
    QStringList totals;
    const auto t = e->waitingTotals();
    for (auto it = t.cbegin(); it != t.cend(); ++it)
        totals << formatMoney(Money(it.value(), it.key()));
    m_summary->setText(tr("%n payment(s) waiting", nullptr, e->waitingCount())
                       + (totals.isEmpty() ? QString() : QStringLiteral(": ") + totals.join(QStringLiteral(", "))));
}

void QueuePanel::showDetails()
{
    const Intent i = m_model.intentAt(m_view->currentIndex().row());
    if (!i.isValid())
        return;
    auto *dialog = new IntentDetailsDialog(m_session, i, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
}

TimelineWidget::TimelineWidget(QWidget *parent)
    : QWidget(parent)
{
    setAccessibleName(tr("Timeline of attempts"));
    setMinimumHeight(130);
}

void TimelineWidget::setAttempts(const QList<Attempt> &attempts)
{
    m_attempts = attempts;
    updateGeometry();
    update();
}

QSize TimelineWidget::sizeHint() const
{
    return {qMax(480, int(m_attempts.size()) * 150 + 40), 140};
}

void TimelineWidget::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(rect(), palette().base());
    if (m_attempts.isEmpty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No attempt yet: the payment has not left the till."));
        return;
    }
    const int y = 40;
    const int step = qMax(120, (width() - 40) / int(m_attempts.size()));
    const int first = 20 + step / 2;   // each attempt is centred in its own column
    p.setPen(QPen(palette().mid().color(), 2));
    p.drawLine(first, y, first + step * int(m_attempts.size() - 1), y);
    for (int n = 0; n < m_attempts.size(); ++n) {
        const Attempt &a = m_attempts.at(n);
        const int x = first + step * n;
        QColor c(0x9e, 0x9e, 0x9e);   // not sent
        QString what;
        if (a.httpStatus >= 200 && a.httpStatus < 300) {
            c = QColor(0x2e, 0x7d, 0x32);
            what = a.replayed ? tr("replayed") : tr("answered");
        } else if (a.httpStatus == 402) {
            c = QColor(0xc6, 0x28, 0x28);
            what = tr("declined");
        } else if (a.httpStatus == 404 && a.kind == QLatin1String("lookup")) {
            c = QColor(0x15, 0x65, 0xc0);
            what = tr("not at the gateway");
        } else if (a.httpStatus >= 400) {
            c = QColor(0xc6, 0x28, 0x28);
            what = QStringLiteral("HTTP %1").arg(a.httpStatus);
        } else if (a.outcome.startsWith(QLatin1String("no answer"))) {
            c = QColor(0xef, 0x6c, 0x00);
            what = tr("answer lost");
        } else {
            what = tr("not sent");
        }
        p.setPen(Qt::NoPen);
        p.setBrush(c);
        p.drawEllipse(QPoint(x, y), 9, 9);
        p.setPen(palette().text().color());
        const QString kind = a.kind == QLatin1String("post") ? (n == 0 ? tr("sent") : tr("retried, same key"))
                           : a.kind == QLatin1String("lookup") ? tr("asked by key") : tr("polled");
        const QRect box(x - step / 2 + 4, y + 14, step - 8, 80);
        p.drawText(box, Qt::AlignHCenter | Qt::AlignTop | Qt::TextWordWrap,
                   QStringLiteral("%1\n%2\n%3").arg(kind, what,
                                                   QDateTime::fromMSecsSinceEpoch(a.startedAt).toString(QStringLiteral("HH:mm:ss"))));
    }
}

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
                              .arg(intent.key, intent.orderId, formatMoney(intent.amount), QueueModel::stateText(intent.state),
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
    m_session->client()->getPaymentByKey(m_intent.key, [this](const GatewayResult &r) {
        if (r.answered() && r.status == 200)
            m_remote->setPlainText(QString::fromUtf8(QJsonDocument(r.json).toJson(QJsonDocument::Indented)));
        else if (r.answered() && r.status == 404)
            m_remote->setPlainText(tr("The gateway has no payment with this key: it was never executed."));
        else
            m_remote->setPlainText(tr("The gateway could not be asked: %1").arg(r.summary()));
    });
}

} // namespace OncePay::Ui
