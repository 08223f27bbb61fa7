// The receipt printer's path (issue 24): drawing a receipt into a raster and encoding it as ESC/POS,
// then N receipts through the persistent print queue to the ESC/POS test printer on TCP
// (tests/common/testprinter): each job stored, marked printing, sent whole with a status query
// before and after, marked printed. Run at two sizes to see whether a longer queue (and a file
// with more printed jobs) costs more per receipt. Figures for BENCHMARKS.md.
//
//   oncepay-bench-print --receipts 200 --dir /work
#include "printqueue.h"
#include "receipt.h"
#include "receiptraster.h"
#include "testprinter.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cstdio>

using namespace OncePay;

namespace {

QString receiptHtml(int lines)
{
    QString html = QStringLiteral("<h2 align=center>OncePay Demo Shop</h2><p align=center>1 Example Road, Shanghai</p><table width=100%>");
    for (int i = 0; i < lines; ++i)
        html += QStringLiteral("<tr><td>茉莉绿茶 Jasmine green tea %1</td><td align=right>1</td><td align=right>¥4.50</td></tr>").arg(i);
    html += QStringLiteral("</table><hr><p><b>Total ¥%1.00</b></p>").arg(lines * 4);
    html += Ui::Receipt::barcodeHtml(QStringLiteral("1-000123"));
    return html;
}

}   // namespace

int main(int argc, char *argv[])
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QCommandLineParser p;
    p.addHelpOption();
    p.addOptions({{QStringLiteral("receipts"), QStringLiteral("Receipts through the queue."), QStringLiteral("N"), QStringLiteral("200")},
        {QStringLiteral("dir"), QStringLiteral("Folder for the queue's file."), QStringLiteral("DIR"), QStringLiteral(".")}});
    p.process(app);
    bool ok = false;
    const int receipts = p.value(QStringLiteral("receipts")).toInt(&ok);
    if (!ok || receipts < 1) {
        std::fprintf(stderr, "oncepay-bench-print: --receipts takes a number above 0\n");
        return 2;
    }
    QTemporaryDir dir(p.value(QStringLiteral("dir")) + QStringLiteral("/bench-print-XXXXXX"));
    if (!dir.isValid()) {
        std::fprintf(stderr, "oncepay-bench-print: no temporary folder in %s\n", qPrintable(p.value(QStringLiteral("dir"))));
        return 1;
    }

    // Drawing and encoding: a 10-line receipt, 80 mm.
    const QString html = receiptHtml(10);
    QList<double> drawMs;
    QByteArray job;
    for (int i = 0; i < 30; ++i) {
        QElapsedTimer t;
        t.start();
        job = Ui::ReceiptRaster::job(html, 80);
        drawMs << t.nsecsElapsed() / 1e6;
    }
    std::sort(drawMs.begin(), drawMs.end());
    std::printf("draw+encode 10-line receipt (80 mm): median %.2f ms, worst %.2f ms, %lld bytes\n", drawMs.at(drawMs.size() / 2),
        drawMs.last(), static_cast<long long>(job.size()));

    Test::TestPrinter printer;
    if (!printer.listen())
        return 1;
    PrintQueue queue(dir.filePath(QStringLiteral("till-print.db")));
    QString error;
    if (!queue.open(&error)) {
        std::fprintf(stderr, "oncepay-bench-print: %s\n", qPrintable(error));
        return 1;
    }
    QString uriError;
    queue.setPrinter(PrinterUri::parse(printer.uri(), &uriError));
    QElapsedTimer total;
    total.start();
    int stored = 0;
    for (int i = 0; i < receipts; ++i) {
        queue.enqueue(PrintQueue::Kind::Receipt, QStringLiteral("Receipt %1").arg(i), job, QStringLiteral("receipt:%1").arg(i), &app,
            [&stored](bool ok, const QString &, const PrintQueue::Queued &) {
                if (ok)
                    ++stored;
            });
    }
    // A plain event loop: QTest::qWaitFor sleeps 10 ms between its rounds, which would be measured.
    QEventLoop loop;
    QObject::connect(&printer, &Test::TestPrinter::documentPrinted, &loop, [&] {
        if (printer.log().documents.size() >= receipts)
            loop.quit();
    });
    QTimer::singleShot(600000, &loop, &QEventLoop::quit);
    loop.exec();
    if (printer.log().documents.size() < receipts) {
        std::fprintf(stderr, "oncepay-bench-print: %lld of %d printed\n", static_cast<long long>(printer.log().documents.size()), receipts);
        return 1;
    }
    const double seconds = total.nsecsElapsed() / 1e9;
    const bool drained = QTest::qWaitFor([&] {
        return queue.waiting() == 0 && !queue.busy();
    },
        10000);
    const bool exact = drained && stored == receipts && printer.log().documents.size() == receipts && printer.log().partial == 0;
    std::printf("%d receipts queued and printed: %.2f s, %.2f ms a receipt, %.0f receipts/s; printed once each: %s\n", receipts,
        seconds, seconds * 1000 / receipts, receipts / seconds, exact ? "yes" : "NO");
    return exact ? 0 : 1;
}
