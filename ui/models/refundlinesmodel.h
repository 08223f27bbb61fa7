#pragma once

#include "saleline.h"

#include <QAbstractTableModel>
#include <QHash>

namespace OncePay::Ui {

// The lines of a paid sale in the refund dialog: what was sold, what earlier refunds gave back,
// and how many of each to give back now (the Refund column, editable; at most what remains of
// the line). The total of the chosen quantities is kept as state, updated with each change.
class RefundLinesModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Column {
        Item,
        Sold,
        Refunded,
        Refund,
        Amount,
        Count
    };
    Q_ENUM(Column)

    explicit RefundLinesModel(QObject *parent = nullptr);

    // `refunded`: per SaleLine::line, what earlier refunds (succeeded or still open) gave back.
    void setLines(const QList<SaleLine> &lines, const QHash<int, int> &refunded);
    void setLanguage(Language language);
    // Once the refund is asked for, the quantities stay as they were sent.
    void setLocked(bool locked);
    bool isLocked() const { return m_locked; }

    bool isEmpty() const { return m_lines.isEmpty(); }
    const QList<SaleLine> &lines() const { return m_lines; }
    int refundable(int row) const;   // sold minus refunded before
    int chosen(int row) const;
    // Sets the quantity to give back of a line, clamped to 0..refundable(row).
    void setChosen(int row, int quantity);
    void chooseAll();   // every line, all that remains of it
    void clearChoice();
    // Per SaleLine::line, the quantities chosen (lines with 0 left out).
    QHash<int, int> choice() const;
    // Per SaleLine::line, what earlier refunds gave back (lines with 0 left out): what the
    // amounts of the choice are computed after.
    QHash<int, int> givenBefore() const;
    Money total() const { return m_total; }
    bool anyRefundable() const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex &index, const QVariant &value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

signals:
    void totalChanged(const OncePay::Money &total);

private:
    QList<SaleLine> m_lines;
    QList<int> m_refunded;   // by row
    QList<int> m_chosen;   // by row
    Money m_total;
    Language m_language = Language::English;
    bool m_locked = false;
};

}   // namespace OncePay::Ui
