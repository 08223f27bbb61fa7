#include "queuemodel.h"

#include "cartmodel.h"
#include "timeutil.h"

#include <QColor>
#include <QDateTime>

namespace OncePay::Ui {

QueueModel::QueueModel(IntentJournal *journal, QObject *parent)
    : QAbstractTableModel(parent)
    , m_journal(journal)
{
    m_query.limit = pageSize;
    m_query.newestFirst = true;
    m_reloadTimer.setSingleShot(true);
    m_reloadTimer.setInterval(250);
    connect(&m_reloadTimer, &QTimer::timeout, this, &QueueModel::reload);
}

QString QueueModel::stateText(IntentState state)
{
    switch (state) {
    case IntentState::Queued: return tr("Waiting for connection");
    case IntentState::Sending: return tr("Sending");
    case IntentState::Processing: return tr("Bank processing");
    case IntentState::Unknown: return tr("Checking with the server");
    case IntentState::Succeeded: return tr("Paid");
    case IntentState::Declined: return tr("Declined");
    case IntentState::NeedsAttention: return tr("Needs attention");
    }
    return {};
}

void QueueModel::setFilter(std::optional<IntentState> state, bool activeOnly)
{
    m_query.state = state;
    m_query.activeOnly = activeOnly;
    reload();
}

void QueueModel::reload()
{
    ++m_generation;
    beginResetModel();
    m_rows.clear();
    m_loading = false;
    m_exhausted = false;
    endResetModel();
    IntentJournal::Query q = m_query;
    m_journal->count(q, this, [this, gen = m_generation](bool ok, const QString &, qint64 n) {
        if (ok && gen == m_generation)
            emit countChanged(n);
    });
    fetchMore({});
}

void QueueModel::intentChanged(const Intent &intent)
{
    const bool matches = (!m_query.state || *m_query.state == intent.state) && (!m_query.activeOnly || !isFinal(intent.state));
    for (int row = 0; row < m_rows.size(); ++row) {
        if (m_rows[row].key == intent.key && !matches) {
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            endRemoveRows();
            return;
        }
        if (m_rows[row].key == intent.key) {
            m_rows[row] = intent;
            emit dataChanged(index(row, 0), index(row, int(Column::Count) - 1));
            return;
        }
    }
    // Not loaded: only an intent newer than everything shown belongs on the page (newest
    // first); bursts (a drain changes thousands) coalesce into one reload.
    const qint64 newest = m_rows.isEmpty() ? 0 : m_rows.first().id;
    if (matches && intent.id > newest && !m_reloadTimer.isActive())
        m_reloadTimer.start();
}

Intent QueueModel::intentAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row) : Intent{};
}

bool QueueModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_loading && !m_exhausted;
}

void QueueModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    m_loading = true;
    IntentJournal::Query q = m_query;
    q.offset = m_rows.size();
    m_journal->list(q, this, [this, gen = m_generation](bool ok, const QString &, QList<Intent> page) {
        if (gen != m_generation)
            return;
        if (!ok || page.size() < pageSize)
            m_exhausted = true;
        if (!page.isEmpty()) {
            // Still "loading" while views react to the insertion, so none asks for this page again.
            beginInsertRows({}, int(m_rows.size()), int(m_rows.size() + page.size() - 1));
            m_rows.append(page);
            endInsertRows();
        }
        m_loading = false;
    });
}

int QueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int QueueModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::Count);
}

QVariant QueueModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Intent &i = m_rows.at(index.row());
    if (role == Qt::BackgroundRole) {
        if (i.state == IntentState::NeedsAttention || i.state == IntentState::Declined)
            return QColor(0xf7, 0xc6, 0xc6);
        if (!isFinal(i.state))
            return QColor(0xfb, 0xe7, 0xb5);
        return {};
    }
    if (role == Qt::ToolTipRole)
        return i.lastProblem.isEmpty() ? QVariant() : QVariant(i.lastProblem);
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(index.column())) {
    case Column::Created: return QDateTime::fromMSecsSinceEpoch(i.createdAt).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case Column::Order: return i.orderId;
    case Column::Amount: return i.amount.toDisplayString();
    case Column::Method: return i.isCash() ? tr("Cash") : i.paymentMethod;
    case Column::State: return stateText(i.state);
    case Column::Attempts: return i.attempts;
    case Column::Key: return i.key;
    case Column::Count: break;
    }
    return {};
}

QVariant QueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Column::Created: return tr("Created");
    case Column::Order: return tr("Sale");
    case Column::Amount: return tr("Amount");
    case Column::Method: return tr("Method");
    case Column::State: return tr("State");
    case Column::Attempts: return tr("Tries");
    case Column::Key: return tr("Idempotency key");
    case Column::Count: break;
    }
    return {};
}

} // namespace OncePay::Ui
