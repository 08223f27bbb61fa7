#include "pastshiftsdialog.h"

#include "shiftbook.h"
#include "shiftchartview.h"
#include "shiftreportdocument.h"
#include "timeutil.h"

#include <QDateTime>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QLocale>
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
    if (row < 0 || row >= m_shifts.size())
        return m_report->clear();
    const QJsonObject s = m_shifts.at(row).toObject();
    const std::optional<ShiftReport> report = ShiftReport::fromJson(s.value(QStringLiteral("report")).toObject());
    if (!report)
        return m_report->setPlainText(tr("This shift's report cannot be read."));
    ShiftReportDocument::Context context;
    context.shopName = m_shopName;
    context.terminal = m_terminal;
    context.reconciled = s.value(QStringLiteral("reconciliation")).toObject().value(QStringLiteral("checked")).toBool(true);
    m_chart->setReport(*report);
    m_report->document()->addResource(QTextDocument::ImageResource, QUrl(ShiftReportDocument::chartResource()),
        m_chart->image({900, 360}));
    m_report->setHtml(ShiftReportDocument::html(*report, {}, context));
}

}   // namespace OncePay::Ui
