#pragma once

#include "saleline.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace OncePay {
class SqlBatchWorker;
}

namespace OncePay::Ui {

// What the journal does not keep: the items of each sale, and which of them each refund gave
// back. The journal knows amounts only (an intent is money for a sale), so a refund by items
// needs the lines the customer paid for. A small SQLite file beside the journal, owned by the
// till's screens (oncepay-ctl never writes it); every call answers on the caller's context.
//
// The lines are written when the sale is paid, beside (not before) the payment's intent, so
// that paying waits for nothing more; a crash between the two leaves a sale without lines,
// which is then refunded by amount. A refund's lines are written once its intent is stored.
class SaleRecords final : public QObject
{
    Q_OBJECT

public:
    template <typename T>
    using Reply = std::function<void(bool ok, const QString &error, T value)>;

    // "…/till-journal.db" → "…/till-journal-sales.db"
    static QString pathFor(const QString &journalPath);

    explicit SaleRecords(QString path, QObject *parent = nullptr);
    ~SaleRecords() override;
    // Opens (creating) the file; start-up only, it waits for the disk.
    bool open(QString *error);
    bool isOpen() const { return bool(m_worker); }

    // The lines of `orderId`, replacing any earlier ones (a declined card, then a changed cart).
    void recordSale(const QString &orderId, const QList<SaleLine> &lines, QObject *context, Reply<bool> reply);
    void lines(const QString &orderId, QObject *context, Reply<QList<SaleLine>> reply);
    // How many of each line (by SaleLine::line) the refund `refundKey` of `orderId` gives back.
    void recordRefund(const QString &refundKey, const QString &orderId, const QHash<int, int> &quantities,
                      QObject *context, Reply<bool> reply);
    // Per line, what the refunds `refundKeys` gave back, summed.
    void refundedQuantities(const QStringList &refundKeys, QObject *context, Reply<QHash<int, int>> reply);

private:
    QString m_path;
    std::unique_ptr<SqlBatchWorker> m_worker;
};

} // namespace OncePay::Ui
