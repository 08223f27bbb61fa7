#include "world.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QUuid>

#include <atomic>
#include <ctime>

namespace OncePay {

namespace {

class MachineWorld final : public World
{
public:
    qint64 wallMs() override { return QDateTime::currentMSecsSinceEpoch(); }
    qint64 monotonicMs() override
    {
        timespec ts{};
        ::clock_gettime(CLOCK_BOOTTIME, &ts);
        return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
    }
    QRandomGenerator *random() override { return QRandomGenerator::system(); }
};

MachineWorld machine;
std::atomic<World *> installed{nullptr};

}   // namespace

World *World::current()
{
    World *w = installed.load(std::memory_order_acquire);
    return w ? w : &machine;
}

void World::install(World *world)
{
    installed.store(world, std::memory_order_release);
}

qint64 monotonicMs()
{
    return World::current()->monotonicMs();
}

QRandomGenerator *randomSource()
{
    return World::current()->random();
}

QString newUuid()
{
    QRandomGenerator *rng = randomSource();
    quint32 words[4];
    rng->fillRange(words);
    QByteArray bytes(reinterpret_cast<const char *>(words), sizeof(words));
    bytes[6] = char((uchar(bytes[6]) & 0x0f) | 0x40);   // version 4
    bytes[8] = char((uchar(bytes[8]) & 0x3f) | 0x80);   // variant RFC 4122
    return QUuid::fromRfc4122(bytes).toString(QUuid::WithoutBraces);
}

}   // namespace OncePay
