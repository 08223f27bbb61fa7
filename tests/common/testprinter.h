#pragma once

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTcpServer>

namespace OncePay::Test {

// A receipt printer for the tests, written from Epson's ESC/POS reference and not from the
// till's encoder: it parses the byte stream the till sends (initialise, GS v 0 raster images with
// their sizes, cuts, drawer pulses, DLE EOT status queries) into documents, and answers DLE EOT as
// a printer in the state the test sets would. Stopped (paper out, cover open), it prints nothing
// but still obeys the real-time drawer pulse (DLE DC4 1); offline (in error), not even that.
class EscPosParser
{
public:
    struct Image
    {
        int width = 0;   // dots
        int height = 0;
        QByteArray bits;   // width / 8 bytes a row, the leftmost dot in the high bit
    };
    struct Event
    {
        enum class Type {
            Initialize,
            Image,
            Cut,
            DrawerPulse,   // ESC p; DLE DC4 1 m t with `realTime`
            StatusQuery,   // `n`: 1, 2, 3 or 4
            Unknown,   // a byte outside any command the till should send
        };
        Type type = Type::Unknown;
        Image image = {};
        int n = 0;
        // DLE DC4 1 m t: executed on arrival, even by a printer stopped for its paper or cover
        // (Epson: ignored only in error).
        bool realTime = false;
    };
    // Parses what came so far; an incomplete command waits for the next bytes.
    QList<Event> feed(const QByteArray &bytes);
    bool idle() const { return m_pending.isEmpty(); }

private:
    QByteArray m_pending;
};

// What a stream printed: each document runs from ESC @ to its cut.
struct PrintedDocument
{
    QList<EscPosParser::Image> images;
    int pulses = 0;
    int height() const;
    int width() const;
};

struct PrintLog
{
    QList<PrintedDocument> documents;   // cut: whole on paper
    int partial = 0;   // begun (an image or more) and never cut: the link broke
    int pulses = 0;   // drawer pulses, inside documents or alone
    int statusQueries = 0;
    int unknownBytes = 0;
    // Parses a whole stream (a file sink's content).
    static PrintLog parse(const QByteArray &stream);
    void add(const QList<EscPosParser::Event> &events, PrintedDocument *current, bool *open);
};

class TestPrinter final : public QObject
{
    Q_OBJECT

public:
    enum class State {
        Online,
        PaperOut,
        CoverOpen,
        Offline
    };

    explicit TestPrinter(QObject *parent = nullptr);
    bool listen();   // on 127.0.0.1, a free port
    quint16 port() const { return m_server.serverPort(); }
    QString uri() const;   // "tcp://127.0.0.1:PORT"
    void setState(State state) { m_state = state; }
    // The cable is pulled: the next connection is cut after `bytes` bytes of a job (not counting
    // status queries).
    void cutNextConnectionAfter(int bytes) { m_cutAfter = bytes; }
    // Off: connections are refused (the server stops listening); on again: the same port.
    void setPoweredOn(bool on);

    const PrintLog &log() const { return m_log; }
    int connections() const { return m_connections; }
    // The raw bytes of the whole documents, in order (for a PNG of what was printed).
    QByteArray received() const { return m_received; }

    static QByteArray statusAnswer(State state, int n);

signals:
    void documentPrinted();
    void pulsed();

private:
    void serve(QTcpSocket *socket);

    QTcpServer m_server;
    quint16 m_port = 0;
    State m_state = State::Online;
    int m_cutAfter = -1;
    int m_connections = 0;
    PrintLog m_log;
    QByteArray m_received;
};

}   // namespace OncePay::Test
