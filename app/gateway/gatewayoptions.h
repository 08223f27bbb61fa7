#pragma once

#include "gateway/gatewayserver.h"

#include <QStringList>

namespace OncePay::Gateway {

// The command line of oncepay-gateway. `parse` never exits: the caller decides.
struct GatewayOptions
{
    enum class Result {
        Run,
        Help,
        Version,
        Error
    };
    Result result = Result::Run;
    QString message;   // the help text, or the one-line error
    GatewayServer::Config config;

    static GatewayOptions parse(const QStringList &arguments);
};

}   // namespace OncePay::Gateway
