/**
 * The page at `/`: drop a receipt, type an API key, see the fields of the verbose result and their
 * boxes drawn on the image. One self-contained HTML document (no CDN, no network but its own API),
 * served with a Content-Security-Policy that allows exactly its inline script and style.
 */
import { createHash } from 'node:crypto';

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; }
body { margin: 0 auto; max-width: 1200px; padding: 1rem; }
h1 { font-size: 1.3rem; margin: 0 0 .75rem; }
.bar { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; margin-bottom: .75rem; }
input[type=password], input[type=text] { padding: .35rem .5rem; min-width: 18rem; }
#drop { border: 2px dashed #888; border-radius: 8px; padding: 1.25rem; text-align: center; cursor: pointer; margin-bottom: .75rem; }
#drop.over { border-color: #2a7; background: rgba(34,170,119,.08); }
#status { min-height: 1.4em; margin: .5rem 0; }
#status.error { color: #c22; font-weight: 600; }
main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; align-items: start; }
@media (max-width: 800px) { main { grid-template-columns: 1fr; } }
canvas { max-width: 100%; height: auto; border: 1px solid #8884; }
table { border-collapse: collapse; width: 100%; font-size: .9rem; }
td, th { border-bottom: 1px solid #8884; padding: .25rem .4rem; text-align: left; vertical-align: top; }
td.conf { text-align: right; font-variant-numeric: tabular-nums; }
.swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .35rem; vertical-align: middle; }
tr.missing td { opacity: .5; }
tr:hover { background: #8882; }
#note { font-size: .85rem; opacity: .8; }
`;

const SCRIPT = `
(() => {
  const $ = (id) => document.getElementById(id);
  const keyInput = $('apikey'), fileInput = $('file'), drop = $('drop'), status = $('status');
  const canvas = $('preview'), table = $('fields'), note = $('note');
  // one distinct hue per field (golden-angle steps), dark enough to read on paper
  const COLORS = Array.from({ length: 24 }, (_, i) => 'hsl(' + Math.round((i * 137.508) % 360) + ', 85%, 42%)');
  const FIELDS = ['totalAmount', 'taxAmount', 'date', 'merchantName', 'merchantAddress', 'merchantCity', 'merchantState',
    'merchantCountryCode', 'merchantPostalCode', 'merchantTypes', 'subtotalAmount', 'paidAmount', 'discountAmount', 'tipAmount',
    'roundingAmount', 'dueDate', 'paymentType', 'cardLast4', 'merchantPhoneNumber', 'merchantTaxId', 'merchantWebsite'];
  try { keyInput.value = sessionStorage.getItem('receiptkit.apikey') || ''; } catch (e) {}
  keyInput.addEventListener('change', () => { try { sessionStorage.setItem('receiptkit.apikey', keyInput.value); } catch (e) {} });

  function setStatus(text, isError) { status.textContent = text; status.className = isError ? 'error' : ''; }
  function show(v) { if (v === undefined) return ''; return Array.isArray(v) ? v.join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v); }

  function loadImage(file) {
    return new Promise((resolve) => {
      if (!/^image\\//.test(file.type) && !/\\.(jpe?g|png|gif|webp|bmp)$/i.test(file.name)) { resolve(null); return; }
      const url = URL.createObjectURL(file);
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => { URL.revokeObjectURL(url); resolve(null); };
      img.src = url;
    });
  }

  function boxesOf(result) {
    const out = [];
    FIELDS.forEach((name) => {
      const f = result[name];
      if (f && f.data !== undefined && Array.isArray(f.regions)) out.push({ name, regions: f.regions });
    });
    const items = result.entities && Array.isArray(result.entities.productLineItems) ? result.entities.productLineItems : [];
    items.forEach((it, i) => { if (Array.isArray(it.regions)) out.push({ name: 'lineItem' + (i + 1), regions: it.regions, item: true }); });
    return out;
  }

  function draw(img, boxes, colorOf) {
    const ctx = canvas.getContext('2d');
    let n = 0;
    if (!img) { canvas.width = 1; canvas.height = 1; canvas.dataset.boxes = '0'; return; }
    canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
    ctx.drawImage(img, 0, 0);
    const lw = Math.max(2, Math.round(Math.max(canvas.width, canvas.height) / 400));
    boxes.forEach((b) => {
      ctx.strokeStyle = colorOf(b); ctx.lineWidth = b.item ? Math.max(1, lw - 1) : lw;
      ctx.setLineDash(b.item ? [lw * 3, lw * 2] : []);
      b.regions.forEach((poly) => {
        if (!Array.isArray(poly) || poly.length < 2) return;
        ctx.beginPath();
        ctx.moveTo(poly[0].x, poly[0].y);
        for (let i = 1; i < poly.length; i++) ctx.lineTo(poly[i].x, poly[i].y);
        ctx.closePath(); ctx.stroke(); n++;
      });
    });
    canvas.dataset.boxes = String(n);
  }

  function render(result, img) {
    const colors = {};
    let c = 0;
    const colorOf = (b) => b.item ? '#777777' : (colors[b.name] = colors[b.name] || COLORS[c++ % COLORS.length]);
    const boxes = boxesOf(result);
    boxes.forEach(colorOf);
    table.replaceChildren();
    const head = document.createElement('tr');
    ['field', 'value', 'confidence'].forEach((h) => { const th = document.createElement('th'); th.textContent = h; head.appendChild(th); });
    table.appendChild(head);
    FIELDS.forEach((name) => {
      const f = result[name];
      if (!f) return;
      const tr = document.createElement('tr');
      tr.dataset.field = name;
      if (f.data === undefined) tr.className = 'missing';
      const td1 = document.createElement('td');
      if (colors[name]) { const sw = document.createElement('span'); sw.className = 'swatch'; sw.style.background = colors[name]; td1.appendChild(sw); }
      td1.appendChild(document.createTextNode(name));
      const td2 = document.createElement('td'); td2.className = 'value'; td2.textContent = show(f.data) + (f.currencyCode ? ' ' + f.currencyCode : '');
      const td3 = document.createElement('td'); td3.className = 'conf'; td3.textContent = (f.confidenceLevel || 0).toFixed(2);
      tr.append(td1, td2, td3);
      table.appendChild(tr);
    });
    const items = (result.entities && result.entities.productLineItems) || [];
    items.forEach((it, i) => {
      const tr = document.createElement('tr'); tr.dataset.field = 'lineItem' + (i + 1);
      const d = it.data || {};
      const td1 = document.createElement('td'); td1.textContent = 'line item ' + (i + 1);
      const td2 = document.createElement('td'); td2.className = 'value';
      td2.textContent = [d.quantity && d.quantity.data, d.name && d.name.data, d.totalPrice && d.totalPrice.data].filter((x) => x !== undefined && x !== null).join('  ');
      const td3 = document.createElement('td'); td3.className = 'conf'; td3.textContent = (it.confidenceLevel || 0).toFixed(2);
      tr.append(td1, td2, td3); table.appendChild(tr);
    });
    draw(img, boxes, colorOf);
    note.textContent = img ? '' : 'No preview for this file type (the fields are still shown).';
    window.receiptkitResult = result;
  }

  async function send(file) {
    const key = keyInput.value.trim();
    if (!key) { setStatus('Type your API key first.', true); keyInput.focus(); return; }
    setStatus('Reading ' + file.name + ' ...', false);
    document.body.dataset.state = 'busy';
    const form = new FormData();
    form.append('file', file, file.name);
    if (!$('items').checked) form.append('extractLineItems', 'false');
    const t0 = performance.now();
    try {
      const [res, img] = await Promise.all([
        fetch('api/receipt/v1/verbose/file', { method: 'POST', headers: { apikey: key }, body: form }),
        loadImage(file),
      ]);
      const body = await res.json().catch(() => ({ message: 'the server answered ' + res.status + ' without JSON' }));
      if (!res.ok) {
        setStatus('Error ' + res.status + ': ' + (body.message || body.error || 'request failed'), true);
        document.body.dataset.state = 'error';
        return;
      }
      render(body, img);
      setStatus(file.name + ': done in ' + Math.round(performance.now() - t0) + ' ms (confidence ' + (body.confidenceLevel || 0).toFixed(2) + ')', false);
      document.body.dataset.state = 'done';
    } catch (e) {
      setStatus('Request failed: ' + (e && e.message ? e.message : e), true);
      document.body.dataset.state = 'error';
    }
  }

  drop.addEventListener('click', () => fileInput.click());
  drop.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); fileInput.click(); } });
  fileInput.addEventListener('change', () => { if (fileInput.files && fileInput.files[0]) send(fileInput.files[0]); });
  ['dragenter', 'dragover'].forEach((ev) => drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.add('over'); }));
  ['dragleave', 'drop'].forEach((ev) => drop.addEventListener(ev, (e) => { e.preventDefault(); drop.classList.remove('over'); }));
  drop.addEventListener('drop', (e) => { const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0]; if (f) send(f); });
  document.body.dataset.state = 'ready';
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

export interface UiPage { html: string; csp: string }

export function uiPage(): UiPage {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>receiptkit</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<h1>receiptkit: drop a receipt</h1>
<div class="bar">
  <label>API key <input id="apikey" type="password" autocomplete="off" spellcheck="false" placeholder="apikey header"></label>
  <label><input id="items" type="checkbox" checked> line items</label>
  <a href="openapi.json">OpenAPI</a>
</div>
<div id="drop" tabindex="0" role="button" aria-label="Choose or drop a receipt">Drop a receipt or invoice here (JPEG, PNG, WebP, HEIC, PDF), or click to choose one
  <input id="file" type="file" accept="image/*,application/pdf" hidden>
</div>
<div id="status" role="status" aria-live="polite"></div>
<main>
  <div><canvas id="preview" width="1" height="1" data-boxes="0"></canvas><div id="note"></div></div>
  <table id="fields"></table>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `script-src ${sha256(SCRIPT)}`,
    `style-src ${sha256(STYLE)}`,
    "img-src 'self' blob: data:",
    "connect-src 'self'",
    "form-action 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, csp };
}
