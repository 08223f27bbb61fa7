#pragma once

#include <QString>
#include <QtGlobal>

#include <memory>

namespace OncePay::Http {

class TlsContext;

// The bytes of one connection, read and written on its non-blocking descriptor: plain TCP with
// recv()/send(), or TLS with OpenSSL on the same descriptor. Nothing here closes on end-of-file
// (Qt 6.4's sockets do): the connection decides when to stop reading, and a client that ended
// its sending side still gets its answers.
class HttpTransport
{
public:
    enum class Io {
        Done,   // `bytes` were read or written
        WantRead,   // try again once the descriptor is readable
        WantWrite,   // try again once it is writable
        EndOfInput,   // the client ended its sending side (FIN, or TLS close_notify)
        Failed,   // reset, or a TLS error: the connection is over
    };
    struct Result
    {
        Io io = Io::Failed;
        qsizetype bytes = 0;
    };

    static std::unique_ptr<HttpTransport> plain(int descriptor);
    static std::unique_ptr<HttpTransport> tls(int descriptor, const TlsContext &context);

    virtual ~HttpTransport() = default;
    // TLS: one step of the server handshake (Done once it is over); plain TCP: Done.
    virtual Io handshake() { return Io::Done; }
    virtual Result read(char *into, qsizetype size) = 0;
    virtual Result write(const char *from, qsizetype size) = 0;
    // Ends the sending side (TLS: close_notify first); reading stays possible.
    virtual void shutdownWrite() = 0;
    // Decrypted bytes held inside the transport: readable now although the descriptor may not
    // say so.
    virtual bool hasBufferedInput() const { return false; }
    virtual QString lastError() const { return {}; }
};

}   // namespace OncePay::Http
