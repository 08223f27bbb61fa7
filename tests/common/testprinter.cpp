#include "testprinter.h"

#include <QHostAddress>
#include <QTcpSocket>

#include <memory>

namespace OncePay::Test {

namespace {

int u16(const QByteArray &b, int at)
{
    return int(static_cast<unsigned char>(b.at(at))) | (int(static_cast<unsigned char>(b.at(at + 1))) << 8);
}

}   // namespace

QList<EscPosParser::Event> EscPosParser::feed(const QByteArray &bytes)
{
    m_pending += bytes;
    QList<Event> events;
    int i = 0;
    const QByteArray &b = m_pending;
    auto need = [&](int n) {
        return i + n <= b.size();
    };
    while (i < b.size()) {
        const char c = b.at(i);
        if (c == 0x1B) {   // ESC
            if (!need(2))
                break;
            const char cmd = b.at(i + 1);
            if (cmd == '@') {
                events.append(Event{Event::Type::Initialize});
                i += 2;
            } else if (cmd == 'p') {   // ESC p m t1 t2
                if (!need(5))
                    break;
                events.append(Event{Event::Type::DrawerPulse, {}, b.at(i + 2)});
                i += 5;
            } else {
                events.append(Event{Event::Type::Unknown});
                i += 1;
            }
        } else if (c == 0x1D) {   // GS
            if (!need(2))
                break;
            const char cmd = b.at(i + 1);
            if (cmd == 'v') {   // GS v 0 m xL xH yL yH d1...dk
                if (!need(8))
                    break;
                const int rowBytes = u16(b, i + 4);
                const int rows = u16(b, i + 6);
                const int size = rowBytes * rows;
                if (!need(8 + size))
                    break;
                Event e{Event::Type::Image};
                e.image.width = rowBytes * 8;
                e.image.height = rows;
                e.image.bits = b.mid(i + 8, size);
                events.append(e);
                i += 8 + size;
            } else if (cmd == 'V') {   // GS V m [n]
                if (!need(3))
                    break;
                const int m = static_cast<unsigned char>(b.at(i + 2));
                const int length = (m == 65 || m == 66) ? 4 : 3;
                if (!need(length))
                    break;
                events.append(Event{Event::Type::Cut});
                i += length;
            } else {
                events.append(Event{Event::Type::Unknown});
                i += 1;
            }
        } else if (c == 0x10) {   // DLE
            if (!need(3))
                break;
            if (b.at(i + 1) == 0x04) {
                events.append(Event{Event::Type::StatusQuery, {}, b.at(i + 2)});
                i += 3;
            } else if (b.at(i + 1) == 0x14 && b.at(i + 2) == 0x01) {   // DLE DC4 1 m t
                if (!need(5))
                    break;
                events.append(Event{Event::Type::DrawerPulse, {}, b.at(i + 3), true});
                i += 5;
            } else {
                events.append(Event{Event::Type::Unknown});
                i += 1;
            }
        } else {
            events.append(Event{Event::Type::Unknown});
            i += 1;
        }
    }
    m_pending.remove(0, i);
    return events;
}

int PrintedDocument::height() const
{
    int h = 0;
    for (const auto &image : images)
        h += image.height;
    return h;
}

int PrintedDocument::width() const
{
    return images.isEmpty() ? 0 : images.first().width;
}

void PrintLog::add(const QList<EscPosParser::Event> &events, PrintedDocument *current, bool *open)
{
    using T = EscPosParser::Event::Type;
    for (const auto &e : events) {
        switch (e.type) {
        case T::Initialize:
            if (*open && !current->images.isEmpty())
                ++partial;
            *current = {};
            *open = true;
            break;
        case T::Image:
            current->images.append(e.image);
            break;
        case T::Cut:
            documents.append(*current);
            *current = {};
            *open = false;
            break;
        case T::DrawerPulse:
            ++pulses;
            ++current->pulses;
            break;
        case T::StatusQuery:
            ++statusQueries;
            break;
        case T::Unknown:
            ++unknownBytes;
            break;
        }
    }
}

PrintLog PrintLog::parse(const QByteArray &stream)
{
    EscPosParser parser;
    PrintLog log;
    PrintedDocument current;
    bool open = false;
    log.add(parser.feed(stream), &current, &open);
    if (open && !current.images.isEmpty())
        ++log.partial;
    return log;
}

TestPrinter::TestPrinter(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = m_server.nextPendingConnection())
            serve(socket);
    });
}

bool TestPrinter::listen()
{
    if (!m_server.listen(QHostAddress::LocalHost, m_port))
        return false;
    m_port = m_server.serverPort();
    return true;
}

QString TestPrinter::uri() const
{
    return QStringLiteral("tcp://127.0.0.1:%1").arg(m_port);
}

void TestPrinter::setPoweredOn(bool on)
{
    if (on && !m_server.isListening())
        listen();
    else if (!on)
        m_server.close();
}

QByteArray TestPrinter::statusAnswer(State state, int n)
{
    unsigned char b = 0x12;
    const bool stopped = state != State::Online;
    switch (n) {
    case 1:
        if (stopped)
            b |= 0x08;
        break;
    case 2:
        if (state == State::CoverOpen)
            b |= 0x04;
        if (state == State::PaperOut)
            b |= 0x20;
        if (state == State::Offline)
            b |= 0x40;
        break;
    case 4:
        if (state == State::PaperOut)
            b |= 0x6C;
        break;
    default:
        break;
    }
    return QByteArray(1, char(b));
}

void TestPrinter::serve(QTcpSocket *socket)
{
    ++m_connections;
    struct Connection
    {
        EscPosParser parser;
        PrintedDocument current;
        bool open = false;
        int jobBytes = 0;
        int cutAfter = -1;
        QByteArray bytes;   // of the document being printed
    };
    auto c = std::make_shared<Connection>();
    c->cutAfter = std::exchange(m_cutAfter, -1);
    connect(socket, &QTcpSocket::readyRead, this, [this, socket, c] {
        QByteArray data = socket->readAll();
        if (c->cutAfter >= 0) {
            // Status queries are answered; the job's bytes count towards the cut.
            int kept = 0;
            for (int i = 0; i < data.size(); ++i) {
                if (data.at(i) != 0x10)
                    ++c->jobBytes;
                if (c->jobBytes > c->cutAfter)
                    break;
                kept = i + 1;
            }
            if (kept < data.size()) {
                data.truncate(kept);
                QList<EscPosParser::Event> events = c->parser.feed(data);
                m_log.add(events, &c->current, &c->open);
                if (c->open && !c->current.images.isEmpty())
                    ++m_log.partial;
                c->open = false;
                socket->abort();   // the cable is pulled
                socket->deleteLater();
                return;
            }
        }
        const QList<EscPosParser::Event> events = c->parser.feed(data);
        using T = EscPosParser::Event::Type;
        QByteArray answers;
        for (const auto &e : events) {
            if (e.type == T::StatusQuery) {
                answers += statusAnswer(m_state, e.n);
                continue;
            }
            // Nothing is printed by a printer that said it cannot; a real-time pulse still
            // opens the drawer unless the printer is in error (Offline here).
            const bool realTimePulse = e.type == T::DrawerPulse && e.realTime;
            if (m_state != State::Online && !(realTimePulse && m_state != State::Offline))
                continue;
            const int documentsBefore = int(m_log.documents.size());
            const int pulsesBefore = m_log.pulses;
            m_log.add({e}, &c->current, &c->open);
            if (int(m_log.documents.size()) > documentsBefore)
                emit documentPrinted();
            if (m_log.pulses > pulsesBefore)
                emit pulsed();
        }
        if (m_state == State::Online)
            m_received += data;
        if (!answers.isEmpty())
            socket->write(answers);
    });
    connect(socket, &QTcpSocket::disconnected, this, [this, socket, c] {
        if (c->open && !c->current.images.isEmpty())
            ++m_log.partial;
        c->open = false;
        socket->deleteLater();
    });
}

}   // namespace OncePay::Test
