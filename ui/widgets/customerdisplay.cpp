#include "customerdisplay.h"

#include <QGuiApplication>
#include <QLabel>
#include <QScreen>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {

QFont sized(QFont font, int points, bool bold = false)
{
    font.setPointSize(points);
    font.setBold(bold);
    return font;
}

}   // namespace

CustomerDisplay::CustomerDisplay(CustomerDisplayModel *model, QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_model(model)
{
    setObjectName(QStringLiteral("customerDisplay"));
    setWindowTitle(tr("OncePay — customer display"));
    setAttribute(Qt::WA_ShowWithoutActivating);
    // It follows the till and never keeps it running: with this window still counted, closing the
    // cashier's window (Quit) left the program running, the customer's screen frozen on the last
    // sale and the journal locked (issue 36).
    setAttribute(Qt::WA_QuitOnClose, false);
    setFocusPolicy(Qt::NoFocus);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, QColor(0xfa, 0xfa, 0xf7));
    setPalette(p);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(32, 24, 32, 24);
    m_shop = new QLabel(this);
    m_shop->setFont(sized(font(), 22, true));
    m_shop->setAlignment(Qt::AlignCenter);
    layout->addWidget(m_shop);
    m_lines = new QLabel(this);
    m_lines->setTextFormat(Qt::RichText);
    m_lines->setFont(sized(font(), 16));
    m_lines->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    layout->addWidget(m_lines, 1);
    auto *totalRow = new QHBoxLayout;
    m_totalCaption = new QLabel(this);
    m_totalCaption->setFont(sized(font(), 24));
    m_total = new QLabel(this);
    m_total->setFont(sized(font(), 40, true));
    m_total->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    totalRow->addWidget(m_totalCaption);
    totalRow->addWidget(m_total, 1);
    layout->addLayout(totalRow);
    m_state = new QLabel(this);
    m_state->setObjectName(QStringLiteral("customerDisplayState"));
    m_state->setFont(sized(font(), 32, true));
    m_state->setAlignment(Qt::AlignCenter);
    m_state->setWordWrap(true);
    m_state->setMinimumHeight(96);
    m_state->setAccessibleName(tr("Payment state for the customer"));
    layout->addWidget(m_state);
    connect(m_model, &CustomerDisplayModel::changed, this, &CustomerDisplay::render);
    render();
    resize(800, 600);
}

bool CustomerDisplay::showOnScreen(int index)
{
    const QList<QScreen *> screens = QGuiApplication::screens();
    if (index < 0 || index >= screens.size()) {
        show();
        return false;
    }
    QScreen *screen = screens.at(index);
    setScreen(screen);
    setGeometry(screen->geometry());
    showFullScreen();
    return true;
}

QString CustomerDisplay::stateShown() const
{
    return m_state->text();
}

void CustomerDisplay::render()
{
    using S = CustomerDisplayModel::State;
    m_shop->setText(m_model->shopName());
    const S state = m_model->state();
    QString rows;
    const auto lines = m_model->lines();
    // The newest lines are what the customer watches: the last 12.
    const int first = qMax(0, int(lines.size()) - 12);
    for (int i = first; i < lines.size(); ++i) {
        const auto &l = lines.at(i);
        rows += QStringLiteral("<tr><td width=70%>%1</td><td align=right>%2</td><td align=right>&nbsp;&nbsp;%3</td></tr>")
                    .arg(l.name.toHtmlEscaped(), l.quantity.toHtmlEscaped(), l.amount.toHtmlEscaped());
    }
    m_lines->setText(state == S::Welcome ? QStringLiteral("<p align=center style='font-size:28pt'>%1</p>").arg(m_model->welcomeText().toHtmlEscaped())
                                         : QStringLiteral("<table width=100%>%1</table>").arg(rows));
    m_totalCaption->setText(state == S::Welcome ? QString() : m_model->totalCaption());
    m_total->setText(state == S::Welcome ? QString() : m_model->totalText());
    m_state->setText(m_model->stateText());
    QColor colour = palette().color(QPalette::WindowText);
    if (state == S::Paid)
        colour = QColor(0x1b, 0x7f, 0x3b);
    else if (state == S::Declined || state == S::SeeCashier)
        colour = QColor(0xb0, 0x1e, 0x1e);
    else if (state == S::Pending)
        colour = QColor(0x8a, 0x5a, 0x00);
    QPalette p = m_state->palette();
    p.setColor(QPalette::WindowText, colour);
    m_state->setPalette(p);
}

}   // namespace OncePay::Ui
