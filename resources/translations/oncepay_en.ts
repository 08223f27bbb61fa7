<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>OncePay::Ui::LedgerDialog</name>
    <message numerus="yes">
        <location filename="../../ui/ledgerdialog.cpp" line="61"/>
        <source>%n charge(s)</source>
        <translation>
            <numerusform>%n charge</numerusform>
            <numerusform>%n charges</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/ledgerdialog.cpp" line="61"/>
        <source>%n key(s)</source>
        <translation>
            <numerusform>%n key</numerusform>
            <numerusform>%n keys</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::MainWindow</name>
    <message numerus="yes">
        <location filename="../../ui/mainwindow.cpp" line="386"/>
        <source>(next try in %n s)</source>
        <translation>
            <numerusform>(next try in %n s)</numerusform>
            <numerusform>(next try in %n s)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/mainwindow.cpp" line="393"/>
        <source>Waiting: %n payment(s)</source>
        <translation>
            <numerusform>Waiting: %n payment</numerusform>
            <numerusform>Waiting: %n payments</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/mainwindow.cpp" line="419"/>
        <source>%n payment(s) waiting, %1 in all, not sent yet.</source>
        <translation>
            <numerusform>%n payment waiting, %1 in all, not sent yet.</numerusform>
            <numerusform>%n payments waiting, %1 in all, not sent yet.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::QueuePanel</name>
    <message numerus="yes">
        <location filename="../../ui/queuepanel.cpp" line="135"/>
        <source>%n payment(s) waiting</source>
        <translation>
            <numerusform>%n payment waiting</numerusform>
            <numerusform>%n payments waiting</numerusform>
        </translation>
    </message>
</context>
</TS>
