#include "completionrelay.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QMetaObject>
#include <QThread>

#include <atomic>

namespace OncePay {

namespace {
std::atomic<CompletionRelay *> g_relay{nullptr};
std::mutex g_creating;
// The newest relay of a thread other than the main one; each links to the one made before it.
// A plain pointer, not a container: it must still reach them all after static destructors ran,
// when LeakSanitizer looks.
CompletionRelay *g_threadRelays = nullptr;
thread_local CompletionRelay *t_relay = nullptr;
}   // namespace

CompletionRelay *CompletionRelay::instance()
{
    if (CompletionRelay *relay = g_relay.load(std::memory_order_acquire))
        return relay;
    QCoreApplication *app = QCoreApplication::instance();
    if (!app)
        return nullptr;
    std::lock_guard<std::mutex> lock(g_creating);
    CompletionRelay *relay = g_relay.load(std::memory_order_acquire);
    if (!relay) {
        relay = new CompletionRelay;   // reachable from g_relay for the process's life
        relay->moveToThread(app->thread());
        g_relay.store(relay, std::memory_order_release);
    }
    return relay;
}

CompletionRelay *CompletionRelay::forCurrentThread()
{
    if (t_relay)
        return t_relay;
    const QCoreApplication *app = QCoreApplication::instance();
    if (!app)
        return nullptr;
    if (QThread::currentThread() == app->thread()) {
        t_relay = instance();
        return t_relay;
    }
    auto *relay = new CompletionRelay;   // lives on this thread, made by it
    {
        std::lock_guard<std::mutex> lock(g_creating);
        relay->m_madeBefore = g_threadRelays;
        g_threadRelays = relay;
    }
    t_relay = relay;
    return relay;
}

CompletionRelay *CompletionRelay::forContext(const QObject *context)
{
    const QCoreApplication *app = QCoreApplication::instance();
    if (!context || !app)
        return nullptr;
    QThread *home = context->thread();
    if (home == app->thread())
        return instance();
    if (home == QThread::currentThread())
        return forCurrentThread();
    return nullptr;
}

void CompletionRelay::post(QPointer<QObject> context, std::function<void()> run)
{
    bool wake = false;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_entries.push_back(Entry{std::move(context), std::move(run)});
        wake = !m_scheduled;
        m_scheduled = true;
    }
    // By name, with no arguments: Qt builds and delivers the call inside its own library.
    if (wake)
        QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
}

void CompletionRelay::deliver()
{
    std::vector<Entry> ready;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        ready.swap(m_entries);
        m_scheduled = false;
    }
    // A batch of a few hundred completions is run a slice at a time, as separate events each
    // were before: the window paints and takes keys between two slices.
    QElapsedTimer slice;
    slice.start();
    auto next = ready.begin();
    for (; next != ready.end() && slice.elapsed() < kSliceMs; ++next) {
        if (next->context)
            next->run();
        next->run = nullptr;   // what it holds is released here, on the main thread
    }
    if (next == ready.end())
        return;
    bool wake = false;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        // The rest goes before anything posted meanwhile: completions keep their order.
        m_entries.insert(m_entries.begin(), std::make_move_iterator(next), std::make_move_iterator(ready.end()));
        wake = !m_scheduled;
        m_scheduled = true;
    }
    if (wake)
        QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
}

}   // namespace OncePay
