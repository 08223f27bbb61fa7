#include "queuemodel.h"

#include "intenttext.h"

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
    return IntentText::state(state);
}

QColor QueueModel::stateColor(IntentState state)
{
    switch (state) {
    case IntentState::Succeeded:
        return QColor(0x2e, 0x7d, 0x32);
    case IntentState::Declined:
    case IntentState::NeedsAttention:
        return QColor(0xc6, 0x28, 0x28);
    case IntentState::Voided:
        return QColor(0x75, 0x75, 0x75);   // grey: it never went out
    case IntentState::Queued:
    case IntentState::Sending:
    case IntentState::Processing:
    case IntentState::Unknown:
        break;
    }
    return QColor(0xf9, 0xa8, 0x25);   // waiting: amber
}

QColor QueueModel::stateTextColor(IntentState state)
{
    return isFinal(state) ? QColor(Qt::white) : QColor(0x21, 0x21, 0x21);
}

QColor QueueModel::badgeColor(const Intent &intent)
{
    if (intent.state == IntentState::Succeeded && (intent.isRefund() || intent.amountRefunded > 0))
        return QColor(0x15, 0x65, 0xc0);   // blue: money went back
    return stateColor(intent.state);
}

void QueueModel::setFilter(std::optional<IntentState> state, bool activeOnly, std::optional<IntentKind> kind)
{
    m_query.state = state;
    m_query.activeOnly = activeOnly;
    m_query.kind = kind;
    m_query.needsAttention = false;
    reload();
}

void QueueModel::setNeedsAttentionFilter()
{
    m_query.state = std::nullopt;
    m_query.activeOnly = false;
    m_query.kind = std::nullopt;
    m_query.needsAttention = true;
    reload();
}

bool QueueModel::matches(const Intent &intent) const
{
    return (!m_query.state || *m_query.state == intent.state) && (!m_query.activeOnly || !isFinal(intent.state))
        && (!m_query.kind || *m_query.kind == intent.kind)
        && (!m_query.needsAttention || needsCashierAttention(intent));
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
    m_journal->count(q, this, [this, gen = m_generation](bool ok, const TillError &, qint64 n) {
        if (ok && gen == m_generation)
            emit countChanged(n);
    });
    fetchMore({});
}

void QueueModel::intentChanged(const Intent &intent)
{
    const bool matches = this->matches(intent);
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
    m_journal->list(q, this, [this, gen = m_generation](bool ok, const TillError &, const QList<Intent> &page) {
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
    const auto column = Column(index.column());
    switch (role) {
    case KeyRole:
        return i.key;
    case StateRole:
        return int(i.state);
    case Qt::BackgroundRole:
        return column == Column::State ? QVariant(badgeColor(i)) : QVariant();
    case Qt::ForegroundRole:
        return column == Column::State ? QVariant(stateTextColor(i.state)) : QVariant();
    case Qt::TextAlignmentRole:
        return column == Column::Amount ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    case Qt::ToolTipRole:
        return i.lastProblem.isEmpty() ? QVariant() : QVariant(i.lastProblem);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (column) {
    case Column::Created:
        return IntentText::shortTime(i.createdAt);
    case Column::Kind:
        return IntentText::kind(i.kind);
    case Column::Order:
        return i.saleLabel();
    case Column::Amount:
        return IntentText::amount(i);
    case Column::Method:
        return IntentText::paymentMethod(i);
    case Column::State:
        return IntentText::stateOf(i);
    case Column::Count:
        break;
    }
    return {};
}

QVariant QueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Column::Created:
        return tr("Time");
    case Column::Kind:
        return tr("Kind");
    case Column::Order:
        return tr("Sale");
    case Column::Amount:
        return tr("Amount");
    case Column::Method:
        return tr("Paid with");
    case Column::State:
        return tr("State");
    case Column::Count:
        break;
    }
    return {};
}

}   // namespace OncePay::Ui
