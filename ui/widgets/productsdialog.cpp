#include "productsdialog.h"

#include "catalogcsv.h"
#include "productsmodel.h"
#include "tillcatalog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace OncePay::Ui {

namespace {

QString csvField(const QString &f)
{
    QString out = f;
    out.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + out + QLatin1Char('"');
}

}   // namespace

std::optional<Product> ProductsDialog::productFromForm(const QStringList &fields, QString *reason)
{
    // code, barcode, name, name_zh, price, vat, category, category_zh, unit, quick_key, open_price: one CSV
    // line, so the form and an imported file are held to the same rules and words.
    QStringList quoted;
    for (const QString &f : fields)
        quoted << csvField(f);
    const QByteArray csv = "code,barcode,name,name_zh,price,vat,category,category_zh,unit,quick_key,open_price\n"
        + quoted.join(QLatin1Char(',')).toUtf8() + '\n';
    CatalogProblem problem;
    const auto products = CatalogCsv::parse(csv, QStringLiteral("CNY"), &problem);
    if (!products || products->size() != 1) {
        problem.line = 0;
        *reason = CatalogCsv::describe(problem);
        return std::nullopt;
    }
    return products->first();
}

ProductsDialog::ProductsDialog(TillCatalog *catalog, QWidget *parent)
    : QDialog(parent)
    , m_catalog(catalog)
    , m_model(new ProductsModel(this))
    , m_filter(new QSortFilterProxyModel(this))
{
    setWindowTitle(tr("Products"));
    setAccessibleName(tr("Products editor"));
    auto *layout = new QVBoxLayout(this);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(tr("Search by code, name or barcode"));
    m_search->setAccessibleName(tr("Search products"));
    m_search->setClearButtonEnabled(true);
    layout->addWidget(m_search);
    m_filter->setSourceModel(m_model);
    m_filter->setFilterKeyColumn(-1);
    m_filter->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_search, &QLineEdit::textChanged, m_filter, &QSortFilterProxyModel::setFilterFixedString);
    m_view = new QTableView(this);
    m_view->setModel(m_filter);
    m_view->setAccessibleName(tr("Products"));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setSectionResizeMode(int(ProductsModel::Column::Name), QHeaderView::Stretch);
    connect(m_view, &QTableView::doubleClicked, this, [this] {
        edit(false);
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ProductsDialog::refreshButtons);
    layout->addWidget(m_view, 1);
    m_message = new QLabel(this);
    m_message->setAccessibleName(tr("Products message"));
    m_message->setWordWrap(true);
    layout->addWidget(m_message);

    auto *buttons = new QHBoxLayout;
    auto *add = new QPushButton(tr("&Add…"), this);
    m_edit = new QPushButton(tr("&Edit…"), this);
    m_retire = new QPushButton(tr("&Retire"), this);
    auto *exportButton = new QPushButton(tr("E&xport CSV…"), this);
    auto *close = new QPushButton(tr("Close"), this);
    connect(add, &QPushButton::clicked, this, [this] {
        edit(true);
    });
    connect(m_edit, &QPushButton::clicked, this, [this] {
        edit(false);
    });
    connect(m_retire, &QPushButton::clicked, this, &ProductsDialog::toggleRetired);
    connect(exportButton, &QPushButton::clicked, this, &ProductsDialog::exportCsv);
    connect(close, &QPushButton::clicked, this, &QDialog::accept);
    for (QPushButton *b : {add, m_edit, m_retire, exportButton})
        buttons->addWidget(b);
    buttons->addStretch(1);
    buttons->addWidget(close);
    layout->addLayout(buttons);
    resize(900, 560);
    connect(m_catalog, &TillCatalog::catalogChanged, this, &ProductsDialog::reload);
    reload();
    refreshButtons();
}

void ProductsDialog::reload()
{
    if (!m_catalog->store())
        return;
    m_catalog->store()->load(this, [this](bool ok, const QString &error, const CatalogStore::Snapshot &s) {
        if (!ok) {
            m_message->setText(error);
            return;
        }
        // The demo's products until the shop has its own: editing one makes the catalog the shop's.
        m_demo = s.products.isEmpty();
        m_products = m_demo ? m_catalog->catalog().products() : s.products;
        m_model->setProducts(m_products);
        refreshButtons();
    });
}

int ProductsDialog::selectedRow() const
{
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : m_filter->mapToSource(rows.first()).row();
}

void ProductsDialog::refreshButtons()
{
    const int row = selectedRow();
    m_edit->setEnabled(row >= 0);
    m_retire->setEnabled(row >= 0);
    m_retire->setText(row >= 0 && m_model->product(row).retired ? tr("&Bring back") : tr("&Retire"));
}

void ProductsDialog::edit(bool add)
{
    const int row = selectedRow();
    if (!add && row < 0)
        return;
    const Product current = add ? Product{} : m_model->product(row);
    auto *form = new QDialog(this);
    form->setAttribute(Qt::WA_DeleteOnClose);
    form->setWindowTitle(add ? tr("New product") : tr("Edit %1").arg(current.code));
    form->setAccessibleName(tr("Product form"));
    auto *fl = new QFormLayout(form);
    auto field = [form](const QString &text, const QString &name) {
        auto *e = new QLineEdit(text, form);
        e->setAccessibleName(name);
        return e;
    };
    QLineEdit *code = field(current.code, tr("Code"));
    code->setReadOnly(!add);
    QLineEdit *barcodes = field(current.barcodes.join(QLatin1Char('|')), tr("Barcodes"));
    QLineEdit *name = field(current.nameEn, tr("Name"));
    QLineEdit *nameZh = field(current.nameZh, tr("Chinese name"));
    QLineEdit *price = field(add || current.openPrice ? QString() : current.price.toDecimalString(), tr("Price"));
    QLineEdit *vat = field(add ? QStringLiteral("13") : vatRateText(current.vatBasisPoints).chopped(1), tr("VAT"));
    QLineEdit *category = field(current.category, tr("Category"));
    QLineEdit *categoryZh = field(current.categoryZh, tr("Category in Chinese"));   // issue 36
    auto *unit = new QComboBox(form);
    unit->setAccessibleName(tr("Unit"));
    unit->addItem(tr("each"), QStringLiteral("each"));
    unit->addItem(tr("kg"), QStringLiteral("kg"));
    unit->setCurrentIndex(current.unit == SaleUnit::Kilogram ? 1 : 0);
    auto *quickKey = new QSpinBox(form);
    quickKey->setRange(0, 9999);
    quickKey->setSpecialValueText(tr("none"));
    quickKey->setValue(current.quickKey);
    quickKey->setAccessibleName(tr("Quick key"));
    auto *openPrice = new QCheckBox(tr("The cashier types the price"), form);
    openPrice->setChecked(current.openPrice);
    fl->addRow(tr("&Code:"), code);
    fl->addRow(tr("&Barcodes (| between):"), barcodes);
    fl->addRow(tr("&Name:"), name);
    fl->addRow(tr("Chinese &name:"), nameZh);
    fl->addRow(tr("&Price:"), price);
    fl->addRow(tr("&VAT %:"), vat);
    fl->addRow(tr("Ca&tegory:"), category);
    fl->addRow(tr("Category in C&hinese:"), categoryZh);
    fl->addRow(tr("&Unit:"), unit);
    fl->addRow(tr("&Quick key:"), quickKey);
    fl->addRow(QString(), openPrice);
    auto *why = new QLabel(form);
    why->setWordWrap(true);
    why->setAccessibleName(tr("Product form message"));
    fl->addRow(why);
    auto *box = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, form);
    fl->addRow(box);
    connect(box, &QDialogButtonBox::rejected, form, &QDialog::reject);
    connect(box, &QDialogButtonBox::accepted, form, [=] {
        QString reason;
        std::optional<Product> p = productFromForm({code->text(), barcodes->text(), name->text(), nameZh->text(), price->text(),
                                                       vat->text(), category->text(), categoryZh->text(), unit->currentData().toString(),
                                                       quickKey->value() > 0 ? QString::number(quickKey->value()) : QString(),
                                                       openPrice->isChecked() ? QStringLiteral("yes") : QStringLiteral("no")},
            &reason);
        if (p) {
            for (const Product &other : std::as_const(m_products)) {
                if (other.code == p->code && add) {
                    reason = tr("The code %1 is taken by %2.").arg(p->code, other.nameEn);
                    p.reset();
                    break;
                }
                for (const QString &b : p->barcodes) {
                    if (other.code != p->code && other.barcodes.contains(b)) {
                        reason = tr("The barcode %1 is %2's.").arg(b, other.nameEn);
                        p.reset();
                        break;
                    }
                }
                if (!p)
                    break;
            }
        }
        if (!p) {
            why->setText(reason);
            return;
        }
        p->retired = current.retired;
        form->accept();
        store(*p, [this, code = p->code](bool ok, const QString &error) {
            m_message->setText(ok ? tr("%1 saved.").arg(code) : tr("%1 was not saved: %2").arg(code, error));
        });
    });
    (add ? code : price)->setFocus();
    form->open();
}

void ProductsDialog::store(const Product &product, const std::function<void(bool ok, const QString &error)> &done)
{
    auto save = [this, product, done](bool ok, const QString &error) {
        if (!ok)
            return done(false, error);
        m_catalog->store()->save(product, this, [done](bool saved, const QString &why, bool) {
            done(saved, why);
        });
    };
    if (!m_demo)
        return save(true, {});
    // The first change to the demo's catalog makes it the shop's: all of it, then the change.
    CatalogStore::Meta meta;
    meta.source = tr("the demo catalog, edited");
    m_catalog->store()->replace(m_products, meta, this, [save](bool ok, const QString &error, const CatalogStore::ImportSummary &) {
        save(ok, error);
    });
    m_demo = false;
}

void ProductsDialog::toggleRetired()
{
    const int row = selectedRow();
    if (row < 0)
        return;
    Product p = m_model->product(row);
    p.retired = !p.retired;
    store(p, [this, p](bool ok, const QString &error) {
        m_message->setText(!ok ? tr("%1 was not changed: %2").arg(p.code, error)
                : p.retired    ? tr("%1 is retired: it is no longer sold.").arg(p.code)
                               : tr("%1 is on sale again.").arg(p.code));
    });
}

void ProductsDialog::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export the catalog"), QStringLiteral("catalog.csv"),
        tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    m_catalog->store()->exportCsv(path, this, [this, path](bool ok, const QString &error, int count) {
        m_message->setText(ok ? tr("%n product(s) written to %1.", nullptr, count).arg(path)
                              : tr("The catalog was not written to %1: %2").arg(path, error));
    });
}

}   // namespace OncePay::Ui
