#pragma once

namespace OncePay {
class SimulationClient;
}
namespace OncePay::NetSim {
class SimulatedNetwork;
}

namespace OncePay::Ui {

// What the till's screens may reach of the demo backend when oncepay-pos runs one (it is
// composed in app/pos): the network simulator between the till and its gateway, and the
// gateway's simulation endpoints. Both are null when the till uses a real gateway.
struct DemoLinks
{
    NetSim::SimulatedNetwork *network = nullptr;
    SimulationClient *simulation = nullptr;

    bool isDemo() const { return network != nullptr && simulation != nullptr; }
};

}   // namespace OncePay::Ui
