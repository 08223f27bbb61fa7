#pragma once

#include "shiftfinding.h"

#include <QAbstractTableModel>
#include <QColor>

namespace OncePay::Ui {

// A shift's reconciliation rows for people: what (payment or refund, the sale), the finding, the
// till's state, the server's, the bank's column and what to do, rows needing a person first
// (as matchShift orders them). The key is in KeyRole and the tooltip, not a column.
class ShiftFindingsModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum class Column {
        What,
        Finding,
        Till,
        Server,
        Bank,
        ToDo,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role {
        KeyRole = Qt::UserRole + 1,
        ActionRole
    };

    explicit ShiftFindingsModel(QObject *parent = nullptr);
    void setFindings(const QList<ShiftFinding> &findings);
    const QList<ShiftFinding> &findings() const { return m_findings; }
    // Rows by what to do: the status line above the table.
    int count(ShiftFinding::Action action) const;

    static QColor actionColor(ShiftFinding::Action action);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString text(const ShiftFinding &f, Column column) const;
    QList<ShiftFinding> m_findings;
};

}   // namespace OncePay::Ui
