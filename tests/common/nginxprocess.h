#pragma once

#include <QByteArray>
#include <QList>
#include <QProcess>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>

// nginx (env ONCEPAY_NGINX_BIN, else /usr/sbin/nginx) as a child process of the test, in
// front of several gateway instances, with its configuration, temp files and error log in a
// private QTemporaryDir. The configuration is the one docs/operations.md documents
// ("Several instances behind nginx"), with local ports and paths.
class NginxProcess final
{
public:
    NginxProcess();
    ~NginxProcess();
    NginxProcess(const NginxProcess &) = delete;
    NginxProcess &operator=(const NginxProcess &) = delete;

    static QString binaryPath();
    // The configuration for `upstreams` on 127.0.0.1:listenPort, files under `prefix`.
    static QByteArray config(const QList<QUrl> &upstreams, quint16 listenPort, const QString &prefix);

    // Starts nginx and waits (by condition) until it proxies GET /healthz with 200.
    bool start(const QList<QUrl> &upstreams, int timeoutMs = 20000);
    bool isRunning() const;
    QUrl baseUrl() const { return m_baseUrl; }
    QString errorLog() const;
    QByteArray failureMessage() const;

private:
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_process;
    QUrl m_baseUrl;
    QString m_error;
};
