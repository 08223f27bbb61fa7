<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>OncePay::Catalog</name>
    <message>
        <location filename="../../app/till/catalog.cpp" line="32"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/till/catalog.cpp" line="37"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../app/till/catalog.cpp" line="48"/>
        <source>not a catalog: %1</source>
        <translation>不是商品目录：%1</translation>
    </message>
    <message>
        <location filename="../../app/till/catalog.cpp" line="53"/>
        <source>the currency %1 is not supported</source>
        <translation>不支持币种 %1</translation>
    </message>
    <message>
        <location filename="../../app/till/catalog.cpp" line="65"/>
        <source>product %1 has no code</source>
        <translation>第 %1 个商品没有编码</translation>
    </message>
    <message>
        <location filename="../../app/till/catalog.cpp" line="66"/>
        <source>the code %1 is used twice</source>
        <translation>编码 %1 被使用了两次</translation>
    </message>
    <message>
        <location filename="../../app/till/catalog.cpp" line="70"/>
        <source>the price of %1 must be a whole number of minor units (fen, cents)</source>
        <translation>商品 %1 的价格必须是以最小货币单位（分）计的整数</translation>
    </message>
    <message>
        <location filename="../../app/till/catalog.cpp" line="84"/>
        <source>the VAT of %1 must be a percent from 0 to 100</source>
        <translation>商品 %1 的增值税率必须是 0 到 100 之间的百分比</translation>
    </message>
</context>
<context>
    <name>OncePay::CatalogCsv</name>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="263"/>
        <source>The file is not UTF-8 text. Save it as &quot;CSV UTF-8&quot; and import it again.</source>
        <translation>该文件不是 UTF-8 文本。请另存为“CSV UTF-8”后重新导入。</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="265"/>
        <source>The file is empty: it needs a header row naming the columns %1.</source>
        <translation>文件为空：需要一行表头，列出以下列名：%1。</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="268"/>
        <source>Line 1: the header has no column &quot;%1&quot; (it needs %2).</source>
        <translation>第 1 行：表头缺少列“%1”（需要 %2）。</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="271"/>
        <source>Line 1: the column &quot;%1&quot; is named twice.</source>
        <translation>第 1 行：列“%1”出现了两次。</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="273"/>
        <source>Line %1: a quote (&quot;) is opened and never closed.</source>
        <translation>第 %1 行：引号（&quot;）没有闭合。</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="275"/>
        <source>Line %1 has %2 fields; the header has a different number (a comma inside a name needs quotes).</source>
        <translation>第 %1 行有 %2 个字段，与表头的列数不同（名称中含逗号时需要加引号）。</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="279"/>
        <source>The file is not a catalog: %1</source>
        <translation>该文件不是商品目录：%1</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="281"/>
        <source>it is empty, and every product needs one</source>
        <translation>该项为空，而每个商品都必须填写</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="284"/>
        <source>&quot;%1&quot; is the code of an earlier line too</source>
        <translation>“%1”也是前面某一行的编码</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="287"/>
        <source>the barcode %1 is on an earlier line too</source>
        <translation>条码 %1 也出现在前面某一行</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="291"/>
        <source>the barcode %1 has a wrong check digit (a typing error?)</source>
        <translation>条码 %1 的校验位不对（是否输错？）</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="292"/>
        <source>&quot;%1&quot; is not a barcode (digits and letters, several separated by |)</source>
        <translation>“%1”不是条码（由数字和字母组成，多个条码用 | 分隔）</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="295"/>
        <source>&quot;%1&quot; is not a price such as 12.50</source>
        <translation>“%1”不是价格，应写成 12.50 这样的格式</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="298"/>
        <source>&quot;%1&quot; is not a VAT rate in percent such as 13, 9, 6 or 0</source>
        <translation>“%1”不是以百分比表示的增值税率，例如 13、9、6 或 0</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="301"/>
        <source>&quot;%1&quot; is not a unit: write each or kg</source>
        <translation>“%1”不是单位：请写 each（件）或 kg（千克）</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="304"/>
        <source>&quot;%1&quot; is not a place on the grid (a number from 1)</source>
        <translation>“%1”不是商品面板上的位置（应为从 1 开始的数字）</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="307"/>
        <source>&quot;%1&quot; is not yes or no</source>
        <translation>“%1”不是 yes 或 no</translation>
    </message>
    <message>
        <location filename="../../app/till/catalogcsv.cpp" line="310"/>
        <source>Line %1, column %2: %3.</source>
        <translation>第 %1 行，%2 列：%3。</translation>
    </message>
</context>
<context>
    <name>OncePay::CatalogStore</name>
    <message>
        <location filename="../../app/till/catalogstore.cpp" line="194"/>
        <location filename="../../app/till/catalogstore.cpp" line="208"/>
        <location filename="../../app/till/catalogstore.cpp" line="221"/>
        <location filename="../../app/till/catalogstore.cpp" line="249"/>
        <location filename="../../app/till/catalogstore.cpp" line="271"/>
        <location filename="../../app/till/catalogstore.cpp" line="299"/>
        <location filename="../../app/till/catalogstore.cpp" line="323"/>
        <location filename="../../app/till/catalogstore.cpp" line="336"/>
        <source>The catalog is not open.</source>
        <translation>商品目录未打开。</translation>
    </message>
</context>
<context>
    <name>OncePay::EscPos</name>
    <message>
        <location filename="../../app/devices/escpos.cpp" line="99"/>
        <source>out of paper</source>
        <translation>缺纸</translation>
    </message>
    <message>
        <location filename="../../app/devices/escpos.cpp" line="101"/>
        <source>cover open</source>
        <translation>纸仓盖打开</translation>
    </message>
    <message>
        <location filename="../../app/devices/escpos.cpp" line="103"/>
        <source>offline</source>
        <translation>离线</translation>
    </message>
    <message>
        <location filename="../../app/devices/escpos.cpp" line="105"/>
        <source>printer error</source>
        <translation>打印机故障</translation>
    </message>
</context>
<context>
    <name>OncePay::GatewaySecurity</name>
    <message>
        <location filename="../../app/till/gatewaysecurity.cpp" line="25"/>
        <source>The gateway %1 is plain HTTP on another machine: the till&apos;s token would cross the network unencrypted. Use its https:// address, or allow plain HTTP explicitly (--allow-insecure-http).</source>
        <translation>网关 %1 在另一台机器上且使用明文 HTTP：收银机的令牌将以未加密方式在网络上传输。请使用它的 https:// 地址，或明确允许明文 HTTP（--allow-insecure-http）。</translation>
    </message>
    <message>
        <location filename="../../app/till/gatewaysecurity.cpp" line="43"/>
        <source>The certificate file %1 cannot be read: %2</source>
        <translation>无法读取证书文件 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/till/gatewaysecurity.cpp" line="49"/>
        <source>The file %1 holds no PEM certificate.</source>
        <translation>文件 %1 中没有 PEM 证书。</translation>
    </message>
</context>
<context>
    <name>OncePay::IntentJournal</name>
    <message>
        <source>The till could not tell whether payment %1 was saved: the disk failed while it was written, and the journal closed before it knew. Nothing was sent. When the till starts again its journal knows; look at the sale&apos;s payments before taking its money another way.</source>
        <translation>收银机无法确定付款 %1 是否已保存：写入时磁盘出错，交易日志在确认之前已关闭。没有发送任何内容。收银机再次启动后交易日志会知道结果；在用其他方式收取这笔销售的钱之前，请先查看它的付款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="41"/>
        <source>There is no till journal at %1.</source>
        <translation>%1 处没有收银交易日志。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="43"/>
        <source>The lock file %1 cannot be created beside the journal: %2</source>
        <translation>无法在交易日志旁创建锁文件 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="45"/>
        <source>The till journal %1 is in use by process %2. Close that program first; commands that only read (list, show, export) work beside it.</source>
        <translation>收银交易日志 %1 正被进程 %2 使用。请先关闭该程序；只读命令（list、show、export）可以同时使用。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="25"/>
        <source>The journal is not open.</source>
        <translation>交易日志未打开。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="127"/>
        <source>No payment or refund of this till has the key %1.</source>
        <translation>本收银机没有幂等键为 %1 的支付或退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="129"/>
        <source>It changed meanwhile; look at it again.</source>
        <translation>它在此期间已经变化，请重新查看。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="97"/>
        <source>This payment is not a part of a sale; it cannot be given up.</source>
        <translation>此付款不属于任何一笔销售，不能放弃。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="155"/>
        <source>There is no sale %1.</source>
        <translation>没有销售单 %1。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="157"/>
        <source>Sale %1 is cancelled already.</source>
        <translation>销售单 %1 已取消。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="159"/>
        <source>Sale %1 is paid; refund it instead of cancelling it.</source>
        <translation>销售单 %1 已付清；请退款，而不是取消。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="77"/>
        <source>This sale is already paid.</source>
        <translation>本单已付款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="87"/>
        <source>A payment for this sale needs attention first.</source>
        <translation>本单有一笔支付需要先处理。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="89"/>
        <source>A payment for this sale is still in progress.</source>
        <translation>本单有一笔支付仍在处理中。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="99"/>
        <source>No payment of this till has the key %1.</source>
        <translation>本收银机没有幂等键为 %1 的支付。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="75"/>
        <source>Sale %1 was cancelled.</source>
        <translation>销售单 %1 已被取消。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="47"/>
        <source>The file %1 is not a till journal: it belongs to another program. It was left as it is; choose another file with --db.</source>
        <translation>文件 %1 不是收银交易日志：它属于另一个程序。文件保持原样；请用 --db 选择另一个文件。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="79"/>
        <source>Sale %1 is in %2.</source>
        <translation>销售单 %1 的币种是 %2。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="81"/>
        <source>A card payment for this sale is still in progress. Wait for it, or choose &quot;Customer pays another way&quot;.</source>
        <translation>这笔销售还有一笔刷卡付款正在处理中。请等待结果，或选择“顾客改用其他方式支付”。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="83"/>
        <source>Nothing remains to be paid for this sale while its card payment is in progress.</source>
        <translation>这笔销售的刷卡付款正在处理中，目前没有剩余待付金额。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="85"/>
        <source>At most %1 remains to be paid for sale %2.</source>
        <translation>销售单 %2 最多还需支付 %1。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="91"/>
        <source>Only a card payment can be given up.</source>
        <translation>只有刷卡付款可以放弃。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="93"/>
        <source>This card payment was given up already.</source>
        <translation>这笔刷卡付款已经放弃。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="95"/>
        <source>This card payment is final already (%1): there is nothing to give up.</source>
        <translation>这笔刷卡付款已有最终结果（%1），无需放弃。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="101"/>
        <source>%1 is a refund; only a payment can be refunded.</source>
        <translation>%1 是一笔退款；只有支付才能退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="103"/>
        <source>This sale was paid in cash: give the money back from the drawer as a cash refund.</source>
        <translation>本单是现金支付：请作为现金退款从钱箱退还。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="105"/>
        <source>This payment was made by card: it is refunded to the card, not in cash.</source>
        <translation>这笔支付是刷卡支付：退款退回到银行卡，而不是现金。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="107"/>
        <source>This payment was declined: nothing was charged, so there is nothing to refund.</source>
        <translation>这笔支付已被拒绝：没有扣款，因此无需退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="109"/>
        <source>This payment was voided before it was sent: nothing was charged, so there is nothing to refund.</source>
        <translation>这笔支付在发送前已作废：没有扣款，因此无需退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="111"/>
        <source>This payment was never executed (it needs attention): there is nothing to refund.</source>
        <translation>这笔支付从未执行（需要处理）：无需退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="113"/>
        <source>This payment is not confirmed yet. It can be refunded once the gateway says it is paid.</source>
        <translation>这笔支付尚未确认。网关确认支付成功后才能退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="115"/>
        <source>The gateway&apos;s id of this payment is not known, so it cannot be refunded from the till.</source>
        <translation>不知道这笔支付在网关的编号，因此无法在收银机上退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="117"/>
        <source>A refund of this payment is still in progress (%1). Wait for its outcome before refunding again.</source>
        <translation>这笔支付有一笔退款仍在处理中（%1）。请等待其结果后再退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="119"/>
        <source>This payment has already been refunded in full.</source>
        <translation>这笔支付已全额退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="121"/>
        <source>The payment is in %1; its refund must be in %1 too.</source>
        <translation>这笔支付的币种是 %1；退款也必须使用 %1。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="123"/>
        <source>A refund must give back more than nothing.</source>
        <translation>退款金额必须大于零。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="125"/>
        <source>At most %1 of this payment remains to be refunded (paid %2).</source>
        <translation>这笔支付最多还可退 %1（实付 %2）。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="131"/>
        <source>It is voided already.</source>
        <translation>它已经作废。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="133"/>
        <source>A cash refund is final once the money is given back.</source>
        <translation>现金退款在钱款退还后即为最终结果。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="135"/>
        <source>A cash payment is final once it is taken; give the money back as a cash refund instead.</source>
        <translation>现金支付收款后即为最终结果；请改为现金退款退还钱款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="137"/>
        <source>This refund has been made already; it cannot be voided.</source>
        <translation>这笔退款已经完成，不能作废。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="139"/>
        <source>This payment is paid already; it cannot be voided, only refunded.</source>
        <translation>这笔支付已经成功，不能作废，只能退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="141"/>
        <source>This refund was declined: nothing was given back, there is nothing to void.</source>
        <translation>这笔退款已被拒绝：没有退还任何钱款，无需作废。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="143"/>
        <source>This payment was declined: nothing was charged, there is nothing to void.</source>
        <translation>这笔支付已被拒绝：没有扣款，无需作废。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="145"/>
        <source>The gateway refused it without executing it: there is nothing to void.</source>
        <translation>网关未执行就拒绝了它：无需作废。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="147"/>
        <source>This refund may have reached the gateway already, so it cannot be voided; the till will learn its outcome by itself.</source>
        <translation>这笔退款可能已经到达网关，因此不能作废；收银机会自行获知其结果。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="149"/>
        <source>This payment may have reached the bank already, so it cannot be voided. Wait for its outcome; once it is paid, refund it.</source>
        <translation>这笔支付可能已经到达银行，因此不能作废。请等待其结果；支付成功后再退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="151"/>
        <source>An earlier try of this refund may have reached the gateway, so it cannot be voided; the till will learn its outcome by itself.</source>
        <translation>这笔退款之前的某次尝试可能已经到达网关，因此不能作废；收银机会自行获知其结果。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="153"/>
        <source>An earlier try of this payment may have reached the bank, so it cannot be voided. Wait for its outcome; once it is paid, refund it.</source>
        <translation>这笔支付之前的某次尝试可能已经到达银行，因此不能作废。请等待其结果；支付成功后再退款。</translation>
    </message>
</context>
<context>
    <name>OncePay::JournalLocation</name>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="27"/>
        <source>No journal file was given.</source>
        <translation>没有指定交易日志文件。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="29"/>
        <source>%1 is a folder, not a journal file: give a file name, such as %2.</source>
        <translation>%1 是文件夹，不是交易日志文件：请给出文件名，例如 %2。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="31"/>
        <source>The journal&apos;s folder %1 cannot be made: %2 is a file, not a folder.</source>
        <translation>无法创建交易日志所在的文件夹 %1：%2 是文件，不是文件夹。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="33"/>
        <source>The journal&apos;s folder %1 does not exist.</source>
        <translation>交易日志所在的文件夹 %1 不存在。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="35"/>
        <source>The journal&apos;s folder %1 cannot be created: %2 is not writable.</source>
        <translation>无法创建交易日志所在的文件夹 %1：%2 不可写。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="37"/>
        <source>The journal&apos;s folder %1 is not writable: the till cannot keep its journal there.</source>
        <translation>交易日志所在的文件夹 %1 不可写：收银机无法在那里保存交易日志。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="39"/>
        <source>Other accounts on this computer may write in the journal&apos;s folder %1: they could replace the till&apos;s journal or read its sales. Make the folder the till&apos;s own with the command chmod 700 %1, then start again.</source>
        <translation>这台电脑上的其他账户可以写入交易日志所在的文件夹 %1：他们可能替换收银机的交易日志或读取其中的销售记录。请用命令 chmod 700 %1 使该文件夹只属于收银机的账户，然后重新启动。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="39"/>
        <source>The journal %1 is read-only: the till needs to write it.</source>
        <translation>交易日志 %1 是只读的：收银机需要写入它。</translation>
    </message>
</context>
<context>
    <name>OncePay::OfflineLimits</name>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="61"/>
        <source>Offline, card payments above %1 %2 cannot be taken. Ask for another payment method or wait for the connection.</source>
        <translation>当前离线，无法受理超过 %1 %2 的刷卡支付。请顾客换一种支付方式，或等待网络恢复。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="63"/>
        <source>Offline, no more than %1 %2 may wait to be sent. Wait for the connection or take another payment method.</source>
        <translation>当前离线，待发送的支付总额不能超过 %1 %2。请等待网络恢复，或改用其他支付方式。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="65"/>
        <source>Offline for too long: payments have waited more than %1 minutes. Card payments are paused until the connection returns.</source>
        <translation>离线时间过长：有支付已等待超过 %1 分钟。网络恢复前暂停刷卡支付。</translation>
    </message>
</context>
<context>
    <name>OncePay::Pos::DemoBackend</name>
    <message>
        <location filename="../../app/pos/demobackend.cpp" line="41"/>
        <source>Cannot create the data folder %1.</source>
        <translation>无法创建数据文件夹 %1。</translation>
    </message>
    <message>
        <location filename="../../app/pos/demobackend.cpp" line="54"/>
        <source>Cannot create the demo&apos;s database %1: %2</source>
        <translation>无法创建演示数据库 %1：%2</translation>
    </message>
</context>
<context>
    <name>OncePay::PrintQueue</name>
    <message>
        <location filename="../../app/devices/printqueue.cpp" line="150"/>
        <source>no printer is set</source>
        <translation>未设置打印机</translation>
    </message>
    <message>
        <location filename="../../app/devices/printqueue.cpp" line="173"/>
        <location filename="../../app/devices/printqueue.cpp" line="206"/>
        <location filename="../../app/devices/printqueue.cpp" line="382"/>
        <source>The print queue is not open.</source>
        <translation>打印队列未打开。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printqueue.cpp" line="243"/>
        <location filename="../../app/devices/printqueue.cpp" line="274"/>
        <source>The drawer did not open: %1. Open it with its key.</source>
        <translation>钱箱没有打开：%1。请用钥匙打开。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printqueue.cpp" line="243"/>
        <source>the printer did not answer</source>
        <translation>打印机没有应答</translation>
    </message>
    <message>
        <location filename="../../app/devices/printqueue.cpp" line="252"/>
        <source>The drawer did not open: no printer or drawer is set. Open it with its key.</source>
        <translation>钱箱没有打开：未设置打印机或钱箱。请用钥匙打开。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printqueue.cpp" line="261"/>
        <source>Drawer</source>
        <translation>钱箱</translation>
    </message>
    <message>
        <location filename="../../app/devices/printqueue.cpp" line="317"/>
        <source>the print queue cannot be read: %1</source>
        <translation>无法读取打印队列：%1</translation>
    </message>
    <message>
        <location filename="../../app/devices/printqueue.cpp" line="361"/>
        <source>the print queue cannot be written: %1</source>
        <translation>无法写入打印队列：%1</translation>
    </message>
    <message>
        <location filename="../../app/devices/printqueue.cpp"/>
        <source>The drawer opened. %1</source>
        <translation>钱箱已打开。%1</translation>
    </message>
</context>
<context>
    <name>OncePay::PrinterLink</name>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="42"/>
        <source>The printer is %1.</source>
        <translation>打印机%1。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="55"/>
        <source>The printer stopped during the receipt (%1); it is printed again, whole, once the printer is back.</source>
        <translation>打印机在打印小票时停止（%1）；打印机恢复后会完整重新打印一次。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="73"/>
        <source>The printer at %1 does not answer.</source>
        <translation>%1 的打印机没有应答。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="74"/>
        <location filename="../../app/devices/printerlink.cpp" line="272"/>
        <source>The printer at %1 stopped answering.</source>
        <translation>%1 的打印机停止应答。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="92"/>
        <source>The printer at %1 cannot be reached: %2</source>
        <translation>无法连接 %1 的打印机：%2</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="94"/>
        <source>The connection to the printer broke: %1</source>
        <translation>与打印机的连接中断：%1</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="120"/>
        <source>The device at %1 does not answer as an ESC/POS printer.</source>
        <translation>%1 的设备没有按 ESC/POS 打印机应答。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="196"/>
        <source>the device took nothing for too long</source>
        <translation>设备长时间不接收数据</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="232"/>
        <location filename="../../app/devices/printerlink.cpp" line="237"/>
        <location filename="../../app/devices/printerlink.cpp" line="248"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="254"/>
        <source>The device %1 does not answer as an ESC/POS printer.</source>
        <translation>设备 %1 没有按 ESC/POS 打印机应答。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="264"/>
        <location filename="../../app/devices/printerlink.cpp" line="269"/>
        <source>Writing to %1 failed: %2</source>
        <translation>写入 %1 失败：%2</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="307"/>
        <source>The printer cannot be used from this thread.</source>
        <translation>无法从此线程使用打印机。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="345"/>
        <source>CUPS&apos;s lp cannot be run: %1</source>
        <translation>无法运行 CUPS 的 lp：%1</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="355"/>
        <source>CUPS refused the job: %1</source>
        <translation>CUPS 拒绝了打印任务：%1</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="384"/>
        <source>CUPS does not know the queue %1.</source>
        <translation>CUPS 中没有队列 %1。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="386"/>
        <source>The CUPS queue %1 is stopped.</source>
        <translation>CUPS 队列 %1 已停止。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="393"/>
        <source>CUPS&apos;s lpstat cannot be run: %1</source>
        <translation>无法运行 CUPS 的 lpstat：%1</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="428"/>
        <source>CUPS no longer has the job %1 (cancelled?).</source>
        <translation>CUPS 中已没有任务 %1（被取消了？）。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printerlink.cpp" line="443"/>
        <source>The job was not kept by the printer; it is sent again.</source>
        <translation>打印机没有保留该任务，将重新发送。</translation>
    </message>
</context>
<context>
    <name>OncePay::PrinterUri</name>
    <message>
        <location filename="../../app/devices/printeruri.cpp" line="21"/>
        <source>Use tcp://HOST:PORT, file:///dev/usb/lp0 or cups://QUEUE.</source>
        <translation>请使用 tcp://主机:端口、file:///dev/usb/lp0 或 cups://队列名。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printeruri.cpp" line="23"/>
        <source>No printer is set.</source>
        <translation>未设置打印机。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printeruri.cpp" line="34"/>
        <location filename="../../app/devices/printeruri.cpp" line="60"/>
        <source>&quot;%1&quot; is not a printer&apos;s address.</source>
        <translation>“%1”不是打印机地址。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printeruri.cpp" line="44"/>
        <source>&quot;%1&quot; does not name a file.</source>
        <translation>“%1”不是文件名。</translation>
    </message>
    <message>
        <location filename="../../app/devices/printeruri.cpp" line="55"/>
        <source>&quot;%1&quot; is not a CUPS queue&apos;s name.</source>
        <translation>“%1”不是 CUPS 队列名。</translation>
    </message>
</context>
<context>
    <name>OncePay::SaleBook</name>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="165"/>
        <source>The old sales file %1 cannot be read: %2</source>
        <translation>旧的销售文件 %1 无法读取：%2</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="167"/>
        <source>The old sales file %1 was copied but cannot be renamed.</source>
        <translation>旧的销售文件 %1 已复制，但无法重命名。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="161"/>
        <source>A sale must cost between %1 and %2.</source>
        <translation>一笔销售的金额必须在 %1 到 %2 之间。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="163"/>
        <source>Sale %1 is partly paid: its items cannot change now.</source>
        <translation>销售单 %1 已部分付款，现在不能修改商品。</translation>
    </message>
</context>
<context>
    <name>OncePay::OfficeSync</name>
    <message>
        <location filename="../../app/till/officesync.cpp" line="0"/>
        <source>The office holds event %1 of this till with other contents: the till&apos;s record changed. Sending stopped; nothing was skipped.</source>
        <translation>门店后台保存的本收银机第 %1 条记录内容不同：本收银机的记录已被改动。已停止发送，没有跳过任何记录。</translation>
    </message>
    <message>
        <location filename="../../app/till/officesync.cpp" line="0"/>
        <source>The office refused the till&apos;s token (HTTP %1): check --office-token or the Settings.</source>
        <translation>门店后台拒绝了本收银机的令牌（HTTP %1）：请检查 --office-token 或设置。</translation>
    </message>
    <message>
        <location filename="../../app/till/officesync.cpp" line="0"/>
        <source>The office refused the till&apos;s events (HTTP %1 %2). Sending stopped; nothing was skipped.</source>
        <translation>门店后台拒绝了本收银机的记录（HTTP %1 %2）。已停止发送，没有跳过任何记录。</translation>
    </message>
    <message>
        <location filename="../../app/till/officesync.cpp" line="0"/>
        <source>The office&apos;s position of this till could not be read (HTTP %1).</source>
        <translation>无法读取门店后台中本收银机的进度（HTTP %1）。</translation>
    </message>
    <message>
        <location filename="../../app/till/officesync.cpp" line="0"/>
        <source>The office holds events of this till up to %1, and this till&apos;s journal only up to %2: is it another till&apos;s journal, or one restored from a copy?</source>
        <translation>门店后台保存的本收银机记录到第 %1 条，而本收银机的日志只到第 %2 条：这是另一台收银机的日志，还是从副本恢复的？</translation>
    </message>
</context>
<context>
    <name>OncePay::ShiftBook</name>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="181"/>
        <source>Shift %1 was closed meanwhile; look at the open shift again.</source>
        <translation>第 %1 班已在此期间结班；请重新查看当前班次。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="183"/>
        <source>Shift %1 opened with the %2 the previous close left in the drawer; only a till&apos;s first shift takes an opening float.</source>
        <translation>第 %1 班以上次结班留在钱箱中的 %2 开班；只有收银机的第一个班次才需要填写开班备用金。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="185"/>
        <source>An opening float must be between 0 and %1.</source>
        <translation>开班备用金必须在 0 到 %1 之间。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="187"/>
        <source>These still wait for the gateway and were not confirmed: %1.</source>
        <translation>以下交易仍在等待网关，且未经确认：%1。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="190"/>
        <source>The till owes these refunds, which gave nothing back, and they were not confirmed: %1.</source>
        <translation>收银机欠下以下退款（均未退回任何款项），且未经确认：%1。</translation>
    </message>
</context>
<context>
    <name>OncePay::ShiftReport</name>
    <message>
        <location filename="../../app/till/shiftreport.cpp" line="125"/>
        <source>Give the customer %1 back in cash, or refund the card payment %2 again.</source>
        <translation>请以现金退还顾客 %1，或对银行卡付款 %2 重新退款。</translation>
    </message>
</context>
<context>
    <name>OncePay::ShiftFinding</name>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="91"/>
        <source>refunded amounts agree</source>
        <translation>退款金额一致</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="91"/>
        <source>refunded amounts differ</source>
        <translation>退款金额不一致</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="95"/>
        <source>refund owed to the customer</source>
        <translation>欠顾客的退款</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="94"/>
        <source>matched</source>
        <translation>一致</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="98"/>
        <source>cash, in the drawer</source>
        <translation>现金，在钱箱中</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="100"/>
        <source>voided on the till</source>
        <translation>已在收银机上作废</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="102"/>
        <source>not at the server yet</source>
        <translation>尚未到达服务器</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="103"/>
        <source>only on the till</source>
        <translation>仅在收银机上</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="105"/>
        <source>only on the server</source>
        <translation>仅在服务器上</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="107"/>
        <source>different amount</source>
        <translation>金额不同</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="109"/>
        <source>different state</source>
        <translation>状态不同</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="123"/>
        <source>nothing refunded</source>
        <translation>未退款</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="123"/>
        <source>nothing charged</source>
        <translation>未扣款</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="124"/>
        <source>refunded once</source>
        <translation>已退款一次</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="124"/>
        <source>charged once</source>
        <translation>已扣款一次</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="126"/>
        <source>no refund at the bank</source>
        <translation>银行无此退款</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="126"/>
        <source>no charge at the bank</source>
        <translation>银行无此扣款</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="128"/>
        <source>refunded by the bank</source>
        <translation>银行已退款</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="128"/>
        <source>charged by the bank</source>
        <translation>银行已扣款</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="130"/>
        <source>refunded %1 times</source>
        <translation>退款 %1 次</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="130"/>
        <source>charged %1 times</source>
        <translation>扣款 %1 次</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="132"/>
        <source>another amount at the bank</source>
        <translation>银行金额不同</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="145"/>
        <source>Nothing: a cash refund, from the drawer.</source>
        <translation>无需处理：现金退款，从钱箱支出。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="145"/>
        <source>Nothing: cash, counted in the drawer.</source>
        <translation>无需处理：现金，计入钱箱。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="147"/>
        <source>Nothing: voided before it was sent.</source>
        <translation>无需处理：发送前已作废。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="149"/>
        <source>Nothing: it never reached the gateway.</source>
        <translation>无需处理：从未到达网关。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="150"/>
        <source>Nothing to do.</source>
        <translation>无需处理。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="153"/>
        <source>Wait: the till is still asking the gateway about this refund with the same key; close the shift once it is final, or note it.</source>
        <translation>请等待：收银机仍在用同一幂等键向网关查询这笔退款；待其有最终结果后再结班，或记录下来。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="154"/>
        <source>Wait: the till is still asking the gateway about this payment with the same key; close the shift once it is final, or note it.</source>
        <translation>请等待：收银机仍在用同一幂等键向网关查询这笔付款；待其有最终结果后再结班，或记录下来。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="158"/>
        <source>Call support: the bank gave money back more than once for one refund.</source>
        <translation>请联系技术支持：银行对同一笔退款退了不止一次。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="159"/>
        <source>Call support: the bank charged the customer more than once for one payment.</source>
        <translation>请联系技术支持：银行对同一笔付款向顾客扣款不止一次。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="161"/>
        <source>Call support: the bank has no refund that the till or the gateway says was made; the customer may not have their money back.</source>
        <translation>请联系技术支持：收银机或网关显示已退款，但银行没有这笔退款；顾客可能尚未收到退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="162"/>
        <source>Call support: the bank has no charge for a payment the till or the gateway says is paid.</source>
        <translation>请联系技术支持：收银机或网关显示已付款，但银行没有这笔扣款。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="164"/>
        <source>Call support: the bank refunded money that the till does not count as refunded.</source>
        <translation>请联系技术支持：银行退了一笔收银机未记为已退款的款项。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="165"/>
        <source>Call support: the bank charged the customer for a payment the till does not count as paid; it may have to be refunded.</source>
        <translation>请联系技术支持：银行对一笔收银机未记为已付的付款向顾客扣了款，可能需要退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="167"/>
        <source>Call support: the bank moved another amount than the till recorded.</source>
        <translation>请联系技术支持：银行处理的金额与收银机记录的不同。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="170"/>
        <source>Call support: the gateway has no record of a refund the till says it answered.</source>
        <translation>请联系技术支持：收银机显示网关已答复的退款，网关却没有记录。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="171"/>
        <source>Call support: the gateway has no record of a payment the till says it answered.</source>
        <translation>请联系技术支持：收银机显示网关已答复的付款，网关却没有记录。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="173"/>
        <source>Call support: money was given back on the gateway without this till&apos;s journal; find out who refunded it.</source>
        <translation>请联系技术支持：网关上有一笔不在本收银机日志中的退款；请查明是谁退的款。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="174"/>
        <source>Call support: the gateway has a payment this till&apos;s journal does not know; check whether the customer was charged.</source>
        <translation>请联系技术支持：网关上有一笔本收银机日志中没有的付款；请核实顾客是否被扣款。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="177"/>
        <source>Call support: the refunded amount on the gateway is not what the till&apos;s refunds add up to.</source>
        <translation>请联系技术支持：网关上的已退款金额与收银机退款合计不符。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="178"/>
        <source>Call support: the gateway&apos;s amount is not the till&apos;s; the customer may have paid another amount.</source>
        <translation>请联系技术支持：网关的金额与收银机不同；顾客支付的金额可能不同。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="180"/>
        <source>Call support: the gateway&apos;s outcome is not what the till recorded (%1 on the gateway).</source>
        <translation>请联系技术支持：网关的结果与收银机记录的不同（网关上为 %1）。</translation>
    </message>
    <message>
        <location filename="../../app/till/shiftfinding.cpp" line="184"/>
        <source>Call support: look into it.</source>
        <translation>请联系技术支持核查。</translation>
    </message>
</context>
<context>
    <name>OncePay::StaffStore</name>
    <message>
        <location filename="../../app/till/staffstore.cpp" line="80"/>
        <source>Give the person&apos;s name.</source>
        <translation>请填写姓名。</translation>
    </message>
    <message>
        <location filename="../../app/till/staffstore.cpp" line="82"/>
        <source>Someone is already called &quot;%1&quot;.</source>
        <translation>已有人叫“%1”。</translation>
    </message>
    <message>
        <location filename="../../app/till/staffstore.cpp" line="84"/>
        <source>A PIN is 4 to 8 digits.</source>
        <translation>PIN 码为 4 到 8 位数字。</translation>
    </message>
    <message>
        <location filename="../../app/till/staffstore.cpp" line="86"/>
        <source>No one at this till is called &quot;%1&quot;.</source>
        <translation>本收银机没有名为“%1”的员工。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/till/staffstore.cpp" line="88"/>
        <source>Wrong PIN. %n more tries before %1 is locked out for five minutes.</source>
        <translation>
            <numerusform>PIN 码错误。再错 %n 次，%1 将被锁定五分钟。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../app/till/staffstore.cpp" line="91"/>
        <source>%1 is locked out after five wrong PINs, until %2.</source>
        <translation>%1 连续五次输错 PIN 码，已被锁定至 %2。</translation>
    </message>
    <message>
        <location filename="../../app/till/staffstore.cpp" line="152"/>
        <location filename="../../app/till/staffstore.cpp" line="168"/>
        <location filename="../../app/till/staffstore.cpp" line="208"/>
        <source>The staff list is not open.</source>
        <translation>员工名单未打开。</translation>
    </message>
</context>
<context>
    <name>OncePay::SyncEngine</name>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="51"/>
        <source>The order number must be 1 to 64 letters, digits, &apos;-&apos; or &apos;_&apos;.</source>
        <translation>订单号必须由 1 到 64 个字母、数字、“-”或“_”组成。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="53"/>
        <source>The currency %1 is not supported.</source>
        <translation>不支持币种 %1。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="55"/>
        <source>The amount must be between %1 and %2.</source>
        <translation>金额必须在 %1 到 %2 之间。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="57"/>
        <source>&quot;%1&quot; is not the key of a payment.</source>
        <translation>“%1”不是一笔支付的幂等键。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="59"/>
        <source>The reason may be at most 500 characters long.</source>
        <translation>退款原因最多 500 个字符。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="69"/>
        <source>This refund is on its way to the gateway right now, so it cannot be voided; the till will learn its outcome by itself.</source>
        <translation>这笔退款正在发往网关，因此不能作废；收银机会自行获知其结果。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="67"/>
        <source>This payment is on its way to the bank right now, so it cannot be voided. Wait for its outcome; once it is paid, refund it.</source>
        <translation>这笔支付正在发往银行，因此不能作废。请等待其结果；支付成功后再退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="71"/>
        <source>It is being voided already.</source>
        <translation>它正在作废中。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="73"/>
        <source>It is being given up already.</source>
        <translation>正在放弃中。</translation>
    </message>
</context>
<context>
    <name>OncePay::TillCatalog</name>
    <message>
        <location filename="../../app/till/tillcatalog.cpp" line="25"/>
        <source>The catalog %1 cannot be opened: %2</source>
        <translation>无法打开商品目录 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/till/tillcatalog.cpp" line="63"/>
        <source>The catalog is not open.</source>
        <translation>商品目录未打开。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillcatalog.cpp" line="66"/>
        <source>The catalog was not changed: %1</source>
        <translation>商品目录未作更改：%1</translation>
    </message>
    <message>
        <location filename="../../app/till/tillcatalog.cpp" line="68"/>
        <source>Cannot read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/till/tillcatalog.cpp" line="70"/>
        <source>The catalog was not changed. %1</source>
        <translation>商品目录未作更改。%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../app/till/tillcatalog.cpp" line="71"/>
        <source>Imported %n products: %1 new, %2 changed, %3 retired.</source>
        <translation>
            <numerusform>已导入 %n 个商品：新增 %1 个，修改 %2 个，停售 %3 个。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::TillSession</name>
    <message>
        <location filename="../../app/till/tillsession.cpp" line="29"/>
        <source>No gateway is configured.</source>
        <translation>未配置网关。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="49"/>
        <source>The journal %1 cannot be used, and it was left as it is: %2</source>
        <translation>交易日志 %1 无法使用，已保持原样：%2</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::CartModel</name>
    <message>
        <location filename="../../ui/models/cartmodel.cpp" line="199"/>
        <source>%1 (−%2)</source>
        <translation>%1（−%2）</translation>
    </message>
    <message>
        <location filename="../../ui/models/cartmodel.cpp" line="203"/>
        <source>%1 kg</source>
        <translation>%1 千克</translation>
    </message>
    <message>
        <location filename="../../ui/models/cartmodel.cpp" line="207"/>
        <source>%1/kg</source>
        <translation>%1/千克</translation>
    </message>
    <message>
        <location filename="../../ui/models/cartmodel.cpp" line="225"/>
        <source>Item</source>
        <translation>商品</translation>
    </message>
    <message>
        <location filename="../../ui/models/cartmodel.cpp" line="227"/>
        <source>Qty</source>
        <translation>数量</translation>
    </message>
    <message>
        <location filename="../../ui/models/cartmodel.cpp" line="229"/>
        <source>Price</source>
        <translation>单价</translation>
    </message>
    <message>
        <location filename="../../ui/models/cartmodel.cpp" line="231"/>
        <source>Total</source>
        <translation>小计</translation>
    </message>
    <message>
        <location filename="../../ui/models/cartmodel.cpp"/>
        <source>%1 (−%2, −%3 off the sale)</source>
        <translation>%1（−%2，整单折扣 −%3）</translation>
    </message>
    <message>
        <location filename="../../ui/models/cartmodel.cpp"/>
        <source>%1 (−%2 off the sale)</source>
        <translation>%1（整单折扣 −%2）</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::CashPanel</name>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="31"/>
        <source>Cash payment</source>
        <translation>现金支付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="37"/>
        <source>Cash received:</source>
        <translation>实收现金：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="39"/>
        <source>Cash received</source>
        <translation>实收现金</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="41"/>
        <source>Take</source>
        <translation>收款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="42"/>
        <source>Take the cash received</source>
        <translation>按实收金额收款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="43"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="44"/>
        <source>Cancel the cash payment</source>
        <translation>取消现金支付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="51"/>
        <source>Cash message</source>
        <translation>现金提示</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="59"/>
        <source>Take as part payment</source>
        <translation>作为部分付款收取</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="120"/>
        <source>Exact %1</source>
        <translation>刚好 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="121"/>
        <source>Exact amount</source>
        <translation>刚好应付金额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="121"/>
        <source>Cash %1</source>
        <translation>现金 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="137"/>
        <source>&quot;%1&quot; is not an amount.</source>
        <translation>“%1”不是有效金额。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="154"/>
        <source>Short by %1: %2 received, the total is %3. Nothing was recorded.</source>
        <translation>还差 %1：实收 %2，应付 %3。本次未记账。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp" line="158"/>
        <source>Take %1 as &amp;part payment; the rest by card or more cash</source>
        <translation>收取 %1 作为部分付款(&amp;P)；其余刷卡或再付现金</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp"/>
        <source>Part payment offered</source>
        <translation>部分付款提示</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/cashpanel.cpp"/>
        <source>Part payment: %1 in cash now, %2 left to pay by card or more cash. Alt+P takes it; nothing is recorded until then.</source>
        <translation>部分付款：现在收现金 %1，剩余 %2 可刷卡或再付现金。按 Alt+P 收取；在此之前不记账。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::CheckoutViewModel</name>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="21"/>
        <source>card declined</source>
        <translation>银行卡被拒</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="23"/>
        <source>insufficient funds</source>
        <translation>余额不足</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="25"/>
        <source>the bank could not process it</source>
        <translation>银行无法处理</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="344"/>
        <source>This sale is being paid; start a new sale to add items.</source>
        <translation>本单正在付款；如需添加商品，请开始新交易。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="284"/>
        <source>The card payment was never sent and is voided. Take cash or another card.</source>
        <translation>这笔刷卡付款从未发出，已作废。请收取现金或换一张卡。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="284"/>
        <source>The card payment is given up: if it turns out charged, the till refunds it by itself. Take cash or another card.</source>
        <translation>已放弃这笔刷卡付款：如果最终扣款成功，收银机会自动退款。请收取现金或换一张卡。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="218"/>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="558"/>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="595"/>
        <source>Saving the payment…</source>
        <translation>正在保存支付记录…</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="207"/>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="530"/>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="582"/>
        <source>There is nothing to pay.</source>
        <translation>没有需要支付的金额。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="588"/>
        <source>The amount tendered is less than the total %1.</source>
        <translation>实收金额少于应付金额 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="744"/>
        <source>Paid in cash. Change: %1</source>
        <translation>现金支付成功。找零：%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="695"/>
        <source>Not confirmed yet: the till will confirm this payment by itself. Do not take another payment for this sale; you may serve the next customer.</source>
        <translation>尚未确认：收银机会自行确认这笔付款。请勿为这笔销售再次收款；您可以接待下一位顾客。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="28"/>
        <source>the payment code was used or is too old: ask the customer for a new one</source>
        <translation>付款码已使用或已过期：请顾客刷新付款码</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="30"/>
        <source>the customer did not confirm on the phone in time; nothing was charged</source>
        <translation>顾客未及时在手机上确认；未扣款</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="32"/>
        <source>cancelled at the bank; nothing was charged</source>
        <translation>已在银行撤销；未扣款</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="34"/>
        <source>the wallet declined it</source>
        <translation>钱包拒绝了这笔付款</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="130"/>
        <source>&quot;%1&quot; is not an amount the card can pay: type at most the %2 that remains, e.g. %3.</source>
        <translation>“%1”不是这张卡可以支付的金额：最多输入剩余的 %2，例如 %3。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="159"/>
        <source>Sale %1 was open when the till stopped and is back: %2 paid, %3 remains.</source>
        <translation>收银机停止时销售 %1 尚未完成，现已恢复：已付 %2，剩余 %3。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="193"/>
        <source>Sale %1 is cancelled. Hand back %2 in cash.</source>
        <translation>销售单 %1 已取消。请退还现金 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="212"/>
        <source>A part payment in cash must be less than the %1 that remains.</source>
        <translation>现金部分付款必须少于剩余的 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="237"/>
        <source>%1 taken in cash. %2 remains: card (F12) or more cash (F10).</source>
        <translation>已收现金 %1。还剩 %2：刷卡 (F12) 或再付现金 (F10)。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="280"/>
        <source>The wallet payment is being cancelled at the bank: nothing stays charged. Take cash or a card.</source>
        <translation>正在银行撤销这笔钱包付款：不会保留任何扣款。请收现金或刷卡。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="534"/>
        <source>The server cannot be reached, and a wallet payment code expires within a minute: it cannot be saved and sent later. Take cash or a card instead.</source>
        <translation>无法连接服务器，而钱包付款码一分钟内就会失效：不能保存后再发送。请改收现金或刷卡。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="553"/>
        <source>A card can pay at most the %1 that remains.</source>
        <translation>一张卡最多只能支付剩余的 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="587"/>
        <source>The amount tendered is less than the %1 that remains.</source>
        <translation>所收金额少于剩余的 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="704"/>
        <source>Waiting for connection. The payment is saved and will be sent automatically; you may serve the next customer.</source>
        <translation>等待网络连接。支付已保存，联网后将自动发送；可以先接待下一位顾客。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="706"/>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="709"/>
        <source>Sending the payment…</source>
        <translation>正在发送支付…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="718"/>
        <source>Ask the customer to confirm the payment on the phone (%n s left). If they cannot, press Customer gave up.</source>
        <translation>
            <numerusform>请顾客在手机上确认付款（剩余 %n 秒）。如果无法确认，请按“顾客放弃”。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="723"/>
        <source>The bank is processing the payment. Please wait.</source>
        <translation>银行正在处理这笔支付，请稍候。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="726"/>
        <source>Checking with the server… The answer was lost; this sale cannot be paid again until the server answers.</source>
        <translation>正在向服务器核实… 未收到应答；服务器答复之前，本单不能再次支付。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="739"/>
        <source>%1 paid by card. %2 remains: card (F12) or cash (F10).</source>
        <translation>已用卡支付 %1。剩余 %2：刷卡（F12）或现金（F10）。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="746"/>
        <source>Paid in full: %1 (this card %2).</source>
        <translation>已全额支付：%1（本卡 %2）。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="748"/>
        <source>Paid. %1</source>
        <translation>支付成功。%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="752"/>
        <source>Wallet payment declined (%1). Scan a new payment code, or take a card (F12) or cash (F10).</source>
        <translation>钱包付款被拒（%1）。请扫描新的付款码，或刷卡（F12）或收现金（F10）。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="754"/>
        <source>Declined (%1). Ask for another card (F12) or cash (F10).</source>
        <translation>被拒绝（%1）。请顾客换一张卡（F12）或付现金（F10）。</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="757"/>
        <source>Needs attention: %1</source>
        <translation>需要处理：%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/checkoutviewmodel.cpp" line="760"/>
        <source>Voided before it was sent: nothing was charged. The sale may be paid again.</source>
        <translation>已在发送前作废：没有扣款。本单可以重新支付。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::RingUp</name>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="32"/>
        <source>No product has the code or name &quot;%1&quot;.</source>
        <translation>找不到编码或名称为“%1”的商品。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/ringup.cpp" line="28"/>
        <source>%n products match &quot;%1&quot;: pick one.</source>
        <translation>
            <numerusform>有 %n 个商品与“%1”相符：请选择一个。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="31"/>
        <source>The catalog is still loading; scan again in a moment.</source>
        <translation>商品目录仍在加载，请稍后再扫描。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="35"/>
        <source>The barcode %1 did not read right (its check digit is wrong). Scan it again, or type the code printed under it.</source>
        <translation>条码 %1 未能正确读取（校验位错误）。请重新扫描，或输入条码下方印的数字。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="40"/>
        <source>The scale&apos;s label %1 is for item %2, which is not in the catalog. Weigh it again or ask a manager to add the item.</source>
        <translation>秤标签 %1 对应商品编号 %2，但商品目录中没有该商品。请重新称重，或请经理添加该商品。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="45"/>
        <source>%1 is sold at a price you type.</source>
        <translation>%1 需要手动输入价格。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="69"/>
        <source>No product sold at a typed price has the code &quot;%1&quot;.</source>
        <translation>没有编码为“%1”的手动定价商品。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="74"/>
        <source>Type a price above 0 and at most %1, such as 12.50.</source>
        <translation>请输入大于 0 且不超过 %1 的价格，例如 12.50。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="89"/>
        <source>The sale has no items to discount.</source>
        <translation>本单没有可打折的商品。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="93"/>
        <source>Part of this sale is paid or on its way: its amount can no longer change. Take the rest, or cancel the sale.</source>
        <translation>本单已有部分付款或正在付款：金额不能再更改。请收取余款，或取消本单。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="98"/>
        <source>Select the line to discount first.</source>
        <translation>请先选择要打折的商品行。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="112"/>
        <source>&quot;%1&quot; is not a discount: type a percent such as 10% or an amount such as 5.00.</source>
        <translation>“%1”不是有效的折扣：请输入百分比（如 10%）或金额（如 5.00）。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="156"/>
        <source>No product sold by the kg has the code &quot;%1&quot;.</source>
        <translation>没有编码为“%1”的称重商品。</translation>
    </message>
    <message>
        <location filename="../../ui/models/ringup.cpp" line="161"/>
        <source>&quot;%1&quot; is not a weight: type kilograms such as 0.532.</source>
        <translation>“%1”不是重量：请以千克输入，例如 0.532。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::CounterDevices</name>
    <message>
        <location filename="../../ui/models/counterdevices.cpp" line="43"/>
        <location filename="../../ui/models/counterdevices.cpp" line="60"/>
        <source>%1 was not queued for the printer: %2</source>
        <translation>%1 未能加入打印队列：%2</translation>
    </message>
    <message>
        <location filename="../../ui/models/counterdevices.cpp" line="50"/>
        <source>No receipt printer is set: choose one in Settings, Devices.</source>
        <translation>未设置小票打印机：请在“设置 → 设备”中选择。</translation>
    </message>
    <message>
        <location filename="../../ui/models/counterdevices.cpp" line="54"/>
        <source>No receipt was printed yet: reprint an earlier sale from the payments panel (F9).</source>
        <translation>尚未打印过小票：可在支付面板（F9）中重新打印之前的销售。</translation>
    </message>
    <message>
        <location filename="../../ui/models/counterdevices.cpp" line="73"/>
        <location filename="../../ui/models/counterdevices.cpp" line="79"/>
        <source>Printer: %1</source>
        <translation>打印机：%1</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/counterdevices.cpp" line="80"/>
        <source>Printer: %n waiting</source>
        <translation>
            <numerusform>打印机：%n 张待打印</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/counterdevices.cpp" line="81"/>
        <source>Printer: %n waiting — %1</source>
        <translation>
            <numerusform>打印机：%n 张待打印 — %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::CustomerDisplay</name>
    <message>
        <location filename="../../ui/widgets/customerdisplay.cpp" line="26"/>
        <source>OncePay — customer display</source>
        <translation>OncePay — 顾客显示屏</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/customerdisplay.cpp" line="59"/>
        <source>Payment state for the customer</source>
        <translation>给顾客看的支付状态</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::CustomerDisplayModel</name>
    <message>
        <location filename="../../ui/models/customerdisplaymodel.cpp" line="15"/>
        <source>Welcome</source>
        <translation>欢迎光临</translation>
    </message>
    <message>
        <location filename="../../ui/models/customerdisplaymodel.cpp" line="16"/>
        <source>Payment pending — please wait</source>
        <translation>支付处理中，请稍候</translation>
    </message>
    <message>
        <location filename="../../ui/models/customerdisplaymodel.cpp" line="17"/>
        <source>Paid, thank you</source>
        <translation>支付成功，谢谢</translation>
    </message>
    <message>
        <location filename="../../ui/models/customerdisplaymodel.cpp" line="18"/>
        <source>Card declined</source>
        <translation>银行卡被拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/models/customerdisplaymodel.cpp" line="19"/>
        <source>Please wait for the cashier</source>
        <translation>请稍候，收银员正在处理</translation>
    </message>
    <message>
        <location filename="../../ui/models/customerdisplaymodel.cpp" line="20"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../ui/models/customerdisplaymodel.cpp" line="21"/>
        <source>To pay</source>
        <translation>待付</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::DemoController</name>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="58"/>
        <source>A double click on Pay</source>
        <translation>支付按钮被点了两次</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="60"/>
        <source>Charged, but the answer was lost</source>
        <translation>已扣款，但应答丢失</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="62"/>
        <source>An hour offline, then the queue drains</source>
        <translation>断网一小时，恢复后队列自动发送</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="64"/>
        <source>The same key reused with another amount</source>
        <translation>同一个幂等键换了金额再次使用</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="66"/>
        <source>The card&apos;s answer is lost, the customer pays cash, the till refunds the card by itself</source>
        <translation>银行卡的应答丢失，顾客改付现金，收银机自动退还这笔卡款</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="256"/>
        <source>%n charge(s) in the bank&apos;s ledger: resolved by asking, not by charging again.</source>
        <translation>
            <numerusform>银行账本中有 %n 笔扣款：靠询问解决，而不是再扣一次。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="215"/>
        <source>A customer buys rice and tea.</source>
        <translation>一位顾客买了大米和茶。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="68"/>
        <source>A wallet payment: the customer takes too long to confirm, the cashier gives up</source>
        <translation>钱包付款：顾客迟迟不确认，收银员放弃</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="221"/>
        <source>The cashier taps Pay twice by accident. Watch the Pay button: the second tap bounces off.</source>
        <translation>收银员不小心按了两次支付。请看支付按钮：第二次点击被挡了回去。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="228"/>
        <source>Paid. Asking the bank how many times it charged the customer…</source>
        <translation>已支付。正在询问银行向顾客扣了几次款…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="229"/>
        <source>The bank charged the customer %n time(s). A nervous double tap never charges twice.</source>
        <translation>
            <numerusform>银行向顾客扣款 %n 次。紧张时的连按两下绝不会扣款两次。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="260"/>
        <source>The shop&apos;s internet goes down (think of an hour without it). Below: the payments still waiting.</source>
        <translation>店里断网了（设想一个小时没有网络）。下方：仍在等待的付款。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="266"/>
        <source>A customer buys rice and pays by card. The till keeps the payment in its queue; the customer goes home.</source>
        <translation>一位顾客买了大米并刷卡支付。收银机把这笔付款保存在队列中；顾客可以回家了。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="268"/>
        <source>The next customer: tea, by card. The queue grows.</source>
        <translation>下一位顾客：买茶，刷卡。队列变长了。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="270"/>
        <source>A third: noodles. Three payments wait, each written down before anything was sent.</source>
        <translation>第三位：买面条。三笔付款在等待，每一笔都在发送任何数据之前就已记录下来。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="272"/>
        <source>The internet is back. Watch the queue empty by itself, oldest first.</source>
        <translation>网络恢复了。请看队列自动清空，最早的先发送。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="279"/>
        <source>Every payment went through. Asking the bank how many times it charged…</source>
        <translation>每笔付款都已完成。正在询问银行扣了几次款…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="280"/>
        <source>%n charge(s) in the bank&apos;s ledger for the three sales: each sent once, however long it waited.</source>
        <translation>
            <numerusform>银行账本中这三笔销售共有 %n 笔扣款：无论等了多久，每笔只发送一次。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="284"/>
        <source>A customer buys noodles. The till is online.</source>
        <translation>一位顾客购买面条。收银机在线。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="290"/>
        <source>The cashier pays by card, and from that moment the network loses every answer: the bank charges the card, but the till never hears back.</source>
        <translation>收银员刷卡收款，从这一刻起网络会丢失所有应答：银行已扣款，但收银机始终没有收到应答。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="301"/>
        <source>The customer will not wait and pays cash. The cashier presses F6, &quot;Customer pays another way&quot;: the card is given up in the journal, not forgotten.</source>
        <translation>顾客不愿等待，改付现金。收银员按 F6“顾客改用其他方式支付”：这笔卡款在日志中记为已放弃，而不是被遗忘。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="315"/>
        <source>The cashier takes the cash. The sale is paid once, in cash.</source>
        <translation>收银员收取现金。这笔销售只付了一次，用的是现金。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="316"/>
        <source>The network comes back. The till asks about the given-up card: it was charged. So the till refunds it through the bank by itself, once, with a key made from the card&apos;s.</source>
        <translation>网络恢复。收银机查询已放弃的卡款：它已被扣款。于是收银机自动通过银行退款，只退一次，所用的键由这笔卡款的键派生而来。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="324"/>
        <source>Refunded. Asking the bank&apos;s own ledger…</source>
        <translation>已退款。正在查询银行自己的账本…</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="339"/>
        <source>The bank&apos;s ledger: %1 and %2 for the card. The customer paid once, in cash; the shift report says &quot;charged late, refunded automatically&quot;.</source>
        <translation>银行账本：这张卡 %1、%2。顾客只付了一次，用的是现金；班次报表显示“延迟扣款，已自动退款”。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="341"/>
        <source>%n charge(s)</source>
        <translation>
            <numerusform>%n 笔扣款</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/democontroller.cpp" line="341"/>
        <source>%n refund(s)</source>
        <translation>
            <numerusform>%n 笔退款</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="352"/>
        <source>Another register of the shop, with buggy software, sends a payment of ¥10.00…</source>
        <translation>店里另一台软件有缺陷的收银机发送了一笔 ¥10.00 的付款…</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="360"/>
        <source>…then sends the same payment again by mistake, with the same key but ¥20.00.</source>
        <translation>…然后又误把同一笔付款再发了一次：幂等键相同，金额却是 ¥20.00。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="368"/>
        <source>took the first payment</source>
        <translation>接受了第一笔付款</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="368"/>
        <source>did not take the first payment</source>
        <translation>没有接受第一笔付款</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="369"/>
        <source>refused the second: that key already belongs to another amount</source>
        <translation>拒绝了第二笔：这个付款编号已属于另一个金额</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="370"/>
        <source>did not refuse the second</source>
        <translation>没有拒绝第二笔</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="371"/>
        <source>The gateway %1 and %2. The customer pays ¥10.00 once; the bank&apos;s ledger opens next. It was the other register&apos;s payment: this till&apos;s shift does not count it.</source>
        <translation>网关%1，并且%2。顾客只支付一次 ¥10.00；接下来打开银行账本。这是另一台收银机的付款：本收银机的班次不计入它。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="415"/>
        <source>A customer buys tea and pays with a wallet app: the cashier scans the payment code on their phone. No key to press.</source>
        <translation>顾客买了茶，用钱包 App 付款：收银员扫描顾客手机上的付款码，无需按键。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="446"/>
        <source>The wallet asks the customer to confirm on the phone, and the till counts down. The customer cannot find the phone; the cashier presses F6, &quot;Customer gave up&quot;: the till cancels the payment at the bank through the gateway, once, with its own key. Just then, the customer confirms…</source>
        <translation>钱包要求顾客在手机上确认，收银机开始倒计时。顾客找不到手机；收银员按下 F6“顾客放弃”：收银机通过网关在银行撤销这笔付款，只撤销一次，使用它自己的幂等键。就在这时，顾客确认了……</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="455"/>
        <source>The sale stays on the till; the customer pays cash.</source>
        <translation>这笔销售仍留在收银机上；顾客改付现金。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="456"/>
        <source>Asking the bank&apos;s own ledger about the wallet payment…</source>
        <translation>正在查询银行自己的账本中的这笔钱包付款……</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="476"/>
        <source>The bank&apos;s ledger: the late confirmation was charged, and reversed by the cancel: money back, never kept. The customer paid once, in cash.</source>
        <translation>银行账本：迟到的确认被扣款，又被撤销冲正：钱已退回，从未保留。顾客只付了一次，用的是现金。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="478"/>
        <source>The bank&apos;s ledger: no charge for the wallet payment, cancelled before the customer confirmed. The customer paid once, in cash.</source>
        <translation>银行账本：这笔钱包付款没有扣款，在顾客确认之前就已撤销。顾客只付了一次，用的是现金。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="233"/>
        <source>A customer buys an umbrella. The till is online.</source>
        <translation>一位顾客买了一把雨伞。收银机在线。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="239"/>
        <source>The cashier pays, and from that moment the network loses every answer: the request arrives, the bank charges the card, but the till never hears back.</source>
        <translation>收银员发起支付，从这一刻起网络会丢失所有应答：请求能到达，银行已经扣款，但收银机没有收到应答。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="246"/>
        <source>The till does not guess and does not charge again: it shows &quot;checking with the server&quot; and keeps the sale locked.</source>
        <translation>收银机不猜测，也不重复扣款：它显示“正在向服务器核实”，并锁定这笔交易。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="248"/>
        <source>The network comes back. The till asks the gateway by the payment&apos;s key…</source>
        <translation>网络恢复。收银机用这笔支付的幂等键向网关查询…</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="255"/>
        <source>The gateway says: paid. Asking the bank&apos;s ledger…</source>
        <translation>网关回复：已支付。正在查询银行账本…</translation>
    </message>
    <message>
        <location filename="../../ui/demo/democontroller.cpp" line="28"/>
        <source>This step could not go on: %1</source>
        <translation>此步骤无法继续：%1</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::DemoWindow</name>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="30"/>
        <source>Visa (approved)</source>
        <translation>Visa 卡（通过）</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="31"/>
        <source>Mastercard (approved)</source>
        <translation>万事达卡（通过）</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="32"/>
        <source>UnionPay (approved)</source>
        <translation>银联卡（通过）</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="33"/>
        <source>Card declined</source>
        <translation>被拒卡</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="34"/>
        <source>Insufficient funds</source>
        <translation>余额不足</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="35"/>
        <source>Bank answer lost after charging</source>
        <translation>扣款后银行应答丢失</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="36"/>
        <source>Bank refuses before charging</source>
        <translation>银行扣款前拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="67"/>
        <source>Demo caption</source>
        <translation>演示说明</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="70"/>
        <source>Next ▸</source>
        <translation>下一步 ▸</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="71"/>
        <source>Next demo step</source>
        <translation>演示下一步</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="77"/>
        <source>Demo, step %1 of %2: %3</source>
        <translation>演示，第 %1 步，共 %2 步：%3</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="88"/>
        <source>Card reader (test card):</source>
        <translation>读卡器（测试卡）：</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="90"/>
        <source>Test card</source>
        <translation>测试卡</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="114"/>
        <source>Si&amp;mulation</source>
        <translation>模拟(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="115"/>
        <source>&amp;Network</source>
        <translation>网络(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="120"/>
        <source>Online</source>
        <translation>正常联网</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="121"/>
        <source>Offline (connections refused)</source>
        <translation>断网（拒绝连接）</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="122"/>
        <source>Black hole (no answer)</source>
        <translation>黑洞（无应答）</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="123"/>
        <source>Lose responses (charged, answer lost)</source>
        <translation>丢失应答（已扣款，应答丢失）</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="124"/>
        <source>Latency 800 ms</source>
        <translation>延迟 800 毫秒</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="125"/>
        <source>Flaky 30 %</source>
        <translation>不稳定（30% 出错）</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="148"/>
        <source>&amp;Demo</source>
        <translation>演示(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="156"/>
        <source>Stop the demo</source>
        <translation>停止演示</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="161"/>
        <source>The bank&apos;s &amp;ledger…</source>
        <translation>银行账本(&amp;L)…</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="164"/>
        <source>&amp;Bank</source>
        <translation>银行(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="167"/>
        <source>Normal</source>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="168"/>
        <source>Decline everything</source>
        <translation>全部拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="169"/>
        <source>Charge, then lose the answer</source>
        <translation>扣款后丢失应答</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="170"/>
        <source>Refuse before charging</source>
        <translation>扣款前拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="187"/>
        <source>The bank simulation could not be changed: %1</source>
        <translation>无法更改银行模拟设置：%1</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="198"/>
        <source>online</source>
        <comment>network simulation</comment>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="201"/>
        <source>offline</source>
        <comment>network simulation</comment>
        <translation>断网</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="204"/>
        <source>black hole</source>
        <comment>network simulation</comment>
        <translation>无应答（黑洞）</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="207"/>
        <source>losing responses</source>
        <comment>network simulation</comment>
        <translation>丢失应答</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="210"/>
        <source>latency %1 ms</source>
        <comment>network simulation</comment>
        <translation>延迟 %1 毫秒</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="213"/>
        <source>flaky %1 %</source>
        <comment>network simulation</comment>
        <translation>不稳定 %1%</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="218"/>
        <source>network: %1</source>
        <translation>网络：%1</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="231"/>
        <source>Second tap ignored</source>
        <translation>第二次点击已忽略</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="237"/>
        <source>Second tap ignored: this payment is already on its way, it cannot be charged twice.</source>
        <translation>第二次点击已忽略：这笔付款已在处理中，不可能扣款两次。</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="74"/>
        <source>Demo step stuck</source>
        <translation>演示步骤无法继续</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="84"/>
        <source>Stop the story</source>
        <translation>停止本段演示</translation>
    </message>
    <message>
        <location filename="../../ui/demo/demowindow.cpp" line="85"/>
        <source>Stop the demo story</source>
        <translation>停止演示故事</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::IntentDetailsDialog</name>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="40"/>
        <source>Payment %1</source>
        <translation>支付详情：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="192"/>
        <source>Journal of state changes</source>
        <translation>状态变更日志</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="148"/>
        <source>The till&apos;s record</source>
        <translation>收银机记录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="141"/>
        <source>Timeline of attempts</source>
        <translation>尝试时间线</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="109"/>
        <source>Sale:</source>
        <translation>销售单：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="110"/>
        <source>Amount:</source>
        <translation>金额：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="111"/>
        <source>Paid with:</source>
        <translation>支付方式：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="152"/>
        <source>State:</source>
        <translation>状态：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="153"/>
        <source>Payment id:</source>
        <translation>支付编号：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="150"/>
        <source>—</source>
        <comment>no value</comment>
        <translation>—</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="40"/>
        <source>Refund for sale %1</source>
        <translation>退款详情：订单 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="151"/>
        <source>Kind:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="111"/>
        <source>Back to:</source>
        <translation>退回到：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="113"/>
        <source>Given back:</source>
        <translation>已退还：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="155"/>
        <source>Refund id:</source>
        <translation>退款编号：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="156"/>
        <source>Refund of payment:</source>
        <translation>原支付：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="115"/>
        <source>Reason:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="44"/>
        <source>&amp;Technical details (for support)</source>
        <translation>技术详情（供技术支持）(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="46"/>
        <source>Show the technical details</source>
        <translation>显示技术详情</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="47"/>
        <source>The key, the attempts, the gateway&apos;s record and the journal (Alt+T)</source>
        <translation>幂等键、各次尝试、网关记录和交易日志（Alt+T）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="58"/>
        <source>Send it again now instead of waiting for the next try: with the same key, so it is never charged twice</source>
        <translation>立即重新发送，不必等待下一次尝试：使用同一个幂等键，绝不会重复扣款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="91"/>
        <source>In short</source>
        <translation>概要</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="101"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="105"/>
        <source>What it means</source>
        <translation>含义</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="116"/>
        <source>Time:</source>
        <translation>时间：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="120"/>
        <source>What the gateway says</source>
        <translation>网关的答复</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="129"/>
        <source>Technical details</source>
        <translation>技术详情</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="158"/>
        <source>Order id:</source>
        <translation>订单编号：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="159"/>
        <source>Tries:</source>
        <translation>尝试次数：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="161"/>
        <source>Problem:</source>
        <translation>问题：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="162"/>
        <source>Idempotency key:</source>
        <translation>幂等键：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="165"/>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="166"/>
        <source>The gateway&apos;s record</source>
        <translation>网关记录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="170"/>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="180"/>
        <source>Show raw</source>
        <translation>显示原始数据</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="173"/>
        <source>Show the gateway&apos;s raw answer</source>
        <translation>显示网关的原始应答</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="176"/>
        <source>The gateway&apos;s raw answer</source>
        <translation>网关的原始应答</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="180"/>
        <source>Hide raw</source>
        <translation>隐藏原始数据</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="188"/>
        <source>Journal</source>
        <translation>日志</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="147"/>
        <source>This till&apos;s record</source>
        <translation>本机记录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="55"/>
        <source>Ask the gateway</source>
        <translation>向网关查询</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="56"/>
        <source>Retry now</source>
        <translation>立即重试</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="82"/>
        <source>Not asked yet.</source>
        <translation>尚未查询。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="80"/>
        <source>Cash: the gateway is never asked.</source>
        <translation>现金支付：不经过网关，无需查询。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="231"/>
        <source>%1:</source>
        <comment>a field&apos;s label</comment>
        <translation>%1：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="236"/>
        <source>Asking…</source>
        <translation>正在查询…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="237"/>
        <source>Asking the gateway…</source>
        <translation>正在询问网关…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="244"/>
        <source>The gateway says: %1 (asked at %2).</source>
        <translation>网关答复：%1（询问于 %2）。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="250"/>
        <source>The gateway has no refund with this key: it was never executed.</source>
        <translation>网关没有使用此幂等键的退款：这笔退款从未执行。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="251"/>
        <source>The gateway has no payment with this key: it was never executed.</source>
        <translation>网关没有使用此幂等键的支付：这笔支付从未执行。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="253"/>
        <source>The gateway has no refund with this key yet: nothing went back so far (asked at %1).</source>
        <translation>网关目前没有使用此幂等键的退款：到目前为止尚未退还任何钱款（询问于 %1）。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="254"/>
        <source>The gateway has no payment with this key yet: the card has not been charged so far (asked at %1).</source>
        <translation>网关目前没有使用此幂等键的付款：到目前为止银行卡尚未被扣款（询问于 %1）。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="257"/>
        <source>The gateway could not be asked just now (%1); the till keeps trying by itself.</source>
        <translation>刚才无法询问网关（%1）；收银机会自行继续尝试。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/intentdetailsdialog.cpp" line="258"/>
        <source>The gateway could not be asked: %1</source>
        <translation>无法向网关查询：%1</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::IntentText</name>
    <message>
        <source>the payment code was used or is too old: ask the customer for a new one</source>
        <translation>付款码已使用或已过期：请顾客刷新付款码</translation>
    </message>
    <message>
        <source>the customer did not confirm on the phone in time; nothing was charged</source>
        <translation>顾客未及时在手机上确认；未扣款</translation>
    </message>
    <message>
        <source>cancelled at the bank; nothing was charged</source>
        <translation>已在银行撤销；未扣款</translation>
    </message>
    <message>
        <source>the wallet declined it</source>
        <translation>钱包拒绝了这笔付款</translation>
    </message>
    <message>
        <source>The till&apos;s disk failed while saving this. It may have been saved, so the till keeps trying and sends nothing until it knows. Keep the sale open and take no other payment for it; free disk space or call support.</source>
        <translation>收银机的磁盘在保存时出错。它可能已经保存，所以收银机会继续尝试，在确认之前不会发送任何内容。请保持这笔销售打开，不要为它收取其他付款；请释放磁盘空间或联系技术支持。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="18"/>
        <source>Waiting for connection</source>
        <translation>等待网络连接</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="20"/>
        <source>Sending</source>
        <translation>正在发送</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="22"/>
        <location filename="../../ui/models/intenttext.cpp" line="353"/>
        <location filename="../../ui/models/intenttext.cpp" line="366"/>
        <source>Bank processing</source>
        <translation>银行处理中</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="24"/>
        <source>Checking with the server</source>
        <translation>正在向服务器核实</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="26"/>
        <location filename="../../ui/models/intenttext.cpp" line="349"/>
        <source>Paid</source>
        <translation>已支付</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="28"/>
        <location filename="../../ui/models/intenttext.cpp" line="351"/>
        <location filename="../../ui/models/intenttext.cpp" line="368"/>
        <source>Declined</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="30"/>
        <source>Needs attention</source>
        <translation>需要处理</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="32"/>
        <source>Voided</source>
        <translation>已作废</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="41"/>
        <source>Payment</source>
        <translation>支付</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="43"/>
        <source>Refund</source>
        <translation>退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="53"/>
        <source>Given up, still checking: refunded by the till if charged</source>
        <translation>已放弃，仍在核实：如已扣款，收银机会自动退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="55"/>
        <source>Charged late, refunded automatically</source>
        <translation>延迟扣款，已自动退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="56"/>
        <source>Charged late, being refunded automatically</source>
        <translation>延迟扣款，正在自动退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="72"/>
        <source>%1 was handed back in cash.</source>
        <translation>已用现金退还 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="73"/>
        <source>A cash refund of %1.</source>
        <translation>现金退款 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="77"/>
        <source>Not sent yet. The till sends it by itself as soon as the gateway can be reached; the customer gets %1 back once, never twice.</source>
        <translation>尚未发送。网关一旦可以连接，收银机就会自动发送；顾客只会收到一次 %1 的退款，绝不会两次。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="81"/>
        <source>Being sent to the gateway now. The customer gets %1 back once, never twice.</source>
        <translation>正在发送到网关。顾客只会收到一次 %1 的退款，绝不会两次。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="83"/>
        <source>The bank is still working on it. The till keeps asking; do not refund again.</source>
        <translation>银行仍在处理。收银机会继续询问；请不要再次退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="85"/>
        <source>The answer was lost on the way. The till is asking the gateway whether the money went back; it never refunds twice.</source>
        <translation>答复在途中丢失。收银机正在向网关询问钱款是否已退还；绝不会重复退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="88"/>
        <source>%1 went back to the customer&apos;s card.</source>
        <translation>%1 已退回顾客的银行卡。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="90"/>
        <source>The refund was refused: nothing went back to the card.</source>
        <translation>退款被拒绝：没有任何钱款退回银行卡。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="92"/>
        <source>The till stopped sending this refund (%1). Call support before refunding again.</source>
        <translation>收银机已停止发送这笔退款（%1）。再次退款前请联系技术支持。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="93"/>
        <location filename="../../ui/models/intenttext.cpp" line="138"/>
        <source>the gateway refused it</source>
        <translation>网关拒绝了它</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="95"/>
        <source>Cancelled on the till before it was sent: nothing went back.</source>
        <translation>发送前已在收银机上取消：没有退还任何钱款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="100"/>
        <source>Cancelled: no cash was kept.</source>
        <translation>已取消：没有收取现金。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="101"/>
        <source>Paid %1 in cash. Cash is counted in the drawer when the shift closes.</source>
        <translation>已用现金支付 %1。现金在结班时清点钱箱。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="106"/>
        <source>The customer paid another way. The till is still finding out whether this card was charged; if it was, the till refunds it by itself.</source>
        <translation>顾客已改用其他方式支付。收银机仍在确认这张卡是否被扣款；如果已扣款，收银机会自动退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="111"/>
        <source>The card was charged after the customer paid another way; the till refunded %1 by itself.</source>
        <translation>顾客改用其他方式支付后，这张卡仍被扣款；收银机已自动退还 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="112"/>
        <source>The card was charged after the customer paid another way; the till is refunding %1 by itself.</source>
        <translation>顾客改用其他方式支付后，这张卡仍被扣款；收银机正在自动退还 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="117"/>
        <source>Not sent yet. The till sends it by itself as soon as the gateway can be reached; the card is charged once at most.</source>
        <translation>尚未发送。网关一旦可以连接，收银机就会自动发送；银行卡最多只会被扣款一次。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="120"/>
        <source>Being sent to the gateway now. The card is charged once at most.</source>
        <translation>正在发送到网关。银行卡最多只会被扣款一次。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="122"/>
        <source>The bank is still working on it. The till keeps asking; do not take the payment again.</source>
        <translation>银行仍在处理。收银机会继续询问；请不要再次收款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="124"/>
        <source>The answer was lost on the way. The till is asking the gateway whether the card was charged; it never charges it twice.</source>
        <translation>答复在途中丢失。收银机正在向网关询问银行卡是否已被扣款；绝不会重复扣款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="128"/>
        <source>The card was charged %1; %2 of it was given back.</source>
        <translation>银行卡已扣款 %1；其中 %2 已退还。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="131"/>
        <source>The card was charged %1.</source>
        <translation>银行卡已扣款 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="134"/>
        <source>The bank declined the card. It was not charged.</source>
        <translation>银行拒绝了这张卡。没有扣款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="135"/>
        <source>The bank declined the card (%1). It was not charged.</source>
        <translation>银行拒绝了这张卡（%1）。没有扣款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="137"/>
        <source>The till stopped sending this payment (%1). Call support before taking the payment again.</source>
        <translation>收银机已停止发送这笔付款（%1）。再次收款前请联系技术支持。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="140"/>
        <source>Cancelled on the till before it was sent: nothing was charged.</source>
        <translation>发送前已在收银机上取消：没有扣款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="149"/>
        <source>−%1</source>
        <comment>a refund&apos;s amount: money going back to the customer</comment>
        <translation>−%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="172"/>
        <location filename="../../ui/models/intenttext.cpp" line="177"/>
        <location filename="../../ui/models/intenttext.cpp" line="411"/>
        <source>Card</source>
        <translation>银行卡</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="178"/>
        <source>%1 ··%2</source>
        <comment>card brand and its last four digits</comment>
        <translation>%1 ··%2</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="184"/>
        <source>Cash</source>
        <translation>现金</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="211"/>
        <source>%1 → %2</source>
        <comment>journal: from one state to another</comment>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="214"/>
        <source>%1  %2: %3</source>
        <comment>journal line: time, states, what happened</comment>
        <translation>%1  %2：%3</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="253"/>
        <source>          … and the same %1 more times, until %2</source>
        <comment>journal: a retry loop folded</comment>
        <translation>          …… 同样的情况又重复了 %1 次，直到 %2</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="269"/>
        <source>the gateway answered: %1</source>
        <translation>网关答复：%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="273"/>
        <source>the gateway answered: declined</source>
        <translation>网关答复：已拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="275"/>
        <source>the gateway has no payment with this key</source>
        <translation>网关没有这笔支付的记录</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="275"/>
        <source>the gateway has no refund with this key</source>
        <translation>网关没有这笔退款的记录</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="277"/>
        <source>the gateway is still working on this key</source>
        <translation>网关仍在处理这笔支付</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="279"/>
        <source>the gateway refused this till&apos;s token</source>
        <translation>网关拒绝了本收银机的令牌</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="281"/>
        <source>the gateway asked the till to slow down</source>
        <translation>网关要求收银机放慢请求</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="283"/>
        <source>the gateway had a problem (%1)</source>
        <translation>网关出现问题（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="286"/>
        <source>the gateway refused the refund (%1)</source>
        <translation>网关拒绝了这笔退款（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="287"/>
        <source>the gateway refused the payment (%1)</source>
        <translation>网关拒绝了这笔支付（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="289"/>
        <source>the gateway answered %1</source>
        <translation>网关答复 %1</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="296"/>
        <source>no answer in time</source>
        <translation>未在规定时间内答复</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="298"/>
        <source>the gateway did not take the connection</source>
        <translation>网关没有接受连接</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="300"/>
        <source>the connection closed</source>
        <translation>连接已关闭</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="302"/>
        <source>the gateway&apos;s address was not found</source>
        <translation>找不到网关的地址</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="305"/>
        <source>no network</source>
        <translation>没有网络</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="314"/>
        <source>created</source>
        <translation>已创建</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="316"/>
        <source>interrupted while sending; ask the gateway first</source>
        <translation>发送时被中断；先向网关查询</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="318"/>
        <source>voided on the till: never sent</source>
        <translation>已在收银机上作废：从未发送</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="320"/>
        <source>customer left; the till confirms it by itself</source>
        <translation>顾客已离开；收银机将自行确认</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="322"/>
        <source>acknowledged by the cashier</source>
        <translation>收银员已确认</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="325"/>
        <source>created: a refund of payment %1</source>
        <translation>已创建：支付 %1 的退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="329"/>
        <source>refund %1 succeeded: %2 given back (%3 of %4 refunded)</source>
        <translation>退款 %1 成功：退还 %2（已退 %3，共 %4）</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="332"/>
        <source>attempt %1</source>
        <translation>第 %1 次尝试</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="335"/>
        <source>not sent: %1</source>
        <translation>未发出：%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="337"/>
        <source>no answer after sending: %1</source>
        <translation>已发出但没有应答：%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="341"/>
        <source>%1 (the same answer again)</source>
        <comment>a replayed answer</comment>
        <translation>%1（重复的同一应答）</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="382"/>
        <source>the bank declined the refund</source>
        <translation>银行拒绝了退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="384"/>
        <source>the bank has no such charge</source>
        <translation>银行没有这笔扣款</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="386"/>
        <source>more than the bank charged</source>
        <translation>超过了银行的扣款金额</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="409"/>
        <source>Order id</source>
        <translation>订单编号</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="440"/>
        <source>Refund id</source>
        <translation>退款编号</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="442"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="61"/>
        <location filename="../../ui/models/intenttext.cpp" line="63"/>
        <location filename="../../ui/models/intenttext.cpp" line="205"/>
        <location filename="../../ui/models/intenttext.cpp" line="355"/>
        <location filename="../../ui/models/intenttext.cpp" line="364"/>
        <source>Refunded</source>
        <translation>已退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="63"/>
        <location filename="../../ui/models/intenttext.cpp" line="357"/>
        <source>Partly refunded</source>
        <translation>部分退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="375"/>
        <source>card declined</source>
        <translation>银行卡被拒</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="377"/>
        <source>insufficient funds</source>
        <translation>余额不足</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="379"/>
        <source>the bank could not process it</source>
        <translation>银行无法处理</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="392"/>
        <location filename="../../ui/models/intenttext.cpp" line="423"/>
        <source>—</source>
        <comment>no value</comment>
        <translation>—</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="407"/>
        <location filename="../../ui/models/intenttext.cpp" line="438"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="408"/>
        <location filename="../../ui/models/intenttext.cpp" line="439"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="410"/>
        <location filename="../../ui/models/intenttext.cpp" line="441"/>
        <source>Payment id</source>
        <translation>支付编号</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="412"/>
        <location filename="../../ui/models/intenttext.cpp" line="443"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../ui/models/intenttext.cpp" line="413"/>
        <source>Decline reason</source>
        <translation>拒绝原因</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::LateOutcomesDialog</name>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp"/>
        <source>What happened after the customer left</source>
        <translation>顾客离开后发生的情况</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp"/>
        <source>After the customer left</source>
        <translation>顾客离开之后</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp"/>
        <source>A card payment the customer gave up went through after all, and the till refunded it by itself. Tell the customer what is below, then acknowledge.</source>
        <translation>顾客放弃的银行卡付款最终还是扣款成功了，收银机已自动退款。请把下面的内容告诉顾客，然后确认。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp"/>
        <source>The card payment for sale %1 went through after the customer paid another way; the till refunded %2 to the card automatically. Tell the customer it will show on their statement.</source>
        <translation>销售 %1 的银行卡付款在顾客改用其他方式付款后扣款成功；收银机已自动把 %2 退回该卡。请告诉顾客这笔退款会显示在其账单上。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp"/>
        <source>The card payment for sale %1 went through after the customer paid another way, and the till could not refund it: %2</source>
        <translation>销售 %1 的银行卡付款在顾客改用其他方式付款后扣款成功，收银机未能退款：%2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="21"/>
        <source>Payments declined after the customer left</source>
        <translation>顾客离开后被拒的付款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="23"/>
        <source>These sales were handed over before the bank&apos;s answer came, and the bank then refused the payment. The goods were not paid for: follow up, then acknowledge.</source>
        <translation>这些销售在银行回复之前已交付商品，随后银行拒绝了付款。商品未付款：请跟进处理，然后确认。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="29"/>
        <source>Declined payments</source>
        <translation>被拒的付款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="30"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="30"/>
        <source>Sale</source>
        <translation>销售单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="30"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="30"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="38"/>
        <source>&amp;Acknowledge</source>
        <translation>确认(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="84"/>
        <source>declined by the bank (%1)</source>
        <translation>银行拒绝（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/lateoutcomesdialog.cpp" line="85"/>
        <source>needs attention: %1</source>
        <translation>需要处理：%1</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::LedgerDialog</name>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="21"/>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="47"/>
        <source>The bank&apos;s ledger</source>
        <translation>银行账本</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="24"/>
        <source>Ledger summary</source>
        <translation>账本摘要</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="27"/>
        <source>Charges in the bank&apos;s ledger</source>
        <translation>银行账本中的扣款</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="28"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="28"/>
        <source>Idempotency key</source>
        <translation>幂等键</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="28"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="28"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="47"/>
        <source>The bank&apos;s ledger for this story</source>
        <translation>本场景的银行账本</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="54"/>
        <source>The ledger could not be read: %1</source>
        <translation>无法读取账本：%1</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="95"/>
        <source>charged</source>
        <translation>已扣款</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="95"/>
        <source>declined</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="97"/>
        <source>reversed: money back</source>
        <translation>已冲正：钱已退回</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="99"/>
        <source>waiting for the customer</source>
        <translation>等待顾客确认</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="104"/>
        <source>refunded (charge %1)</source>
        <translation>已退款（扣款 %1）</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="104"/>
        <source>refund refused</source>
        <translation>退款被拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/demo/ledgerdialog.cpp" line="115"/>
        <source>%1 for %2: never two for one key.</source>
        <comment>charges for keys</comment>
        <translation>%2共 %1：一个幂等键从不扣两次。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/ledgerdialog.cpp" line="116"/>
        <source>%n charge(s)</source>
        <translation>
            <numerusform>%n 笔扣款</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/ledgerdialog.cpp" line="116"/>
        <source>%n key(s)</source>
        <translation>
            <numerusform>%n 个幂等键</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/demo/ledgerdialog.cpp" line="118"/>
        <source>%n refund(s), never two for one charge.</source>
        <translation>
            <numerusform>%n 笔退款，同一笔扣款从不退两次。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::MainWindow</name>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindow.cpp"/>
        <source>⚠ %n card payment(s) refunded by the till: tell the customer</source>
        <translation>
            <numerusform>⚠ 收银机已自动退还 %n 笔银行卡付款：请告知顾客</numerusform>
        </translation>
    </message>
    <message>
        <source>Sale parked as %1 (%2, %3). Serve the next customer; F5 on an empty cart recalls it.</source>
        <translation>已挂单为 %1（%2，%3）。请接待下一位顾客；购物车为空时按 F5 可取回。</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n 件</numerusform>
        </translation>
    </message>
    <message>
        <source>Parked sale %1 is back in the cart: %2, %3.</source>
        <translation>挂单 %1 已取回购物车：%2，%3。</translation>
    </message>
    <message>
        <source>The shop changed how VAT is shown meanwhile: the total is now %1.</source>
        <translation>此间商店更改了增值税的计价方式：现在合计为 %1。</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) scanned while the parked sales were open were not added: scan them again.</source>
        <translation>
            <numerusform>挂单列表打开时扫描的 %n 件商品未加入：请重新扫描。</numerusform>
        </translation>
    </message>
    <message>
        <source>Par&amp;k the sale, or recall one</source>
        <translation>挂单或取单(&amp;K)</translation>
    </message>
    <message>
        <source>Parked sales on &amp;hold…</source>
        <translation>挂单列表(&amp;H)…</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindowstaff.cpp" line="68"/>
        <source>%n item(s) scanned at the lock screen were not added: scan them again.</source>
        <translation>
            <numerusform>锁屏时扫描的 %n 件商品未加入：请重新扫描。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowscans.cpp" line="120"/>
        <source>%1 is kept: it is the next customer&apos;s first item if this customer has left (L).</source>
        <translation>%1 已保留：如果这位顾客已离开（L），它就是下一位顾客的第一件商品。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindowscans.cpp" line="121"/>
        <source>%n scanned items are kept: the next customer&apos;s if this customer has left (L).</source>
        <translation>
            <numerusform>已保留扫描的 %n 件商品：如果这位顾客已离开（L），它们属于下一位顾客。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowscans.cpp" line="135"/>
        <source>%1 is kept: it goes into the sale once the question is answered.</source>
        <translation>%1 已保留：回答问题后加入交易。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindowscans.cpp" line="136"/>
        <source>%n scanned items are kept: they go into the sale once the question is answered.</source>
        <translation>
            <numerusform>已保留扫描的 %n 件商品：回答问题后加入交易。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindowscans.cpp" line="160"/>
        <source>%n scanned item(s) were not added: scan them again.</source>
        <translation>
            <numerusform>扫描的 %n 件商品未加入：请重新扫描。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindow.cpp" line="600"/>
        <source>%n scanned items were not added: this customer&apos;s sale is still open. Scan them again for the next customer.</source>
        <translation>
            <numerusform>扫描的 %n 件商品未加入：这位顾客的交易仍未结束。请为下一位顾客重新扫描。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="64"/>
        <source>OncePay till</source>
        <translation>OncePay 收银台</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="108"/>
        <source>Sale %1 is paid (%2).</source>
        <translation>销售 %1 已付款（%2）。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="68"/>
        <source>Scan or type a product code or name, then Enter</source>
        <translation>扫码或输入商品编码/名称，然后按回车</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="69"/>
        <source>Product code or name</source>
        <translation>商品编码或名称</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="80"/>
        <source>Scan message</source>
        <translation>扫码提示</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="88"/>
        <source>Cart</source>
        <translation>购物车</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="92"/>
        <source>Select a line: + and - change its quantity, Del removes it.</source>
        <translation>选中一行：按 + 和 - 修改数量，按 Del 删除。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="109"/>
        <source>Payment state</source>
        <translation>支付状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="620"/>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="115"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="116"/>
        <source>Sale</source>
        <translation>销售</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="118"/>
        <source>Total to pay</source>
        <translation>应付金额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="127"/>
        <source>Paid, waiting and remaining</source>
        <translation>已付、等待中和剩余</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="140"/>
        <source>&amp;Amount on this card:</source>
        <translation>本卡金额(&amp;A)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="142"/>
        <source>Amount on this card</source>
        <translation>本卡金额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="143"/>
        <source>All that remains</source>
        <translation>全部剩余金额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="144"/>
        <source>Two cards, or card and cash: type what this card pays, then %1.</source>
        <translation>两张卡，或卡加现金：输入这张卡支付的金额，然后按 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="151"/>
        <source>Pay by card (%1)</source>
        <translation>刷卡支付 (%1)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="152"/>
        <source>Pay by card</source>
        <translation>刷卡支付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="157"/>
        <source>Cash (%1)</source>
        <translation>现金 (%1)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="158"/>
        <source>Pay in cash</source>
        <translation>现金支付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="167"/>
        <source>Remove item (%1)</source>
        <translation>删除商品 (%1)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="168"/>
        <source>Remove the selected item</source>
        <translation>删除选中的商品</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="177"/>
        <source>Receipt…</source>
        <translation>小票…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="178"/>
        <source>Show the receipt</source>
        <translation>显示小票</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="191"/>
        <source>New sale (%1)</source>
        <translation>新交易 (%1)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="192"/>
        <source>Start a new sale</source>
        <translation>开始新交易</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="614"/>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="195"/>
        <source>Customer pays another way (%1)</source>
        <translation>顾客改用其他方式支付 (%1)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="615"/>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="196"/>
        <source>Customer pays another way</source>
        <translation>顾客改用其他方式支付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="197"/>
        <source>Give up the card payment that is not final: if it turns out charged, the till refunds it by itself. Then take cash or another card.</source>
        <translation>放弃尚无最终结果的刷卡付款：如果最终扣款成功，收银机会自动退款。然后收取现金或换一张卡。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="226"/>
        <source>Payments</source>
        <translation>支付记录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="240"/>
        <source>Payments declined after the customer left</source>
        <translation>顾客离开后被拒的付款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="246"/>
        <source>Notice</source>
        <translation>通知</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="253"/>
        <source>&amp;Sale</source>
        <translation>交易(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="254"/>
        <source>&amp;New sale</source>
        <translation>新交易(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="258"/>
        <source>&amp;Discount on the line…</source>
        <translation>单品折扣(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="261"/>
        <source>Discount on the s&amp;ale…</source>
        <translation>整单折扣(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="266"/>
        <source>Refund a sale by its receipt n&amp;umber…</source>
        <translation>按小票号退款(&amp;U)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="273"/>
        <source>&amp;Close shift…</source>
        <translation>结班(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="280"/>
        <source>&amp;Past shifts…</source>
        <translation>以往班次(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="286"/>
        <source>Reprin&amp;t the last receipt</source>
        <translation>重新打印上一张小票(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="289"/>
        <source>Open the dra&amp;wer…</source>
        <translation>打开钱箱(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="291"/>
        <source>&amp;Lock the till</source>
        <translation>锁定收银机(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="295"/>
        <source>&amp;Import catalog…</source>
        <translation>导入商品目录(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="296"/>
        <source>Pr&amp;oducts…</source>
        <translation>商品管理(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="297"/>
        <source>The products editor</source>
        <translation>商品管理</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="307"/>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="308"/>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="312"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="313"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowbuild.cpp" line="315"/>
        <source>&amp;Payments</source>
        <translation>支付记录(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="236"/>
        <source>Matching products</source>
        <translation>相符的商品</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="296"/>
        <source>Weight</source>
        <translation>重量</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="296"/>
        <source>Weight of %1 in kg (such as 0.532):</source>
        <translation>%1 的重量（千克，例如 0.532）：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="297"/>
        <source>Weight to type</source>
        <translation>输入重量</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="314"/>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="315"/>
        <source>Price of %1 (at most %2):</source>
        <translation>%1 的价格（最多 %2）：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="317"/>
        <source>Price to type</source>
        <translation>输入价格</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="339"/>
        <source>A discount of more than %1%</source>
        <translation>超过 %1% 的折扣</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="347"/>
        <source>Discount on the sale</source>
        <translation>整单折扣</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="347"/>
        <source>Discount on the whole sale (10% or 5.00; empty: none):</source>
        <translation>整单折扣（如 10% 或 5.00；留空为不打折）：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="348"/>
        <source>Sale discount to type</source>
        <translation>输入整单折扣</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="351"/>
        <source>Discount on the line</source>
        <translation>单品折扣</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="351"/>
        <source>Discount on %1 (10% or 5.00; empty: none):</source>
        <translation>%1 的折扣（如 10% 或 5.00；留空为不打折）：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="352"/>
        <source>Line discount to type</source>
        <translation>输入单品折扣</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="376"/>
        <source>Signed in</source>
        <translation>当前登录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="394"/>
        <source>%1 (manager)</source>
        <translation>%1（经理）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="443"/>
        <source>Import the shop&apos;s catalog</source>
        <translation>导入本店商品目录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="444"/>
        <source>Catalogs (*.csv *.json);;All files (*)</source>
        <translation>商品目录 (*.csv *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="447"/>
        <source>Importing a catalog</source>
        <translation>导入商品目录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="454"/>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="458"/>
        <source>Catalog imported</source>
        <translation>商品目录已导入</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="460"/>
        <source>Catalog not imported</source>
        <translation>商品目录未导入</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="496"/>
        <source>This sale is partly paid</source>
        <translation>这笔销售已部分付款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="497"/>
        <source>%1 of this sale is paid and %2 remains. Cancel the sale and give the money back?</source>
        <translation>这笔销售已付 %1，还剩 %2。取消这笔销售并退还已付款项吗？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="503"/>
        <source>&amp;Cancel the sale (C)</source>
        <translation>取消这笔销售(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="520"/>
        <source>Discard this sale?</source>
        <translation>放弃这笔交易？</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindow.cpp" line="521"/>
        <source>%n item(s) for %1 are rung up and nothing is paid. Discard them and start a new sale?</source>
        <translation>
            <numerusform>已录入 %n 件商品，共 %1，尚未付款。放弃它们并开始新交易？</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="525"/>
        <source>A discarded sale is kept in the journal as cancelled, with its items.</source>
        <translation>放弃的交易会连同商品以“已取消”记入日志。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="526"/>
        <source>Discard question</source>
        <translation>放弃交易的询问</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="527"/>
        <source>&amp;Discard (D)</source>
        <translation>放弃(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="553"/>
        <source>%1 was not added: answer the question first.</source>
        <translation>%1 未添加：请先回答问题。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="558"/>
        <source>The card payment is not final yet</source>
        <translation>刷卡付款尚无最终结果</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="559"/>
        <source>Has the customer left, or will they pay another way?</source>
        <translation>顾客已经离开，还是改用其他方式支付？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="560"/>
        <source>Customer left: the till keeps whatever the card does and tells you if it is declined.
Pays another way: the card payment is given up (if it turns out charged, the till refunds it by itself) and this sale waits for cash or another card.</source>
        <translation>顾客已离开：以银行卡的最终结果为准，若被拒绝会提醒您。
改用其他方式支付：放弃这笔刷卡付款（如果最终扣款成功，收银机会自动退款），本笔销售等待现金或另一张卡。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="563"/>
        <source>Customer &amp;left (L)</source>
        <translation>顾客已离开(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="564"/>
        <source>Pays &amp;another way (A)</source>
        <translation>改用其他方式支付(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="504"/>
        <location filename="../../ui/widgets/mainwindow.cpp" line="528"/>
        <location filename="../../ui/widgets/mainwindow.cpp" line="565"/>
        <source>Go &amp;back</source>
        <translation>返回(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="614"/>
        <source>Customer gave up (%1)</source>
        <translation>顾客放弃（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="615"/>
        <source>Customer gave up</source>
        <translation>顾客放弃</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="656"/>
        <source>Scan items, then pay by card (%1), cash (%2), or scan the customer&apos;s wallet payment code.</source>
        <translation>请扫描商品，然后刷卡（%1）、收现金（%2），或扫描顾客的钱包付款码。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindow.cpp" line="696"/>
        <source>⚠ %n declined after the customer left</source>
        <translation>
            <numerusform>⚠ %n 笔付款在顾客离开后被拒</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="731"/>
        <source>Quit OncePay?</source>
        <translation>退出 OncePay？</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/mainwindow.cpp" line="732"/>
        <source>%n payment(s) waiting, %1 in all, not sent yet.</source>
        <translation>
            <numerusform>还有 %n 笔支付等待发送，共 %1，尚未发出。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="734"/>
        <source>They are saved on this till and will be sent the next time it starts. Quit now?</source>
        <translation>这些支付已保存在本机，下次启动时会自动发送。现在退出吗？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="735"/>
        <source>Quit, send them on next start</source>
        <translation>退出，下次启动时发送</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="736"/>
        <source>Keep the till open</source>
        <translation>不退出</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="584"/>
        <source>%1 was not added: this customer&apos;s sale is still open. Scan it again for the next customer.</source>
        <translation>%1 未添加：这位顾客的交易仍未结束。请为下一位顾客重新扫描。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="620"/>
        <source>Total — sale %1</source>
        <translation>合计 — 销售 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindow.cpp" line="624"/>
        <source>Paid %1 · waiting %2 · remains %3</source>
        <translation>已付 %1 · 等待中 %2 · 剩余 %3</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="40"/>
        <source>Receipt printer</source>
        <translation>小票打印机</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="84"/>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="95"/>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="160"/>
        <source>Receipt %1</source>
        <translation>小票 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="96"/>
        <source>The receipt of %1 is printing again.</source>
        <translation>正在重新打印 %1 的小票。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="100"/>
        <source>The last receipt is printing again.</source>
        <translation>正在重新打印上一张小票。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="111"/>
        <source>No receipt to print: the sale is not paid yet.</source>
        <translation>没有可打印的小票：该笔销售尚未付款。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="117"/>
        <source>No receipt printer is set: choose one in Settings, Devices.</source>
        <translation>未设置小票打印机：请在“设置 → 设备”中选择。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="121"/>
        <source>Only a paid sale has a receipt to print.</source>
        <translation>只有已付款的销售才有小票可打印。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="127"/>
        <source>%1 was not queued for the printer: %2</source>
        <translation>%1 未能加入打印队列：%2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="131"/>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="161"/>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="191"/>
        <source>%1 is printing again.</source>
        <translation>正在重新打印 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="175"/>
        <source>No slip of refund %1 was printed on this printer: open the refund (F8) and use Refund slip….</source>
        <translation>退款 %1 的退款单未在此打印机上打印过：请打开退款（F8）并使用“退款单…”。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="141"/>
        <source>The sale of %1 cannot be read: %2</source>
        <translation>无法读取 %1 的销售记录：%2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="183"/>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="186"/>
        <source>The sale of %1 cannot be read.</source>
        <translation>无法读取 %1 的销售记录。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="189"/>
        <source>Refund slip %1</source>
        <translation>退款单 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="199"/>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="200"/>
        <source>Open the drawer</source>
        <translation>打开钱箱</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="200"/>
        <source>Why is the drawer opened (such as &quot;change for the float&quot;)?</source>
        <translation>为什么打开钱箱（例如“补充备用零钱”）？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="200"/>
        <source>Reason for opening the drawer</source>
        <translation>打开钱箱的原因</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/mainwindowdevices.cpp" line="203"/>
        <source>Say why the drawer is opened: the journal keeps it.</source>
        <translation>请说明打开钱箱的原因：日志会记录下来。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::PastShiftsDialog</name>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp"/>
        <source>&amp;Print again</source>
        <translation>再次打印(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp"/>
        <source>Print the selected shift&apos;s report again</source>
        <translation>再次打印所选班次的报表</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp"/>
        <source>Shift report %1</source>
        <translation>班次报表 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp"/>
        <source>Shift %1&apos;s report is on its way to the receipt printer.</source>
        <translation>第 %1 班的报表正在发送到小票打印机。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp"/>
        <source>Print the shift report</source>
        <translation>打印班次报表</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp"/>
        <source>The printer reported an error; the report may not have been printed.</source>
        <translation>打印机报告错误；报表可能未打印。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="27"/>
        <source>Past shifts</source>
        <translation>以往班次</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="29"/>
        <source>Reading the closed shifts…</source>
        <translation>正在读取已结班次…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="30"/>
        <source>Past shifts status</source>
        <translation>以往班次状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="36"/>
        <source>Closed shifts</source>
        <translation>已结班次</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="37"/>
        <source>Shift</source>
        <translation>班次</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="37"/>
        <source>Closed</source>
        <translation>结班时间</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="37"/>
        <source>Net takings</source>
        <translation>净收入</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="37"/>
        <source>Cash counted</source>
        <translation>清点现金</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="38"/>
        <source>Drawer</source>
        <translation>钱箱</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="38"/>
        <source>Checked with the server</source>
        <translation>已与服务器核对</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="46"/>
        <source>The shift&apos;s report</source>
        <translation>班次报表</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="62"/>
        <source>The closed shifts could not be read: %1</source>
        <translation>无法读取已结班次：%1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="73"/>
        <source>No shift has been closed on this till yet.</source>
        <translation>本收银机尚未结过班。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="74"/>
        <source>%n closed shift(s), newest first. The report of the selected one is below.</source>
        <translation>
            <numerusform>共 %n 个已结班次，最新的在前。所选班次的报表在下方。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="87"/>
        <source>not counted</source>
        <translation>未清点</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="90"/>
        <source>right</source>
        <translation>正确</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="91"/>
        <source>%1 missing</source>
        <translation>短缺 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="92"/>
        <source>%1 too much</source>
        <translation>多出 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="94"/>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="96"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="96"/>
        <source>no: closed while the server did not answer</source>
        <translation>否：结班时服务器没有响应</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/pastshiftsdialog.cpp" line="111"/>
        <source>This shift&apos;s report cannot be read.</source>
        <translation>无法读取该班次的报表。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ProductGrid</name>
    <message>
        <location filename="../../ui/widgets/productgrid.cpp" line="25"/>
        <source>Product grid</source>
        <translation>商品面板</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productgrid.cpp" line="62"/>
        <source>Quick keys</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productgrid.cpp" line="96"/>
        <source>your price</source>
        <translation>手动定价</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productgrid.cpp" line="97"/>
        <source>%1/kg</source>
        <translation>%1/千克</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/productgrid.cpp" line="111"/>
        <source>%n more: type a name in the scan field.</source>
        <translation>
            <numerusform>还有 %n 个：请在扫描框中输入名称。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ProductsDialog</name>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp"/>
        <source>Category in Chinese</source>
        <translation>分类中文名</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp"/>
        <source>Category in C&amp;hinese:</source>
        <translation>分类中文名(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="60"/>
        <location filename="../../ui/widgets/productsdialog.cpp" line="74"/>
        <source>Products</source>
        <translation>商品</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="61"/>
        <source>Products editor</source>
        <translation>商品管理</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="64"/>
        <source>Search by code, name or barcode</source>
        <translation>按编码、名称或条码搜索</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="65"/>
        <source>Search products</source>
        <translation>搜索商品</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="86"/>
        <source>Products message</source>
        <translation>商品管理提示</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="91"/>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="92"/>
        <source>&amp;Edit…</source>
        <translation>编辑(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="93"/>
        <location filename="../../ui/widgets/productsdialog.cpp" line="144"/>
        <source>&amp;Retire</source>
        <translation>停售(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="94"/>
        <source>E&amp;xport CSV…</source>
        <translation>导出 CSV(&amp;X)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="95"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="144"/>
        <source>&amp;Bring back</source>
        <translation>恢复销售(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="155"/>
        <source>New product</source>
        <translation>新商品</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="155"/>
        <source>Edit %1</source>
        <translation>编辑 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="156"/>
        <source>Product form</source>
        <translation>商品表单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="163"/>
        <source>Code</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="165"/>
        <source>Barcodes</source>
        <translation>条码</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="166"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="167"/>
        <source>Chinese name</source>
        <translation>中文名称</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="168"/>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="169"/>
        <source>VAT</source>
        <translation>增值税率</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="170"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="172"/>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="173"/>
        <source>each</source>
        <translation>件</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="174"/>
        <source>kg</source>
        <translation>千克</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="178"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="180"/>
        <source>Quick key</source>
        <translation>快捷键位置</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="181"/>
        <source>The cashier types the price</source>
        <translation>由收银员输入价格</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="183"/>
        <source>&amp;Code:</source>
        <translation>编码(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="184"/>
        <source>&amp;Barcodes (| between):</source>
        <translation>条码（用 | 分隔）(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="185"/>
        <source>&amp;Name:</source>
        <translation>名称(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="186"/>
        <source>Chinese &amp;name:</source>
        <translation>中文名称(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="187"/>
        <source>&amp;Price:</source>
        <translation>价格(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="188"/>
        <source>&amp;VAT %:</source>
        <translation>增值税率 %(&amp;V)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="189"/>
        <source>Ca&amp;tegory:</source>
        <translation>分类(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="190"/>
        <source>&amp;Unit:</source>
        <translation>单位(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="191"/>
        <source>&amp;Quick key:</source>
        <translation>快捷键位置(&amp;Q)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="195"/>
        <source>Product form message</source>
        <translation>商品表单提示</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="210"/>
        <source>The code %1 is taken by %2.</source>
        <translation>编码 %1 已被 %2 使用。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="216"/>
        <source>The barcode %1 is %2&apos;s.</source>
        <translation>条码 %1 属于 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="232"/>
        <source>%1 saved.</source>
        <translation>%1 已保存。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="232"/>
        <source>%1 was not saved: %2</source>
        <translation>%1 未保存：%2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="252"/>
        <source>the demo catalog, edited</source>
        <translation>演示商品目录（已编辑）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="267"/>
        <source>%1 was not changed: %2</source>
        <translation>%1 未更改：%2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="268"/>
        <source>%1 is retired: it is no longer sold.</source>
        <translation>%1 已停售。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="269"/>
        <source>%1 is on sale again.</source>
        <translation>%1 已恢复销售。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="275"/>
        <source>Export the catalog</source>
        <translation>导出商品目录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="276"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/productsdialog.cpp" line="280"/>
        <source>%n product(s) written to %1.</source>
        <translation>
            <numerusform>已将 %n 个商品写入 %1。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/productsdialog.cpp" line="281"/>
        <source>The catalog was not written to %1: %2</source>
        <translation>商品目录未能写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ProductsModel</name>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="48"/>
        <source>typed</source>
        <translation>手动定价</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="48"/>
        <source>%1/kg</source>
        <translation>%1/千克</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="55"/>
        <source>kg</source>
        <translation>千克</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="55"/>
        <source>each</source>
        <translation>件</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="59"/>
        <source>retired</source>
        <translation>已停售</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="59"/>
        <source>on sale</source>
        <translation>在售</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="72"/>
        <source>Code</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="74"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="76"/>
        <source>Chinese name</source>
        <translation>中文名称</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="78"/>
        <source>Price</source>
        <translation>价格</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="80"/>
        <source>VAT</source>
        <translation>增值税率</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="82"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="84"/>
        <source>Unit</source>
        <translation>单位</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="86"/>
        <source>Barcodes</source>
        <translation>条码</translation>
    </message>
    <message>
        <location filename="../../ui/models/productsmodel.cpp" line="88"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::QueueModel</name>
    <message>
        <location filename="../../ui/models/queuemodel.cpp" line="209"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ui/models/queuemodel.cpp" line="211"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ui/models/queuemodel.cpp" line="213"/>
        <source>Sale</source>
        <translation>销售单</translation>
    </message>
    <message>
        <location filename="../../ui/models/queuemodel.cpp" line="215"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/models/queuemodel.cpp" line="217"/>
        <source>Paid with</source>
        <translation>支付方式</translation>
    </message>
    <message>
        <location filename="../../ui/models/queuemodel.cpp" line="219"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::QueuePanel</name>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="33"/>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="35"/>
        <source>Filter payments by state</source>
        <translation>按状态筛选支付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="37"/>
        <source>Needs attention</source>
        <translation>需要处理</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="38"/>
        <source>Waiting</source>
        <translation>等待发送</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="39"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="40"/>
        <source>Refunds</source>
        <translation>退款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="51"/>
        <source>Waiting payments summary</source>
        <translation>待发送支付汇总</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="52"/>
        <source>Retry now</source>
        <translation>立即重试</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="53"/>
        <source>Retry the selected payment now</source>
        <translation>立即重试选中的支付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="54"/>
        <source>Details…</source>
        <translation>详情…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="55"/>
        <source>Show the selected payment&apos;s details</source>
        <translation>显示选中支付的详情</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="58"/>
        <source>&amp;Refund the selected sale…</source>
        <translation>为所选订单退款(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="60"/>
        <source>Refund all or part of the paid sale selected below (F8)</source>
        <translation>为下方所选的已支付订单全额或部分退款 (F8)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="65"/>
        <source>&amp;Void the selected payment</source>
        <translation>作废所选支付(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="67"/>
        <source>Cancel a card payment that is queued on this till and was never sent (F7)</source>
        <translation>取消在本收银机排队、从未发送的刷卡支付 (F7)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="72"/>
        <source>R&amp;eprint the selected receipt</source>
        <translation>重新打印所选小票(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="73"/>
        <source>Print the receipt of the sale (or the slip of the refund) selected below again</source>
        <translation>重新打印下方所选销售的小票（或退款的退款单）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="80"/>
        <source>Reprint</source>
        <translation>重新打印</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="81"/>
        <source>Reprint the selected receipt</source>
        <translation>重新打印所选小票</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="83"/>
        <source>Refund… (F8)</source>
        <translation>退款… (F8)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="84"/>
        <source>Refund the selected sale</source>
        <translation>为所选订单退款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="86"/>
        <source>Void (F7)</source>
        <translation>作废 (F7)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="87"/>
        <source>Void the selected payment</source>
        <translation>作废所选支付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="103"/>
        <source>Payments</source>
        <translation>支付记录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="187"/>
        <source>This refund was sent already (%1).</source>
        <translation>这笔退款已经发出（%1）。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="187"/>
        <source>This card payment was sent already (%1).</source>
        <translation>这笔刷卡支付已经发出（%1）。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="190"/>
        <source>Void this refund?</source>
        <translation>作废这笔退款？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="190"/>
        <source>Void this payment?</source>
        <translation>作废这笔支付？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="191"/>
        <source>Void the refund of %1 for sale %2?</source>
        <translation>作废订单 %2 的 %1 退款？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="192"/>
        <source>Void the card payment of %1 for sale %2?</source>
        <translation>作废订单 %2 的 %1 刷卡支付？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="194"/>
        <source>A refund that was never sent is cancelled on this till and never goes out.</source>
        <translation>从未发送的退款将在本收银机上取消，永远不会发出。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="195"/>
        <source>A payment that was never sent is cancelled on this till and never goes out: nothing is charged, and the sale may be paid again.</source>
        <translation>从未发送的支付将在本收银机上取消，永远不会发出：不会扣款，本单可以重新支付。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="197"/>
        <source>Void question</source>
        <translation>作废确认</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="198"/>
        <source>&amp;Void it</source>
        <translation>作废(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="199"/>
        <source>&amp;Keep it</source>
        <translation>保留(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="213"/>
        <source>A void above %1</source>
        <translation>超过 %1 的作废</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="246"/>
        <source>This refund cannot be voided</source>
        <translation>这笔退款不能作废</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="246"/>
        <source>This payment cannot be voided</source>
        <translation>这笔支付不能作废</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="249"/>
        <source>Only a refund still queued on this till, never sent, can be voided. One that may have reached the gateway is followed to its outcome by the till itself, and is never made twice.</source>
        <translation>只有仍在本收银机排队、从未发送的退款才能作废。可能已到达网关的退款由收银机自行跟进到最终结果，绝不会重复退款。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="251"/>
        <source>Only a card payment still queued on this till, never sent, can be voided. The till follows this one to its outcome by itself: if it is declined, nothing was charged; if it is paid, refund it (F8).</source>
        <translation>只有仍在本收银机排队、从未发送的刷卡支付才能作废。收银机会自行跟进这笔支付的结果：如果被拒绝，则没有扣款；如果支付成功，请为其退款 (F8)。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/queuepanel.cpp" line="253"/>
        <source>Void refused</source>
        <translation>作废被拒绝</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::Receipt</name>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="121"/>
        <source>UnionPay</source>
        <translation>银联</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="125"/>
        <source>WeChat Pay</source>
        <translation>微信支付</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="127"/>
        <source>Alipay</source>
        <translation>支付宝</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="131"/>
        <source>Card</source>
        <translation>银行卡</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="149"/>
        <source>PAYMENT PENDING — NOT A RECEIPT</source>
        <translation>付款待确认 — 非购物小票</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="153"/>
        <source>Reference</source>
        <translation>参考号</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="153"/>
        <source>Receipt no.</source>
        <translation>小票号</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="154"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="155"/>
        <source>Terminal</source>
        <translation>终端</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="157"/>
        <source>Sale</source>
        <translation>销售单</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="173"/>
        <source>Discount</source>
        <translation>折扣</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="174"/>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="182"/>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="188"/>
        <location filename="../../ui/models/receipt.cpp" line="196"/>
        <source>Tender</source>
        <translation>支付方式</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="177"/>
        <location filename="../../ui/models/receipt.cpp" line="182"/>
        <location filename="../../ui/models/receipt.cpp" line="188"/>
        <source>Cash</source>
        <translation>现金</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="190"/>
        <source>Tendered</source>
        <translation>实收</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="191"/>
        <source>Change</source>
        <translation>找零</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="179"/>
        <location filename="../../ui/models/receipt.cpp" line="198"/>
        <source>Authorization code</source>
        <translation>授权码</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="48"/>
        <location filename="../../ui/models/refundslip.cpp" line="74"/>
        <source>VAT</source>
        <translation>增值税率</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="48"/>
        <location filename="../../ui/models/refundslip.cpp" line="74"/>
        <source>Net</source>
        <translation>不含税</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="48"/>
        <location filename="../../ui/models/refundslip.cpp" line="74"/>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="48"/>
        <location filename="../../ui/models/refundslip.cpp" line="74"/>
        <source>Gross</source>
        <translation>含税</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="201"/>
        <source>The card payment has not been confirmed yet. The till sends it by itself and never charges twice; the receipt is printed once it is paid.</source>
        <translation>此笔刷卡付款尚未确认。收银机会自动发送，绝不会重复扣款；付款成功后再打印小票。</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="204"/>
        <source>APPROVED</source>
        <translation>交易成功</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="215"/>
        <source>Thank you!</source>
        <translation>谢谢惠顾！</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="231"/>
        <source>Receipt</source>
        <translation>小票</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp" line="237"/>
        <source>The receipt could not be written to %1.</source>
        <translation>无法将小票写入 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp"/>
        <source>Cashier</source>
        <translation>收银员</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp"/>
        <source>Discount %1</source>
        <translation>折扣 %1</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp"/>
        <source>%1 kg × %2/kg</source>
        <translation>%1 千克 × %2/千克</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp"/>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp"/>
        <source>Subtotal</source>
        <translation>小计</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp"/>
        <source>Discount on the sale</source>
        <translation>整单折扣</translation>
    </message>
    <message>
        <location filename="../../ui/models/receipt.cpp"/>
        <source>VAT added</source>
        <translation>另加增值税</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ReceiptDialog</name>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="24"/>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="54"/>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="67"/>
        <source>Receipt</source>
        <translation>小票</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="27"/>
        <source>Receipt preview</source>
        <translation>小票预览</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="31"/>
        <source>&amp;Print…</source>
        <translation>打印(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="32"/>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="47"/>
        <source>Print the receipt</source>
        <translation>打印小票</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="33"/>
        <source>Save as PDF…</source>
        <translation>另存为 PDF…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="34"/>
        <source>Save the receipt as PDF</source>
        <translation>将小票保存为 PDF</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="54"/>
        <source>The printer reported an error; the receipt may not have been printed.</source>
        <translation>打印机报告错误，小票可能没有打印出来。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="60"/>
        <source>Save the receipt</source>
        <translation>保存小票</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp" line="62"/>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>Refund slip</source>
        <translation>退款单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>Refund slip preview</source>
        <translation>退款单预览</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>Print the refund slip</source>
        <translation>打印退款单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>Save the refund slip as PDF</source>
        <translation>将退款单保存为 PDF</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>Save the refund slip</source>
        <translation>保存退款单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>The printer reported an error; the refund slip may not have been printed.</source>
        <translation>打印机报告错误，退款单可能没有打印出来。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>The refund slip is printing again on the receipt printer.</source>
        <translation>退款单正在小票打印机上重新打印。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>The receipt is printing again on the receipt printer.</source>
        <translation>小票正在小票打印机上重新打印。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>Printing</source>
        <translation>打印</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>Print &amp;again</source>
        <translation>再打印一次(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/receiptdialog.cpp"/>
        <source>Print again on the receipt printer</source>
        <translation>在小票打印机上再打印一次</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ReceiptRaster</name>
    <message>
        <location filename="../../ui/models/receiptraster.cpp" line="75"/>
        <source>Printer test page</source>
        <translation>打印机测试页</translation>
    </message>
    <message>
        <location filename="../../ui/models/receiptraster.cpp" line="77"/>
        <source>Printer: %1</source>
        <translation>打印机：%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/receiptraster.cpp" line="77"/>
        <source>Paper: %1 mm</source>
        <translation>纸宽：%1 毫米</translation>
    </message>
    <message>
        <location filename="../../ui/models/receiptraster.cpp" line="83"/>
        <source>If this page is whole and cut, the printer is ready.</source>
        <translation>如果此页完整并已切纸，打印机即可使用。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::RefundDialog</name>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="49"/>
        <source>Quantity to refund</source>
        <translation>退货数量</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="100"/>
        <location filename="../../ui/widgets/refunddialog.cpp" line="220"/>
        <location filename="../../ui/widgets/refunddialog.cpp" line="221"/>
        <source>Refund</source>
        <translation>退款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="106"/>
        <source>Receipt &amp;number:</source>
        <translation>小票号(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="108"/>
        <source>Receipt number</source>
        <translation>小票号</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="109"/>
        <source>Scan or type the receipt number (or the sale number), then Enter</source>
        <translation>扫描或输入小票号（或订单号），然后按回车</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="116"/>
        <source>&amp;Find</source>
        <translation>查找(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="117"/>
        <source>Find the sale</source>
        <translation>查找订单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="125"/>
        <source>Refund state</source>
        <translation>退款状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="130"/>
        <source>The sale</source>
        <translation>原订单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="132"/>
        <source>Sale and receipt number</source>
        <translation>订单和小票号</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="133"/>
        <source>Paid</source>
        <translation>实付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="134"/>
        <source>Given back</source>
        <translation>已退还</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="135"/>
        <source>Remains</source>
        <translation>剩余可退</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="136"/>
        <source>Sale:</source>
        <translation>销售单：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="137"/>
        <source>Paid:</source>
        <translation>实付：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="138"/>
        <source>Given back:</source>
        <translation>已退还：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="139"/>
        <source>Remains:</source>
        <translation>剩余可退：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="143"/>
        <source>By &amp;items</source>
        <translation>按商品(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="144"/>
        <source>By a&amp;mount</source>
        <translation>按金额(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="145"/>
        <source>Refund by items</source>
        <translation>按商品退款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="146"/>
        <source>Refund by amount</source>
        <translation>按金额退款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="161"/>
        <source>&amp;All that remains</source>
        <translation>全部剩余(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="162"/>
        <source>Refund all that remains</source>
        <translation>退还全部剩余</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="174"/>
        <source>Items of the sale</source>
        <translation>订单商品</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="182"/>
        <source>Select a line: type how many to give back, or + and -.</source>
        <translation>选中一行：输入要退的数量，或按 + 和 -。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="196"/>
        <source>Amount to refund</source>
        <translation>退款金额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="197"/>
        <source>e.g. 5.00</source>
        <translation>例如 5.00</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="199"/>
        <source>Amount:</source>
        <translation>金额：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="203"/>
        <source>Reason for the refund</source>
        <translation>退款原因</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="204"/>
        <source>Returned by the customer</source>
        <translation>顾客退货</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="204"/>
        <source>Damaged or faulty</source>
        <translation>商品损坏或有质量问题</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="204"/>
        <source>Charged by mistake</source>
        <translation>误收款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="205"/>
        <source>Price corrected</source>
        <translation>价格更正</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="207"/>
        <source>&amp;Reason:</source>
        <translation>原因(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="208"/>
        <source>Where the money goes</source>
        <translation>钱款去向</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="210"/>
        <source>To:</source>
        <translation>退回到：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="214"/>
        <source>Why it cannot be refunded</source>
        <translation>无法退款的原因</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="223"/>
        <source>Refund &amp;slip…</source>
        <translation>退款单(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="224"/>
        <source>Show the refund slip</source>
        <translation>显示退款单</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="240"/>
        <source>Scan or type the receipt number of the sale to refund.</source>
        <translation>请扫描或输入要退款订单的小票号。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="287"/>
        <source>A cash refund</source>
        <translation>现金退款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="287"/>
        <source>A refund above %1</source>
        <translation>超过 %1 的退款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="308"/>
        <source>—</source>
        <comment>no value</comment>
        <translation>—</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="313"/>
        <source>%1 · receipt %2</source>
        <translation>%1 · 小票 %2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="314"/>
        <source>%1 by %2 (%3)</source>
        <translation>%1，%2（%3）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="317"/>
        <source>(and %1 on its way)</source>
        <translation>（另有 %1 正在退款中）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="320"/>
        <source>Cash out of the drawer: the journal records it at once.</source>
        <translation>从钱箱支付现金：日志立即记录。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="321"/>
        <source>Back to the card %1, through the bank.</source>
        <translation>经银行退回到银行卡 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="349"/>
        <source>Refund %1 (Enter)</source>
        <translation>退款 %1 (Enter)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="350"/>
        <source>Refund (Enter)</source>
        <translation>退款 (Enter)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="409"/>
        <source>Refund slip %1</source>
        <translation>退款单 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/refunddialog.cpp" line="443"/>
        <source>Refund slip</source>
        <translation>退款单</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::RefundLinesModel</name>
    <message>
        <location filename="../../ui/models/refundlinesmodel.cpp" line="121"/>
        <source>Type how many to give back (at most %1), or + and -.</source>
        <translation>输入要退的数量（最多 %1），或按 + 和 -。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundlinesmodel.cpp" line="122"/>
        <source>Everything of this line has been given back already.</source>
        <translation>这一行的商品已全部退还。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundlinesmodel.cpp" line="170"/>
        <source>Item</source>
        <translation>商品</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundlinesmodel.cpp" line="172"/>
        <source>Sold</source>
        <translation>已售</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundlinesmodel.cpp" line="174"/>
        <source>Given back</source>
        <translation>已退还</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundlinesmodel.cpp" line="176"/>
        <source>Refund now</source>
        <translation>本次退</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundlinesmodel.cpp" line="178"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::RefundSlip</name>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="33"/>
        <source>REFUND</source>
        <translation>退款凭证</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="36"/>
        <source>PENDING — NOT GIVEN BACK YET</source>
        <translation>处理中 — 尚未退还</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="40"/>
        <source>Refund no.</source>
        <translation>退款单号</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="41"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="42"/>
        <source>Terminal</source>
        <translation>终端</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="43"/>
        <source>Sale</source>
        <translation>销售单</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="44"/>
        <source>Receipt no. of the sale</source>
        <translation>原订单小票号</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="45"/>
        <source>Paid</source>
        <translation>实付</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="64"/>
        <source>Refund</source>
        <translation>退款金额</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="65"/>
        <source>To</source>
        <translation>退回到</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="65"/>
        <source>Cash, from the drawer</source>
        <translation>现金，从钱箱退还</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="67"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="68"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="87"/>
        <source>The amount above was given back in cash.</source>
        <translation>以上金额已以现金退还。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="88"/>
        <source>The amount above goes back to the card. The bank may take a few days to show it.</source>
        <translation>以上金额将退回到银行卡。银行入账可能需要几天。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="92"/>
        <source>This refund was not made: nothing was given back.</source>
        <translation>这笔退款未完成：没有退还任何钱款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="95"/>
        <source>This refund was voided before it was sent: nothing was given back.</source>
        <translation>这笔退款在发送前已作废：没有退还任何钱款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundslip.cpp" line="101"/>
        <source>The refund is saved on the till and is sent by itself; it is never made twice. Ask for the final slip once it is refunded.</source>
        <translation>退款已保存在收银机上，会自动发送，绝不会重复退款。退款完成后请索取最终的退款单。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::RefundViewModel</name>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="59"/>
        <source>Looking for the sale…</source>
        <translation>正在查找订单…</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="83"/>
        <location filename="../../ui/models/refundviewmodel.cpp" line="105"/>
        <source>Reading the sale…</source>
        <translation>正在读取订单…</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="94"/>
        <source>The payment this refund belongs to is not in the journal.</source>
        <translation>日志中没有这笔退款所属的支付。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="94"/>
        <source>This payment is not in the journal.</source>
        <translation>日志中没有这笔支付。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="140"/>
        <source>Choose the items or the amount to give back, then Refund.</source>
        <translation>选择要退的商品或金额，然后点击退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="244"/>
        <source>This payment was declined: nothing was charged, so there is nothing to refund.</source>
        <translation>这笔支付已被拒绝：没有扣款，因此无需退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="246"/>
        <source>This payment was voided before it was sent: nothing was charged, so there is nothing to refund.</source>
        <translation>这笔支付在发送前已作废：没有扣款，因此无需退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="248"/>
        <source>This payment was never executed (it needs attention): there is nothing to refund.</source>
        <translation>这笔支付从未执行（需要处理）：无需退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="253"/>
        <source>This payment is not confirmed yet. It can be refunded once the gateway says it is paid.</source>
        <translation>这笔支付尚未确认。网关确认支付成功后才能退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="258"/>
        <source>The gateway&apos;s id of this payment is not known, so it cannot be refunded from the till.</source>
        <translation>不知道这笔支付在网关的编号，因此无法在收银机上退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="260"/>
        <source>A refund of this sale is still on its way. Wait for its outcome before refunding again.</source>
        <translation>本单有一笔退款仍在处理中。请等待其结果后再退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="262"/>
        <source>This sale has been refunded in full.</source>
        <translation>本单已全额退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="275"/>
        <source>&quot;%1&quot; is not an amount.</source>
        <translation>“%1”不是有效金额。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="277"/>
        <source>At most %1 of this sale remains to be refunded.</source>
        <translation>本单最多还可退 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="295"/>
        <source>Saving the refund…</source>
        <translation>正在保存退款…</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="334"/>
        <source>Waiting for connection. The refund of %1 is saved and will be sent by itself; it is never made twice.</source>
        <translation>等待网络连接。%1 的退款已保存，将自动发送，绝不会重复退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="336"/>
        <location filename="../../ui/models/refundviewmodel.cpp" line="339"/>
        <source>Sending the refund of %1…</source>
        <translation>正在发送 %1 的退款…</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="342"/>
        <source>The bank is processing the refund of %1.</source>
        <translation>银行正在处理 %1 的退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="345"/>
        <source>Checking with the server… The answer was lost; the till asks before sending again, so the refund is never made twice.</source>
        <translation>正在向服务器核实… 未收到应答；收银机会先查询再重新发送，因此绝不会重复退款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="349"/>
        <source>Refunded %1 in cash: give it back to the customer from the drawer.</source>
        <translation>已现金退款 %1：请从钱箱退还给顾客。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="351"/>
        <source>Refunded %1 to %2.</source>
        <translation>已退款 %1 到 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="355"/>
        <source>The refund was declined. Nothing was given back.</source>
        <translation>退款被拒绝。没有退还任何钱款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="355"/>
        <source>The refund was declined (%1). Nothing was given back.</source>
        <translation>退款被拒绝（%1）。没有退还任何钱款。</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="359"/>
        <source>The refund needs attention: %1</source>
        <translation>退款需要处理：%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/refundviewmodel.cpp" line="362"/>
        <source>The refund was voided before it was sent: nothing was given back.</source>
        <translation>退款在发送前已作废：没有退还任何钱款。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::SaleLookup</name>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="171"/>
        <source>&quot;%1&quot; is not a receipt number. Type it as printed on the receipt, e.g. %2.</source>
        <translation>“%1”不是小票号。请按小票上打印的格式输入，例如 %2。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="173"/>
        <source>Receipt %1 was printed by till %2, not by this till (%3): refund it there.</source>
        <translation>小票 %1 由收银机 %2 打印，不是本收银机（%3）：请在那台收银机上退款。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="175"/>
        <source>No sale of this till has the receipt number %1.</source>
        <translation>本收银机没有小票号为 %1 的订单。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="169"/>
        <source>Type or scan the receipt number first.</source>
        <translation>请先输入或扫描小票号。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="177"/>
        <source>No sale of this till has the number %1.</source>
        <translation>本收银机没有编号为 %1 的销售。</translation>
    </message>
    <message>
        <location filename="../../app/till/tillerror.cpp" line="179"/>
        <source>No payment of this till is for sale %1.</source>
        <translation>本收银机没有订单 %1 的支付。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::SettingsDialog</name>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="0"/>
        <source>empty: no office</source>
        <translation>留空：不连接门店后台</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="0"/>
        <source>Office address</source>
        <translation>门店后台地址</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="0"/>
        <source>The shop&apos;s office, where this till sends its sales, refunds, cash and Z reports, each once. They wait on the till while it cannot be reached.</source>
        <translation>门店后台：本收银机把销售、退款、现金和日结报表各发送一次到这里。无法连接时，这些记录在收银机上等待。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="0"/>
        <source>Office token</source>
        <translation>门店后台令牌</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="0"/>
        <source>O&amp;ffice:</source>
        <translation>门店后台(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="0"/>
        <source>Office to&amp;ken:</source>
        <translation>门店后台令牌(&amp;K)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="0"/>
        <source>&quot;%1&quot; is not an office address such as http://192.0.2.20:8090.</source>
        <translation>“%1”不是门店后台地址，例如 http://192.0.2.20:8090。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="0"/>
        <source>The office needs the till&apos;s token.</source>
        <translation>门店后台需要本收银机的令牌。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp"/>
        <source>any difference</source>
        <translation>任何差额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp"/>
        <source>Largest cash difference at the close without a manager</source>
        <translation>结班时无需经理授权的最大现金差额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp"/>
        <source>A shift whose counted cash is further than this from what the drawer should hold, short or over, closes only with a manager&apos;s PIN.</source>
        <translation>清点的现金与钱箱应有金额相差超过此数（短款或长款）时，须经理输入 PIN 码才能结班。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp"/>
        <source>Largest cash difference at the close without a &amp;manager:</source>
        <translation>结班时无需经理授权的最大现金差额(&amp;M)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="34"/>
        <source>Till settings</source>
        <translation>收银机设置</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="40"/>
        <source>Till</source>
        <translation>收银机</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="45"/>
        <source>empty: the built-in demo gateway</source>
        <translation>留空：使用内置演示网关</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="46"/>
        <source>One gateway address, or several separated by commas. When one cannot be reached, the till uses the next; a payment is never charged twice.</source>
        <translation>一个网关地址，或用逗号分隔的多个地址。某个网关无法连接时，收银机会改用下一个；同一笔付款绝不会重复扣款。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="47"/>
        <source>Gateway address</source>
        <translation>网关地址</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="50"/>
        <source>Till token</source>
        <translation>收银机令牌</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="52"/>
        <source>Terminal name</source>
        <translation>终端名称</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="59"/>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="69"/>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="63"/>
        <source>Largest offline card payment</source>
        <translation>离线单笔刷卡上限</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="64"/>
        <source>Most that may wait offline</source>
        <translation>离线待发送总额上限</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="68"/>
        <source> h</source>
        <translation> 小时</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="70"/>
        <source>Longest a payment may wait offline</source>
        <translation>离线支付最长等待时间</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="74"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="75"/>
        <source>Longest the cashier waits for the bank&apos;s answer</source>
        <translation>收银员等待银行回复的最长时间</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="76"/>
        <source>After this, a card payment with no answer yet is confirmed by the till on its own and the next customer may be served.</source>
        <translation>超过此时间，尚无回复的刷卡付款将由收银机自行确认，可以接待下一位顾客。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="78"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="79"/>
        <source>System language</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="84"/>
        <source>Shop name</source>
        <translation>店铺名称</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="86"/>
        <source>Shop address</source>
        <translation>店铺地址</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="87"/>
        <source>Printed under the shop&apos;s name on every receipt.</source>
        <translation>打印在每张小票的店铺名称下方。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="89"/>
        <source>&amp;Gateway:</source>
        <translation>网关(&amp;G)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="90"/>
        <source>&amp;Token:</source>
        <translation>令牌(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="91"/>
        <source>Te&amp;rminal:</source>
        <translation>终端(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="92"/>
        <source>Largest &amp;offline card payment:</source>
        <translation>离线单笔刷卡上限(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="93"/>
        <source>Most waiting &amp;offline in total:</source>
        <translation>离线待发送总额上限(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="94"/>
        <source>Longest &amp;wait offline:</source>
        <translation>离线最长等待(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="95"/>
        <source>Wait for the &amp;bank&apos;s answer:</source>
        <translation>等待银行回复(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="96"/>
        <source>&amp;Language:</source>
        <translation>语言(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="97"/>
        <source>S&amp;hop name:</source>
        <translation>店铺名称(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="98"/>
        <source>Shop addr&amp;ess:</source>
        <translation>店铺地址(&amp;E)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="99"/>
        <source>The gateway, token and language apply when the till starts again; the limits and the shop at once.</source>
        <translation>网关、令牌和语言在收银机重新启动后生效；限额和店铺信息立即生效。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="103"/>
        <source>Shop</source>
        <translation>店铺</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="105"/>
        <source>empty: the catalog imported on this till</source>
        <translation>留空：使用本机导入的商品目录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="106"/>
        <source>Catalog URL</source>
        <translation>商品目录地址</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="107"/>
        <source>Fetched at start and every five minutes; kept, so the till sells offline.</source>
        <translation>启动时及每五分钟获取一次；会保存在本机，离线时也能销售。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="108"/>
        <source>Prices exclude VAT (it is added at the end)</source>
        <translation>价格不含增值税（结算时另加）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="109"/>
        <source>Prices exclude VAT</source>
        <translation>价格不含增值税</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="110"/>
        <source>Highest typed price</source>
        <translation>手动定价上限</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="114"/>
        <source>Scale label layouts</source>
        <translation>秤标签格式</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="115"/>
        <source>13 places: 2 and T the prefix and type, I the item code, V the price in fen or the weight in grams, P a price check digit, C the check digit; several separated by &quot;;&quot;.</source>
        <translation>13 位：2 和 T 为前缀和类型，I 为商品编号，V 为价格（分）或重量（克），P 为价格校验位，C 为校验位；多个格式用“;”分隔。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="121"/>
        <source>Largest discount without a manager</source>
        <translation>无需经理授权的最大折扣</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="122"/>
        <source>Largest refund or void without a manager</source>
        <translation>无需经理授权的最大退款或作废金额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="127"/>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="128"/>
        <source>never</source>
        <translation>从不</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="129"/>
        <source>Lock after idle time</source>
        <translation>空闲后锁定</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="130"/>
        <source>&amp;Catalog URL:</source>
        <translation>商品目录地址(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="132"/>
        <source>Highest &amp;typed price:</source>
        <translation>手动定价上限(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="133"/>
        <source>Scale &amp;labels:</source>
        <translation>秤标签格式(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="134"/>
        <source>Largest &amp;discount without a manager:</source>
        <translation>无需经理授权的最大折扣(&amp;D)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="135"/>
        <source>Largest &amp;refund or void without a manager:</source>
        <translation>无需经理授权的最大退款或作废(&amp;R)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="136"/>
        <source>Lock after &amp;idle:</source>
        <translation>空闲后锁定(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="137"/>
        <source>The limits apply once a manager is added (oncepay-ctl staff add); cash refunds always need one.</source>
        <translation>添加经理后（oncepay-ctl staff add）这些限额才生效；现金退款始终需要经理授权。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="142"/>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="144"/>
        <source>tcp://192.0.2.20:9100, file:///dev/usb/lp0 or cups://QUEUE</source>
        <translation>tcp://192.0.2.20:9100、file:///dev/usb/lp0 或 cups://队列名</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="145"/>
        <source>Receipt printer</source>
        <translation>小票打印机</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="147"/>
        <source>80 mm</source>
        <translation>80 毫米</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="148"/>
        <source>58 mm</source>
        <translation>58 毫米</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="150"/>
        <source>Paper width</source>
        <translation>纸宽</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="151"/>
        <source>Print the receipt when a sale is paid</source>
        <translation>销售付款后自动打印小票</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="154"/>
        <source>empty: the printer opens the drawer</source>
        <translation>留空：由打印机打开钱箱</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="155"/>
        <source>Cash drawer device</source>
        <translation>钱箱设备</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="156"/>
        <source>Print &amp;test page</source>
        <translation>打印测试页(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="157"/>
        <source>Print a test page on the receipt printer</source>
        <translation>在小票打印机上打印测试页</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="161"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="164"/>
        <source>Screen %1 (%2)</source>
        <translation>屏幕 %1（%2）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="166"/>
        <source>Screen %1 (not connected)</source>
        <translation>屏幕 %1（未连接）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="168"/>
        <source>Customer display screen</source>
        <translation>顾客显示屏</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="173"/>
        <source>Customer display language</source>
        <translation>顾客显示屏语言</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="174"/>
        <source>Receipt &amp;printer:</source>
        <translation>小票打印机(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="175"/>
        <source>Paper w&amp;idth:</source>
        <translation>纸宽(&amp;I)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="177"/>
        <source>Cash dra&amp;wer:</source>
        <translation>钱箱(&amp;W)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="179"/>
        <source>C&amp;ustomer display:</source>
        <translation>顾客显示屏(&amp;U)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="180"/>
        <source>Customer display &amp;language:</source>
        <translation>顾客显示屏语言(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="188"/>
        <source>Printing…</source>
        <translation>正在打印…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="193"/>
        <source>Test page</source>
        <translation>测试页</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="194"/>
        <source>The test page was printed.</source>
        <translation>测试页已打印。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="202"/>
        <source>&quot;%1&quot; is not a gateway address. Enter an address such as http://192.0.2.10:8080, several separated by commas, or leave the field empty for the demo.</source>
        <translation>“%1”不是有效的网关地址。请输入类似 http://192.0.2.10:8080 的地址，多个地址用逗号分隔；留空则使用演示网关。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="208"/>
        <source>Receipts need the shop&apos;s name.</source>
        <translation>小票需要店铺名称。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="212"/>
        <source>The till needs a token.</source>
        <translation>收银机需要令牌。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="217"/>
        <source>&quot;%1&quot; is not a catalog URL such as https://shop.example/catalog.csv.</source>
        <translation>“%1”不是商品目录地址，例如 https://shop.example/catalog.csv。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/settingsdialog.cpp" line="230"/>
        <source>&quot;%1&quot; is not a scale label layout: 13 places such as 2T IIIII VVVVV C.</source>
        <translation>“%1”不是秤标签格式：应为 13 位，例如 2T IIIII VVVVV C。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ShiftChartView</name>
    <message>
        <location filename="../../ui/widgets/shiftchartview.cpp" line="19"/>
        <location filename="../../ui/widgets/shiftchartview.cpp" line="27"/>
        <source>Sales per hour</source>
        <translation>每小时销售额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftchartview.cpp" line="30"/>
        <source>Card</source>
        <translation>银行卡</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftchartview.cpp" line="31"/>
        <source>Cash</source>
        <translation>现金</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftchartview.cpp" line="50"/>
        <source>no sales yet</source>
        <translation>尚无销售</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ShiftCloseDialog</name>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp"/>
        <source>Closing shift %1 with %2 missing</source>
        <translation>第 %1 班结班时短款 %2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp"/>
        <source>Closing shift %1 with %2 too much</source>
        <translation>第 %1 班结班时长款 %2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="345"/>
        <source>Refunds the till owes and could not make (the customer paid twice):</source>
        <translation>收银机应退而未能退回的款项（顾客重复付款）：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="47"/>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="182"/>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="373"/>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="397"/>
        <source>Close shift</source>
        <translation>结班</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="65"/>
        <source>Shift status</source>
        <translation>班次状态</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="71"/>
        <source>Shift totals</source>
        <translation>班次合计</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="88"/>
        <source>Opening float</source>
        <translation>开班备用金</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="89"/>
        <source>the cash put in the drawer at the start, e.g. 200.00</source>
        <translation>开班时放入钱箱的现金，例如 200.00</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="90"/>
        <source>&amp;Opening float (first shift):</source>
        <translation>开班备用金（第一个班次）(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="93"/>
        <source>Cash expected</source>
        <translation>应有现金</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="94"/>
        <source>Expected in the drawer:</source>
        <translation>钱箱应有：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="96"/>
        <source>Cash counted</source>
        <translation>清点现金</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="97"/>
        <source>count the drawer, e.g. 120.50</source>
        <translation>清点钱箱，例如 120.50</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="98"/>
        <source>Cash &amp;counted:</source>
        <translation>清点现金(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="100"/>
        <source>Cash difference</source>
        <translation>现金差额</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="101"/>
        <source>Difference:</source>
        <translation>差额：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="103"/>
        <source>Float for the next shift</source>
        <translation>留给下一班的备用金</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="105"/>
        <source>&amp;Left for the next shift:</source>
        <translation>留给下一班(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="108"/>
        <source>Still waiting</source>
        <translation>仍在等待</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="117"/>
        <source>Reconciliation summary</source>
        <translation>对账摘要</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="126"/>
        <source>Show the rows that agree</source>
        <translation>显示一致的行</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="129"/>
        <source>Nothing needs a person and nothing waits: every payment and refund agrees.</source>
        <translation>没有需要人工处理或等待的交易：每笔付款和退款都一致。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="130"/>
        <source>Every row agrees</source>
        <translation>所有行都一致</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="134"/>
        <source>Reconciliation</source>
        <translation>对账</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="144"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="145"/>
        <source>Check the shift again</source>
        <translation>重新核对班次</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="146"/>
        <source>&amp;Print…</source>
        <translation>打印(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="147"/>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="365"/>
        <source>Print the shift report</source>
        <translation>打印班次报表</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="148"/>
        <source>Save as P&amp;DF…</source>
        <translation>另存为 PDF(&amp;D)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="149"/>
        <source>Save the shift report as PDF</source>
        <translation>将班次报表另存为 PDF</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="152"/>
        <source>Close &amp;shift…</source>
        <translation>结班(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="153"/>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="334"/>
        <source>Close the shift</source>
        <translation>结班</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="198"/>
        <source>no payment yet</source>
        <translation>尚无付款</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="199"/>
        <source>Shift %1 closed (opened %2)</source>
        <translation>第 %1 班已结班（开班于 %2）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="200"/>
        <source>Shift %1, opened %2</source>
        <translation>第 %1 班，开班于 %2</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="201"/>
        <source>%1 (float %2 + cash sales %3 − cash refunds %4)</source>
        <translation>%1（备用金 %2 + 现金销售 %3 − 现金退款 %4）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="206"/>
        <source>none: the drawer is right</source>
        <translation>无：钱箱金额正确</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="207"/>
        <source>%1 missing</source>
        <translation>短缺 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="208"/>
        <source>%1 too much</source>
        <translation>多出 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="211"/>
        <source>count the drawer</source>
        <translation>请清点钱箱</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="215"/>
        <source>Nothing waits for the server.</source>
        <translation>没有等待服务器处理的交易。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="216"/>
        <source>Still waiting for the server (%n):</source>
        <translation>
            <numerusform>仍在等待服务器（%n 笔）：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="219"/>
        <source>Refunded by the till by itself (%n):</source>
        <translation>
            <numerusform>收银机自动退款（%n）：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="223"/>
        <source>Waiting at the last close, and how they ended (%n):</source>
        <translation>
            <numerusform>上次结班时仍在等待的款项及其结果（%n）：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="236"/>
        <source>Show the %n row(s) that &amp;agree (cash is counted in the drawer)</source>
        <translation>
            <numerusform>显示 %n 行一致的记录(&amp;A)（现金在钱箱中清点）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="258"/>
        <source>Checking the shift with the server…</source>
        <translation>正在与服务器核对班次…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="264"/>
        <source>Closing the shift…</source>
        <translation>正在结班…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="267"/>
        <source>Shift %1 is closed and its report is kept on this till. The next payment opens shift %2.</source>
        <translation>第 %1 班已结班，报表保存在本收银机上。下一笔付款将开启第 %2 班。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="271"/>
        <source>It was not checked with the server.</source>
        <translation>本班次未经服务器核对。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="273"/>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="358"/>
        <source>Shift report %1</source>
        <translation>班次报表 %1</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="275"/>
        <source>Its report is printed on the receipt printer.</source>
        <translation>班次报表已在小票打印机上打印。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="279"/>
        <source>Checked with the server at %1.</source>
        <translation>已于 %1 与服务器核对。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="289"/>
        <source>Reconciliation: not checked yet.</source>
        <translation>对账：尚未核对。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="291"/>
        <source>Reconciliation with the server%1: %2 agree, %3 to wait for, %4 for a person.</source>
        <translation>与服务器%1对账：%2 项一致，%3 项待等待，%4 项需人工处理。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="292"/>
        <source> and the bank</source>
        <translation>和银行</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="311"/>
        <source>Close shift %1?</source>
        <translation>结束第 %1 班？</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="312"/>
        <source>Net takings %1; expected in the drawer %2.</source>
        <translation>净收入 %1；钱箱应有 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="315"/>
        <source>The cash has not been counted.</source>
        <translation>尚未清点现金。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="318"/>
        <source>Counted %1: %2 missing.</source>
        <translation>清点 %1：短少 %2。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="318"/>
        <source>Counted %1: %2 too much.</source>
        <translation>清点 %1：多出 %2。</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="321"/>
        <source>%n still wait(s) for the server and will move to the next shift:</source>
        <translation>
            <numerusform>%n 笔仍在等待服务器，将转入下一班：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="326"/>
        <source>%n reconciliation row(s) need a person; they are kept with the report.</source>
        <translation>
            <numerusform>%n 行对账结果需人工处理；它们与报表一同保存。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="328"/>
        <source>The server does not answer: the shift is closed without its check. The next shift&apos;s report says how the waiting payments ended.</source>
        <translation>服务器没有应答：本班次将在未核对的情况下结束。下一班次的报表会说明等待中的款项最终如何。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="332"/>
        <source>A closed shift cannot be reopened.</source>
        <translation>结班后不能重新打开。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="333"/>
        <source>Close without the server&apos;s check</source>
        <translation>不经服务器核对直接结班</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="335"/>
        <source>Close with %n waiting</source>
        <translation>
            <numerusform>结班（%n 笔仍在等待）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="337"/>
        <source>Keep the shift open</source>
        <translation>暂不结班</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="359"/>
        <source>The shift report is on its way to the receipt printer.</source>
        <translation>班次报表正在发送到小票打印机。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="373"/>
        <source>The printer reported an error; the report may not have been printed.</source>
        <translation>打印机报告错误；报表可能未打印。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="379"/>
        <source>Save the shift report</source>
        <translation>保存班次报表</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="382"/>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 文件 (*.pdf)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="395"/>
        <source>The report was saved to %1.</source>
        <translation>报表已保存到 %1。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/shiftclosedialog.cpp" line="397"/>
        <source>The report could not be written to %1: %2</source>
        <translation>报表无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ShiftCloseViewModel</name>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="59"/>
        <source>The journal could not be read: %1</source>
        <translation>无法读取日志：%1</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="70"/>
        <source>The shift cannot be checked with the server (%1). It can be closed without the check: the payments still waiting move to the next shift.</source>
        <translation>无法与服务器核对本班次（%1）。可以不经核对结班：仍在等待的款项转入下一班次。</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="143"/>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="173"/>
        <source>Refund for sale %1</source>
        <translation>订单 %1 的退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="144"/>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="174"/>
        <source>Sale %1</source>
        <translation>订单 %1</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="145"/>
        <source>%1: %2, %3%4</source>
        <translation>%1：%2，%3%4</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="145"/>
        <source> (from an earlier shift)</source>
        <translation>（来自之前的班次）</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="157"/>
        <source>%1 charged late, refunded automatically</source>
        <translation>%1 延迟扣款，已自动退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="158"/>
        <source>%1 refunded by the till (sale cancelled)</source>
        <translation>%1 已由收银机退款（销售已取消）</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="160"/>
        <source>%1 charged late; the till&apos;s refund was refused: needs attention</source>
        <translation>%1 延迟扣款；收银机的退款被拒绝：需要处理</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="162"/>
        <source>%1 charged late; the till&apos;s refund is on its way</source>
        <translation>%1 延迟扣款；收银机的退款正在进行</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="164"/>
        <source>Sale %1: %2</source>
        <translation>销售 %1：%2</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="175"/>
        <source>%1: %2, %3</source>
        <translation>%1：%2，%3</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftcloseviewmodel.cpp" line="203"/>
        <source>The shift was not closed: %1</source>
        <translation>未能结班：%1</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ShiftFindingsModel</name>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="45"/>
        <source>Voided</source>
        <translation>已作废</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="47"/>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="55"/>
        <source>Refunded</source>
        <translation>已退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="57"/>
        <source>Refund failed</source>
        <translation>退款失败</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="74"/>
        <source>Cash payment</source>
        <translation>现金支付</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="74"/>
        <source>Card payment</source>
        <translation>银行卡付款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="77"/>
        <source>Cash refund</source>
        <translation>现金退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="77"/>
        <source>Card refund</source>
        <translation>银行卡退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="80"/>
        <source>Refunded in all</source>
        <translation>退款合计</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="84"/>
        <source>%1, sale %2</source>
        <translation>%1，订单 %2</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="90"/>
        <source>not on the till</source>
        <translation>不在收银机上</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="93"/>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="99"/>
        <source>%1, %2</source>
        <translation>%1，%2</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="96"/>
        <source>not sent (cash)</source>
        <translation>未发送（现金）</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="96"/>
        <source>not on the server</source>
        <translation>不在服务器上</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="129"/>
        <source>Key %1</source>
        <translation>幂等键 %1</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="149"/>
        <source>Payment</source>
        <translation>付款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="151"/>
        <source>Finding</source>
        <translation>核对结果</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="153"/>
        <source>Till</source>
        <translation>收银机</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="155"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="157"/>
        <source>Bank</source>
        <translation>银行</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftfindingsmodel.cpp" line="159"/>
        <source>What to do</source>
        <translation>处理办法</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ShiftReportDocument</name>
    <message numerus="yes">
        <source>Sales left parked (nothing paid): %n, %1 in all.</source>
        <translation>
            <numerusform>仍在挂单（未付款）：%n 单，共 %1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, parked %2: %n item(s), %3</source>
        <translation>
            <numerusform>%1，%2 挂单：%n 件，%3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1, parked %2 by %3: %n item(s), %4</source>
        <translation>
            <numerusform>%1，%2 由 %3 挂单：%n 件，%4</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="64"/>
        <source>Refunds the till owes and could not make (the customer paid twice):</source>
        <translation>收银机应退而未能退回的款项（顾客重复付款）：</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="30"/>
        <source>Sale %1: %2 owed to the customer. %3</source>
        <translation>销售 %1：欠顾客 %2。%3</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="34"/>
        <source>Z report: shift %1 closed</source>
        <translation>Z 报表：第 %1 班已结班</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="34"/>
        <source>Shift %1 (open): report so far</source>
        <translation>第 %1 班（未结班）：截至目前的报表</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="36"/>
        <source>Terminal %1</source>
        <translation>终端 %1</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="37"/>
        <source>Opened %1, %2 %3</source>
        <translation>开班于 %1，%2 %3</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="37"/>
        <source>closed</source>
        <translation>结班于</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="37"/>
        <source>printed</source>
        <translation>打印于</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="40"/>
        <source>Totals</source>
        <translation>合计</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="40"/>
        <source>Count</source>
        <translation>笔数</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="40"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="47"/>
        <source>Cash drawer: float %1 + cash sales %2 − cash refunds %3 = expected %4.</source>
        <translation>钱箱：备用金 %1 + 现金销售 %2 − 现金退款 %3 = 应有 %4。</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="52"/>
        <source>the drawer is right</source>
        <translation>钱箱金额正确</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="53"/>
        <source>%1 missing</source>
        <translation>短缺 %1</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="54"/>
        <source>%1 too much</source>
        <translation>多出 %1</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="55"/>
        <source>Counted %1: %2.</source>
        <translation>清点 %1：%2。</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="63"/>
        <source>VAT</source>
        <translation>增值税率</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="63"/>
        <source>Net</source>
        <translation>不含税</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="63"/>
        <source>Tax</source>
        <translation>税额</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="63"/>
        <source>Gross</source>
        <translation>含税</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/shiftreportdocument.cpp" line="72"/>
        <source>Refunded as an amount, not by items: %n refund(s), %1 in all; their tax is not taken off the rates above.</source>
        <translation>
            <numerusform>按金额而非按商品退款：%n 笔，共 %1；其税额未从上面各税率中扣除。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/shiftreportdocument.cpp" line="75"/>
        <source>Discounts: %n sale(s), %1 in all.</source>
        <translation>
            <numerusform>折扣：%n 笔销售，共 %1。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="83"/>
        <source>Cashier</source>
        <translation>收银员</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="83"/>
        <source>Takings</source>
        <translation>收款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="83"/>
        <source>Refunds</source>
        <translation>退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="86"/>
        <source>(no one signed in)</source>
        <translation>（无人登录）</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="94"/>
        <source>Still waiting for the server:</source>
        <translation>仍在等待服务器：</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="100"/>
        <source>Refunded by the till by itself:</source>
        <translation>收银机自动退款：</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="106"/>
        <source>Waiting at the last close, and how they ended:</source>
        <translation>上次结班时仍在等待的款项及其结果：</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="111"/>
        <source>Sales per hour</source>
        <translation>每小时销售额</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="112"/>
        <source>Reconciliation with the server and the bank</source>
        <translation>与服务器和银行对账</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="117"/>
        <source>Not checked: the server could not be asked.</source>
        <translation>未核对：无法查询服务器。</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="119"/>
        <source>%1 of %2 rows need nothing.</source>
        <translation>%2 行中有 %1 行无需处理。</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="124"/>
        <source>Sale</source>
        <translation>销售单</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="124"/>
        <source>Finding</source>
        <translation>核对结果</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="124"/>
        <source>Bank</source>
        <translation>银行</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="124"/>
        <source>What to do</source>
        <translation>处理办法</translation>
    </message>
    <message>
        <location filename="../../ui/models/shiftreportdocument.cpp" line="154"/>
        <source>Z report</source>
        <translation>Z 报表</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ShiftTotalsModel</name>
    <message>
        <source>Sales left parked (not paid)</source>
        <translation>仍在挂单（未付款）</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="23"/>
        <source>Card sales</source>
        <translation>银行卡销售</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="25"/>
        <source>  of which WeChat Pay</source>
        <translation>  其中微信支付</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="27"/>
        <source>  of which Alipay</source>
        <translation>  其中支付宝</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="29"/>
        <source>Cash sales</source>
        <translation>现金销售</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="31"/>
        <source>Card refunds</source>
        <translation>银行卡退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="33"/>
        <source>Cash refunds</source>
        <translation>现金退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="35"/>
        <source>Refunds that failed</source>
        <translation>失败的退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="37"/>
        <source>Declined card payments</source>
        <translation>被拒绝的银行卡付款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="39"/>
        <source>Wallet payments cancelled (nothing charged)</source>
        <translation>已取消的钱包付款（未扣款）</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="39"/>
        <source>Voided before sending</source>
        <translation>发送前作废</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="41"/>
        <source>Needs attention</source>
        <translation>需要处理</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="43"/>
        <source>Payments still waiting</source>
        <translation>仍在等待的付款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="45"/>
        <source>Refunds still waiting</source>
        <translation>仍在等待的退款</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="47"/>
        <source>Net takings (sales − refunds)</source>
        <translation>净收入（销售 − 退款）</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="135"/>
        <source>Shift totals</source>
        <translation>班次合计</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="137"/>
        <source>Count</source>
        <translation>笔数</translation>
    </message>
    <message>
        <location filename="../../ui/models/shifttotalsmodel.cpp" line="139"/>
        <source>Amount</source>
        <translation>金额</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::SignInDialog</name>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="23"/>
        <location filename="../../ui/widgets/signindialog.cpp" line="24"/>
        <source>Sign in</source>
        <translation>登录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="23"/>
        <source>A manager&apos;s approval</source>
        <translation>经理授权</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="24"/>
        <source>Manager approval</source>
        <translation>经理授权</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="27"/>
        <source>The till is locked. Sign in with your name and PIN.</source>
        <translation>收银机已锁定。请用姓名和 PIN 码登录。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="28"/>
        <source>%1 needs a manager. A manager types their PIN here.</source>
        <translation>%1需要经理授权。请经理在此输入 PIN 码。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="38"/>
        <source>Name</source>
        <translation>姓名</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="47"/>
        <source>&amp;Name:</source>
        <translation>姓名(&amp;N)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="49"/>
        <source>PIN</source>
        <translation>PIN 码</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="53"/>
        <source>&amp;PIN:</source>
        <translation>PIN 码(&amp;P)：</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="56"/>
        <source>Sign-in message</source>
        <translation>登录提示</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="62"/>
        <source>&amp;Sign in</source>
        <translation>登录(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="62"/>
        <source>&amp;Approve</source>
        <translation>授权(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="93"/>
        <source>No one to sign in as: add staff with oncepay-ctl staff add.</source>
        <translation>没有可登录的员工：请用 oncepay-ctl staff add 添加员工。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="97"/>
        <source>Checking…</source>
        <translation>正在核对…</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="117"/>
        <source>%1 is not a manager.</source>
        <translation>%1 不是经理。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="110"/>
        <source>That was a scan, not a PIN: %1 was not added. A manager types the PIN; scan it again afterwards.</source>
        <translation>这是扫码，不是 PIN 码：%1 未加入。请经理输入 PIN 码，之后再扫一次。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="115"/>
        <source>Sign in first: %1 is kept and added to the sale once you have signed in.</source>
        <translation>请先登录：%1 已保留，登录后加入本笔交易。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="116"/>
        <source>Sign in first: %1 scanned items are kept and added to the sale once you have signed in.</source>
        <translation>请先登录：已扫描的 %1 件商品已保留，登录后加入本笔交易。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/signindialog.cpp" line="133"/>
        <source>Type your PIN, then press Enter.</source>
        <translation>请输入 PIN 码，然后按回车。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::TillSettings</name>
    <message>
        <location filename="../../ui/models/tillsettings.cpp" line="55"/>
        <source>OncePay Demo Shop</source>
        <translation>OncePay 演示商店</translation>
    </message>
    <message>
        <location filename="../../ui/models/tillsettings.cpp" line="60"/>
        <source>1 Example Road, Huangpu District, Shanghai</source>
        <translation>上海市黄浦区示例路 1 号</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::TillStatus</name>
    <message numerus="yes">
        <location filename="../../ui/models/tillstatus.cpp" line="0"/>
        <source>Office: %n waiting, sending stopped: %1</source>
        <translation>
            <numerusform>门店后台：%n 条待发送，已停止发送：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/tillstatus.cpp" line="0"/>
        <source>Office: %n waiting</source>
        <translation>
            <numerusform>门店后台：%n 条待发送</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/tillstatus.cpp" line="0"/>
        <source>the oldest for %n hour(s)</source>
        <translation>
            <numerusform>最早一条已等待 %n 小时</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="0"/>
        <source>the office cannot be reached</source>
        <translation>无法连接门店后台</translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="37"/>
        <source>● Online</source>
        <translation>● 在线</translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="40"/>
        <source>○ Offline</source>
        <translation>○ 离线</translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="43"/>
        <source>◐ Reconnecting…</source>
        <translation>◐ 正在重新连接…</translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="46"/>
        <source>◌ No answer from the gateway</source>
        <translation>◌ 网关无应答</translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="50"/>
        <source>⏸ Paused: the gateway refused this till&apos;s token</source>
        <translation>⏸ 已暂停：网关拒绝了本收银机的令牌</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/tillstatus.cpp" line="54"/>
        <source>(next try in %n s)</source>
        <translation>
            <numerusform>（%n 秒后重试）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="54"/>
        <source>(trying now)</source>
        <translation>（正在重试）</translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/tillstatus.cpp" line="72"/>
        <source>Waiting: %n payment(s)</source>
        <translation>
            <numerusform>待发送：%n 笔支付</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../ui/models/tillstatus.cpp" line="78"/>
        <source>%n payment(s) waiting</source>
        <translation>
            <numerusform>%n 笔支付待发送</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="83"/>
        <source>Demo gateway</source>
        <translation>演示网关</translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="85"/>
        <source>(gateway %1 of %2)</source>
        <translation>（网关 %1/%2）</translation>
    </message>
    <message>
        <location filename="../../ui/models/tillstatus.cpp" line="86"/>
        <source>terminal %1</source>
        <translation>终端 %1</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::TillStatusBar</name>
    <message>
        <location filename="../../ui/widgets/tillstatusbar.cpp" line="0"/>
        <source>Office</source>
        <translation>门店后台</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/tillstatusbar.cpp" line="19"/>
        <source>Connection</source>
        <translation>网络连接</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/tillstatusbar.cpp" line="20"/>
        <source>Waiting payments</source>
        <translation>待发送支付</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/tillstatusbar.cpp" line="21"/>
        <source>Gateway</source>
        <translation>网关</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/tillstatusbar.cpp" line="26"/>
        <source>Status message</source>
        <translation>状态消息</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::TimelineWidget</name>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="11"/>
        <source>Timeline of attempts</source>
        <translation>尝试时间线</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="36"/>
        <source>No attempt yet: the payment has not left the till.</source>
        <translation>尚无尝试：这笔支付还没有从收银机发出。</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="51"/>
        <source>replayed</source>
        <translation>已重放</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="51"/>
        <source>answered</source>
        <translation>已应答</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="54"/>
        <source>declined</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="57"/>
        <source>not at the gateway</source>
        <translation>网关无记录</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="60"/>
        <source>refused (%1)</source>
        <comment>an HTTP status</comment>
        <translation>被拒绝（%1）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="63"/>
        <source>answer lost</source>
        <translation>应答丢失</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="65"/>
        <source>not sent</source>
        <translation>未发出</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="74"/>
        <source>sent</source>
        <translation>发送</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="74"/>
        <source>retried, same key</source>
        <translation>重试（同一幂等键）</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="77"/>
        <source>asked by key</source>
        <translation>按幂等键查询</translation>
    </message>
    <message>
        <location filename="../../ui/widgets/timelinewidget.cpp" line="80"/>
        <source>polled</source>
        <translation>轮询</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="0"/>
        <source>The shop&apos;s office, where the till sends its sales, refunds, cash and Z reports, each once (remembered, as in Settings; default ONCEPAY_OFFICE, else none).</source>
        <translation>门店后台：收银机把销售、退款、现金和日结报表各发送一次到这里（会被记住，与设置中相同；默认 ONCEPAY_OFFICE，否则不连接）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="0"/>
        <source>The till&apos;s token at the office (default ONCEPAY_OFFICE_TOKEN, else the Settings&apos;).</source>
        <translation>本收银机在门店后台的令牌（默认 ONCEPAY_OFFICE_TOKEN，否则使用设置中的）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="0"/>
        <source>--office: &quot;%1&quot; is not an office address such as http://192.0.2.20:8090.</source>
        <translation>--office：“%1”不是门店后台地址，例如 http://192.0.2.20:8090。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="13"/>
        <source>OncePay till: a checkout that never charges a customer twice.</source>
        <translation>OncePay 收银台：绝不重复扣款的收银系统。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="16"/>
        <source>Gateway URL, or several separated by commas: instances of one gateway, the next used when one cannot be reached (default: the embedded demo gateway).</source>
        <translation>网关地址，或用逗号分隔的多个地址（同一网关的多个实例，某个无法连接时改用下一个；默认：内置演示网关）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="17"/>
        <source>The till&apos;s bearer token.</source>
        <translation>收银机的访问令牌（Bearer）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="18"/>
        <source>Certificate authorities (PEM) to trust for an https:// gateway, besides the system&apos;s.</source>
        <translation>除系统自带的证书外，访问 https:// 网关时额外信任的证书颁发机构（PEM）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="19"/>
        <source>Allow sending the till&apos;s token over plain HTTP to a gateway on another machine.</source>
        <translation>允许通过明文 HTTP 将收银机的令牌发送到另一台机器上的网关。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="20"/>
        <source>The till&apos;s journal (default: in the app data folder); its folder is created when missing.</source>
        <translation>收银机的交易日志（默认：在应用数据文件夹中）；文件夹不存在时会自动创建。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="21"/>
        <source>Fetch the shop&apos;s catalog (CSV or JSON) from this URL at start and every five minutes, with its ETag; the last good one is kept for selling offline (default: the Settings&apos; catalog URL).</source>
        <translation>启动时及每五分钟从此地址获取本店商品目录（CSV 或 JSON，使用 ETag）；保留最后一份有效目录供离线销售（默认：设置中的商品目录地址）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="22"/>
        <source>The receipt printer: tcp://HOST:PORT, file:///dev/usb/lp0 or cups://QUEUE (remembered, as in Settings).</source>
        <translation>小票打印机：tcp://主机:端口、file:///dev/usb/lp0 或 cups://队列名（会被记住，与设置中相同）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="23"/>
        <source>Print the test page on --printer and exit, without a window: 0 printed, 1 not (the reason on stderr).</source>
        <translation>在 --printer 上打印测试页后退出，不打开窗口：0 表示已打印，1 表示未打印（原因写在 stderr）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="24"/>
        <source>Show the customer display full screen on the screen of this index (0 is the first; default: the Settings&apos; choice).</source>
        <translation>在此编号的屏幕上全屏显示顾客显示屏（0 为第一块屏幕；默认：设置中的选择）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="25"/>
        <source>Full screen, for a till that does nothing else.</source>
        <translation>全屏显示，用于专用收银机。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="26"/>
        <source>Demo only: start the network simulator in this mode (online, offline, black_hole, lose_responses, latency=MS, flaky=PCT).</source>
        <translation>仅限演示：以此模式启动网络模拟器（online、offline、black_hole、lose_responses、latency=毫秒、flaky=百分比）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="27"/>
        <source>Print the time to the shown window and the memory in use, then quit (benchmarks).</source>
        <translation>输出从启动到窗口显示的时间和内存占用，然后退出（用于性能测试）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="28"/>
        <source>Demo only: queue N payments offline, reconnect, and print the longest stall of the window while they drain, then quit (benchmarks).</source>
        <translation>仅限演示：离线排队 N 笔支付后恢复网络，输出发送期间窗口最长的卡顿时间，然后退出（用于性能测试）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tilloptions.cpp" line="29"/>
        <source>The language of the till: en or zh_CN (remembered; default: the system&apos;s).</source>
        <translation>收银台界面语言：en 或 zh_CN（会记住此设置；默认跟随系统）。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="42"/>
        <source>OncePay cannot start</source>
        <translation>OncePay 无法启动</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="104"/>
        <source>--gateway: &quot;%1&quot; is not a gateway address. Give one or more http:// or https:// addresses separated by commas, such as http://192.0.2.10:8080,http://192.0.2.11:8080.</source>
        <translation>--gateway：“%1”不是有效的网关地址。请给出一个或多个以 http:// 或 https:// 开头、用逗号分隔的地址，例如 http://192.0.2.10:8080,http://192.0.2.11:8080。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="109"/>
        <source>--catalog-url: &quot;%1&quot; is not a URL such as https://shop.example/catalog.csv.</source>
        <translation>--catalog-url：“%1”不是有效地址，例如 https://shop.example/catalog.csv。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="112"/>
        <source>Cannot create the data folder %1.</source>
        <translation>无法创建数据文件夹 %1。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="146"/>
        <source>The staff list %1 cannot be opened: %2</source>
        <translation>无法打开员工名单 %1：%2</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="150"/>
        <source>--network needs the demo gateway and one of: online, offline, black_hole, lose_responses, latency=MS, flaky=PCT.</source>
        <translation>--network 需要使用演示网关，且取值为：online、offline、black_hole、lose_responses、latency=毫秒、flaky=百分比。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="161"/>
        <source>The catalog was updated from the shop&apos;s server.</source>
        <translation>已从本店服务器更新商品目录。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="166"/>
        <source>The catalog on the shop&apos;s server was refused (the one in use stays): %1</source>
        <translation>本店服务器上的商品目录被拒绝（继续使用当前目录）：%1</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="169"/>
        <source>The shop&apos;s catalog server cannot be reached (%1): selling from the catalog kept on this till.</source>
        <translation>无法连接本店商品目录服务器（%1）：使用本机保存的商品目录销售。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="218"/>
        <source>OncePay</source>
        <translation>OncePay</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="248"/>
        <source>Test page</source>
        <translation>测试页</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="255"/>
        <source>The test page was printed on %1.</source>
        <translation>测试页已在 %1 上打印。</translation>
    </message>
    <message>
        <location filename="../../app/pos/tillapp.cpp" line="258"/>
        <source>the printer did not answer</source>
        <translation>打印机没有应答</translation>
    </message>
</context>
<context>
    <name>OncePay::ParkedSaleBook</name>
    <message>
        <source>%1 of this sale is paid already, and a sale with money taken cannot be parked. Take the rest, or cancel the sale (Ctrl+N) to give the money back.</source>
        <translation>此单已付 %1，已收款的销售不能挂单。请收齐余款，或取消此单（Ctrl+N）并退还款项。</translation>
    </message>
    <message>
        <source>A payment of %1 for this sale is still waiting for the bank&apos;s answer, so the sale cannot be parked. Wait for the answer, or press F6 if the customer pays another way.</source>
        <translation>此单有一笔 %1 的付款仍在等待银行答复，因此不能挂单。请等待答复；如顾客改用其他方式付款，请按 F6。</translation>
    </message>
    <message>
        <source>A payment of this sale is being saved: park it once that is done.</source>
        <translation>此单的一笔付款正在保存：保存完成后再挂单。</translation>
    </message>
    <message>
        <source>Parked sale %1 is no longer parked: it was recalled or deleted meanwhile.</source>
        <translation>挂单 %1 已不在挂单中：它在此期间已被取回或删除。</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ParkedSales</name>
    <message>
        <source>%1 ×%2</source>
        <translation>%1 ×%2</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s): %1</source>
        <translation>
            <numerusform>%n 件：%1</numerusform>
        </translation>
    </message>
    <message>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <source>Number</source>
        <translation>单号</translation>
    </message>
    <message>
        <source>Parked at</source>
        <translation>挂单时间</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>商品</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>合计</translation>
    </message>
    <message>
        <source>Parked by</source>
        <translation>挂单人</translation>
    </message>
</context>
<context>
    <name>OncePay::Ui::ParkedSalesDialog</name>
    <message>
        <source>Parked sales</source>
        <translation>挂单</translation>
    </message>
    <message>
        <source>Enter puts the selected sale back in the cart. Del deletes it. Esc closes.</source>
        <translation>按 Enter 将所选挂单取回购物车，按 Del 删除，按 Esc 关闭。</translation>
    </message>
    <message>
        <source>Parked sales list</source>
        <translation>挂单列表</translation>
    </message>
    <message>
        <source>The sale on screen</source>
        <translation>屏幕上的销售</translation>
    </message>
    <message>
        <source>Parked sales message</source>
        <translation>挂单提示</translation>
    </message>
    <message>
        <source>Delete question</source>
        <translation>删除确认</translation>
    </message>
    <message>
        <source>Delete it (Del)</source>
        <translation>删除（Del）</translation>
    </message>
    <message>
        <source>Keep it (Esc)</source>
        <translation>保留（Esc）</translation>
    </message>
    <message>
        <source>Recall (Enter)</source>
        <translation>取单（Enter）</translation>
    </message>
    <message>
        <source>Delete… (Del)</source>
        <translation>删除…（Del）</translation>
    </message>
    <message>
        <source>Close (Esc)</source>
        <translation>关闭（Esc）</translation>
    </message>
    <message>
        <source>Parked sale %1 is deleted.</source>
        <translation>挂单 %1 已删除。</translation>
    </message>
    <message>
        <source>No sale is parked. F5 parks the sale on screen.</source>
        <translation>没有挂单。按 F5 可将屏幕上的销售挂单。</translation>
    </message>
    <message>
        <source>The sale on screen cannot be parked, so no other can be recalled now: %1</source>
        <translation>屏幕上的销售不能挂单，因此现在不能取回其他挂单：%1</translation>
    </message>
    <message>
        <source>The sale on screen is parked first when you recall another.</source>
        <translation>取回其他挂单时，屏幕上的销售会先被挂单。</translation>
    </message>
    <message>
        <source>Delete parked sale %1 (%2, %3)? Its items go back on the shelf; the journal keeps that you deleted it.</source>
        <translation>删除挂单 %1（%2，%3）？其商品放回货架；日志会记录是您删除的。</translation>
    </message>
    <message>
        <source>%1 was scanned: it is kept and added to the sale when this list closes.</source>
        <translation>已扫描 %1：已保留，关闭此列表后加入销售。</translation>
    </message>
    <message>
        <source>%1 scanned items are kept and added to the sale when this list closes.</source>
        <translation>已保留 %1 件扫描的商品，关闭此列表后加入销售。</translation>
    </message>
    <message>
        <source>Press Del to delete it, or Esc to keep it.</source>
        <translation>按 Del 删除，或按 Esc 保留。</translation>
    </message>
</context>
</TS>
