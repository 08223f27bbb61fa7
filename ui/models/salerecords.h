#pragma once

#include "sale.h"
#include "saleline.h"
#include "tillerror.h"

#include <QHash>
#include <QJsonArray>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

namespace OncePay {
class SaleBook;
}

namespace OncePay::Ui {

// The items of each sale as the till's screens read them, and which of them each refund gave
// back: a refund by items needs the lines the customer paid for. Everything is in the journal
// (SaleBook: the sale's own lines, and the refund_lines table), in its file and transactions;
// every call answers on the caller's context.
class SaleRecords final : public QObject
{
    Q_OBJECT

public:
    template <typename T>
    using Reply = std::function<void(bool ok, const TillError &error, T value)>;

    explicit SaleRecords(SaleBook *sales, QObject *parent = nullptr);

    // Lines as the journal keeps them ({code, name, name_zh, unit_price, quantity[, currency]}).
    static QList<SaleLine> fromJson(const QJsonArray &json, const QString &currency);

    // The lines of `orderId` as they were paid; none for an order without lines (refund by amount).
    void lines(const QString &orderId, QObject *context, Reply<QList<SaleLine>> reply);
    // How many of each line (by SaleLine::line) the refund `refundKey` of `orderId` gives back.
    void recordRefund(const QString &refundKey, const QString &orderId, const QHash<int, int> &quantities,
        QObject *context, Reply<bool> reply);
    // Per line, what the refunds `refundKeys` gave back, summed.
    void refundedQuantities(const QStringList &refundKeys, QObject *context, Reply<QHash<int, int>> reply);
    // What `refund` gave back, and what its payment's earlier refunds had (its slip drawn again).
    void itemsOfRefund(const Intent &refund, QObject *context, Reply<RefundItems> reply);

private:
    SaleBook *m_sales;
};

}   // namespace OncePay::Ui
