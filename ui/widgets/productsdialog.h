#pragma once

#include "catalog.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace OncePay {
class TillCatalog;
}

namespace OncePay::Ui {

class ProductsModel;

// The products editor (issue 23, behind a manager's PIN): search, add, edit, retire or bring
// back, and export the catalog as CSV. Every change is stored on the catalog store's thread; the
// till sells from it at once. A sale already rung up keeps its prices.
class ProductsDialog final : public QDialog
{
    Q_OBJECT

public:
    ProductsDialog(TillCatalog *catalog, QWidget *parent = nullptr);

    // The form for one product: `existing` to edit (its code fixed), or a new one. Checked as a
    // CSV line is; false and why in `reason`.
    static std::optional<Product> productFromForm(const QStringList &fields, QString *reason);

private:
    void reload();
    void edit(bool add);
    void toggleRetired();
    void exportCsv();
    void refreshButtons();
    int selectedRow() const;
    void store(const Product &product, const std::function<void(bool ok, const QString &error)> &done);

    TillCatalog *m_catalog;
    ProductsModel *m_model;
    QSortFilterProxyModel *m_filter;
    QList<Product> m_products;
    bool m_demo = false;   // the store is empty: these are the demo's products
    QLineEdit *m_search = nullptr;
    QTableView *m_view = nullptr;
    QPushButton *m_edit = nullptr;
    QPushButton *m_retire = nullptr;
    QLabel *m_message = nullptr;
};

}   // namespace OncePay::Ui
