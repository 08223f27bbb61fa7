#include "tillstatusbar.h"

#include "elidedlabel.h"
#include "gatewayclient.h"
#include "tillsession.h"
#include "timeutil.h"

#include <QPainter>
#include <QSizeGrip>
#include <QStyleOption>

namespace OncePay::Ui {

TillStatusBar::TillStatusBar(TillSession *session, bool demo, QWidget *parent)
    : QStatusBar(parent)
    , m_session(session)
    , m_demo(demo)
    , m_connection(new ElidedLabel(this))
    , m_queue(new ElidedLabel(this))
    , m_office(new ElidedLabel(this))
    , m_gateway(new ElidedLabel(this))
    , m_message(new ElidedLabel(this))
{
    m_connection->setAccessibleName(tr("Connection"));
    m_queue->setAccessibleName(tr("Waiting payments"));
    m_gateway->setAccessibleName(tr("Gateway"));
    m_office->setAccessibleName(tr("Office"));
    m_office->setPreferredChars(40);
    m_office->hide();
    m_message->setAccessibleName(tr("Status message"));
    // Each label asks for its whole text up to a bound. The connection and the queue, read
    // first and short, keep theirs whole (up to a bound that leaves the others a few words at
    // 1024 px); the long ones (the gateway, the printer, a message) are elided first.
    m_connection->setMinimumChars(48);
    m_connection->setPreferredChars(56);
    m_queue->setMinimumChars(24);
    m_queue->setPreferredChars(40);
    m_gateway->setPreferredChars(64);
    m_message->setPreferredChars(80);
    addPermanentWidget(m_connection);
    addPermanentWidget(m_queue);
    addPermanentWidget(m_office);
    addPermanentWidget(m_gateway);
    // A passing message, between the queue and the window's own words: the room left over,
    // empty while there is none.
    addMiddleWidget(m_message, 1);
    connect(this, &QStatusBar::messageChanged, m_message, &ElidedLabel::setText);

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
    if (const OfficeSync *office = session->office())
        connect(office, &OfficeSync::statusChanged, this, &TillStatusBar::refreshSoon);
    refreshNow();
}

void TillStatusBar::paintEvent(QPaintEvent *)
{
    // QStatusBar's own paintEvent, less the passing message: it would paint it, cut, in the
    // little room left of the first permanent widget (every widget here is one), where
    // m_message shows it instead.
    QPainter painter(this);
    QStyleOption option;
    option.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &option, &painter, this);
    for (QWidget *item : findChildren<QWidget *>(Qt::FindDirectChildrenOnly)) {
        if (!item->isVisible() || item->isWindow() || qobject_cast<QSizeGrip *>(item))
            continue;
        QStyleOption frame(0);
        frame.rect = item->geometry().adjusted(-2, -1, 2, 1);
        frame.palette = palette();
        frame.state = QStyle::State_None;
        style()->drawPrimitive(QStyle::PE_FrameStatusBarItem, &frame, &painter, item);
    }
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
    if (const OfficeSync *office = m_session->office()) {
        const qint64 now = nowMs();
        const QString text = TillStatus::office(office->status(), office->hasOffice(), now);
        m_office->setText(text);
        m_office->setVisible(!text.isEmpty());
        // After an hour waiting, or refused: a warning, red as the window's alerts.
        const bool late = TillStatus::officeIsLate(office->status(), office->hasOffice(), now);
        if (late != m_office->property("late").toBool()) {
            m_office->setProperty("late", late);
            m_office->setStyleSheet(late ? QStringLiteral("color: #c62828; font-weight: bold;") : QString());
        }
    }
}

}   // namespace OncePay::Ui
