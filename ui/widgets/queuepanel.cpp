#include "queuepanel.h"

#include "intentjournal.h"

#include "tillstatus.h"

#include "intenttext.h"

#include "intentdetailsdialog.h"
#include "statebadgedelegate.h"
#include "tillstatusbar.h"

#include <QAction>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
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
    m_filter->addItem(tr("Needs attention"), QStringLiteral("attention"));
    m_filter->addItem(tr("Waiting"), QStringLiteral("active"));
    m_filter->addItem(tr("All"), QString());
    m_filter->addItem(tr("Refunds"), QStringLiteral("refunds"));
    for (IntentState s : {IntentState::Queued, IntentState::Processing, IntentState::Unknown, IntentState::Succeeded,
             IntentState::Declined, IntentState::Voided})
        m_filter->addItem(QueueModel::stateText(s), intentStateName(s));
    m_filter->setCurrentIndex(m_filter->findData(QStringLiteral("active")));
    connect(m_filter, &QComboBox::currentIndexChanged, this, &QueuePanel::applyFilter);
    // The cashier's own choice of filter stays; until then, payments needing them are shown.
    connect(m_filter, &QComboBox::activated, this, [this] {
        m_filterChosen = true;
    });
    m_summary = new QLabel(this);
    m_summary->setAccessibleName(tr("Waiting payments summary"));
    auto *retry = new QPushButton(tr("Retry now"), this);
    retry->setAccessibleName(tr("Retry the selected payment now"));
    auto *details = new QPushButton(tr("Details…"), this);
    details->setAccessibleName(tr("Show the selected payment's details"));

    // Actions with their keys, bound once (the window lists them in its Sale menu as well).
    m_refundAction = new QAction(tr("&Refund the selected sale…"), this);
    m_refundAction->setShortcut(QKeySequence(Qt::Key_F8));
    m_refundAction->setToolTip(tr("Refund all or part of the paid sale selected below (F8)"));
    connect(m_refundAction, &QAction::triggered, this, [this] {
        emit refundRequested(selectedIntent());
    });
    addAction(m_refundAction);
    m_voidAction = new QAction(tr("&Void the selected payment"), this);
    m_voidAction->setShortcut(QKeySequence(Qt::Key_F7));
    m_voidAction->setToolTip(tr("Cancel a card payment that is queued on this till and was never sent (F7)"));
    connect(m_voidAction, &QAction::triggered, this, &QueuePanel::askToVoid);
    addAction(m_voidAction);
    // Issue 24: the receipt of the selected sale (or the slip of the selected refund) again, on the
    // receipt printer.
    m_reprintAction = new QAction(tr("R&eprint the selected receipt"), this);
    m_reprintAction->setToolTip(tr("Print the receipt of the sale (or the slip of the refund) selected below again"));
    connect(m_reprintAction, &QAction::triggered, this, [this] {
        const Intent intent = selectedIntent();
        if (intent.isValid())
            emit reprintRequested(intent);
    });
    addAction(m_reprintAction);
    auto *reprint = new QPushButton(tr("Reprint"), this);
    reprint->setAccessibleName(tr("Reprint the selected receipt"));
    connect(reprint, &QPushButton::clicked, m_reprintAction, &QAction::trigger);
    auto *refund = new QPushButton(tr("Refund… (F8)"), this);
    refund->setAccessibleName(tr("Refund the selected sale"));
    connect(refund, &QPushButton::clicked, m_refundAction, &QAction::trigger);
    auto *voidButton = new QPushButton(tr("Void (F7)"), this);
    voidButton->setAccessibleName(tr("Void the selected payment"));
    connect(voidButton, &QPushButton::clicked, m_voidAction, &QAction::trigger);
    connect(m_voidAction, &QAction::enabledChanged, voidButton, &QWidget::setEnabled);

    bar->addWidget(filterLabel);
    bar->addWidget(m_filter);
    bar->addWidget(m_summary, 1);
    bar->addWidget(retry);
    bar->addWidget(details);
    bar->addWidget(reprint);
    bar->addWidget(refund);
    bar->addWidget(voidButton);
    layout->addLayout(bar);

    m_view = new QTableView(this);
    m_view->setModel(&m_model);
    m_view->setAccessibleName(tr("Payments"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    // Every column as wide as its words (a sale number or an amount is never cut); the state
    // badge last, taking what is left. Fitted again whenever rows arrive or change, and when the
    // view gets its size: ResizeToContents alone measures once, while the dock may still be empty
    // or zero high, and pages arrive from the journal later.
    m_view->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_fitColumns.setSingleShot(true);
    m_fitColumns.setInterval(50);   // a drain changes rows by the thousand: fit once per burst
    connect(&m_fitColumns, &QTimer::timeout, m_view, [this] {
        m_view->resizeColumnsToContents();
        // Fitting sized the last column to its words too: the state badge's column stretches again.
        m_view->horizontalHeader()->setStretchLastSection(false);
        m_view->horizontalHeader()->setStretchLastSection(true);
    });
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(&m_model, signal, &m_fitColumns, qOverload<>(&QTimer::start));
    connect(&m_model, &QAbstractItemModel::modelReset, &m_fitColumns, qOverload<>(&QTimer::start));
    connect(&m_model, &QAbstractItemModel::dataChanged, &m_fitColumns, qOverload<>(&QTimer::start));
    m_view->viewport()->installEventFilter(this);
    m_view->setItemDelegateForColumn(int(QueueModel::Column::State), new StateBadgeDelegate(m_view));
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
    connect(session->engine(), &SyncEngine::intentChanged, this, [this](const Intent &i) {
        if (needsCashierAttention(i))
            showAttentionIfAny();
    });
    m_summaryCoalesce.setSingleShot(true);
    m_summaryCoalesce.setInterval(TillStatusBar::kCoalesceMs);
    connect(&m_summaryCoalesce, &QTimer::timeout, this, &QueuePanel::refreshSummary);
    auto refreshSoon = [this] {
        if (!m_summaryCoalesce.isActive())
            m_summaryCoalesce.start();
    };
    connect(session->engine(), &SyncEngine::queueChanged, this, refreshSoon);
    connect(&m_model, &QueueModel::countChanged, this, refreshSoon);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &QueuePanel::refreshActions);
    // The row the keyboard is on is the one selected: tabbing into the list and pressing F8 or F7
    // acts on the row shown as current, never on nothing.
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (current.isValid() && !m_view->selectionModel()->isRowSelected(current.row(), {}))
            m_view->selectRow(current.row());
    });
    connect(&m_model, &QAbstractItemModel::dataChanged, this, &QueuePanel::refreshActions);
    connect(&m_model, &QAbstractItemModel::modelReset, this, &QueuePanel::refreshActions);
    applyFilter();
    showAttentionIfAny();
    refreshActions();
}

Intent QueuePanel::selectedIntent() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? Intent() : m_model.intentAt(rows.constFirst().row());
}

void QueuePanel::refreshActions()
{
    // Void is asked only about what is not final: the engine and the journal decide, and say why
    // not in words (it may have reached the bank). Paid ones are refunded, not voided.
    const Intent i = selectedIntent();
    m_voidAction->setEnabled(i.isValid() && !isFinal(i.state) && m_voiding.isEmpty());
}

void QueuePanel::askToVoid()
{
    const Intent i = selectedIntent();
    if (!i.isValid() || m_voidQuestion || !m_voiding.isEmpty())
        return;   // one question, one void at a time: a repeated F7 asks nothing more
    if (i.state != IntentState::Queued) {
        // On the wire, with the bank or being checked: it may have reached the bank. Nothing to
        // ask; say why (the journal would refuse it all the same).
        return showVoidRefused(i, i.isRefund() ? tr("This refund was sent already (%1).").arg(IntentText::state(i.state)) : tr("This card payment was sent already (%1).").arg(IntentText::state(i.state)));
    }
    const bool refund = i.isRefund();
    auto *box = new QMessageBox(QMessageBox::Question, refund ? tr("Void this refund?") : tr("Void this payment?"),
        refund ? tr("Void the refund of %1 for sale %2?").arg(i.amount.toDisplayString(), i.saleLabel())
               : tr("Void the card payment of %1 for sale %2?").arg(i.amount.toDisplayString(), i.saleLabel()),
        QMessageBox::NoButton, this);
    box->setInformativeText(refund ? tr("A refund that was never sent is cancelled on this till and never goes out.")
                                   : tr("A payment that was never sent is cancelled on this till and never goes out: nothing is "
                                        "charged, and the sale may be paid again."));
    box->setAccessibleName(tr("Void question"));
    QPushButton *yes = box->addButton(tr("&Void it"), QMessageBox::AcceptRole);
    box->addButton(tr("&Keep it"), QMessageBox::RejectRole);
    box->setDefaultButton(yes);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, yes, i](QAbstractButton *clicked) {
        if (clicked == yes)
            voidIntent(i);
    });
    m_voidQuestion = box;
    box->open();
}

void QueuePanel::voidIntent(const Intent &intent)
{
    if (m_gate && intent.amount.minorUnits() > m_limit.minorUnits()) {
        m_gate(tr("A void above %1").arg(m_limit.toDisplayString()), [this, panel = QPointer<QueuePanel>(this), intent](const QString &approver) {
            if (panel)
                sendVoid(intent, approver);
        });
        return;
    }
    sendVoid(intent, {});
}

void QueuePanel::sendVoid(const Intent &intent, const QString &approver)
{
    // Who voided it (and who approved), whatever the journal then says: the attempt is the act.
    IntentJournal::StaffAction a;
    a.action = QStringLiteral("void");
    a.subject = intent.key;
    a.amount = intent.amount.minorUnits();
    a.approvedBy = approver;
    m_session->journal()->recordStaffAction(a, this, [](bool, const TillError &, bool) {});
    m_voiding = intent.key;
    refreshActions();
    m_session->engine()->voidIntent(intent.key, this, [this, intent](bool ok, const TillError &error, const Intent &) {
        m_voiding.clear();
        refreshActions();
        if (ok)
            return;   // the row says "Voided" (intentChanged)
        showVoidRefused(intent, error.text());
    });
}

void QueuePanel::showVoidRefused(const Intent &intent, const QString &why)
{
    const bool refund = intent.isRefund();
    auto *box = new QMessageBox(QMessageBox::Information,
        refund ? tr("This refund cannot be voided") : tr("This payment cannot be voided"),
        why, QMessageBox::Ok, this);
    box->setInformativeText(refund
            ? tr("Only a refund still queued on this till, never sent, can be voided. One that may have reached the gateway is "
                 "followed to its outcome by the till itself, and is never made twice.")
            : tr("Only a card payment still queued on this till, never sent, can be voided. The till follows this one to its "
                 "outcome by itself: if it is declined, nothing was charged; if it is paid, refund it (F8)."));
    box->setAccessibleName(tr("Void refused"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void QueuePanel::showAttentionIfAny()
{
    if (m_filterChosen)
        return;
    IntentJournal::Query q;
    q.needsAttention = true;
    m_session->journal()->count(q, this, [this](bool ok, const TillError &, qint64 n) {
        if (ok && n > 0 && !m_filterChosen)
            m_filter->setCurrentIndex(m_filter->findData(QStringLiteral("attention")));
    });
}

bool QueuePanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_view->viewport() && (event->type() == QEvent::Resize || event->type() == QEvent::Show))
        m_fitColumns.start();
    return QWidget::eventFilter(watched, event);
}

void QueuePanel::applyFilter()
{
    const QString v = m_filter->currentData().toString();
    if (v == QLatin1String("attention"))
        m_model.setNeedsAttentionFilter();
    else if (v == QLatin1String("refunds"))
        m_model.setFilter(std::nullopt, false, IntentKind::Refund);
    else if (v == QLatin1String("active"))
        m_model.setFilter(std::nullopt, true);
    else
        m_model.setFilter(v.isEmpty() ? std::nullopt : intentStateFromName(v), false);
}

void QueuePanel::refreshSummary()
{
    TillStatus::Facts facts;
    facts.waiting = m_session->engine()->waitingCount();
    facts.waitingTotals = m_session->engine()->waitingTotals();
    m_summary->setText(TillStatus::panelSummary(facts));
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

}   // namespace OncePay::Ui
