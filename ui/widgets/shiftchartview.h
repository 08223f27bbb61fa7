#pragma once

#include "shiftreport.h"

#include <QChartView>

namespace OncePay::Ui {

// Sales per hour of a shift as stacked bars, card and cash (Qt Charts), in the report's currency.
class ShiftChartView final : public QChartView
{
    Q_OBJECT

public:
    explicit ShiftChartView(QWidget *parent = nullptr);
    void setReport(const ShiftReport &report);
    // The chart drawn at `size`, for a printout.
    QImage image(const QSize &size = {1200, 500});
};

}   // namespace OncePay::Ui
