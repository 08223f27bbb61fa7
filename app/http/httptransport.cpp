#include "http/httptransport.h"

#include "http/tlscontext.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <cerrno>
#include <cstring>

#include <sys/socket.h>

namespace OncePay::Http {

namespace {

class PlainTransport final : public HttpTransport
{
public:
    explicit PlainTransport(int descriptor)
        : m_fd(descriptor) {}

    Result read(char *into, qsizetype size) override
    {
        for (;;) {
            const ssize_t n = ::recv(m_fd, into, std::size_t(size), 0);
            if (n > 0)
                return {Io::Done, qsizetype(n)};
            if (n == 0)
                return {Io::EndOfInput, 0};
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return {Io::WantRead, 0};
            m_error = QString::fromLocal8Bit(std::strerror(errno));
            return {Io::Failed, 0};
        }
    }
    Result write(const char *from, qsizetype size) override
    {
        for (;;) {
            // MSG_NOSIGNAL: a client that went away is an error here, not a SIGPIPE.
            const ssize_t n = ::send(m_fd, from, std::size_t(size), MSG_NOSIGNAL);
            if (n >= 0)
                return {Io::Done, qsizetype(n)};
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return {Io::WantWrite, 0};
            m_error = QString::fromLocal8Bit(std::strerror(errno));
            return {Io::Failed, 0};
        }
    }
    void shutdownWrite() override { ::shutdown(m_fd, SHUT_WR); }
    QString lastError() const override { return m_error; }

private:
    int m_fd;
    QString m_error;
};

class TlsTransport final : public HttpTransport
{
public:
    TlsTransport(int descriptor, const TlsContext &context)
        : m_fd(descriptor)
        , m_ssl(SSL_new(context.context()))
    {
        if (m_ssl) {
            SSL_set_fd(m_ssl, descriptor);
            SSL_set_accept_state(m_ssl);
        }
    }
    ~TlsTransport() override { SSL_free(m_ssl); }

    Io handshake() override
    {
        if (!m_ssl)
            return Io::Failed;
        ERR_clear_error();
        const int rc = SSL_do_handshake(m_ssl);
        return rc == 1 ? Io::Done : classify(rc);
    }
    Result read(char *into, qsizetype size) override
    {
        ERR_clear_error();
        const int n = SSL_read(m_ssl, into, int(qMin<qsizetype>(size, 1 << 30)));
        if (n > 0)
            return {Io::Done, n};
        return {classify(n), 0};
    }
    Result write(const char *from, qsizetype size) override
    {
        if (size == 0)
            return {Io::Done, 0};
        ERR_clear_error();
        const int n = SSL_write(m_ssl, from, int(qMin<qsizetype>(size, 1 << 30)));
        if (n > 0)
            return {Io::Done, n};
        return {classify(n), 0};
    }
    void shutdownWrite() override
    {
        // close_notify is best effort: the TCP FIN that follows ends the stream either way.
        if (m_ssl && SSL_is_init_finished(m_ssl)) {
            ERR_clear_error();
            SSL_shutdown(m_ssl);
        }
        ::shutdown(m_fd, SHUT_WR);
    }
    bool hasBufferedInput() const override { return m_ssl && SSL_pending(m_ssl) > 0; }
    QString lastError() const override { return m_error; }

private:
    Io classify(int rc)
    {
        switch (SSL_get_error(m_ssl, rc)) {
        case SSL_ERROR_WANT_READ:
            return Io::WantRead;
        case SSL_ERROR_WANT_WRITE:
            return Io::WantWrite;
        case SSL_ERROR_ZERO_RETURN:
            return Io::EndOfInput;
        case SSL_ERROR_SYSCALL:
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return Io::WantRead;
            m_error = errno ? QString::fromLocal8Bit(std::strerror(errno)) : QStringLiteral("connection closed");
            return Io::Failed;
        default: {
            const unsigned long code = ERR_peek_last_error();
            const char *reason = code ? ERR_reason_error_string(code) : nullptr;
            m_error = reason ? QString::fromLatin1(reason) : QStringLiteral("TLS error");
            ERR_clear_error();
            return Io::Failed;
        }
        }
    }

    int m_fd;
    SSL *m_ssl;
    QString m_error;
};

}   // namespace

std::unique_ptr<HttpTransport> HttpTransport::plain(int descriptor)
{
    return std::make_unique<PlainTransport>(descriptor);
}

std::unique_ptr<HttpTransport> HttpTransport::tls(int descriptor, const TlsContext &context)
{
    return std::make_unique<TlsTransport>(descriptor, context);
}

}   // namespace OncePay::Http
