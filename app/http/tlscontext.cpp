#include "http/tlscontext.h"

#include <QFile>

#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>

namespace OncePay::Http {

namespace {
// OpenSSL's reason for the last failure, on one line (the error queue is emptied).
QString lastOpenSslError()
{
    const unsigned long code = ERR_peek_last_error();
    ERR_clear_error();
    if (code == 0)
        return QStringLiteral("unknown error");
    const char *reason = ERR_reason_error_string(code);
    return reason ? QString::fromLatin1(reason) : QStringLiteral("error %1").arg(code);
}

// An encrypted key must not make OpenSSL ask for a pass phrase on the terminal of a service.
int noPassphrase(char *, int, int, void *)
{
    return 0;
}
}   // namespace

TlsContext::~TlsContext()
{
    SSL_CTX_free(m_context);
}

std::shared_ptr<const TlsContext> TlsContext::fromFiles(const QString &certFile, const QString &keyFile, QString *error)
{
    ERR_clear_error();
    for (const auto &[option, path] : {std::pair{"--tls-cert", certFile}, std::pair{"--tls-key", keyFile}}) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("%1: cannot read %2: %3").arg(QLatin1String(option), path, file.errorString());
            return nullptr;
        }
    }
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) {
        *error = QStringLiteral("TLS is not available: %1").arg(lastOpenSslError());
        return nullptr;
    }
    std::shared_ptr<const TlsContext> out(new TlsContext(ctx));
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_default_passwd_cb(ctx, noPassphrase);
    // A client that closes without close_notify (or half-closes its TCP side) reads as an end
    // of input, as over plain TCP; renegotiation is refused (a client could otherwise make the
    // server read while it writes).
    SSL_CTX_set_options(ctx, SSL_OP_IGNORE_UNEXPECTED_EOF | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE);
    // The connection retries a write with the same bytes at a moved address, and takes what
    // was written of them.
    SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    const QByteArray cert = QFile::encodeName(certFile);
    const QByteArray key = QFile::encodeName(keyFile);
    if (SSL_CTX_use_certificate_chain_file(ctx, cert.constData()) != 1) {
        *error = QStringLiteral("--tls-cert: %1 holds no PEM certificate (%2)").arg(certFile, lastOpenSslError());
        return nullptr;
    }
    BIO *keyIn = BIO_new_file(key.constData(), "r");
    EVP_PKEY *pkey = keyIn ? PEM_read_bio_PrivateKey(keyIn, nullptr, noPassphrase, nullptr) : nullptr;
    BIO_free(keyIn);
    if (!pkey) {
        *error = QStringLiteral("--tls-key: %1 holds no unencrypted PEM private key (%2)").arg(keyFile, lastOpenSslError());
        return nullptr;
    }
    const int used = SSL_CTX_use_PrivateKey(ctx, pkey);
    EVP_PKEY_free(pkey);
    // Without this check a foreign key is accepted here and every handshake fails later.
    if (used != 1 || SSL_CTX_check_private_key(ctx) != 1) {
        *error = QStringLiteral("--tls-key: %1 is not the private key of the certificate in %2 (%3)")
                     .arg(keyFile, certFile, lastOpenSslError());
        return nullptr;
    }
    return out;
}

}   // namespace OncePay::Http
