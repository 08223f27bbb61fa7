#pragma once

#include "intent.h"
#include "intentjournal.h"

#include <QAbstractTableModel>
#include <QColor>
#include <QTimer>

#include <optional>

namespace OncePay::Ui {

// Every intent of the journal, newest first, filterable by state: pages are fetched from the
// journal's thread as the view scrolls (canFetchMore/fetchMore), never the whole journal.
// Columns for people: time, payment or refund, sale, amount (a refund's as money going back),
// card or cash, state (its badge colour as the State cell's BackgroundRole/ForegroundRole); the
// idempotency key only through KeyRole. A refund is a row of its own, under its sale's number.
class QueueModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Column {
        Created,
        Kind,
        Order,
        Amount,
        Method,
        State,
        Count
    };
    Q_ENUM(Column)
    enum Role {
        KeyRole = Qt::UserRole + 1,
        StateRole
    };
    static constexpr int pageSize = 200;

    explicit QueueModel(IntentJournal *journal, QObject *parent = nullptr);

    void setFilter(std::optional<IntentState> state, bool activeOnly, std::optional<IntentKind> kind = std::nullopt);
    // The payments the cashier must see (needsCashierAttention()).
    void setNeedsAttentionFilter();
    void reload();
    // A changed intent: updated in place when it is loaded, else the view reloads lazily.
    void intentChanged(const Intent &intent);
    Intent intentAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;

    static QString stateText(IntentState state);   // IntentText::state()
    // The state badge: its fill and its text colour.
    static QColor stateColor(IntentState state);
    static QColor stateTextColor(IntentState state);
    // The badge of a row: a payment given back (in part or in full) and a refund that succeeded
    // are told apart from a plain paid sale.
    static QColor badgeColor(const Intent &intent);

signals:
    void countChanged(qint64 total);

private:
    bool matches(const Intent &intent) const;

    IntentJournal *m_journal;
    IntentJournal::Query m_query;
    QList<Intent> m_rows;
    bool m_loading = false;
    bool m_exhausted = false;
    int m_generation = 0;   // answers to a superseded query are dropped
    QTimer m_reloadTimer;
};

}   // namespace OncePay::Ui
