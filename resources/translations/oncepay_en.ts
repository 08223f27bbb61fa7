<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>OncePay::StaffStore</name>
    <message numerus="yes">
        <location filename="../../app/till/staffstore.cpp" line="88"/>
        <source>Wrong PIN. %n more tries before %1 is locked out for five minutes.</source>
        <translation>
            <numerusform>Wrong PIN. %n more try before %1 is locked out for five minutes.</numerusform>
            <numerusform>Wrong PIN. %n more tries before %1 is locked out for five minutes.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::TillCatalog</name>
    <message numerus="yes">
        <location filename="../../app/till/tillcatalog.cpp" line="71"/>
        <source>Imported %n products: %1 new, %2 changed, %3 retired.</source>
        <translation>
            <numerusform>Imported %n product: %1 new, %2 changed, %3 retired.</numerusform>
            <numerusform>Imported %n products: %1 new, %2 changed, %3 retired.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::RingUp</name>
    <message numerus="yes">
        <location filename="../../ui/models/ringup.cpp" line="28"/>
        <source>%n products match &quot;%1&quot;: pick one.</source>
        <translation>
            <numerusform>%n product matches &quot;%1&quot;: pick one.</numerusform>
            <numerusform>%n products match &quot;%1&quot;: pick one.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::CheckoutViewModel</name>
    <message numerus="yes">
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="718"/>
        <source>Ask the customer to confirm the payment on the phone (%n s left). If they cannot, press Customer gave up.</source>
        <translation>
            <numerusform>Ask the customer to confirm the payment on the phone (%n s left). If they cannot, press Customer gave up.</numerusform>
            <numerusform>Ask the customer to confirm the payment on the phone (%n s left). If they cannot, press Customer gave up.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::CounterDevices</name>
    <message numerus="yes">
        <location filename="../../ui/models/counterdevices.cpp" line="80"/>
        <source>Printer: %n waiting</source>
        <translation>
            <numerusform>Printer: %n waiting</numerusform>
            <numerusform>Printer: %n waiting</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/counterdevices.cpp" line="81"/>
        <source>Printer: %n waiting — %1</source>
        <translation>
            <numerusform>Printer: %n waiting — %1</numerusform>
            <numerusform>Printer: %n waiting — %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::DemoController</name>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="256"/>
        <source>%n charge(s) in the bank&apos;s ledger: resolved by asking, not by charging again.</source>
        <translation>
            <numerusform>%n charge in the bank&apos;s ledger: resolved by asking, not by charging again.</numerusform>
            <numerusform>%n charges in the bank&apos;s ledger: resolved by asking, not by charging again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="229"/>
        <source>The bank charged the customer %n time(s). A nervous double tap never charges twice.</source>
        <translation>
            <numerusform>The bank charged the customer %n time. A nervous double tap never charges twice.</numerusform>
            <numerusform>The bank charged the customer %n times. A nervous double tap never charges twice.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="280"/>
        <source>%n charge(s) in the bank&apos;s ledger for the three sales: each sent once, however long it waited.</source>
        <translation>
            <numerusform>%n charge in the bank&apos;s ledger for the three sales: each sent once, however long it waited.</numerusform>
            <numerusform>%n charges in the bank&apos;s ledger for the three sales: each sent once, however long it waited.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="341"/>
        <source>%n charge(s)</source>
        <translation>
            <numerusform>%n charge</numerusform>
            <numerusform>%n charges</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="341"/>
        <source>%n refund(s)</source>
        <translation>
            <numerusform>%n refund</numerusform>
            <numerusform>%n refunds</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::LedgerDialog</name>
    <message numerus="yes">
        <location filename="../../ui/demo/ledgerdialog.cpp" line="116"/>
        <source>%n charge(s)</source>
        <translation>
            <numerusform>%n charge</numerusform>
            <numerusform>%n charges</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/ledgerdialog.cpp" line="116"/>
        <source>%n key(s)</source>
        <translation>
            <numerusform>%n key</numerusform>
            <numerusform>%n keys</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/ledgerdialog.cpp" line="118"/>
        <source>%n refund(s), never two for one charge.</source>
        <translation>
            <numerusform>%n refund, never two for one charge.</numerusform>
            <numerusform>%n refunds, never two for one charge.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::MainWindow</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindowstaff.cpp" line="68"/>
        <source>%n item(s) scanned at the lock screen were not added: scan them again.</source>
        <translation>
            <numerusform>%n item scanned at the lock screen was not added: scan it again.</numerusform>
            <numerusform>%n items scanned at the lock screen were not added: scan them again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindow.cpp" line="521"/>
        <source>%n item(s) for %1 are rung up and nothing is paid. Discard them and start a new sale?</source>
        <translation>
            <numerusform>%n item for %1 is rung up and nothing is paid. Discard it and start a new sale?</numerusform>
            <numerusform>%n items for %1 are rung up and nothing is paid. Discard them and start a new sale?</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindow.cpp" line="696"/>
        <source>⚠ %n declined after the customer left</source>
        <translation>
            <numerusform>⚠ %n payment declined after the customer left</numerusform>
            <numerusform>⚠ %n payments declined after the customer left</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindow.cpp" line="732"/>
        <source>%n payment(s) waiting, %1 in all, not sent yet.</source>
        <translation>
            <numerusform>%n payment waiting, %1 in all, not sent yet.</numerusform>
            <numerusform>%n payments waiting, %1 in all, not sent yet.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::PastShiftsDialog</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="74"/>
        <source>%n closed shift(s), newest first. The report of the selected one is below.</source>
        <translation>
            <numerusform>%n closed shift, newest first. Its report is below.</numerusform>
            <numerusform>%n closed shifts, newest first. The report of the selected one is below.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ProductGrid</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/productgrid.cpp" line="111"/>
        <source>%n more: type a name in the scan field.</source>
        <translation>
            <numerusform>%n more: type a name in the scan field.</numerusform>
            <numerusform>%n more: type a name in the scan field.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ProductsDialog</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/productsdialog.cpp" line="280"/>
        <source>%n product(s) written to %1.</source>
        <translation>
            <numerusform>%n product written to %1.</numerusform>
            <numerusform>%n products written to %1.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ShiftCloseDialog</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="216"/>
        <source>Still waiting for the server (%n):</source>
        <translation>
            <numerusform>Still waiting for the server (%n):</numerusform>
            <numerusform>Still waiting for the server (%n):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="219"/>
        <source>Refunded by the till by itself (%n):</source>
        <translation>
            <numerusform>Refunded by the till by itself (%n):</numerusform>
            <numerusform>Refunded by the till by itself (%n):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="223"/>
        <source>Waiting at the last close, and how they ended (%n):</source>
        <translation>
            <numerusform>Waiting at the last close, and how it ended (%n):</numerusform>
            <numerusform>Waiting at the last close, and how they ended (%n):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="236"/>
        <source>Show the %n row(s) that &amp;agree (cash is counted in the drawer)</source>
        <translation>
            <numerusform>Show the %n row that &amp;agrees (cash is counted in the drawer)</numerusform>
            <numerusform>Show the %n rows that &amp;agree (cash is counted in the drawer)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="321"/>
        <source>%n still wait(s) for the server and will move to the next shift:</source>
        <translation>
            <numerusform>%n still waits for the server and will move to the next shift:</numerusform>
            <numerusform>%n still wait for the server and will move to the next shift:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="326"/>
        <source>%n reconciliation row(s) need a person; they are kept with the report.</source>
        <translation>
            <numerusform>%n reconciliation row needs a person; it is kept with the report.</numerusform>
            <numerusform>%n reconciliation rows need a person; they are kept with the report.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="335"/>
        <source>Close with %n waiting</source>
        <translation>
            <numerusform>Close with %n waiting</numerusform>
            <numerusform>Close with %n waiting</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ShiftReportDocument</name>
    <message numerus="yes">
        <location filename="../../ui/models/shiftreportdocument.cpp" line="72"/>
        <source>Refunded as an amount, not by items: %n refund(s), %1 in all; their tax is not taken off the rates above.</source>
        <translation>
            <numerusform>Refunded as an amount, not by items: %n refund, %1 in all; its tax is not taken off the rates above.</numerusform>
            <numerusform>Refunded as an amount, not by items: %n refunds, %1 in all; their tax is not taken off the rates above.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/shiftreportdocument.cpp" line="75"/>
        <source>Discounts: %n sale(s), %1 in all.</source>
        <translation>
            <numerusform>Discounts: %n sale, %1 in all.</numerusform>
            <numerusform>Discounts: %n sales, %1 in all.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::TillStatus</name>
    <message numerus="yes">
        <location filename="../../ui/models/tillstatus.cpp" line="54"/>
        <source>(next try in %n s)</source>
        <translation>
            <numerusform>(next try in %n s)</numerusform>
            <numerusform>(next try in %n s)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/tillstatus.cpp" line="72"/>
        <source>Waiting: %n payment(s)</source>
        <translation>
            <numerusform>Waiting: %n payment</numerusform>
            <numerusform>Waiting: %n payments</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/tillstatus.cpp" line="78"/>
        <source>%n payment(s) waiting</source>
        <translation>
            <numerusform>%n payment waiting</numerusform>
            <numerusform>%n payments waiting</numerusform>
        </translation>
    </message>
</context>
</TS>
