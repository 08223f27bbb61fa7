#pragma once

class QWidget;

namespace OncePay::Ui {

// For the start-up benchmark: once `window` is shown and its first page of data has had a
// chance to arrive, prints "window_shown_ms=N rss_mb=M" on stdout and quits.
void reportStartupAndQuit(QWidget *window);

} // namespace OncePay::Ui
