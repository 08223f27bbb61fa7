#pragma once

#include <QObject>

#include <initializer_list>

class QSocketNotifier;

namespace OncePay {

// Turns SIGTERM/SIGINT into a Qt signal through a self-pipe, so shutdown runs in the event loop.
class UnixSignals final : public QObject
{
    Q_OBJECT

public:
    explicit UnixSignals(std::initializer_list<int> signalNumbers, QObject *parent = nullptr);
    ~UnixSignals() override;

signals:
    void received(int signalNumber);

private:
    QSocketNotifier *m_notifier = nullptr;
};

}   // namespace OncePay
