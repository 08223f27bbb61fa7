#include "queuepanel.h"

#include "cartmodel.h"
#include "intentdetailsdialog.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
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
        totals << Money(it.value(), it.key()).toDisplayString();
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

} // namespace OncePay::Ui
