#include "tillstatusbar.h"

#include "gatewayclient.h"
#include "tillsession.h"
#include "timeutil.h"

#include <QLabel>

namespace OncePay::Ui {

TillStatusBar::TillStatusBar(TillSession *session, bool demo, QWidget *parent)
    : QStatusBar(parent)
    , m_session(session)
    , m_demo(demo)
    , m_connection(new QLabel(this))
    , m_queue(new QLabel(this))
    , m_gateway(new QLabel(this))
{
    m_connection->setAccessibleName(tr("Connection"));
    m_queue->setAccessibleName(tr("Waiting payments"));
    m_gateway->setAccessibleName(tr("Gateway"));
    addPermanentWidget(m_connection);
    addPermanentWidget(m_queue);
    addPermanentWidget(m_gateway);

    m_coalesce.setSingleShot(true);
    m_coalesce.setInterval(kCoalesceMs);
    connect(&m_coalesce, &QTimer::timeout, this, &TillStatusBar::refreshNow);
    m_countdown.setInterval(500);
    connect(&m_countdown, &QTimer::timeout, this, &TillStatusBar::refreshNow);
    m_countdown.start();

    const SyncEngine *engine = session->engine();
    connect(engine, &SyncEngine::queueChanged, this, &TillStatusBar::refreshSoon);
    // What the cashier must see at once: the connection and a pause are never delayed.
    connect(engine, &SyncEngine::connectivityChanged, this, &TillStatusBar::refreshNow);
    connect(engine, &SyncEngine::pausedChanged, this, &TillStatusBar::refreshNow);
    connect(session->client(), &GatewayClient::gatewayChanged, this, &TillStatusBar::refreshNow);
    refreshNow();
}

void TillStatusBar::setTerminal(const QString &terminal)
{
    m_terminal = terminal;
    refreshNow();
}

void TillStatusBar::setNote(std::function<QString()> note)
{
    m_note = std::move(note);
    refreshNow();
}

void TillStatusBar::addMiddleWidget(QWidget *widget, int stretch)
{
    insertPermanentWidget(m_middleIndex++, widget, stretch);
}

void TillStatusBar::refreshSoon()
{
    if (!m_coalesce.isActive())
        m_coalesce.start();
}

void TillStatusBar::refreshNow()
{
    m_coalesce.stop();
    const TillStatus::Facts facts = TillStatus::read(*m_session, m_demo, m_terminal, nowMs());
    m_connection->setText(TillStatus::connection(facts));
    m_queue->setText(TillStatus::queue(facts));
    QString gateway = TillStatus::gateway(facts);
    if (m_note) {
        if (const QString note = m_note(); !note.isEmpty())
            gateway += QStringLiteral(" · ") + note;
    }
    m_gateway->setText(gateway);
}

}   // namespace OncePay::Ui
