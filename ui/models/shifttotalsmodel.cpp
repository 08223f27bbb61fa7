#include "shifttotalsmodel.h"

#include <QFont>

namespace OncePay::Ui {

ShiftTotalsModel::ShiftTotalsModel(QObject *parent)
    : QAbstractTableModel(parent)
{
    m_report.currency = QStringLiteral("CNY");
}

void ShiftTotalsModel::setReport(const ShiftReport &report)
{
    m_report = report;
    emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
}

QString ShiftTotalsModel::label(Line line)
{
    switch (line) {
    case Line::CardSales:
        return tr("Card sales");
    case Line::WeChatPaySales:
        return tr("  of which WeChat Pay");
    case Line::AlipaySales:
        return tr("  of which Alipay");
    case Line::CashSales:
        return tr("Cash sales");
    case Line::CardRefunds:
        return tr("Card refunds");
    case Line::CashRefunds:
        return tr("Cash refunds");
    case Line::FailedRefunds:
        return tr("Refunds that failed");
    case Line::Declined:
        return tr("Declined card payments");
    case Line::CancelledWallet:
        return tr("Wallet payments cancelled (nothing charged)");
    case Line::Voided:
        return tr("Voided before sending");
    case Line::NeedsAttention:
        return tr("Needs attention");
    case Line::WaitingPayments:
        return tr("Payments still waiting");
    case Line::WaitingRefunds:
        return tr("Refunds still waiting");
    case Line::ParkedSales:
        return tr("Sales left parked (not paid)");
    case Line::Net:
        return tr("Net takings (sales − refunds)");
    case Line::LineCount:
        break;
    }
    return {};
}

ShiftReport::Totals ShiftTotalsModel::totals(Line line) const
{
    const ShiftReport &r = m_report;
    switch (line) {
    case Line::CardSales:
        return r.cardSales;
    case Line::WeChatPaySales:
        return r.wechatSales;
    case Line::AlipaySales:
        return r.alipaySales;
    case Line::CashSales:
        return r.cashSales;
    case Line::CardRefunds:
        return r.cardRefunds;
    case Line::CashRefunds:
        return r.cashRefunds;
    case Line::FailedRefunds:
        return r.failedRefunds;
    case Line::Declined:
        return r.declined;
    case Line::CancelledWallet:
        return r.cancelledWallet;
    case Line::Voided:
        return r.voided;
    case Line::NeedsAttention:
        return r.needsAttention;
    case Line::WaitingPayments:
        return r.waitingPayments;
    case Line::WaitingRefunds:
        return r.waitingRefunds;
    case Line::ParkedSales:
        return r.parkedTotals();
    case Line::Net:
        return {r.cardSales.count + r.cashSales.count, r.netTotal()};
    case Line::LineCount:
        break;
    }
    return {};
}

int ShiftTotalsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Line::LineCount);
}

int ShiftTotalsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(Column::ColumnCount);
}

QVariant ShiftTotalsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const auto line = Line(index.row());
    const auto column = Column(index.column());
    if (role == Qt::DisplayRole) {
        const ShiftReport::Totals t = totals(line);
        switch (column) {
        case Column::Label:
            return label(line);
        case Column::Count:
            return line == Line::Net ? QVariant() : QVariant(t.count);
        case Column::Amount:
            return m_report.money(t.amount).toDisplayString();
        case Column::ColumnCount:
            break;
        }
    }
    if (role == Qt::TextAlignmentRole && column != Column::Label)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && line == Line::Net) {
        QFont bold;
        bold.setBold(true);
        return bold;
    }
    return {};
}

QVariant ShiftTotalsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case Column::Label:
        return tr("Shift totals");
    case Column::Count:
        return tr("Count");
    case Column::Amount:
        return tr("Amount");
    case Column::ColumnCount:
        break;
    }
    return {};
}

}   // namespace OncePay::Ui
