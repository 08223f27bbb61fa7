#include "shiftchartview.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QDateTime>
#include <QPainter>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <cmath>

namespace OncePay::Ui {

ShiftChartView::ShiftChartView(QWidget *parent)
    : QChartView(parent)
{
    setRenderHint(QPainter::Antialiasing);
    setAccessibleName(tr("Sales per hour"));
    setMinimumSize(360, 220);
    setReport(ShiftReport());
}

void ShiftChartView::setReport(const ShiftReport &report)
{
    auto *chart = new QChart;
    chart->setTitle(tr("Sales per hour"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setAnimationOptions(QChart::NoAnimation);
    auto *card = new QBarSet(tr("Card"));
    auto *cash = new QBarSet(tr("Cash"));
    card->setColor(QColor(0x35, 0x7a, 0xd1));
    cash->setColor(QColor(0x4c, 0xaf, 0x50));
    QStringList hours;
    // Bars are drawn in the currency's major unit: a picture, never a sum (the totals are integers).
    const int digits = qMax(0, Money::minorDigits(report.currency.isEmpty() ? QStringLiteral("CNY") : report.currency));
    const double scale = std::pow(10.0, digits);
    double top = 0;
    for (const ShiftReport::Hour &h : report.perHour) {
        hours << QDateTime::fromMSecsSinceEpoch(h.start).toString(QStringLiteral("HH:00"));
        *card << h.card.amount / scale;
        *cash << h.cash.amount / scale;
        top = qMax(top, (h.card.amount + h.cash.amount) / scale);
    }
    auto *series = new QStackedBarSeries;
    series->append(card);
    series->append(cash);
    chart->addSeries(series);
    auto *x = new QBarCategoryAxis;
    x->append(hours.isEmpty() ? QStringList{tr("no sales yet")} : hours);
    chart->addAxis(x, Qt::AlignBottom);
    series->attachAxis(x);
    auto *y = new QValueAxis;
    if (top > 0) {
        y->setRange(0, top * 1.1);
        y->applyNiceNumbers();
    } else {
        y->setRange(0, 1);   // no sales: "0" and "1", not six labels rounded to 0 and 1
        y->setTickCount(2);
    }
    y->setLabelFormat(QStringLiteral("%.0f"));
    y->setTitleText(report.currency);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(y);
    QChart *old = this->chart();
    setChart(chart);   // the view takes ownership of the new chart; the old one is ours to delete
    delete old;
}

QImage ShiftChartView::image(const QSize &size)
{
    QImage img(size, QImage::Format_ARGB32_Premultiplied);
    img.fill(Qt::white);
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    const QSize before = chart()->size().toSize();
    chart()->resize(size);
    scene()->render(&p, QRectF(QPointF(0, 0), size), chart()->sceneBoundingRect());
    p.end();
    chart()->resize(before);
    return img;
}

}   // namespace OncePay::Ui
