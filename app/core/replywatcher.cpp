#include "replywatcher.h"

#include <QNetworkReply>

namespace OncePay {

ReplyWatcher::ReplyWatcher(QObject *parent)
    : QObject(parent)
{
}

ReplyWatcher::~ReplyWatcher()
{
    // Replies still on the wire keep running without us: nobody is told of them any more.
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it)
        disconnect(it.key(), nullptr, this, nullptr);
}

void ReplyWatcher::watch(QNetworkReply *reply, Finished finished)
{
    m_entries.insert(reply, Entry{{}, std::move(finished)});
    // By signature on purpose: see the class comment (so clazy's old-style-connect is off for
    // this file; the signatures are written normalized, as Qt looks them up).
    // clazy:excludeall=old-style-connect
    // clang-format off
    connect(reply, SIGNAL(socketStartedConnecting()), this, SLOT(onConnecting()));
    connect(reply, SIGNAL(requestSent()), this, SLOT(onRequestSent()));
    connect(reply, SIGNAL(uploadProgress(qint64,qint64)), this, SLOT(onUploadProgress(qint64,qint64)));
    connect(reply, SIGNAL(metaDataChanged()), this, SLOT(onMetaDataChanged()));
    connect(reply, SIGNAL(finished()), this, SLOT(onFinished()));
    connect(reply, SIGNAL(destroyed(QObject*)), this, SLOT(onDestroyed(QObject*)));
    // clang-format on
}

ReplyWatcher::Entry *ReplyWatcher::entryOfSender()
{
    const auto it = m_entries.find(sender());
    return it == m_entries.end() ? nullptr : &it.value();
}

void ReplyWatcher::onConnecting()
{
    if (Entry *e = entryOfSender())
        ++e->progress.connections;
}

void ReplyWatcher::onRequestSent()
{
    // A request without a body (a lookup, a health probe) reports no upload progress: Qt says
    // when it left. Taking a request as written too early only ever turns "not sent" into
    // "unknown" (asked about before anything is sent again), never the other way.
    if (Entry *e = entryOfSender())
        e->progress.written = true;
}

void ReplyWatcher::onUploadProgress(qint64 sent, qint64 total)
{
    if (total <= 0 || sent < total)
        return;
    if (Entry *e = entryOfSender())
        e->progress.written = true;
}

void ReplyWatcher::onMetaDataChanged()
{
    if (Entry *e = entryOfSender())
        e->progress.written = true;
}

void ReplyWatcher::onFinished()
{
    auto *reply = qobject_cast<QNetworkReply *>(sender());
    const auto it = m_entries.find(reply);
    if (!reply || it == m_entries.end())
        return;
    const Entry entry = std::move(it.value());
    m_entries.remove(reply);
    disconnect(reply, nullptr, this, nullptr);
    reply->deleteLater();
    entry.finished(reply, entry.progress);
}

void ReplyWatcher::onDestroyed(QObject *reply)
{
    m_entries.remove(reply);
}

}   // namespace OncePay
