#pragma once

#include "rawhttp.h"

#include <QByteArray>
#include <QList>
#include <QString>

// Every answer that came back on one connection to which raw bytes were written at once
// (pipelined requests), over plain TCP or TLS.
struct PipelineResult
{
    bool connected = false;
    bool closedByServer = false;
    QByteArray received;
    QList<RawResult> responses;   // the complete ones, in the order they came

    QList<int> statuses() const;
    QByteArray describe() const;
};

namespace Pipeline {
struct Options
{
    QString caFile;   // set: TLS, trusting only this certificate
    bool halfClose = false;   // shutdown(SHUT_WR) once the bytes are out
    int responses = -1;   // stop once this many answers are complete; -1: read until closed
    int timeoutMs = 15000;
};
// Writes `bytes` in one write on a new connection to 127.0.0.1:port and reads answers until
// `options.responses` are complete, the server closes, or the timeout. Waits on the socket,
// never sleeps.
PipelineResult send(quint16 port, const QByteArray &bytes, const Options &options = {});
// The complete responses at the front of `received` (Content-Length framed, as the gateway sends).
QList<RawResult> split(const QByteArray &received);
}   // namespace Pipeline
