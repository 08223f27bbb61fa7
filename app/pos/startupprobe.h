#pragma once

class QWidget;
namespace OncePay {
class TillSession;
}
namespace OncePay::NetSim {
class SimulatedNetwork;
}

namespace OncePay::Pos {

// For the start-up benchmark: once `window` is shown and its first page of data has had a
// chance to arrive, prints "window_shown_ms=N rss_mb=M" on stdout and quits.
void reportStartupAndQuit(QWidget *window);

// For the UI-thread benchmark (demo mode only): queues `count` card payments with the network
// simulated offline, brings it back, and while the queue drains measures the longest gap of a
// 5 ms heartbeat timer on the UI thread; prints "drained=N seconds=S longest_ui_stall_ms=G", quits.
void measureDrainAndQuit(TillSession *session, NetSim::SimulatedNetwork *network, int count);

}   // namespace OncePay::Pos
