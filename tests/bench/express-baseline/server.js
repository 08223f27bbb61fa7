#!/usr/bin/env node
// Benchmark baseline: POST /v1/payments of the contract (shared/API.md) on Express 4 with the
// express-idempotency middleware and, by default, its in-memory data adapter.
//
// It mirrors oncepay-gateway as far as the library allows (order of checks, problem
// bodies, validation, acquirer outcomes). With the memory and map adapters everything is
// in memory: NOT durable. With the sqlite adapter the idempotency records are durable
// (SQLite WAL, synchronous=FULL, committed before the answer); payments and the simulated
// acquirer stay in memory. See README.md in this folder for what differs and how replays
// are detected.
//
// usage: node server.js [--port N] [--adapter memory|map|sqlite] [--db FILE]
//   --port N        port on 127.0.0.1 (0, the default, picks a free one); prints exactly
//                   one line "listening on http://127.0.0.1:PORT" when ready
//   --adapter A     memory (default): the library's own InMemoryDataAdapter;
//                   map: the same interface on a Map (O(1) look-ups), for comparison only;
//                   sqlite: a durable adapter on better-sqlite3 (see SqliteDataAdapter)
//   --db FILE       sqlite only: the database file (created if missing, reopened if it
//                   exists); default: idempotency.sqlite in a new directory under the
//                   system's temporary directory ($TMPDIR, else /tmp), kept after exit.
//                   Refused on tmpfs/ramfs (fsync would be a no-op).
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const express = require('express');
const { idempotency, getSharedIdempotencyService } = require('express-idempotency');

// ---------------------------------------------------------------- options
function usage(code) {
    (code ? process.stderr : process.stdout).write(
        'usage: node server.js [--port N] [--adapter memory|map|sqlite] [--db FILE]\n');
    process.exit(code);
}
let port = 0;
let adapterName = 'memory';
let dbFile = null;
{
    const args = process.argv.slice(2);
    for (let i = 0; i < args.length; ++i) {
        let [name, value] = args[i].split(/=(.*)/s);
        const takeValue = () => {
            if (value === undefined) {
                if (i + 1 >= args.length) usage(2);
                value = args[++i];
            }
            return value;
        };
        if (name === '--port') {
            const v = takeValue();
            if (!/^\d{1,5}$/.test(v) || Number(v) > 65535) usage(2);
            port = Number(v);
        } else if (name === '--adapter') {
            adapterName = takeValue();
            if (adapterName !== 'memory' && adapterName !== 'map' && adapterName !== 'sqlite') usage(2);
        } else if (name === '--db') {
            dbFile = takeValue();
            if (dbFile === '') usage(2);
        } else if (name === '-h' || name === '--help') {
            usage(0);
        } else {
            usage(2);
        }
    }
    if (dbFile !== null && adapterName !== 'sqlite') usage(2);
}

// ---------------------------------------------------------------- constants
const MAX_BODY_BYTES = 64 * 1024;
// Demo credentials: only the first terminal of the demo merchant (one tenant, so the
// library's single key namespace is the merchant's namespace).
const TOKENS = new Map([['sk_test_demo_till1', { merchant: 'demo', terminal: 'till-1' }]]);
const CURRENCIES = new Set(['CNY', 'USD', 'EUR', 'GBP', 'HKD', 'JPY', 'KRW']);
const PAYMENT_METHODS = new Map([
    ['tok_visa', 'approve'], ['tok_mastercard', 'approve'], ['tok_unionpay', 'approve'],
    ['tok_chargeDeclined', 'card_declined'], ['tok_insufficientFunds', 'insufficient_funds'],
    ['tok_timeoutAfterCharge', 'timeout_after_charge'], ['tok_errorBeforeCharge', 'error_before_charge'],
]);
const FIELDS = new Set(['amount', 'currency', 'order_id', 'payment_method', 'description', 'metadata']);
const KEY_RE = /^[A-Za-z0-9\-_.:~]{1,255}$/;
const ORDER_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
const PAYMENT_ID_RE = /"id":"(pay_[A-Za-z0-9]+)"/;
const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// ---------------------------------------------------------------- helpers
function problem(res, status, slug, title, detail, extra) {
    res.locals.problem = true; // never marked as a replay (see markReplays)
    res.status(status).type('application/problem+json');
    res.json(Object.assign({ type: `https://oncepay.example/problems/${slug}`, title, status, detail }, extra));
}

function newId(prefix) {
    const bytes = crypto.randomBytes(24);
    let id = prefix;
    for (let i = 0; i < 24; ++i) id += ID_ALPHABET[bytes[i] % 62];
    return id;
}

// Idempotency-Key: an RFC 8941 string, or a bare token of the same characters.
// Returns the decoded key, or null. Node joins a repeated header with ", ", which
// can never decode to a valid key, so "given twice" is invalid too.
function decodeKey(raw) {
    let key = raw;
    if (raw.length > 0 && raw[0] === '"') {
        if (raw.length < 2 || raw[raw.length - 1] !== '"') return null;
        key = raw.slice(1, -1); // '"' and '\' are not key characters: escapes fail below
    }
    return KEY_RE.test(key) ? key : null;
}

const hasNul = (s) => s.indexOf('\0') >= 0;
const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

function validatePayment(body) {
    const errors = [];
    const err = (field, message) => errors.push({ field, message });
    if (!isPlainObject(body)) {
        err('body', 'must be a JSON object');
        return errors;
    }
    for (const name of Object.keys(body))
        if (!FIELDS.has(name)) err(name, 'is not a known field');
    const { amount, currency, order_id: orderId, payment_method: method, description, metadata } = body;
    if (amount === undefined) err('amount', 'is required');
    else if (!Number.isInteger(amount) || amount < 1 || amount > 100000000)
        err('amount', 'must be an integer from 1 to 100000000');
    if (currency === undefined) err('currency', 'is required');
    else if (typeof currency !== 'string' || !CURRENCIES.has(currency))
        err('currency', `must be one of ${[...CURRENCIES].join(', ')}`);
    if (orderId === undefined) err('order_id', 'is required');
    else if (typeof orderId !== 'string' || !ORDER_ID_RE.test(orderId))
        err('order_id', 'must be 1 to 64 characters of A-Z a-z 0-9 - _');
    if (method === undefined) err('payment_method', 'is required');
    else if (typeof method !== 'string' || !PAYMENT_METHODS.has(method))
        err('payment_method', 'must be a test token (tok_visa, ...)');
    if (description !== undefined &&
        (typeof description !== 'string' || description.length > 500 || hasNul(description)))
        err('description', 'must be a string of at most 500 characters');
    if (metadata !== undefined) {
        if (!isPlainObject(metadata) || Object.keys(metadata).length > 20) {
            err('metadata', 'must be an object of at most 20 string values');
        } else {
            for (const [k, v] of Object.entries(metadata)) {
                if (k.length < 1 || k.length > 40 || hasNul(k))
                    err(`metadata.${k}`, 'keys are 1 to 40 characters');
                else if (typeof v !== 'string' || v.length > 500 || hasNul(v))
                    err(`metadata.${k}`, 'must be a string of at most 500 characters');
            }
        }
    }
    return errors;
}

// ---------------------------------------------------------------- "acquirer" and payments
// The acquirer keeps its own ledger and is idempotent by the key passed down: a key it
// has seen never charges twice. Everything lives in this process's memory.
const acquirerLedger = new Map(); // "merchant\nkey" -> {idempotency_key, amount, currency, status, created_at}
const payments = new Map(); // id -> payment

function acquirerCharge(merchant, key, amount, currency, method) {
    const ledgerKey = `${merchant}\n${key}`;
    const seen = acquirerLedger.get(ledgerKey);
    if (seen) return { entry: seen, lost: false };
    const rule = PAYMENT_METHODS.get(method);
    if (rule === 'error_before_charge') return { refused: true };
    const entry = {
        idempotency_key: key, amount, currency,
        status: rule === 'approve' || rule === 'timeout_after_charge' ? 'succeeded' : 'declined',
        decline_code: rule === 'card_declined' || rule === 'insufficient_funds' ? rule : null,
        created_at: new Date().toISOString(),
    };
    acquirerLedger.set(ledgerKey, entry);
    return { entry, lost: rule === 'timeout_after_charge' }; // lost: charged, answer lost
}

// ---------------------------------------------------------------- idempotency data adapters
// A Map behind the library's IIdempotencyDataAdapter interface, same semantics as its
// InMemoryDataAdapter (which scans an array on every look-up). Only with --adapter map.
class MapDataAdapter {
    constructor() { this.resources = new Map(); }
    async findByIdempotencyKey(key) { return this.resources.get(key) || null; }
    async create(resource) {
        if (this.resources.has(resource.idempotencyKey)) throw new Error('Duplicate');
        this.resources.set(resource.idempotencyKey, resource);
    }
    async update(resource) { this.resources.set(resource.idempotencyKey, resource); }
    async delete(key) { this.resources.delete(key); }
}

// A durable IIdempotencyDataAdapter on better-sqlite3. Only with --adapter sqlite.
//
// One SQLite file in WAL mode with synchronous=FULL, as the gateway's store: each method
// runs one statement in autocommit, i.e. one transaction, and better-sqlite3's run() is
// synchronous, so when a method returns its transaction is committed and the WAL fsynced.
// No group commit: better-sqlite3 blocks the event loop for each commit, and the library
// awaits one adapter call at a time per request.
//
// Same semantics as the library's InMemoryDataAdapter: find returns the resource or null;
// create throws Error('Duplicate') for a key it holds; update replaces the resource of an
// existing key (a missing key stays missing); delete removes the key if present. The
// request and the response are stored as JSON (the library gives plain JSON data here:
// parsed bodies, header and query objects, and the answer's body as a string).
//
// The library itself writes the outcome only AFTER sending the answer (its send hook calls
// Express's send and then, a few microtasks later, update() or delete()). recordOutcome()
// lets server.js commit that same write BEFORE the answer leaves (see recordBeforeAnswer);
// the library's own update()/delete() for that key then finds the identical write already
// done and skips it, so each outcome costs one commit, not two.
class SqliteDataAdapter {
    constructor(file) {
        let Database;
        try {
            Database = require('better-sqlite3');
        } catch (e) {
            throw new Error(`--adapter sqlite needs better-sqlite3 (npm install --no-package-lock here): ${e.message}`);
        }
        this.db = new Database(file);
        const mode = this.db.pragma('journal_mode = WAL', { simple: true });
        if (String(mode).toLowerCase() !== 'wal')
            throw new Error(`${file}: the database refused WAL mode (journal_mode is ${mode})`);
        this.db.pragma('synchronous = FULL');
        const sync = this.db.pragma('synchronous', { simple: true });
        if (sync !== 2) throw new Error(`${file}: synchronous is ${sync}, not FULL (2)`);
        this.db.pragma(`journal_size_limit = ${32 * 1024 * 1024}`); // as the gateway
        this.db.exec(`CREATE TABLE IF NOT EXISTS idempotency_resources (
            idempotency_key TEXT PRIMARY KEY NOT NULL,
            request TEXT NOT NULL,  -- JSON: {body, headers, method, query, url}
            response TEXT           -- JSON: {statusCode, headers, body}; NULL while in progress
        )`);
        this.findStmt = this.db.prepare(
            'SELECT request, response FROM idempotency_resources WHERE idempotency_key = ?');
        this.insertStmt = this.db.prepare(
            'INSERT INTO idempotency_resources (idempotency_key, request, response) VALUES (?, ?, ?)');
        this.updateStmt = this.db.prepare(
            'UPDATE idempotency_resources SET request = ?, response = ? WHERE idempotency_key = ?');
        this.deleteStmt = this.db.prepare('DELETE FROM idempotency_resources WHERE idempotency_key = ?');
        // key -> what recordOutcome() committed for it: the "request\nresponse" JSON of an
        // update, or null for a delete. Consumed by the library's update()/delete() that follows.
        this.recorded = new Map();
    }

    static requestJson(request) { return JSON.stringify(request); }
    static responseJson(response) { return response === undefined ? null : JSON.stringify(response); }

    async findByIdempotencyKey(key) {
        const row = this.findStmt.get(key);
        if (!row) return null;
        const resource = { idempotencyKey: key, request: JSON.parse(row.request) };
        if (row.response !== null) resource.response = JSON.parse(row.response);
        return resource;
    }

    async create(resource) {
        try {
            this.insertStmt.run(resource.idempotencyKey, SqliteDataAdapter.requestJson(resource.request),
                SqliteDataAdapter.responseJson(resource.response));
        } catch (e) {
            if (e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') throw new Error('Duplicate');
            throw e;
        }
    }

    async update(resource) {
        const request = SqliteDataAdapter.requestJson(resource.request);
        const response = SqliteDataAdapter.responseJson(resource.response);
        const early = this.recorded.get(resource.idempotencyKey);
        if (early !== undefined) {
            this.recorded.delete(resource.idempotencyKey);
            if (early === `${request}\n${response}`) return; // already committed, byte for byte
        }
        this.updateStmt.run(request, response, resource.idempotencyKey);
    }

    async delete(key) {
        const early = this.recorded.get(key);
        if (early !== undefined) {
            this.recorded.delete(key);
            if (early === null) return; // already deleted
        }
        this.deleteStmt.run(key);
    }

    // Commits now (synchronously) the write the library will ask for after the answer:
    // update(key, request, response) when keep, else delete(key). Throws on failure.
    recordOutcome(key, request, response, keep) {
        if (keep) {
            const requestJson = SqliteDataAdapter.requestJson(request);
            const responseJson = SqliteDataAdapter.responseJson(response);
            this.updateStmt.run(requestJson, responseJson, key);
            this.recorded.set(key, `${requestJson}\n${responseJson}`);
        } else {
            this.deleteStmt.run(key);
            this.recorded.set(key, null);
        }
    }

    close() { this.db.close(); }
}

// The default database file: in a new directory under the temporary directory. A file
// system in memory (tmpfs, ramfs) would make every fsync a no-op: refused.
function openSqliteAdapter(file) {
    const dir = file === null ? os.tmpdir() : path.dirname(path.resolve(file));
    const TMPFS_MAGIC = 0x01021994, RAMFS_MAGIC = 0x858458f6;
    const type = fs.statfsSync(dir).type;
    if (type === TMPFS_MAGIC || type === RAMFS_MAGIC)
        throw new Error(`${dir} is in memory (tmpfs/ramfs): fsync would be a no-op;` +
            ' give --db a file on a disk (or set TMPDIR, e.g. TMPDIR=/var/tmp)');
    file = file === null
        ? path.join(fs.mkdtempSync(path.join(dir, 'oncepay-express-idem-')), 'idempotency.sqlite')
        : path.resolve(file);
    const adapter = new SqliteDataAdapter(file);
    process.stderr.write(`server.js: idempotency records in ${file} (SQLite WAL, synchronous=FULL)\n`);
    return adapter;
}

// ---------------------------------------------------------------- app
const app = express();
app.disable('x-powered-by');
app.disable('etag');

let durableStore = null; // the SqliteDataAdapter with --adapter sqlite
try {
    if (adapterName === 'sqlite') durableStore = openSqliteAdapter(dbFile);
} catch (e) {
    console.error(`server.js: ${e.message}`);
    process.exit(1);
}
// Record the business outcomes like the gateway (201, 202, 402); the library's
// default records any 2xx. Everything else deletes the key, so a retry executes.
const responseValidator = {
    isValidForPersistence: (r) => r.statusCode === 201 || r.statusCode === 202 || r.statusCode === 402,
};
const idempotencyMiddleware = idempotency({
    // idempotencyKeyHeader: default 'idempotency-key'
    dataAdapter: adapterName === 'map' ? new MapDataAdapter()
        : durableStore || undefined, // undefined: library default (InMemoryDataAdapter)
    responseValidator,
    // intentValidator: default (url, method, query and body deep-equal)
});
const idempotencyService = getSharedIdempotencyService();

app.get('/healthz', (req, res) => res.json({ status: 'ok' }));

// Order of checks as in docs/api.md: 413, 401, 415, key, body/validation, then the claim.
function tooLarge(req, res, next) {
    const length = Number(req.headers['content-length']);
    if (length > MAX_BODY_BYTES) {
        res.set('Connection', 'close'); // do not read a huge announced body
        return problem(res, 413, 'payload-too-large', 'Payload too large',
            `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
    }
    next();
}

function authenticate(req, res, next) {
    const h = req.headers.authorization;
    const caller = h && h.startsWith('Bearer ') ? TOKENS.get(h.slice(7)) : undefined;
    if (!caller) {
        res.set('WWW-Authenticate', 'Bearer');
        return problem(res, 401, 'unauthorized', 'Unauthorized', 'A valid bearer token is required.');
    }
    req.caller = caller;
    next();
}

function requireJson(req, res, next) {
    const ct = req.headers['content-type'];
    const semi = ct ? ct.indexOf(';') : -1;
    const type = ct ? (semi < 0 ? ct : ct.slice(0, semi)).trim().toLowerCase() : '';
    if (type !== 'application/json')
        return problem(res, 415, 'unsupported-media-type', 'Unsupported media type',
            'Send the body as Content-Type: application/json.');
    next();
}

function checkKey(req, res, next) {
    const raw = req.headers['idempotency-key'];
    if (raw === undefined)
        return problem(res, 400, 'idempotency-key-missing', 'Idempotency-Key missing',
            'POST /v1/payments requires an Idempotency-Key header.');
    const key = decodeKey(raw);
    if (key === null)
        return problem(res, 400, 'idempotency-key-invalid', 'Idempotency-Key invalid',
            'The key is 1 to 255 characters of A-Z a-z 0-9 - _ . : ~, sent once, quoted or bare.');
    // The library keys on the raw header value: give it the decoded key so that
    // "k" and k are the same key, as in the gateway.
    req.headers['idempotency-key'] = key;
    req.idempotencyKey = key;
    next();
}

function validate(req, res, next) {
    const errors = validatePayment(req.body);
    if (errors.length)
        return problem(res, 400, 'validation-failed', 'Validation failed',
            errors.length === 1 ? `${errors[0].field} ${errors[0].message}` : `${errors.length} fields are invalid.`,
            { errors });
    next();
}

// Replay marking. The library flags a hit by writing the request header "x-hit: true"
// (read back with idempotencyService.isHit(req)) *before* it sends the stored response
// with res.status(code).send(body); it sends no header of its own. This wrapper, installed
// before the library, adds "Idempotent-Replayed: true" to the response whenever the
// request is a hit and the answer is not one of our problems (409/422 are hits too), and
// restores Location (the library keeps only Content-Type) from the stored body's id.
// The client's own "X-Hit" header is removed first, or a client could forge a hit.
function markReplays(req, res, next) {
    delete req.headers['x-hit'];
    const send = res.send;
    res.send = function sendMarkingReplays(body) {
        if (!res.locals.problem && idempotencyService.isHit(req)) {
            res.setHeader('Idempotent-Replayed', 'true');
            if (res.statusCode === 201 || res.statusCode === 202) {
                const m = typeof body === 'string' ? PAYMENT_ID_RE.exec(body) : null;
                if (m) res.setHeader('Location', `/v1/payments/${m[1]}`);
            }
        }
        return send.call(this, body);
    };
    next();
}

// The library's middleware is an async function that Express 4 does not await: pass a
// rejection (its adapter's "Duplicate") to the error handler instead of crashing.
function claim(req, res, next) {
    idempotencyMiddleware(req, res, next).catch(next);
}

// Durable store only: commit the outcome BEFORE the answer leaves, where the library would
// commit it only after sending (see SqliteDataAdapter). Installed by the route handler, so
// only for a request whose key the library has just claimed (created): it captures the body
// the library's send hook receives (the first res.send) and, when Express's send calls
// res.end (headers final, nothing written yet), builds the same response the library will
// build, with the library's own functions, and commits the update (recorded outcome) or the
// delete (any other answer) first. If that commit fails, the answer becomes a 500 instead.
function recordBeforeAnswer(req, res) {
    const key = req.idempotencyKey; // the header value the library keyed on
    let sent = false;
    let body;
    const send = res.send; // the library's hook, then markReplays, then Express
    res.send = function sendCapturingBody(b) {
        res.send = send;
        sent = true;
        body = b;
        return send.call(this, b);
    };
    const end = res.end;
    res.end = function endAfterRecording(...args) {
        res.end = end;
        if (!sent) return end.apply(this, args); // the library records nothing either
        try {
            const response = idempotencyService.buildIdempotencyResponse(res, res.statusCode, body);
            durableStore.recordOutcome(key, idempotencyService.convertToIdempotencyRequest(req), response,
                responseValidator.isValidForPersistence(response));
        } catch (e) {
            console.error(`server.js: the outcome for key ${key} could not be recorded: ${e.message}`);
            const problemBody = JSON.stringify({
                type: 'https://oncepay.example/problems/internal-error', title: 'Internal error', status: 500,
                detail: 'The outcome could not be recorded.',
            });
            res.statusCode = 500;
            res.removeHeader('Location');
            res.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
            res.setHeader('Content-Length', Buffer.byteLength(problemBody));
            return end.call(this, problemBody, 'utf8');
        }
        return end.apply(this, args);
    };
}

function createPayment(req, res) {
    // The library calls next() after sending a replay: do nothing more then.
    if (idempotencyService.isHit(req)) return;
    if (durableStore) recordBeforeAnswer(req, res);
    const { merchant, terminal } = req.caller;
    const key = req.idempotencyKey;
    const b = req.body;
    const charge = acquirerCharge(merchant, key, b.amount, b.currency, b.payment_method);
    if (charge.refused)
        return problem(res, 502, 'acquirer-unavailable', 'Acquirer unavailable',
            'The acquirer refused the payment before charging; retry with the same key.');
    const now = new Date().toISOString();
    const p = {
        id: newId('pay_'), object: 'payment', amount: b.amount, currency: b.currency,
        status: charge.lost ? 'processing' : charge.entry.status,
        order_id: b.order_id, terminal_id: terminal, idempotency_key: key,
        payment_method: b.payment_method,
        decline_code: charge.lost ? null : charge.entry.decline_code,
        amount_refunded: 0, created_at: now, updated_at: now,
    };
    if (b.description !== undefined) p.description = b.description;
    if (b.metadata !== undefined) p.metadata = b.metadata;
    payments.set(p.id, p);
    if (charge.lost) {
        // Resolve in the background by asking the acquirer by key.
        setTimeout(() => {
            const e = acquirerLedger.get(`${merchant}\n${key}`);
            if (e) Object.assign(p, { status: e.status, decline_code: e.decline_code, updated_at: new Date().toISOString() });
        }, 1000).unref();
    }
    if (p.status === 'declined')
        return problem(res, 402, 'card-declined', 'Card declined', `The card was declined (${p.decline_code}).`,
            { payment: p });
    res.status(p.status === 'processing' ? 202 : 201).set('Location', `/v1/payments/${p.id}`).json(p);
}

app.post('/v1/payments', tooLarge, authenticate, requireJson, checkKey,
    express.json({ limit: MAX_BODY_BYTES, type: 'application/json' }),
    validate, markReplays, claim, createPayment);

app.get('/v1/payments/:id', authenticate, (req, res) => {
    const p = payments.get(req.params.id);
    if (!p) return problem(res, 404, 'not-found', 'Not found', 'No such payment.');
    res.json(p);
});

app.use((req, res) => problem(res, 404, 'not-found', 'Not found', 'No such resource.'));

// eslint-disable-next-line no-unused-vars
app.use((err, req, res, next) => {
    if (res.headersSent) return;
    if (err.type === 'entity.too.large')
        return problem(res, 413, 'payload-too-large', 'Payload too large',
            `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
    if (err.type === 'entity.parse.failed')
        return problem(res, 400, 'validation-failed', 'Validation failed', 'body is not valid JSON',
            { errors: [{ field: 'body', message: 'is not valid JSON' }] });
    if (err.status === 415 || err.type === 'charset.unsupported' || err.type === 'encoding.unsupported')
        return problem(res, 415, 'unsupported-media-type', 'Unsupported media type', err.message);
    if (err.status === undefined && res.statusCode === 409) { // library: key in progress
        res.set('Retry-After', '1');
        return problem(res, 409, 'idempotency-key-in-use', 'Request in progress',
            'A request with this Idempotency-Key is still being processed.');
    }
    if (err.status === undefined && res.statusCode === 417) // library: intent mismatch (it answers 417)
        return problem(res, 422, 'idempotency-key-reused', 'Idempotency-Key reused',
            'This Idempotency-Key was used with a different request.');
    const status = err.status >= 400 && err.status < 500 ? err.status : 500;
    if (status === 500) console.error(err);
    problem(res, status, status === 500 ? 'internal-error' : 'bad-request',
        status === 500 ? 'Internal error' : 'Bad request', status === 500 ? 'Internal error.' : err.message);
});

const server = app.listen(port, '127.0.0.1', () => {
    process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`);
});
server.on('error', (e) => {
    console.error(`server.js: ${e.message}`);
    process.exit(1);
});
for (const sig of ['SIGTERM', 'SIGINT'])
    process.on(sig, () => {
        if (durableStore) durableStore.close(); // every record is committed already
        process.exit(0);
    });
