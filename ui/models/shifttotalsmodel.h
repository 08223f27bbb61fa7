#pragma once

#include "shiftreport.h"

#include <QAbstractTableModel>

namespace OncePay::Ui {

// The Z report's totals as a table for people: one line per kind of money movement (sales and
// refunds by tender, failed refunds, declines, voids, refusals, what waits, the net), with its
// count and amount.
class ShiftTotalsModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Column {
        Label,
        Count,
        Amount,
        ColumnCount
    };
    Q_ENUM(Column)
    enum class Line {
        CardSales,
        WeChatPaySales,   // among the card sales (issue 26)
        AlipaySales,
        CashSales,
        CardRefunds,
        CashRefunds,
        FailedRefunds,
        Declined,
        CancelledWallet,   // not taken: cancelled, or never confirmed (issue 36)
        Voided,
        NeedsAttention,
        WaitingPayments,
        WaitingRefunds,
        ParkedSales,   // on hold when the report was made: nothing of them paid (issue 36)
        Net,
        LineCount
    };
    Q_ENUM(Line)

    explicit ShiftTotalsModel(QObject *parent = nullptr);
    void setReport(const ShiftReport &report);

    static QString label(Line line);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    ShiftReport::Totals totals(Line line) const;
    ShiftReport m_report;
};

}   // namespace OncePay::Ui
