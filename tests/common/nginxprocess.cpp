#include "nginxprocess.h"

#include "httpclient.h"

#include <QDir>
#include <QFile>
#include <QTcpServer>
#include <QTest>

#include <unistd.h>

NginxProcess::NginxProcess() = default;

NginxProcess::~NginxProcess()
{
    if (isRunning()) {
        m_process->terminate();   // SIGTERM: fast shutdown of master and workers
        if (!m_process->waitForFinished(10000)) {
            m_process->kill();
            m_process->waitForFinished(5000);
        }
    }
}

QString NginxProcess::binaryPath()
{
    const QString bin = qEnvironmentVariable("ONCEPAY_NGINX_BIN");
    return bin.isEmpty() ? QStringLiteral("/usr/sbin/nginx") : bin;
}

QByteArray NginxProcess::config(const QList<QUrl> &upstreams, quint16 listenPort, const QString &prefix)
{
    QByteArray servers;
    for (const QUrl &u : upstreams)
        servers += "        server 127.0.0.1:" + QByteArray::number(u.port()) + " max_fails=1 fail_timeout=10s;\n";
    const QByteArray dir = prefix.toUtf8();
    // As root the workers would switch to "nobody", who cannot write the test's directory.
    const QByteArray user = ::geteuid() == 0 ? "user root;\n" : "";
    return user + "worker_processes 1;\n"
                  "error_log "
        + dir + "/error.log warn;\n"
                "events { worker_connections 512; }\n"
                "http {\n"
                "    access_log off;\n"
                "    client_body_temp_path "
        + dir + "/client_body;\n"
                "    proxy_temp_path "
        + dir + "/proxy;\n"
                "    fastcgi_temp_path "
        + dir + "/fastcgi;\n"
                "    uwsgi_temp_path "
        + dir + "/uwsgi;\n"
                "    scgi_temp_path "
        + dir + "/scgi;\n"
                // --- the block documented in docs/operations.md ---
                "    upstream oncepay_gateway {\n"
        + servers + "        keepalive 32;\n"
                    "    }\n"
                    "    server {\n"
                    "        listen 127.0.0.1:"
        + QByteArray::number(listenPort) + ";\n"
                                           "        client_max_body_size 64k;\n"
                                           "        large_client_header_buffers 4 16k;\n"
                                           "        location / {\n"
                                           "            proxy_pass http://oncepay_gateway;\n"
                                           "            proxy_http_version 1.1;\n"
                                           "            proxy_set_header Connection \"\";\n"
                                           "            proxy_set_header Host $host;\n"
                                           "            proxy_connect_timeout 2s;\n"
                                           "            proxy_read_timeout 30s;\n"
                                           // Another instance only for what was never sent: nginx does not pass a POST on once it
                                           // was sent unless "non_idempotent" is given. A retry with the same key would be safe for
                                           // our gateway, but nginx cannot know the body is the same request; the till owns the key
                                           // and retries it (docs/operations.md, "Several instances behind nginx").
                                           "            proxy_next_upstream error timeout;\n"
                                           "            proxy_next_upstream_tries 3;\n"
                                           "        }\n"
                                           "    }\n"
                                           "}\n";
}

bool NginxProcess::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

QString NginxProcess::errorLog() const
{
    QFile f(m_dir.filePath(QStringLiteral("error.log")));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QByteArray NginxProcess::failureMessage() const
{
    return (m_error + QStringLiteral("\n--- nginx error.log ---\n") + errorLog().right(4000)).toUtf8();
}

bool NginxProcess::start(const QList<QUrl> &upstreams, int timeoutMs)
{
    if (!QFile::exists(binaryPath())) {
        m_error = QStringLiteral("no nginx at ") + binaryPath();
        return false;
    }
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0)) {
        m_error = QStringLiteral("no free port");
        return false;
    }
    const quint16 port = probe.serverPort();
    probe.close();
    QFile conf(m_dir.filePath(QStringLiteral("nginx.conf")));
    if (!conf.open(QIODevice::WriteOnly) || conf.write(config(upstreams, port, m_dir.path())) < 0) {
        m_error = QStringLiteral("cannot write ") + conf.fileName();
        return false;
    }
    conf.close();
    m_process = std::make_unique<QProcess>();
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    m_process->setStandardOutputFile(m_dir.filePath(QStringLiteral("nginx.out")));
    m_process->start(binaryPath(), {QStringLiteral("-p"), m_dir.path(), QStringLiteral("-c"), conf.fileName(), QStringLiteral("-g"), QStringLiteral("daemon off; pid %1/nginx.pid;").arg(m_dir.path())});
    if (!m_process->waitForStarted(10000)) {
        m_error = QStringLiteral("nginx did not start: ") + m_process->errorString();
        return false;
    }
    m_baseUrl = QUrl(QStringLiteral("http://127.0.0.1:%1").arg(port));
    HttpClient client(m_baseUrl, QByteArray());
    client.setTimeoutMs(2000);
    const bool up = QTest::qWaitFor([&] {
        return !isRunning() || client.get(QStringLiteral("/healthz")).status == 200;
    },
        timeoutMs);
    if (up && isRunning())
        return true;
    QFile out(m_dir.filePath(QStringLiteral("nginx.out")));
    m_error = QStringLiteral("nginx did not proxy /healthz; output: ")
        + (out.open(QIODevice::ReadOnly) ? QString::fromUtf8(out.readAll()) : QString());
    return false;
}
