// CompletionRelay: completions handed over from worker threads run on the main thread, in the
// order they were posted, only while their context lives, and a long run of them is cut into
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
};

void TestCompletionRelay::runsOnTheMainThreadInOrder()
{
    CompletionRelay *relay = CompletionRelay::instance();
    QVERIFY(relay);
    QVERIFY(CompletionRelay::servesContext(this));
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

QTEST_GUILESS_MAIN(TestCompletionRelay)
#include "tst_completionrelay.moc"
