#include "staffcommands.h"

#include "commandline.h"
#include "ctloutput.h"
#include "ctlsession.h"
#include "eventwait.h"
#include "exitcode.h"
#include "staffstore.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>

#include <cstdio>
#include <termios.h>
#include <unistd.h>

namespace OncePay::Ctl {

namespace {

// One line of standard input, without its line break; on a terminal, asked for on stderr and
// typed without echo. Never logged, never printed.
std::optional<QString> readSecretLine(const QString &prompt)
{
    const bool terminal = isatty(STDIN_FILENO);
    termios saved{};
    if (terminal) {
        std::fputs(prompt.toLocal8Bit().constData(), stderr);
        std::fflush(stderr);
        tcgetattr(STDIN_FILENO, &saved);
        termios quiet = saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &quiet);
    }
    char buffer[256];
    const bool got = std::fgets(buffer, sizeof buffer, stdin) != nullptr;
    if (terminal) {
        tcsetattr(STDIN_FILENO, TCSANOW, &saved);
        std::fputc('\n', stderr);
    }
    if (!got)
        return std::nullopt;
    QString line = QString::fromLocal8Bit(buffer);
    while (line.endsWith(QLatin1Char('\n')) || line.endsWith(QLatin1Char('\r')))
        line.chop(1);
    return line;
}

std::optional<int> openStore(CtlSession &session, StaffStore *store)
{
    if (session.options().dbPath.isEmpty())
        return fail(Usage, QStringLiteral("no journal: give --db PATH or set ONCEPAY_DB (the staff list lives beside it)"));
    if (!QFileInfo(QFileInfo(store->path()).path()).isDir())
        return fail(Error, QStringLiteral("there is no folder %1").arg(QFileInfo(store->path()).path()));
    QString error;
    if (!store->open(&error))
        return fail(Error, QStringLiteral("cannot open the staff list %1: %2").arg(store->path(), error));
    return std::nullopt;
}

QJsonObject memberJson(const StaffMember &m)
{
    return {{QStringLiteral("id"), m.id}, {QStringLiteral("name"), m.name}, {QStringLiteral("role"), staffRoleName(m.role)},
        {QStringLiteral("locked_until"), m.lockedUntil}};
}

int addCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("staff add"), QStringLiteral("NAME --role cashier|manager [--json]"),
        QStringLiteral("Adds a person who works the till. The PIN (4 to 8 digits) is asked on a terminal, twice,\n"
                       "without echo; otherwise it is the first line of standard input. Once a manager exists,\n"
                       "the till asks everyone to sign in."));
    cl.addOptions({{QStringLiteral("role"), QStringLiteral("cashier or manager."), QStringLiteral("ROLE")},
        {QStringLiteral("json"), QStringLiteral("Print the person as one JSON line.")}});
    if (auto rc = cl.parse(arguments))
        return *rc;
    if (cl.positionalArguments().size() != 1)
        return fail(Usage, QStringLiteral("staff add needs one NAME (quote a name with spaces)"));
    const std::optional<StaffRole> role = staffRoleFromName(cl.value(QStringLiteral("role")));
    if (!role)
        return fail(Usage, QStringLiteral("--role is cashier or manager"));
    const QString name = cl.positionalArguments().constFirst();
    const std::optional<QString> pin = readSecretLine(QStringLiteral("PIN for %1: ").arg(name));
    if (!pin)
        return fail(Usage, QStringLiteral("no PIN on standard input"));
    if (isatty(STDIN_FILENO)) {
        const std::optional<QString> again = readSecretLine(QStringLiteral("The PIN again: "));
        if (!again || *again != *pin)
            return fail(Usage, QStringLiteral("the two PINs differ; nothing was added"));
    }
    StaffStore store(StaffStore::pathBeside(session.options().dbPath));
    if (auto rc = openStore(session, &store))
        return *rc;
    StaffStore::Answer answer;
    QString error;
    if (!awaitAnswer<StaffStore::Answer>([&](QObject *c, auto reply) {
            store.add(name, *role, *pin, c, reply);
        },
            &answer, &error))
        return fail(Error, error);
    if (answer.refusal != StaffStore::Refusal::None)
        return fail(answer.refusal == StaffStore::Refusal::NameTaken ? Error : Usage, StaffStore::describe(answer));
    if (cl.isSet(QStringLiteral("json")))
        outJson(memberJson(answer.member));
    else
        out(QStringLiteral("added %1 (%2)\n").arg(answer.member.name, staffRoleName(answer.member.role)).toUtf8());
    return Succeeded;
}

int listCommand(CtlSession &session, const QStringList &arguments)
{
    CommandLine cl(QStringLiteral("staff list"), QStringLiteral("[--json]"), QStringLiteral("Everyone who works the till, by name."));
    cl.addOption({QStringLiteral("json"), QStringLiteral("One JSON array.")});
    if (auto rc = cl.parse(arguments))
        return *rc;
    StaffStore store(StaffStore::pathBeside(session.options().dbPath));
    if (auto rc = openStore(session, &store))
        return *rc;
    QList<StaffMember> members;
    QString error;
    if (!awaitAnswer<QList<StaffMember>>([&](QObject *c, auto reply) {
            store.list(c, reply);
        },
            &members, &error))
        return fail(Error, error);
    if (cl.isSet(QStringLiteral("json"))) {
        QJsonArray all;
        for (const StaffMember &m : std::as_const(members))
            all.append(memberJson(m));
        outJson(all);
        return Succeeded;
    }
    QByteArray text;
    for (const StaffMember &m : std::as_const(members))
        text += QStringLiteral("%1 %2\n").arg(m.name, -24).arg(staffRoleName(m.role)).toUtf8();
    out(text);
    return Succeeded;
}

}   // namespace

int staffCommand(CtlSession &session, const QStringList &arguments)
{
    const QString sub = arguments.value(0);
    if (sub == QLatin1String("add"))
        return addCommand(session, arguments.mid(1));
    if (sub == QLatin1String("list"))
        return listCommand(session, arguments.mid(1));
    if (sub == QLatin1String("--help") || sub == QLatin1String("-h")) {
        out(QByteArrayLiteral("Usage: oncepay-ctl staff add NAME --role cashier|manager [--json]\n"
                              "       oncepay-ctl staff list [--json]\n"
                              "The till's staff, kept beside its journal (--db).\n"));
        return Succeeded;
    }
    if (sub.isEmpty())
        return fail(Usage, QStringLiteral("staff needs a command: add or list (try staff --help)"));
    return fail(Usage, QStringLiteral("unknown staff command \"%1\" (add or list)").arg(sub));
}

}   // namespace OncePay::Ctl
