#pragma once

#include "shiftfinding.h"
#include "shiftreport.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QImage>
#include <QList>
#include <QString>

namespace OncePay::Ui {

// The Z report as a printable document (HTML, no widget): the shop and terminal, the totals, the
// cash drawer, what still waits, the chart of sales per hour (an image the screen drew) and the
// reconciliation rows with what to do.
class ShiftReportDocument final
{
    Q_DECLARE_TR_FUNCTIONS(OncePay::Ui::ShiftReportDocument)

public:
    struct Context
    {
        QString shopName;
        QString terminal;
        bool reconciled = false;
        QStringList waitingLines;
        QStringList tillRefundLines;   // card parts the till refunded by itself
        QStringList endedLines;   // waiting at the last close, and how they ended
    };
    // A refund the till owes (ShiftReport::refundsOwed) in words, with what to do about it.
    static QString owedLine(const ShiftReport::Waiting &owed);
    // A sale left parked (issue 36): its number, when and by whom it was parked, items, total.
    static QString parkedLine(const ShiftReport::Parked &parked);
    // The chart's image is referred to by this name: a QTextDocument resource.
    static QString chartResource() { return QStringLiteral("shift-chart.png"); }

    static QString html(const ShiftReport &report, const QList<ShiftFinding> &findings, const Context &context);
    // "z-report-till-1-shift-3.pdf": safe on any file system.
    static QString fileName(const ShiftReport &report, const QString &terminal);
    // The document laid out on A4 as PDF, in memory (the caller writes it off the UI thread).
    static QByteArray pdf(const QString &html, const QImage &chart);
};

}   // namespace OncePay::Ui
