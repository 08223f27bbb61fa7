#pragma once

#include <QtGlobal>

namespace OncePay::Http {

// What one HTTP server allows its connections (docs/api.md, "HTTP/1.1"; the options of
// docs/operations.md set the times and caps).
struct HttpLimits
{
    qint64 maxBodyBytes = 64 * 1024;
    qint64 maxHeaderBytes = 32 * 1024;
    // A request's head must arrive within headerTimeoutMs of its first byte (a new connection
    // must start one, and finish a TLS handshake, within it too), its body within bodyTimeoutMs
    // of the head (408 and close otherwise); a kept-alive connection idle for idleTimeoutMs is
    // closed, and so is one whose client stops reading its answers for that long.
    int headerTimeoutMs = 10'000;
    int bodyTimeoutMs = 30'000;
    int idleTimeoutMs = 60'000;
    // Caps (0: none): connections at once, and from one peer address (503 and close). Never
    // more than the process's file limit allows, less a reserve for its own files: at the cap
    // the server stops accepting (the kernel's backlog holds new connections) until one closes.
    int maxConnections = 10000;
    int maxConnectionsPerPeer = 0;
    // After the last answer of a connection that the server ends (Connection: close, a refused
    // request), the client's remaining bytes are read and dropped for at most this long, so
    // that closing with unread bytes (a TCP reset) does not destroy the answer on its way.
    int lingerMs = 2'000;
    // Requests read ahead of their answers on one connection (pipelining), at most.
    int maxPipelined = 32;
    // Answers made but not yet taken by the kernel (waiting in request order or being written),
    // at most, in bytes: past it a connection reads and executes nothing more until its client
    // has taken enough of them. A client that pipelines requests and never reads holds this, the
    // answers of the requests already executing (at most maxPipelined) and its read-ahead.
    qint64 maxUnsentBytes = 256 * 1024;
};

}   // namespace OncePay::Http
