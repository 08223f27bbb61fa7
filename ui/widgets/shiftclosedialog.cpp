#include "shiftclosedialog.h"

#include "counterdevices.h"

#include "completionrelay.h"
#include "shiftchartview.h"
#include "shiftreportdocument.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFile>
#include <QFormLayout>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPointer>
#include <QPrintDialog>
#include <QPrinter>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QSortFilterProxyModel>
#include <QCheckBox>
#include <QTextDocument>
#include <QThreadPool>
#include <QUrl>
#include <QVBoxLayout>
#include <QGuiApplication>
#include <QScreen>
#include <QScrollArea>

namespace OncePay::Ui {

ShiftCloseDialog::ShiftCloseDialog(TillSession *session, const QString &currency, const QString &terminal,
    const QString &shopName, QWidget *parent)
    : QDialog(parent)
    , m_vm(session, currency, terminal)
    , m_terminal(terminal)
    , m_shopName(shopName)
{
    setWindowTitle(tr("Close shift"));
    // Everything but the buttons scrolls: on a 1024x768 till the Close button is always there.
    auto *outer = new QVBoxLayout(this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget(scroll);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(0, 0, 0, 0);
    scroll->setWidget(content);
    outer->addWidget(scroll, 1);
    m_title = new QLabel(this);
    QFont big = m_title->font();
    big.setPointSize(big.pointSize() + 3);
    big.setBold(true);
    m_title->setFont(big);
    layout->addWidget(m_title);
    m_status = new QLabel(this);
    m_status->setAccessibleName(tr("Shift status"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto *grid = new QGridLayout;
    m_totals = new QTableView(this);
    m_totals->setAccessibleName(tr("Shift totals"));
    m_totals->setModel(m_vm.totals());
    m_totals->verticalHeader()->hide();
    m_totals->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_totals->setSelectionMode(QAbstractItemView::NoSelection);
    m_totals->setFocusPolicy(Qt::NoFocus);
    m_totals->verticalHeader()->setDefaultSectionSize(m_totals->fontMetrics().height() + 8);
    m_totals->setMinimumHeight(m_totals->verticalHeader()->defaultSectionSize() * (int(ShiftTotalsModel::Line::LineCount) + 1) + 6);
    m_totals->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    grid->addWidget(m_totals, 0, 0);
    m_chart = new ShiftChartView(this);
    grid->addWidget(m_chart, 0, 1);

    auto *cash = new QFormLayout;
    m_cash = cash;
    // A till's first shift has no close before it to say what was in the drawer: the cashier says.
    m_openingFloat = new QLineEdit(this);
    m_openingFloat->setAccessibleName(tr("Opening float"));
    m_openingFloat->setPlaceholderText(tr("the cash put in the drawer at the start, e.g. 200.00"));
    cash->addRow(tr("&Opening float (first shift):"), m_openingFloat);
    cash->setRowVisible(m_openingFloat, false);
    m_expected = new QLabel(this);
    m_expected->setAccessibleName(tr("Cash expected"));
    cash->addRow(tr("Expected in the drawer:"), m_expected);
    m_counted = new QLineEdit(this);
    m_counted->setAccessibleName(tr("Cash counted"));
    m_counted->setPlaceholderText(tr("count the drawer, e.g. 120.50"));
    cash->addRow(tr("Cash &counted:"), m_counted);
    m_difference = new QLabel(this);
    m_difference->setAccessibleName(tr("Cash difference"));
    cash->addRow(tr("Difference:"), m_difference);
    m_nextFloat = new QLineEdit(this);
    m_nextFloat->setAccessibleName(tr("Float for the next shift"));
    m_nextFloat->setPlaceholderText(QStringLiteral("0.00"));
    cash->addRow(tr("&Left for the next shift:"), m_nextFloat);
    grid->addLayout(cash, 1, 0);
    m_waiting = new QLabel(this);
    m_waiting->setAccessibleName(tr("Still waiting"));
    m_waiting->setWordWrap(true);
    m_waiting->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    grid->addWidget(m_waiting, 1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    layout->addLayout(grid);

    m_summary = new QLabel(this);
    m_summary->setAccessibleName(tr("Reconciliation summary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    // What needs a person or waits first and alone; the rows that agree folded behind Alt+A.
    m_needing = new QSortFilterProxyModel(this);
    m_needing->setSourceModel(m_vm.findings());
    m_needing->setFilterRole(ShiftFindingsModel::ActionRole);
    m_needing->setFilterKeyColumn(0);
    m_showAgreeing = new QCheckBox(this);
    m_showAgreeing->setAccessibleName(tr("Show the rows that agree"));
    layout->addWidget(m_showAgreeing);
    connect(m_showAgreeing, &QCheckBox::toggled, this, &ShiftCloseDialog::foldAgreeing);
    m_allAgree = new QLabel(tr("Nothing needs a person and nothing waits: every payment and refund agrees."), this);
    m_allAgree->setAccessibleName(tr("Every row agrees"));
    m_allAgree->setWordWrap(true);
    layout->addWidget(m_allAgree);
    m_findings = new QTableView(this);
    m_findings->setAccessibleName(tr("Reconciliation"));
    m_findings->setModel(m_needing);
    m_findings->verticalHeader()->hide();
    m_findings->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_findings->setWordWrap(true);
    m_findings->horizontalHeader()->setSectionResizeMode(int(ShiftFindingsModel::Column::ToDo), QHeaderView::Stretch);
    m_findings->setMinimumHeight(160);
    layout->addWidget(m_findings, 1);

    auto *buttons = new QDialogButtonBox(this);
    m_refresh = buttons->addButton(tr("&Refresh"), QDialogButtonBox::ActionRole);
    m_refresh->setAccessibleName(tr("Check the shift again"));
    QPushButton *print = buttons->addButton(tr("&Print…"), QDialogButtonBox::ActionRole);
    print->setAccessibleName(tr("Print the shift report"));
    QPushButton *pdf = buttons->addButton(tr("Save as P&DF…"), QDialogButtonBox::ActionRole);
    pdf->setAccessibleName(tr("Save the shift report as PDF"));
    // Not an accept button: QDialogButtonBox would make it the default, and Enter in the cash
    // field would start closing the shift.
    m_close = buttons->addButton(tr("Close &shift…"), QDialogButtonBox::ActionRole);
    m_close->setAccessibleName(tr("Close the shift"));
    m_close->setAutoDefault(false);   // Enter in the cash field never closes a shift by itself
    QPushButton *cancel = buttons->addButton(QDialogButtonBox::Close);
    cancel->setAutoDefault(false);
    connect(m_refresh, &QPushButton::clicked, &m_vm, &ShiftCloseViewModel::refresh);
    connect(print, &QPushButton::clicked, this, &ShiftCloseDialog::print);
    connect(pdf, &QPushButton::clicked, this, &ShiftCloseDialog::savePdf);
    connect(m_close, &QPushButton::clicked, this, &ShiftCloseDialog::confirmClose);
    connect(cancel, &QPushButton::clicked, this, &QDialog::reject);
    outer->addWidget(buttons);

    connect(m_counted, &QLineEdit::textChanged, this, [this](const QString &text) {
        const bool ok = m_vm.setCountedCash(text);
        m_counted->setStyleSheet(ok ? QString() : QStringLiteral("QLineEdit { background: #f7c6c6; }"));
        showPhase();
    });
    connect(m_openingFloat, &QLineEdit::textChanged, this, [this](const QString &text) {
        const bool ok = m_vm.setOpeningFloat(text);
        m_openingFloat->setStyleSheet(ok ? QString() : QStringLiteral("QLineEdit { background: #f7c6c6; }"));
        showPhase();
    });
    connect(m_nextFloat, &QLineEdit::textChanged, this, [this](const QString &text) {
        const bool ok = m_vm.setNextFloat(text);
        m_nextFloat->setStyleSheet(ok ? QString() : QStringLiteral("QLineEdit { background: #f7c6c6; }"));
        showPhase();
    });
    connect(&m_vm, &ShiftCloseViewModel::reportChanged, this, &ShiftCloseDialog::showReport);
    connect(&m_vm, &ShiftCloseViewModel::phaseChanged, this, &ShiftCloseDialog::showPhase);
    connect(&m_vm, &ShiftCloseViewModel::closeRefused, this, [this](const QString &reason) {
        QMessageBox::warning(this, tr("Close shift"), reason);
    });
    showReport();
    showPhase();
    m_counted->setFocus();
    // As large as it reads best, never larger than the screen it opens on.
    const QRect screen = (parent ? parent->screen() : QGuiApplication::primaryScreen())->availableGeometry();
    resize(qMin(1080, screen.width() - 24), qMin(700, screen.height() - 48));
    m_vm.refresh();
}

void ShiftCloseDialog::showReport()
{
    const ShiftReport &r = m_vm.report();
    m_cash->setRowVisible(m_openingFloat, m_vm.takesOpeningFloat());
    const QString opened = r.openedAt > 0 ? QLocale().toString(QDateTime::fromMSecsSinceEpoch(r.openedAt), QLocale::ShortFormat)
                                          : tr("no payment yet");
    m_title->setText(r.closedAt > 0 ? tr("Shift %1 closed (opened %2)").arg(r.number).arg(opened)
                                    : tr("Shift %1, opened %2").arg(r.number).arg(opened));
    m_expected->setText(tr("%1 (float %2 + cash sales %3 − cash refunds %4)")
                            .arg(r.money(r.cashExpected()).toDisplayString(), r.money(r.openingFloat).toDisplayString(),
                                r.money(r.cashSales.amount).toDisplayString(), r.money(r.cashRefunds.amount).toDisplayString()));
    if (const auto d = r.cashDifference()) {
        const QString amount = r.money(*d).toDisplayString();
        m_difference->setText(*d == 0 ? tr("none: the drawer is right")
                                      : (*d < 0 ? tr("%1 missing").arg(r.money(-*d).toDisplayString())
                                                : tr("%1 too much").arg(amount)));
        m_difference->setStyleSheet(*d == 0 ? QString() : QStringLiteral("QLabel { color: #b00020; font-weight: bold; }"));
    } else {
        m_difference->setText(tr("count the drawer"));
        m_difference->setStyleSheet({});
    }
    const QStringList waiting = m_vm.waitingLines();
    QString text = waiting.isEmpty() ? tr("Nothing waits for the server.")
                                     : tr("Still waiting for the server (%n):", nullptr, int(waiting.size()))
            + QStringLiteral("\n• ") + waiting.join(QStringLiteral("\n• "));
    if (const QStringList owed = m_vm.owedLines(); !owed.isEmpty())
        text = owedText(owed) + QStringLiteral("\n") + text;   // first: the customer's money
    if (const QStringList refunds = m_vm.tillRefundLines(); !refunds.isEmpty()) {
        text += QStringLiteral("\n") + tr("Refunded by the till by itself (%n):", nullptr, int(refunds.size()))
            + QStringLiteral("\n• ") + refunds.join(QStringLiteral("\n• "));
    }
    if (const QStringList ended = m_vm.endedLines(); !ended.isEmpty()) {
        text += QStringLiteral("\n") + tr("Waiting at the last close, and how they ended (%n):", nullptr, int(ended.size()))
            + QStringLiteral("\n• ") + ended.join(QStringLiteral("\n• "));
    }
    m_waiting->setText(text);
    m_chart->setReport(r);
    foldAgreeing(m_showAgreeing->isChecked());
}

void ShiftCloseDialog::foldAgreeing(bool showAll)
{
    const QString needing = QStringLiteral("^(%1|%2)$").arg(int(ShiftFinding::Action::Sync)).arg(int(ShiftFinding::Action::Investigate));
    m_needing->setFilterRegularExpression(showAll ? QString() : needing);
    const int agreeing = m_vm.findings()->count(ShiftFinding::Action::None);
    m_showAgreeing->setText(tr("Show the %n row(s) that &agree (cash is counted in the drawer)", nullptr, agreeing));
    m_showAgreeing->setVisible(agreeing > 0);
    const bool empty = m_needing->rowCount() == 0;
    m_allAgree->setVisible(empty && m_vm.isReconciled() && m_vm.findings()->rowCount() > 0);
    m_findings->setVisible(!empty || m_vm.findings()->rowCount() == 0);
    // Each short column as wide as its words (sale numbers whole), within reason; "What to do"
    // takes the rest and wraps.
    const int widest = m_findings->fontMetrics().horizontalAdvance(QLatin1Char('x')) * 34;
    for (int c = 0; c < int(ShiftFindingsModel::Column::ToDo); ++c) {
        m_findings->resizeColumnToContents(c);
        m_findings->setColumnWidth(c, qMin(m_findings->columnWidth(c), widest));
    }
    m_findings->resizeRowsToContents();
}

void ShiftCloseDialog::showPhase()
{
    using P = ShiftCloseViewModel::Phase;
    const ShiftFindingsModel *f = m_vm.findings();
    QString status;
    switch (m_vm.phase()) {
    case P::Loading:
        status = tr("Checking the shift with the server…");
        break;
    case P::Unreconciled:
        status = m_vm.problem();
        break;
    case P::Closing:
        status = tr("Closing the shift…");
        break;
    case P::Closed:
        status = tr("Shift %1 is closed and its report is kept on this till. The next payment opens shift %2.")
                     .arg(m_vm.report().number)
                     .arg(m_vm.report().number + 1);
        if (!m_vm.isReconciled())
            status += QLatin1Char(' ') + tr("It was not checked with the server.");
        if (m_devices && m_devices->autoPrint()) {
            m_devices->print(PrintQueue::Kind::ShiftReport, tr("Shift report %1").arg(m_vm.report().number), documentHtml(),
                QStringLiteral("shift:%1:%2").arg(m_terminal).arg(m_vm.report().number));
            status += QLatin1Char(' ') + tr("Its report is printed on the receipt printer.");
        }
        break;
    case P::Ready:
        status = tr("Checked with the server at %1.")
                     .arg(QLocale().toString(QDateTime::fromMSecsSinceEpoch(m_vm.reconciliation().finishedAt).time(),
                         QLocale::ShortFormat));
        break;
    }
    m_status->setText(status);
    const int investigate = f->count(ShiftFinding::Action::Investigate);
    const int wait = f->count(ShiftFinding::Action::Sync);
    const int fine = f->rowCount() - investigate - wait;
    if (!m_vm.isReconciled()) {
        m_summary->setText(tr("Reconciliation: not checked yet."));
    } else {
        m_summary->setText(tr("Reconciliation with the server%1: %2 agree, %3 to wait for, %4 for a person.")
                               .arg(m_vm.reconciliation().bankAsked ? tr(" and the bank") : QString())
                               .arg(fine)
                               .arg(wait)
                               .arg(investigate));
    }
    m_close->setEnabled(m_vm.canClose());
    m_refresh->setEnabled(m_vm.phase() != P::Loading && m_vm.phase() != P::Closing && m_vm.phase() != P::Closed);
    m_counted->setReadOnly(m_vm.phase() == P::Closed);
    m_nextFloat->setReadOnly(m_vm.phase() == P::Closed);
    m_openingFloat->setReadOnly(m_vm.phase() == P::Closed);
    foldAgreeing(m_showAgreeing->isChecked());
}

void ShiftCloseDialog::confirmClose()
{
    if (!m_vm.canClose())
        return;
    const ShiftReport &r = m_vm.report();
    const QStringList waiting = m_vm.waitingLines();
    QMessageBox ask(QMessageBox::Question, tr("Close shift %1?").arg(r.number), {}, QMessageBox::NoButton, this);
    QString text = tr("Net takings %1; expected in the drawer %2.")
                       .arg(r.money(r.netTotal()).toDisplayString(), r.money(r.cashExpected()).toDisplayString());
    if (!r.countedCash) {
        text += QLatin1Char(' ') + tr("The cash has not been counted.");
    } else if (const qint64 d = *r.cashDifference(); d != 0) {
        // Said where it is decided, not only in the report behind the question.
        text += QLatin1Char(' ') + (d < 0 ? tr("Counted %1: %2 missing.").arg(r.money(*r.countedCash).toDisplayString(), r.money(-d).toDisplayString()) : tr("Counted %1: %2 too much.").arg(r.money(*r.countedCash).toDisplayString(), r.money(d).toDisplayString()));
    }
    if (!waiting.isEmpty()) {
        text += QLatin1String("\n\n") + tr("%n still wait(s) for the server and will move to the next shift:", nullptr, int(waiting.size()))
            + QStringLiteral("\n• ") + waiting.join(QStringLiteral("\n• "));
    }
    // Issue 35: closing over a refund the till owes is a decision, asked here with what to do.
    if (const QStringList owed = m_vm.owedLines(); !owed.isEmpty())
        text += QLatin1String("\n\n") + owedText(owed);
    const int investigate = m_vm.findings()->count(ShiftFinding::Action::Investigate);
    if (investigate > 0)
        text += QLatin1String("\n\n") + tr("%n reconciliation row(s) need a person; they are kept with the report.", nullptr, investigate);
    if (!m_vm.isReconciled()) {
        text += QLatin1String("\n\n") + tr("The server does not answer: the shift is closed without its check. "
                                           "The next shift's report says how the waiting payments ended.");
    }
    ask.setText(text);
    ask.setInformativeText(tr("A closed shift cannot be reopened."));
    QPushButton *yes = ask.addButton(!m_vm.isReconciled() ? tr("Close without the server's check")
            : waiting.isEmpty()                           ? tr("Close the shift")
                                                          : tr("Close with %n waiting", nullptr, int(waiting.size())),
        QMessageBox::AcceptRole);
    ask.setDefaultButton(ask.addButton(tr("Keep the shift open"), QMessageBox::RejectRole));
    ask.exec();
    if (ask.clickedButton() != yes)
        return;
    if (!m_gate || !m_vm.closeNeedsManager())
        return m_vm.close();
    // The manager's PIN, as for a refund above the limit; recorded with what was approved.
    const qint64 d = *r.cashDifference();
    const QString what = d < 0 ? tr("Closing shift %1 with %2 missing").arg(r.number).arg(r.money(-d).toDisplayString())
                               : tr("Closing shift %1 with %2 too much").arg(r.number).arg(r.money(d).toDisplayString());
    m_gate(what, [dialog = QPointer<ShiftCloseDialog>(this)](const QString &) {
        if (dialog)
            dialog->m_vm.close();
    });
}

void ShiftCloseDialog::setManagerGate(ManagerGate gate, qint64 limit)
{
    m_gate = std::move(gate);
    m_vm.setCashDifferenceLimit(limit);
}

QString ShiftCloseDialog::owedText(const QStringList &owed)
{
    return tr("Refunds the till owes and could not make (the customer paid twice):") + QStringLiteral("\n• ")
        + owed.join(QStringLiteral("\n• "));
}

QString ShiftCloseDialog::documentHtml() const
{
    ShiftReportDocument::Context c = ShiftCloseViewModel::documentContext(m_vm.report(), m_vm.isReconciled());
    c.shopName = m_shopName;
    c.terminal = m_terminal;
    return ShiftReportDocument::html(m_vm.report(), m_vm.findings()->findings(), c);
}

void ShiftCloseDialog::print()
{
    if (m_devices && m_devices->hasPrinter()) {
        m_devices->print(PrintQueue::Kind::ShiftReport, tr("Shift report %1").arg(m_vm.report().number), documentHtml());
        m_status->setText(tr("The shift report is on its way to the receipt printer."));
        return;
    }
    QPrinter printer(QPrinter::HighResolution);
    printer.setDocName(QFileInfo(ShiftReportDocument::fileName(m_vm.report(), m_terminal)).completeBaseName());
    QPrintDialog dialog(&printer, this);
    dialog.setWindowTitle(tr("Print the shift report"));
    if (dialog.exec() != QDialog::Accepted)
        return;
    QTextDocument doc;
    doc.addResource(QTextDocument::ImageResource, QUrl(ShiftReportDocument::chartResource()), m_chart->image());
    doc.setHtml(documentHtml());
    doc.print(&printer);
    if (printer.printerState() == QPrinter::Error)
        QMessageBox::warning(this, tr("Close shift"), tr("The printer reported an error; the report may not have been printed."));
}

void ShiftCloseDialog::savePdf()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save the shift report"),
        QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation) + QLatin1Char('/')
            + ShiftReportDocument::fileName(m_vm.report(), m_terminal),
        tr("PDF files (*.pdf)"));
    if (path.isEmpty())
        return;
    // Laid out here (fonts belong to this thread), written by a worker: the till never waits on the disk.
    const QByteArray bytes = ShiftReportDocument::pdf(documentHtml(), m_chart->image());
    // The answer comes back through the relay, which drops it if the dialog closed meanwhile.
    QPointer<QObject> context(this);
    QThreadPool::globalInstance()->start([this, context, path, bytes] {
        QFile f(path);
        const bool ok = f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size() && f.flush();
        const QString error = f.errorString();
        CompletionRelay::instance()->post(context, [this, ok, path, error] {
            if (ok)
                m_status->setText(tr("The report was saved to %1.").arg(path));
            else
                QMessageBox::warning(this, tr("Close shift"), tr("The report could not be written to %1: %2").arg(path, error));
        });
    });
}

}   // namespace OncePay::Ui
