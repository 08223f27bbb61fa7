#include "demowindow.h"

#include "democontroller.h"
#include "simulatednetwork.h"
#include "ledgerdialog.h"
#include "mainwindow.h"
#include "simulationclient.h"
#include "tillsession.h"
#include "tillstatusbar.h"

#include <QActionGroup>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {
struct Card
{
    const char *token;
    const char *label;
};
const Card kCards[] = {
    {"tok_visa", QT_TRANSLATE_NOOP("OncePay::Ui::DemoWindow", "Visa (approved)")},
    {"tok_mastercard", QT_TRANSLATE_NOOP("OncePay::Ui::DemoWindow", "Mastercard (approved)")},
    {"tok_unionpay", QT_TRANSLATE_NOOP("OncePay::Ui::DemoWindow", "UnionPay (approved)")},
    {"tok_chargeDeclined", QT_TRANSLATE_NOOP("OncePay::Ui::DemoWindow", "Card declined")},
    {"tok_insufficientFunds", QT_TRANSLATE_NOOP("OncePay::Ui::DemoWindow", "Insufficient funds")},
    {"tok_timeoutAfterCharge", QT_TRANSLATE_NOOP("OncePay::Ui::DemoWindow", "Bank answer lost after charging")},
    {"tok_errorBeforeCharge", QT_TRANSLATE_NOOP("OncePay::Ui::DemoWindow", "Bank refuses before charging")},
};
}   // namespace

DemoWindow::DemoWindow(MainWindow *window, TillSession *session, DemoLinks links)
    : QObject(window)
    , m_window(window)
    , m_session(session)
    , m_links(links)
{
    Q_ASSERT(links.isDemo());
    m_controller = new DemoController(session, links, window->viewModel(), this);
    buildBanner();
    buildCardReader();
    buildMenus();
    connect(m_controller, &DemoController::queueRequested, window, &MainWindow::showPayments);
    connect(m_controller, &DemoController::ledgerRequested, this, &DemoWindow::openLedger);
    connect(m_controller, &DemoController::doubleClickRequested, this, &DemoWindow::doubleClickPay);
    window->tillStatusBar()->setNote([this] {
        return networkNote();
    });
    connect(links.network, &NetSim::SimulatedNetwork::settingsChanged, window->tillStatusBar(), &TillStatusBar::refreshNow);
}

void DemoWindow::buildBanner()
{
    m_banner = new QWidget(m_window);
    auto *layout = new QHBoxLayout(m_banner);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *texts = new QVBoxLayout;
    m_caption = new QLabel(m_banner);
    m_caption->setWordWrap(true);
    m_caption->setAccessibleName(tr("Demo caption"));
    m_caption->setStyleSheet(QStringLiteral("QLabel { background: #dbe9fb; font-size: 14pt; padding: 8px; border-radius: 6px; }"));
    texts->addWidget(m_caption);
    // A step that does not get where it goes says so, with what the till is doing.
    m_stuck = new QLabel(m_banner);
    m_stuck->setWordWrap(true);
    m_stuck->setAccessibleName(tr("Demo step stuck"));
    m_stuck->setStyleSheet(QStringLiteral("QLabel { background: #fde2c8; padding: 6px; border-radius: 6px; }"));
    m_stuck->hide();
    texts->addWidget(m_stuck);
    layout->addLayout(texts, 1);
    auto *buttons = new QVBoxLayout;
    auto *next = new QPushButton(tr("Next ▸"), m_banner);
    next->setAccessibleName(tr("Next demo step"));
    connect(next, &QPushButton::clicked, m_controller, &DemoController::next);
    buttons->addWidget(next);
    auto *stop = new QPushButton(tr("Stop the story"), m_banner);
    stop->setAccessibleName(tr("Stop the demo story"));
    stop->hide();
    connect(stop, &QPushButton::clicked, this, [this] {
        m_controller->stop();
        m_banner->hide();
    });
    buttons->addWidget(stop);
    buttons->addStretch();
    layout->addLayout(buttons);
    m_banner->hide();
    m_window->insertBanner(m_banner);
    connect(m_controller, &DemoController::captionChanged, this, [this](const QString &caption, int step, int steps) {
        m_caption->setText(tr("Demo, step %1 of %2: %3").arg(step).arg(steps).arg(caption));
        m_banner->show();
    });
    // Next goes on once the step's work is done; while it works, Next waits with it.
    connect(m_controller, &DemoController::workingChanged, next, [next, stop, this](bool working) {
        next->setEnabled(!working);
        if (!working) {
            m_stuck->hide();
            stop->hide();
        }
    });
    connect(m_controller, &DemoController::stepStuck, stop, [this, stop](const QString &why) {
        m_stuck->setText(why);
        m_stuck->show();
        stop->show();
    });
    connect(m_controller, &DemoController::finished, m_banner, &QWidget::hide);
}

void DemoWindow::buildCardReader()
{
    auto *reader = new QWidget;
    auto *layout = new QVBoxLayout(reader);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *caption = new QLabel(tr("Card reader (test card):"), reader);
    m_card = new QComboBox(reader);
    m_card->setAccessibleName(tr("Test card"));
    for (const Card &c : kCards)
        m_card->addItem(tr(c.label), QString::fromLatin1(c.token));
    caption->setBuddy(m_card);
    layout->addWidget(caption);
    layout->addWidget(m_card);
    m_window->setCardReader(reader, [card = m_card] {
        return card->currentData().toString();
    });
    // The test card is chosen per sale, and after a decline the next card is another card: the
    // choice starts from the default again.
    CheckoutViewModel *checkout = m_window->viewModel();
    connect(checkout, &CheckoutViewModel::saleStarted, m_card, [card = m_card] {
        card->setCurrentIndex(0);
    });
    connect(checkout, &CheckoutViewModel::phaseChanged, m_card, [card = m_card](CheckoutViewModel::Phase phase) {
        if (phase == CheckoutViewModel::Phase::Declined)
            card->setCurrentIndex(0);
    });
}

void DemoWindow::buildMenus()
{
    QMenuBar *bar = m_window->menuBar();
    QMenu *sim = bar->addMenu(tr("Si&mulation"));
    QMenu *network = sim->addMenu(tr("&Network"));
    auto *netGroup = new QActionGroup(sim);
    // Optional: a mode set elsewhere that no entry names (--network latency=50) checks none.
    netGroup->setExclusionPolicy(QActionGroup::ExclusionPolicy::ExclusiveOptional);
    const QList<QPair<QString, QString>> modes{
        {tr("Online"), QStringLiteral("online")},
        {tr("Offline (connections refused)"), QStringLiteral("offline")},
        {tr("Black hole (no answer)"), QStringLiteral("black_hole")},
        {tr("Lose responses (charged, answer lost)"), QStringLiteral("lose_responses")},
        {tr("Latency 800 ms"), QStringLiteral("latency 800")},
        {tr("Flaky 30 %"), QStringLiteral("flaky 30")},
    };
    for (const auto &[label, mode] : modes) {
        QAction *a = network->addAction(label);
        a->setCheckable(true);
        a->setData(QVariant::fromValue(NetSim::FaultProxy::parseMode(mode).value_or(NetSim::Settings{})));
        netGroup->addAction(a);
    }
    // The check follows the network, whoever changed it: --network, a demo story, this menu.
    auto showMode = [netGroup](const NetSim::Settings &current) {
        for (QAction *a : netGroup->actions())
            a->setChecked(a->data().value<NetSim::Settings>() == current);
    };
    for (QAction *a : netGroup->actions()) {
        connect(a, &QAction::triggered, this, [this, a, showMode] {
            m_links.network->setSettings(a->data().value<NetSim::Settings>());
            showMode(m_links.network->settings());   // choosing the current mode again unchecks nothing
            m_session->engine()->checkConnectionNow();   // like the OS telling the till the network changed
        });
    }
    showMode(m_links.network->settings());
    connect(m_links.network, &NetSim::SimulatedNetwork::settingsChanged, netGroup, showMode);

    QMenu *demo = bar->addMenu(tr("&Demo"));
    for (auto story : {DemoController::Story::DoubleClick, DemoController::Story::AnswerLost,
             DemoController::Story::HourOffline, DemoController::Story::KeyReused,
             DemoController::Story::PaidAnotherWay, DemoController::Story::WalletGivenUp})
        demo->addAction(DemoController::title(story), this, [this, story] {
            m_controller->play(story);
        });
    demo->addSeparator();
    demo->addAction(tr("Stop the demo"), this, [this] {
        m_controller->stop();
        m_banner->hide();
    });

    sim->addAction(tr("The bank's &ledger…"), this, [this] {
        openLedger({});
    });
    QMenu *acquirer = sim->addMenu(tr("&Bank"));
    auto *bankGroup = new QActionGroup(acquirer);
    const QList<QPair<QString, QString>> bank{
        {tr("Normal"), QStringLiteral("normal")},
        {tr("Decline everything"), QStringLiteral("decline_all")},
        {tr("Charge, then lose the answer"), QStringLiteral("timeout_after_charge")},
        {tr("Refuse before charging"), QStringLiteral("error_before_charge")},
    };
    for (const auto &[label, mode] : bank) {
        QAction *a = acquirer->addAction(label);
        a->setCheckable(true);
        a->setChecked(mode == QLatin1String("normal"));
        bankGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, mode = mode] {
            setAcquirerMode(mode);
        });
    }
}

void DemoWindow::setAcquirerMode(const QString &mode)
{
    m_links.simulation->setAcquirerMode(mode, this, [this](bool ok, const QString &error, bool) {
        if (!ok)
            m_window->statusBar()->showMessage(tr("The bank simulation could not be changed: %1").arg(error), 5000);
    });
}

QString DemoWindow::networkNote() const
{
    // FaultProxy::describe() gives identifiers; the cashier reads words.
    const NetSim::Settings s = m_links.network->settings();
    QString words;
    switch (s.mode) {
    case NetSim::Mode::Online:
        words = tr("online", "network simulation");
        break;
    case NetSim::Mode::Offline:
        words = tr("offline", "network simulation");
        break;
    case NetSim::Mode::BlackHole:
        words = tr("black hole", "network simulation");
        break;
    case NetSim::Mode::LoseResponses:
        words = tr("losing responses", "network simulation");
        break;
    case NetSim::Mode::Latency:
        words = tr("latency %1 ms", "network simulation").arg(s.latencyMs);
        break;
    case NetSim::Mode::Flaky:
        words = tr("flaky %1 %", "network simulation").arg(s.flakyPercent);
        break;
    }
    if (words.isEmpty())
        words = NetSim::FaultProxy::describe(s);
    return tr("network: %1").arg(words);
}

void DemoWindow::doubleClickPay()
{
    QPushButton *pay = m_window->payButton();
    pay->click();
    const bool locked = !pay->isEnabled();
    pay->click();   // a disabled button takes no click: this is the bounce
    if (!locked)
        return;
    if (!m_bounce) {
        m_bounce = new QLabel(m_window);
        m_bounce->setAccessibleName(tr("Second tap ignored"));
        m_bounce->setStyleSheet(QStringLiteral("QLabel { background: #fff3b0; border: 2px solid #c9a400; border-radius: 8px;"
                                               " padding: 8px; font-size: 13pt; }"));
        m_bounce->setAlignment(Qt::AlignCenter);
        m_bounce->setWordWrap(true);
    }
    m_bounce->setText(tr("Second tap ignored: this payment is already on its way, it cannot be charged twice."));
    const QRect button(pay->mapTo(m_window, QPoint(0, 0)), pay->size());
    m_bounce->setFixedWidth(button.width());
    m_bounce->adjustSize();
    m_bounce->move(button.left(), button.bottom() + 4);
    m_bounce->raise();
    m_bounce->show();
    QTimer::singleShot(4000, m_bounce, &QWidget::hide);
}

void DemoWindow::openLedger(const QStringList &keys)
{
    auto *dialog = new LedgerDialog(m_links.simulation, m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setKeys(keys);
    dialog->show();
}

}   // namespace OncePay::Ui
