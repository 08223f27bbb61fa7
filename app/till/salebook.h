#pragma once

#include "sale.h"
#include "sqlbatchworker.h"
#include "tillerror.h"

#include <QHash>
#include <QObject>
#include <QStringList>

#include <functional>
#include <optional>

namespace OncePay {

class IntentJournal;

// The sales of the till, in the journal's own file and transactions (the `sales` table): a sale is
// opened with its lines and total, its tenders are the intents stored with its order id, and its
// state follows them in the transaction that changes them (refresh()). Every call answers on the
// caller's context; the SQL runs on the journal's thread.
class SaleBook final : public QObject
{
    Q_OBJECT

public:
    template <typename T>
    using Reply = std::function<void(bool ok, const TillError &error, T value)>;   // as IntentJournal's

    explicit SaleBook(IntentJournal *journal, QObject *parent = nullptr);

    // The number people read is "<till>-<six digits>", e.g. "1-000123".
    void setTillNumber(int number) { m_tillNumber = qMax(1, number); }
    int tillNumber() const { return m_tillNumber; }
    // The till's number in its terminal name: its last digits ("till-3" is 3), else 1.
    static int tillNumberOf(const QString &terminal);

    // Stores a new open sale (a new order id, the next short number).
    void open(const Money &total, const QJsonArray &lines, QObject *context, Reply<Sale> reply);
    // A cart the cashier threw away before any tender (Ctrl+N, "discard"): kept as a cancelled
    // sale with its lines and number, so the owner sees it (`oncepay-ctl sales`).
    void discard(const Money &total, const QJsonArray &lines, QObject *context, Reply<Sale> reply);
    // New lines and total for a sale nothing of which is paid or waiting (a card declined or given
    // up, then the cart changed). Refused in words otherwise.
    void reprice(const QString &orderId, const Money &total, const QJsonArray &lines, QObject *context, Reply<bool> reply);
    // The sale with that short number ("1-000123"), or that order id; invalid when none.
    void find(const QString &numberOrOrderId, QObject *context, Reply<Sale> reply);
    // Every sale, oldest first, with its intents; at most `limit` of the newest (-1: all).
    void list(int limit, QObject *context, Reply<QList<Sale>> reply);
    // Sales still open or paying: the till restores them to its window after a restart.
    void unfinished(QObject *context, Reply<QList<Sale>> reply);

    // The lines of the sale `orderId` as it was paid ({code, name, name_zh, unit_price, currency,
    // quantity}, line i at index i): the sale's own, or those imported from the old sales file.
    void lines(const QString &orderId, QObject *context, Reply<QJsonArray> reply);
    // How many of each line (by index) the refund `refundKey` of `orderId` gives back.
    void recordRefundLines(const QString &refundKey, const QString &orderId, const QHash<int, int> &quantities,
        QObject *context, Reply<bool> reply);
    // Per line, what the refunds `refundKeys` gave back, summed.
    void refundedQuantities(const QStringList &refundKeys, QObject *context, Reply<QHash<int, int>> reply);
    // What `refund` gave back and what its payment's earlier refunds did (its slip, drawn again).
    void itemsOfRefund(const Intent &refund, QObject *context, Reply<RefundItems> reply);
    // The lines a till kept before sales were in the journal lived in a file beside it
    // ("…/till-journal.db" → "…/till-journal-sales.db"). Copied into the journal once (again
    // after a crash: nothing is copied twice), then the file is renamed "….imported". Answers
    // how many lines were copied (0: no such file).
    static QString legacyLinesPath(const QString &journalPath);
    void importLegacyLines(const QString &path, QObject *context, Reply<int> reply);

    static QString newOrderId();

    // --- inside a journal transaction ---
    static void createTable(SqlTx &tx);
    static void createLineTables(SqlTx &tx);   // refund_lines, imported_sale_lines (schema v7)
    // The sale with this order id, with its intents; nullopt when the order is not a sale.
    static std::optional<Sale> read(SqlTx &tx, const QString &orderId);
    // Open/paying/paid from its intents (a cancelled or paid sale stays so). No-op for an order
    // that is not a sale.
    static void refresh(SqlTx &tx, const QString &orderId, qint64 now);
    static void setCancelled(SqlTx &tx, const QString &orderId, qint64 now);
    // How many of each line (by its index) the refunds `refundKeys` gave back.
    static QHash<int, int> refundedQuantities(SqlTx &tx, const QStringList &refundKeys);
    // Per line, what the refunds of `refund`'s payment before it (by id) that succeeded gave back:
    // what the refund dialog counted as given back when it priced `refund` (it refuses a refund
    // while another of the payment is open, so every earlier one was final then).
    static QHash<int, int> refundedBefore(SqlTx &tx, const Intent &refund);

private:
    void insert(const Money &total, const QJsonArray &lines, const QString &state, QObject *context, Reply<Sale> reply);

    IntentJournal *m_journal;
    int m_tillNumber = 1;
};

}   // namespace OncePay
