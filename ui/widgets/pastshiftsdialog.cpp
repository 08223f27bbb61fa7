#include "pastshiftsdialog.h"

#include "counterdevices.h"
#include "shiftbook.h"
#include "shiftchartview.h"
#include "shiftcloseviewmodel.h"
#include "shiftreportdocument.h"
#include "timeutil.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace OncePay::Ui {

PastShiftsDialog::PastShiftsDialog(TillSession *session, const QString &terminal, const QString &shopName, QWidget *parent)
    : QDialog(parent)
    , m_terminal(terminal)
    , m_shopName(shopName)
{
    setWindowTitle(tr("Past shifts"));
    auto *layout = new QVBoxLayout(this);
    m_status = new QLabel(tr("Reading the closed shifts…"), this);
    m_status->setAccessibleName(tr("Past shifts status"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto *split = new QSplitter(Qt::Vertical, this);
    m_table = new QTableWidget(0, 6, split);
    m_table->setAccessibleName(tr("Closed shifts"));
    m_table->setHorizontalHeaderLabels({tr("Shift"), tr("Closed"), tr("Net takings"), tr("Cash counted"),
        tr("Drawer"), tr("Checked with the server")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_report = new QTextBrowser(split);
    m_report->setAccessibleName(tr("The shift's report"));
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    m_chart = new ShiftChartView(this);
    m_chart->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_printAgain = buttons->addButton(tr("&Print again"), QDialogButtonBox::ActionRole);
    m_printAgain->setAccessibleName(tr("Print the selected shift's report again"));
    m_printAgain->setEnabled(false);
    connect(m_printAgain, &QPushButton::clicked, this, &PastShiftsDialog::printAgain);
    layout->addWidget(buttons);
    connect(m_table, &QTableWidget::currentCellChanged, this, [this](int row) {
        showReport(row);
    });

    // Read on the journal's thread; the window shows at once and fills in.
    ShiftBook(session->journal()).closedShifts(kShown, this, [this](bool ok, const TillError &error, const QJsonArray &shifts) {
        if (!ok) {
            m_status->setText(tr("The closed shifts could not be read: %1").arg(error.text()));
            return;
        }
        showShifts(shifts);
    });
    resize(900, 640);
}

void PastShiftsDialog::showShifts(const QJsonArray &shifts)
{
    m_shifts = shifts;
    m_status->setText(shifts.isEmpty() ? tr("No shift has been closed on this till yet.")
                                       : tr("%n closed shift(s), newest first. The report of the selected one is below.",
                                           nullptr, int(shifts.size())));
    m_table->setRowCount(int(shifts.size()));
    const QLocale locale;
    for (int row = 0; row < shifts.size(); ++row) {
        const QJsonObject s = shifts.at(row).toObject();
        const std::optional<ShiftReport> report = ShiftReport::fromJson(s.value(QStringLiteral("report")).toObject());
        const std::optional<qint64> closedAt = fromRfc3339(s.value(QStringLiteral("closed_at")).toString());
        const bool checked = s.value(QStringLiteral("reconciliation")).toObject().value(QStringLiteral("checked")).toBool(true);
        QStringList cells{QString::number(s.value(QStringLiteral("shift")).toInt()),
            closedAt ? locale.toString(QDateTime::fromMSecsSinceEpoch(*closedAt), QLocale::ShortFormat) : QString()};
        if (report) {
            cells << report->money(report->netTotal()).toDisplayString()
                  << (report->countedCash ? report->money(*report->countedCash).toDisplayString() : tr("not counted"));
            const std::optional<qint64> diff = report->cashDifference();
            cells << (!diff      ? QString()
                    : *diff == 0 ? tr("right")
                    : *diff < 0  ? tr("%1 missing").arg(report->money(-*diff).toDisplayString())
                                 : tr("%1 too much").arg(report->money(*diff).toDisplayString()));
        } else {
            cells << tr("unreadable") << QString() << QString();
        }
        cells << (checked ? tr("yes") : tr("no: closed while the server did not answer"));
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(row, c, new QTableWidgetItem(cells.at(c)));
    }
    if (!shifts.isEmpty())
        m_table->setCurrentCell(0, 0);
}

void PastShiftsDialog::showReport(int row)
{
    const QString html = documentHtml(row);
    m_printAgain->setEnabled(!html.isEmpty());
    if (row < 0 || row >= m_shifts.size())
        return m_report->clear();
    if (html.isEmpty())
        return m_report->setPlainText(tr("This shift's report cannot be read."));
    m_report->document()->addResource(QTextDocument::ImageResource, QUrl(ShiftReportDocument::chartResource()),
        m_chart->image({900, 360}));
    m_report->setHtml(html);
}

QString PastShiftsDialog::documentHtml(int row) const
{
    if (row < 0 || row >= m_shifts.size())
        return {};
    const QJsonObject s = m_shifts.at(row).toObject();
    const std::optional<ShiftReport> report = ShiftReport::fromJson(s.value(QStringLiteral("report")).toObject());
    if (!report)
        return {};
    // The reconciliation as the close showed it: its rows are kept with the shift (ShiftBook::Close).
    const QJsonObject reconciliation = s.value(QStringLiteral("reconciliation")).toObject();
    QList<ShiftFinding> findings;
    const QJsonArray rows = reconciliation.value(QStringLiteral("rows")).toArray();
    for (const QJsonValue &v : rows) {
        if (const std::optional<ShiftFinding> f = ShiftFinding::fromJson(v.toObject()))
            findings.append(*f);
    }
    ShiftReportDocument::Context context = ShiftCloseViewModel::documentContext(*report, reconciliation.value(QStringLiteral("checked")).toBool(true));
    context.shopName = m_shopName;
    context.terminal = m_terminal;
    m_chart->setReport(*report);
    return ShiftReportDocument::html(*report, findings, context);
}

// As the close prints its report (ShiftCloseDialog::print): on the receipt printer when there is
// one, else through the system's print dialog.
void PastShiftsDialog::printAgain()
{
    const int row = m_table->currentRow();
    const QString html = documentHtml(row);
    if (html.isEmpty())
        return;
    const int number = m_shifts.at(row).toObject().value(QStringLiteral("shift")).toInt();
    if (m_devices && m_devices->hasPrinter()) {
        m_devices->print(PrintQueue::Kind::ShiftReport, tr("Shift report %1").arg(number), html);
        m_status->setText(tr("Shift %1's report is on its way to the receipt printer.").arg(number));
        return;
    }
    QPrinter printer(QPrinter::HighResolution);
    const auto report = ShiftReport::fromJson(m_shifts.at(row).toObject().value(QStringLiteral("report")).toObject());
    printer.setDocName(QFileInfo(ShiftReportDocument::fileName(*report, m_terminal)).completeBaseName());
    QPrintDialog dialog(&printer, this);
    dialog.setWindowTitle(tr("Print the shift report"));
    if (dialog.exec() != QDialog::Accepted)
        return;
    QTextDocument doc;
    doc.addResource(QTextDocument::ImageResource, QUrl(ShiftReportDocument::chartResource()), m_chart->image());
    doc.setHtml(html);
    doc.print(&printer);
    if (printer.printerState() == QPrinter::Error)
        QMessageBox::warning(this, windowTitle(), tr("The printer reported an error; the report may not have been printed."));
}

}   // namespace OncePay::Ui
