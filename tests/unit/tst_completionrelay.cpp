// CompletionRelay: completions handed over from worker threads run on their context's thread
// (the main one, or another running an event loop), in the order they were posted, only while their context lives, and a long run of them is cut into
// slices so that other events (the window's paints and keys) get their turn in between.
#include "completionrelay.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QtTest>

#include <atomic>
#include <thread>

using OncePay::CompletionRelay;

class TestCompletionRelay final : public QObject
{
    Q_OBJECT

private slots:
    void runsOnTheMainThreadInOrder();
    void skipsCompletionsOfAContextThatIsGone();
    void longRunsAreSliced();
    void aThreadOfItsOwnGetsItsOwnRelay();
};

void TestCompletionRelay::runsOnTheMainThreadInOrder()
{
    CompletionRelay *relay = CompletionRelay::instance();
    QVERIFY(relay);
    QCOMPARE(CompletionRelay::forContext(this), relay);
    QCOMPARE(CompletionRelay::forCurrentThread(), relay);
    QList<int> seen;
    bool offMainThread = false;
    QThread *mainThread = QThread::currentThread();
    std::thread worker([&] {
        for (int i = 0; i < 500; ++i) {
            relay->post(this, [&, i] {
                offMainThread = offMainThread || QThread::currentThread() != mainThread;
                seen.append(i);
            });
        }
    });
    worker.join();
    QTRY_COMPARE_WITH_TIMEOUT(seen.size(), 500, 10000);
    QVERIFY(!offMainThread);
    for (int i = 0; i < seen.size(); ++i)
        QCOMPARE(seen.at(i), i);
}

void TestCompletionRelay::skipsCompletionsOfAContextThatIsGone()
{
    CompletionRelay *relay = CompletionRelay::instance();
    auto *gone = new QObject;
    int ranForGone = 0;
    bool ranForLive = false;
    relay->post(gone, [&] {
        ++ranForGone;
    });
    relay->post(this, [&] {
        ranForLive = true;
    });
    delete gone;
    QTRY_VERIFY_WITH_TIMEOUT(ranForLive, 10000);
    QCOMPARE(ranForGone, 0);
}

void TestCompletionRelay::longRunsAreSliced()
{
    CompletionRelay *relay = CompletionRelay::instance();
    // 200 completions of 0.2 ms each: 40 ms back to back, five times a slice.
    constexpr int count = 200;
    int done = 0;
    for (int i = 0; i < count; ++i) {
        relay->post(this, [&done] {
            QElapsedTimer busy;
            busy.start();
            while (busy.nsecsElapsed() < 200'000) {}
            ++done;
        });
    }
    // Queued after the relay's first delivery: it runs between two slices, not after all.
    int doneWhenOthersRan = -1;
    QMetaObject::invokeMethod(
        this, [&] {
            doneWhenOthersRan = done;
        },
        Qt::QueuedConnection);
    QTRY_COMPARE_WITH_TIMEOUT(done, count, 10000);
    QVERIFY2(doneWhenOthersRan > 0 && doneWhenOthersRan < count,
        qPrintable(QStringLiteral("another event ran after %1 of %2 completions").arg(doneWhenOthersRan).arg(count)));
}

void TestCompletionRelay::aThreadOfItsOwnGetsItsOwnRelay()
{
    // A thread that runs an event loop (the till's demo gateway runs on one) gets a relay of its
    // own: its contexts are answered on it, in order, and never on the main thread.
    constexpr int count = 300;
    std::atomic<CompletionRelay *> ownRelay{nullptr};
    std::atomic<CompletionRelay *> mainRelayThere{nullptr};
    std::atomic<int> ranElsewhere{0};
    std::atomic<bool> inOrder{true};
    std::atomic<int> done{0};
    std::thread home([&] {
        QEventLoop loop;
        QObject context;
        CompletionRelay *relay = CompletionRelay::forContext(&context);
        ownRelay.store(relay);
        mainRelayThere.store(CompletionRelay::instance());
        QThread *self = QThread::currentThread();
        int expected = 0;
        std::thread worker([&] {
            for (int i = 0; i < count; ++i) {
                relay->post(&context, [&, i] {
                    if (QThread::currentThread() != self)
                        ++ranElsewhere;
                    if (i != expected++)
                        inOrder.store(false);
                    if (++done == count)
                        loop.quit();
                });
            }
        });
        QTimer::singleShot(10'000, &loop, &QEventLoop::quit);   // a lost completion ends the wait
        loop.exec();
        worker.join();
    });
    home.join();
    QVERIFY(ownRelay.load());
    QVERIFY(ownRelay.load() != CompletionRelay::instance());
    QCOMPARE(mainRelayThere.load(), CompletionRelay::instance());
    QCOMPARE(done.load(), count);
    QCOMPARE(ranElsewhere.load(), 0);
    QVERIFY(inOrder.load());

    // A context on a third thread cannot be served from here: no relay, the caller falls back.
    std::atomic<bool> otherStarted{false};
    std::atomic<bool> release{false};
    QObject *elsewhere = nullptr;
    std::thread other([&] {
        QObject onOther;
        elsewhere = &onOther;
        otherStarted.store(true);
        while (!release.load())
            std::this_thread::yield();
    });
    while (!otherStarted.load())
        std::this_thread::yield();
    const CompletionRelay *forOther = CompletionRelay::forContext(elsewhere);
    release.store(true);
    other.join();
    QCOMPARE(forOther, nullptr);
}

QTEST_GUILESS_MAIN(TestCompletionRelay)
#include "tst_completionrelay.moc"
