#pragma once

#include <QHash>
#include <QObject>

#include <functional>

class QNetworkReply;

namespace OncePay {

// What a request did on the wire before its reply finished.
struct ReplyProgress
{
    // Every byte of the request left at least once (Qt said it was sent, its upload completed
    // or an answer began): from then on it may have been acted upon, whatever the final error.
    bool written = false;
    int connections = 0;   // connections opened for it (more than one: Qt 6.4 resent it)
};

// Follows QNetworkReplies on the thread it lives on and calls each reply's `finished` there,
// once, with what the request did on the wire; the reply is deleteLater()'d after.
//
// Why not lambdas connected to each reply: Qt's HTTP thread shares the reply's connection
// list, and when that thread drops the last reference to it, the slot objects of the reply's
// connections are destroyed there, with everything they captured (a callback and its state),
// unordered with this thread. ThreadSanitizer caught a gateway's callback being destroyed on
// Qt's HTTP thread that way. Here the per-reply state lives in this object and is touched on
// its thread only, and replies are connected by signature (SIGNAL/SLOT), so no slot object of
// ours is ever attached to a reply.
class ReplyWatcher final : public QObject
{
    Q_OBJECT

public:
    using Finished = std::function<void(QNetworkReply *reply, const ReplyProgress &progress)>;

    explicit ReplyWatcher(QObject *parent = nullptr);
    ~ReplyWatcher() override;

    // Takes `reply` (of a manager on this thread) and calls `finished` when it finishes.
    // A reply destroyed before it finished (its manager deleted) calls nothing.
    void watch(QNetworkReply *reply, Finished finished);
    qsizetype watching() const { return m_entries.size(); }

private Q_SLOTS:
    void onConnecting();
    void onRequestSent();
    void onUploadProgress(qint64 sent, qint64 total);
    void onMetaDataChanged();
    void onFinished();
    void onDestroyed(QObject *reply);

private:
    struct Entry
    {
        ReplyProgress progress;
        Finished finished;
    };
    Entry *entryOfSender();

    QHash<QObject *, Entry> m_entries;
};

}   // namespace OncePay
