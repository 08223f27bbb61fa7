// Every demo story played through the window to its end, as a presenter plays it (issue 36,
// blocker 4): started from the Demo menu, each step's Next pressed with a real click once the
// step's work is done and the till has measured the network it is on, as it has by the time a
// caption is read aloud (the engine asks the gateway how it is, as oncepay-pos does). Two
// stories hung at step 2 on every new till: the network lost answers from step 1 on, the till's
// probe found the gateway silent, and the card payment waited for a connection instead of being
// charged with its answer lost. A step that cannot go on says so and offers Stop.
#include "demobackend.h"
#include "democontroller.h"
#include "demotill.h"
#include "demowindow.h"
#include "ledgerdialog.h"
#include "mainwindow.h"
#include "simulatednetwork.h"
#include "tillsession.h"

#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QTest>

using namespace OncePay;
using namespace OncePay::Ui;

class TestDemoStories final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { DemoTill::isolateSettings(); }
    void init();
    void cleanup() { m_till.stop(); }

    void everyStoryPlaysToItsEnd_data();
    void everyStoryPlaysToItsEnd();
    void aStepThatCannotGoOnSaysSoAndOffersStop();

private:
    template <typename W>
    W *named(const QString &name) const
    {
        return DemoTill::named<W>(m_till.window.get(), name);
    }
    // Demo → the story, as a person chooses it: a click on the menu, arrows to the story, Enter.
    bool playFromTheMenu(const QString &title);
    // The till's own measure agrees with the simulated network: online on an online network,
    // not online on any other.
    bool tillKnowsItsNetwork() const;
    QString what() const;   // the banner and the sale, for a failure's message

    DemoTill m_till;
};

void TestDemoStories::init()
{
    DemoTill::Options options;
    options.size = QSize(1024, 768);
    options.waitActive = true;
    options.aliveProbeMs = 300;   // oncepay-pos asks every 5 s; sooner here, so a test takes seconds
    QString error;
    QVERIFY2(m_till.start(options, &error), qPrintable(error));
    // Only Next goes on (the step delay would also go on by itself, and race the click).
    m_till.demoWindow->controller()->setStepDelayMs(10 * 60 * 1000);
}

bool TestDemoStories::playFromTheMenu(const QString &title)
{
    QMenuBar *bar = m_till.window->menuBar();
    QAction *demo = nullptr;
    for (QAction *a : bar->actions())
        demo = a->menu() && a->text().remove(u'&') == QLatin1String("Demo") ? a : demo;
    if (!demo)
        return false;
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->actionGeometry(demo).center());
    QMenu *menu = demo->menu();
    if (!QTest::qWaitFor([menu] {
            return menu->isVisible();
        }))
        return false;
    for (int i = 0; i <= menu->actions().size() && !(menu->activeAction() && menu->activeAction()->text() == title); ++i)
        QTest::keyClick(menu, Qt::Key_Down);
    if (!menu->activeAction() || menu->activeAction()->text() != title)
        return false;
    QTest::keyClick(menu, Qt::Key_Return);
    return true;
}

bool TestDemoStories::tillKnowsItsNetwork() const
{
    const bool online = m_till.backend->network()->settings().mode == NetSim::Mode::Online;
    return online == (m_till.session->engine()->connectivity() == SyncEngine::Connectivity::Online);
}

QString TestDemoStories::what() const
{
    auto *caption = named<QLabel>(QStringLiteral("Demo caption"));
    auto *stuck = named<QLabel>(QStringLiteral("Demo step stuck"));
    return QStringLiteral("%1 | %2 | %3")
        .arg(caption ? caption->text() : QString(), stuck && stuck->isVisible() ? stuck->text() : QString(),
            m_till.window->viewModel()->message());
}

void TestDemoStories::everyStoryPlaysToItsEnd_data()
{
    QTest::addColumn<int>("story");
    QTest::addColumn<QString>("lastCaptionHas");
    using S = DemoController::Story;
    QTest::newRow("double click") << int(S::DoubleClick) << QStringLiteral("charged the customer 1 time");
    QTest::newRow("answer lost") << int(S::AnswerLost) << QStringLiteral("1 charge(s) in the bank's ledger");
    QTest::newRow("hour offline") << int(S::HourOffline) << QStringLiteral("3 charge(s) in the bank's ledger for the three");
    QTest::newRow("key reused") << int(S::KeyReused) << QStringLiteral("took the first payment and refused the second");
    QTest::newRow("paid another way") << int(S::PaidAnotherWay) << QStringLiteral("1 charge(s) and 1 refund(s) for the card");
    QTest::newRow("wallet given up") << int(S::WalletGivenUp) << QStringLiteral("The customer paid once, in cash.");
}

void TestDemoStories::everyStoryPlaysToItsEnd()
{
    QFETCH(int, story);
    QFETCH(QString, lastCaptionHas);
    const auto s = DemoController::Story(story);
    QVERIFY(playFromTheMenu(DemoController::title(s)));
    auto *caption = named<QLabel>(QStringLiteral("Demo caption"));
    auto *next = named<QPushButton>(QStringLiteral("Next demo step"));
    auto *stuck = named<QLabel>(QStringLiteral("Demo step stuck"));
    QVERIFY(caption && next && stuck);
    static const QRegularExpression stepOf(QStringLiteral("^Demo, step (\\d+) of (\\d+): "));
    QString last;
    for (int step = 1;; ++step) {
        QTRY_VERIFY2_WITH_TIMEOUT(caption->isVisible() && stepOf.match(caption->text()).captured(1).toInt() == step,
            qPrintable(what()), 10000);
        const int steps = stepOf.match(caption->text()).captured(2).toInt();
        // The step's work done (a payment charged, the bank asked): Next goes on. A step that
        // cannot go on says why beside Stop after 30 s (stepTimeoutMs): the test ends there.
        QTRY_VERIFY2_WITH_TIMEOUT(next->isEnabled() || stuck->isVisible(), qPrintable(what()), 60000);
        QVERIFY2(next->isEnabled() && !stuck->isVisible(), qPrintable(what()));
        // The caption read aloud: by then the till has measured the network it is on.
        QTRY_VERIFY2_WITH_TIMEOUT(tillKnowsItsNetwork(), qPrintable(what()), 30000);
        last = caption->text();
        if (s == DemoController::Story::AnswerLost && step == 2)
            QVERIFY(DemoTill::saveScreenshot(m_till.window.get(), QStringLiteral("demo-answer-lost-step2.png")));
        QTest::mouseClick(next, Qt::LeftButton);
        if (step == steps)
            break;
    }
    QVERIFY2(last.contains(lastCaptionHas), qPrintable(last));
    // The end: the caption goes, the bank's ledger opens on the story's payments, nothing waits.
    QTRY_VERIFY(!caption->isVisible());
    QVERIFY(!m_till.demoWindow->controller()->isPlaying());
    QTRY_VERIFY(m_till.window->findChild<LedgerDialog *>() && m_till.window->findChild<LedgerDialog *>()->isVisible());
    QTRY_COMPARE(m_till.session->engine()->waitingCount(), 0);
    QCOMPARE(m_till.backend->network()->settings().mode, NetSim::Mode::Online);
}

void TestDemoStories::aStepThatCannotGoOnSaysSoAndOffersStop()
{
    DemoController *demo = m_till.demoWindow->controller();
    demo->setStepTimeoutMs(1500);
    QVERIFY(playFromTheMenu(DemoController::title(DemoController::Story::DoubleClick)));
    auto *caption = named<QLabel>(QStringLiteral("Demo caption"));
    auto *next = named<QPushButton>(QStringLiteral("Next demo step"));
    auto *stuck = named<QLabel>(QStringLiteral("Demo step stuck"));
    auto *stop = named<QPushButton>(QStringLiteral("Stop the demo story"));
    QVERIFY(caption && next && stuck && stop);
    QTRY_VERIFY(caption->text().startsWith(QStringLiteral("Demo, step 1 of ")));
    QTRY_VERIFY(next->isEnabled());
    QVERIFY(!stop->isVisible());
    // The shop's cable is pulled under the story: the double tap cannot reach the bank.
    NetSim::Settings offline;
    offline.mode = NetSim::Mode::Offline;
    m_till.backend->network()->setSettings(offline);
    QTRY_COMPARE(m_till.session->engine()->connectivity(), SyncEngine::Connectivity::Offline);
    QTest::mouseClick(next, Qt::LeftButton);
    QTRY_VERIFY(caption->text().startsWith(QStringLiteral("Demo, step 2 of ")));
    QVERIFY(!next->isEnabled());
    // Said, with what the till is doing, and Stop offered.
    QTRY_VERIFY_WITH_TIMEOUT(stuck->isVisible(), 10000);
    QVERIFY2(stuck->text().startsWith(QStringLiteral("This step could not go on: ")), qPrintable(stuck->text()));
    QVERIFY2(stuck->text().contains(QStringLiteral("Offline")), qPrintable(stuck->text()));
    QVERIFY(stop->isVisible());
    QVERIFY(!next->isEnabled());
    QVERIFY(DemoTill::saveScreenshot(m_till.window.get(), QStringLiteral("demo-step-stuck.png")));
    QTest::mouseClick(stop, Qt::LeftButton);
    QTRY_VERIFY(!caption->isVisible());
    QVERIFY(!demo->isPlaying());
    // The story's network ends with it: the till is back online, and nothing was charged.
    QCOMPARE(m_till.backend->network()->settings().mode, NetSim::Mode::Online);
    QTRY_COMPARE(m_till.session->engine()->connectivity(), SyncEngine::Connectivity::Online);
    QVERIFY(!m_till.window->viewModel()->intent());
    QCOMPARE(m_till.session->engine()->waitingCount(), 0);
}

QTEST_MAIN(TestDemoStories)
#include "tst_demostories.moc"
