#pragma once

#include <QString>

#include <memory>

struct ssl_ctx_st;

namespace OncePay::Http {

// The server side of TLS (1.2 or later) from PEM files, with OpenSSL: one context shared by
// every connection of an HttpServer. Made only from a certificate and the key that belongs to
// it, so a gateway with mismatched files refuses to start instead of failing every handshake.
class TlsContext final
{
public:
    ~TlsContext();
    TlsContext(const TlsContext &) = delete;
    TlsContext &operator=(const TlsContext &) = delete;

    // The context, or null with a one-line `error` naming the option at fault.
    static std::shared_ptr<const TlsContext> fromFiles(const QString &certFile, const QString &keyFile, QString *error);

    ssl_ctx_st *context() const { return m_context; }

private:
    explicit TlsContext(ssl_ctx_st *context)
        : m_context(context) {}
    ssl_ctx_st *m_context;
};

}   // namespace OncePay::Http
