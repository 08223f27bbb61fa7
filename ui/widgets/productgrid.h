#pragma once

#include "languages.h"

#include <QHash>
#include <QWidget>

class QTabWidget;

namespace OncePay {
class Catalog;
}

namespace OncePay::Ui {

// The product grid beside the cart (issue 23), for what has no barcode: the shop's quick keys
// first, then a tab per category, with touch-sized buttons (48 px high) that work by
// touch and mouse. Its buttons never take the keyboard: the scan field keeps it. A category's
// page is built when first shown, and holds at most kMaxButtons (a shop with thousands of
// products in one category types their names instead).
class ProductGrid final : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kMaxButtons = 120;
    static constexpr int kButtonHeight = 48;

    explicit ProductGrid(QWidget *parent = nullptr);
    // The products to show (null: none); rebuilt now, and again after rebuild().
    void setCatalog(const Catalog *catalog, Language language);
    void rebuild();

signals:
    void productChosen(const QString &code);

private:
    void fillPage(int tab);

    const Catalog *m_catalog = nullptr;
    Language m_language = Language::English;
    QTabWidget *m_tabs = nullptr;
    QHash<int, QString> m_categoryOfTab;   // empty string: the quick keys
    QHash<int, bool> m_filled;
};

}   // namespace OncePay::Ui
