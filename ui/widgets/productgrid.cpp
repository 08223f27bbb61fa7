#include "productgrid.h"

#include "catalog.h"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {
constexpr int kColumns = 4;

// The shop's words on a tab or a button: an & is an &, not a mnemonic ("Fruit & veg" showed as
// "Fruit _veg", and V became its Alt key).
QString shownAsIs(QString text)
{
    return text.replace(QLatin1Char('&'), QStringLiteral("&&"));
}
}   // namespace

ProductGrid::ProductGrid(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_tabs = new QTabWidget(this);
    m_tabs->setAccessibleName(tr("Product grid"));
    m_tabs->setFocusPolicy(Qt::NoFocus);
    m_tabs->tabBar()->setFocusPolicy(Qt::NoFocus);
    m_tabs->tabBar()->setMinimumHeight(40);   // tabs a finger can hit
    m_tabs->setDocumentMode(true);
    layout->addWidget(m_tabs);
    connect(m_tabs, &QTabWidget::currentChanged, this, &ProductGrid::fillPage);
}

void ProductGrid::setCatalog(const Catalog *catalog, Language language)
{
    m_catalog = catalog;
    m_language = language;
    rebuild();
}

void ProductGrid::rebuild()
{
    const QSignalBlocker blocker(m_tabs);
    while (m_tabs->count() > 0) {
        QWidget *page = m_tabs->widget(0);
        m_tabs->removeTab(0);
        delete page;
    }
    m_categoryOfTab.clear();
    m_filled.clear();
    if (!m_catalog)
        return;
    auto addTab = [this](const QString &category, const QString &title) {
        auto *scroll = new QScrollArea(m_tabs);
        scroll->setWidgetResizable(true);
        scroll->setFocusPolicy(Qt::NoFocus);
        scroll->setFrameShape(QFrame::NoFrame);
        const int tab = m_tabs->addTab(scroll, title);
        m_categoryOfTab.insert(tab, category);
    };
    if (!m_catalog->quickKeyProducts().isEmpty())
        addTab(QString(), tr("Quick keys"));
    // Issue 36: in Chinese, a category's Chinese name where the catalog gives one.
    for (const QString &category : m_catalog->categories())
        addTab(category, shownAsIs(m_catalog->categoryName(category, m_language == Language::SimplifiedChinese)));
    setVisible(m_tabs->count() > 0);
    if (m_tabs->count() > 0) {
        m_tabs->setCurrentIndex(0);
        fillPage(0);
    }
}

void ProductGrid::fillPage(int tab)
{
    if (tab < 0 || m_filled.value(tab) || !m_catalog)
        return;
    m_filled.insert(tab, true);
    auto *scroll = qobject_cast<QScrollArea *>(m_tabs->widget(tab));
    auto *page = new QWidget(scroll);
    auto *grid = new QGridLayout(page);
    grid->setSpacing(6);
    const QString category = m_categoryOfTab.value(tab);
    QList<const Product *> products;
    if (category.isEmpty()) {
        products = m_catalog->quickKeyProducts();
    } else {
        for (const Product &p : m_catalog->products()) {
            if (p.category == category)
                products.append(&p);
        }
    }
    const bool chinese = m_language == Language::SimplifiedChinese;
    int n = 0;
    for (const Product *p : std::as_const(products)) {
        if (n == kMaxButtons)
            break;
        const QString price = p->openPrice  ? tr("your price")
            : p->unit == SaleUnit::Kilogram ? tr("%1/kg").arg(p->price.toDisplayString())
                                            : p->price.toDisplayString();
        auto *button = new QPushButton(QStringLiteral("%1\n%2").arg(shownAsIs(p->name(chinese)), price), page);
        button->setAccessibleName(p->name(chinese));
        button->setFocusPolicy(Qt::NoFocus);   // the scan field keeps the keyboard
        button->setMinimumHeight(kButtonHeight);
        button->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
        connect(button, &QPushButton::clicked, this, [this, code = p->code] {
            emit productChosen(code);
        });
        grid->addWidget(button, n / kColumns, n % kColumns);
        ++n;
    }
    if (products.size() > kMaxButtons) {
        auto *more = new QLabel(tr("%n more: type a name in the scan field.", nullptr, int(products.size() - kMaxButtons)), page);
        grid->addWidget(more, n / kColumns + 1, 0, 1, kColumns);
    }
    grid->setRowStretch(grid->rowCount(), 1);
    scroll->setWidget(page);
}

}   // namespace OncePay::Ui
