#include "salerecords.h"

#include "salebook.h"
#include "saleitem.h"

#include <QJsonArray>
#include <QJsonObject>

namespace OncePay::Ui {

SaleRecords::SaleRecords(SaleBook *sales, QObject *parent)
    : QObject(parent)
    , m_sales(sales)
{
}

QList<SaleLine> SaleRecords::fromJson(const QJsonArray &json, const QString &currency)
{
    QList<SaleLine> out;
    // Tax included: with prices without tax, a line's stored amount is its net.
    const QList<qint64> paid = paidPerLine(json);
    for (qsizetype n = 0; n < json.size(); ++n) {
        const QJsonObject o = json.at(n).toObject();
        SaleLine l;
        l.line = int(n);
        l.code = o.value(QStringLiteral("code")).toString();
        l.nameEn = o.value(QStringLiteral("name")).toString();
        l.nameZh = o.value(QStringLiteral("name_zh")).toString();
        l.unitPrice = Money(qint64(o.value(QStringLiteral("unit_price")).toDouble()),
            o.value(QStringLiteral("currency")).toString(currency));
        l.quantity = o.value(QStringLiteral("quantity")).toInt();
        l.paid = paid.at(n);
        l.vatBasisPoints = o.value(QStringLiteral("vat")).toInt();
        out.append(l);
    }
    return out;
}

void SaleRecords::lines(const QString &orderId, QObject *context, Reply<QList<SaleLine>> reply)
{
    m_sales->lines(orderId, context, [reply = std::move(reply)](bool ok, const TillError &error, const QJsonArray &json) {
        reply(ok, error, fromJson(json, QString()));
    });
}

void SaleRecords::recordRefund(const QString &refundKey, const QString &orderId, const QHash<int, int> &quantities,
    QObject *context, Reply<bool> reply)
{
    m_sales->recordRefundLines(refundKey, orderId, quantities, context, std::move(reply));
}

void SaleRecords::refundedQuantities(const QStringList &refundKeys, QObject *context, Reply<QHash<int, int>> reply)
{
    m_sales->refundedQuantities(refundKeys, context, std::move(reply));
}

void SaleRecords::itemsOfRefund(const Intent &refund, QObject *context, Reply<RefundItems> reply)
{
    m_sales->itemsOfRefund(refund, context, std::move(reply));
}

}   // namespace OncePay::Ui
