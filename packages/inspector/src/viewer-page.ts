import { createHash } from 'node:crypto';
import type { ConversationReport } from './conversation-report.js';
import type { ConversationSummary } from './conversation-summary.js';

/** What the viewer page shows: the database's conversations and, when embedded, their reports. */
export interface ViewerData {
  /** The database, as opened (a file path, or a URL without its password). */
  target: string;
  /** Its conversations. */
  conversations: ConversationSummary[];
  /**
   * Every conversation's report, by id, for a page that holds its data (`--html`); a served page
   * leaves it out and fetches `api/conversation?id=…` instead. Make it with `Object.create(null)`
   * or `Object.fromEntries` so that a conversation named `__proto__` is a key like any other
   * (assigning to `__proto__` of a plain `{}` sets its prototype instead); the page reads only
   * the object's own keys.
   */
  reports?: Record<string, ConversationReport>;
}

/**
 * The viewer's web page, one self-contained HTML file (inline CSS, JS and SVG, no external URL):
 * a chart of tokens per turn (sent, history, window, cached prefix) of the chosen conversation;
 * clicking a turn shows that build's messages (kept, changed, dropped, with tokens and reasons),
 * its difference from the previous build, where the cached prefix ended and the billed cost.
 * With `data`, the page holds everything; without, it loads `api/conversations` and
 * `api/conversation?id=…` from the server that serves it. The page carries its
 * Content-Security-Policy as a meta tag: its own script and style (by hash), requests to its
 * own server when served, nothing else.
 *
 * @param data - the data to embed, or `undefined` for a served page
 * @returns the HTML
 */
export function renderViewerPage(data?: ViewerData): string {
  const embedded =
    data === undefined
      ? ''
      : `<script type="application/json" id="ctxkit-data">${JSON.stringify(data).replace(/</g, '\\u003c')}</script>`;
  const policy = data === undefined ? PAGE_POLICY.inServedPage : PAGE_POLICY.inFile;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ctxkit inspector</title>
<style>${STYLE}</style>
</head>
<body>
<header><h1>ctxkit inspector</h1><span id="target"></span>
<label>Conversation <select id="conversation"></select></label></header>
<main>
<section id="chart-section"><h2 id="chart-title">Tokens per turn</h2>
<div id="legend">
<span class="key sent">sent</span><span class="key history">history</span>
<span class="key window">window</span><span class="key cached">cached prefix (of the messages)</span>
<span class="hint">Click a turn to see its messages.</span></div>
<div id="chart"></div></section>
<section id="build" hidden></section>
<p id="status">Loading…</p>
</main>
${embedded}
<script>${SCRIPT}</script>
</body>
</html>
`;
}

// --- internal helpers ---

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #1d2330; background: #fafbfc; }
header { display: flex; gap: 1.5em; align-items: baseline; padding: .8em 1.5em; background: #1d2330; color: #fff; }
header h1 { font-size: 1.1em; margin: 0; }
#target { color: #aab; font-family: ui-monospace, monospace; font-size: .9em; flex: 1; }
main { padding: 1em 1.5em; }
h2 { font-size: 1.05em; margin: .5em 0; }
#legend { display: flex; gap: 1em; font-size: .9em; align-items: center; }
.key::before { content: ''; display: inline-block; width: 1.4em; height: .25em; margin-right: .3em; vertical-align: middle; }
.key.sent::before { background: #2563eb; } .key.history { } .key.history::before { background: #9ca3af; }
.key.window::before { background: #dc2626; } .key.cached::before { background: #16a34a; }
.hint { color: #667; }
#chart svg { width: 100%; height: auto; background: #fff; border: 1px solid #dde; }
.line { fill: none; stroke-width: 2; }
.line.sent { stroke: #2563eb; } .line.history { stroke: #9ca3af; } .line.window { stroke: #dc2626; stroke-dasharray: 6 4; }
.line.cached { stroke: #16a34a; }
.turn-hit { fill: transparent; cursor: pointer; }
.turn-hit:hover, .turn-hit.selected { fill: rgba(37, 99, 235, .12); }
.axis { stroke: #889; } .axis-label { font-size: 11px; fill: #556; }
table { border-collapse: collapse; width: 100%; font-size: .9em; background: #fff; }
th, td { text-align: left; padding: .25em .5em; border-bottom: 1px solid #eef; vertical-align: top; }
td.num, td.reason { white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.preview { font-family: ui-monospace, monospace; font-size: .85em; color: #334; }
.label { display: inline-block; padding: 0 .4em; border-radius: .3em; font-size: .85em; font-weight: 600; }
tr.fate-kept .label { background: #dcfce7; color: #166534; }
tr.fate-changed .label, tr.fate-inserted .label { background: #fef3c7; color: #92400e; }
tr.fate-dropped { color: #8a8f99; text-decoration: line-through; text-decoration-color: #dc2626; }
tr.fate-dropped .label { background: #fee2e2; color: #991b1b; text-decoration: none; }
tr.cached td:first-child { box-shadow: inset 3px 0 #16a34a; }
tr.cache-boundary td { border-bottom: 2px dashed #16a34a; color: #16a34a; font-size: .85em; padding: .1em .5em; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2em 1em; margin: .5em 0 1em; }
.facts dt { color: #556; } .facts dd { margin: 0; }
`;

/** The page's script: plain JS, inserting data as text only (never as HTML). */
const SCRIPT = `
(() => {
  const embeddedNode = document.getElementById('ctxkit-data');
  const embedded = embeddedNode ? JSON.parse(embeddedNode.textContent) : null;
  const status = document.getElementById('status');
  const select = document.getElementById('conversation');
  const chart = document.getElementById('chart');
  const buildSection = document.getElementById('build');
  const SVG = 'http://www.w3.org/2000/svg';
  let current = null;

  async function loadConversations() {
    if (embedded) return embedded;
    const response = await fetch('api/conversations');
    if (!response.ok) throw new Error('api/conversations: ' + response.status);
    return response.json();
  }
  async function loadReport(id) {
    if (embedded) return Object.hasOwn(embedded.reports, id) ? embedded.reports[id] : null;
    const response = await fetch('api/conversation?id=' + encodeURIComponent(id));
    if (!response.ok) throw new Error('api/conversation: ' + response.status);
    return response.json();
  }
  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
    for (const child of children) node.append(child instanceof Node ? child : String(child));
    return node;
  }
  function svg(tag, attributes) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    return node;
  }
  const figure = (value) => value === null || value === undefined ? '' : Number(value).toLocaleString('en');
  const dollars = (usd) => usd === null ? 'unknown (no price known)' : '$' + usd.toFixed(4);

  function drawChart(report) {
    chart.textContent = '';
    const builds = report.builds;
    document.getElementById('chart-title').textContent =
      'Tokens per turn: ' + report.conversation.id + ' (' + builds.length + ' builds)';
    if (builds.length === 0) { chart.append(el('p', {}, 'No builds recorded.')); return; }
    const width = 960, height = 320, left = 60, right = 20, top = 15, bottom = 35;
    const series = {
      history: builds.map((b) => b.historyTokens),
      window: builds.map((b) => b.windowTokens),
      sent: builds.map((b) => b.sentTokens),
      cached: builds.map((b) => b.cachedMessageTokens),
    };
    const max = Math.max(1, ...Object.values(series).flat().filter((v) => v !== null));
    const step = (width - left - right) / builds.length;
    const x = (i) => left + step * (i + 0.5);
    const y = (v) => top + (height - top - bottom) * (1 - v / max);
    const root = svg('svg', { viewBox: '0 0 ' + width + ' ' + height, role: 'img', 'aria-label': 'tokens per turn' });
    root.append(svg('line', { class: 'axis', x1: left, y1: height - bottom, x2: width - right, y2: height - bottom }));
    root.append(svg('line', { class: 'axis', x1: left, y1: top, x2: left, y2: height - bottom }));
    for (const fraction of [0, 0.5, 1]) {
      const label = svg('text', { class: 'axis-label', x: left - 6, y: y(max * fraction) + 4, 'text-anchor': 'end' });
      label.textContent = figure(Math.round(max * fraction));
      root.append(label);
    }
    const every = Math.max(1, Math.ceil(builds.length / 20));
    builds.forEach((b, i) => {
      if (i % every !== 0) return;
      const label = svg('text', { class: 'axis-label', x: x(i), y: height - bottom + 15, 'text-anchor': 'middle' });
      label.textContent = String(b.turn);
      root.append(label);
    });
    const turnLabel = svg('text', { class: 'axis-label', x: (width + left) / 2, y: height - 4, 'text-anchor': 'middle' });
    turnLabel.textContent = 'turn';
    root.append(turnLabel);
    for (const [name, values] of Object.entries(series)) {
      const points = values.map((v, i) => v === null ? null : x(i) + ',' + y(v)).filter((p) => p !== null);
      if (points.length === 0) continue;
      root.append(svg('polyline', { class: 'line ' + name, points: points.join(' ') }));
    }
    builds.forEach((b, i) => {
      const hit = svg('rect', { class: 'turn-hit', x: left + step * i, y: top, width: step, height: height - top - bottom, 'data-turn': b.turn });
      const title = svg('title', {});
      title.textContent = 'turn ' + b.turn + ': sent ' + figure(b.sentTokens) + ', history ' + figure(b.historyTokens) +
        ', window ' + figure(b.windowTokens) + ', cached ' + figure(b.cachedTokens);
      hit.append(title);
      hit.addEventListener('click', () => showBuild(b.turn));
      root.append(hit);
    });
    chart.append(root);
  }

  function showBuild(turn) {
    const build = current.builds.find((b) => b.turn === turn);
    for (const hit of chart.querySelectorAll('.turn-hit')) {
      hit.classList.toggle('selected', Number(hit.getAttribute('data-turn')) === turn);
    }
    buildSection.textContent = '';
    buildSection.hidden = false;
    buildSection.setAttribute('data-turn', String(turn));
    const c = build.counts;
    buildSection.append(el('h2', {}, 'Build ' + build.turn + ' (' + build.at + ')'));
    const facts = el('dl', { class: 'facts' });
    const fact = (name, value) => facts.append(el('dt', {}, name), el('dd', {}, value));
    fact('messages', build.originalCount + ' read, ' + build.compressedCount + ' sent: ' + c.kept + ' kept, ' +
      c.changed + ' changed, ' + c.dropped + ' dropped, ' + c.inserted + ' inserted');
    fact('tokens', 'history ' + (build.historyTokens === null ? 'not recorded' : figure(build.historyTokens)) +
      ', sent ' + figure(build.sentTokens) + ', window ' + figure(build.windowTokens));
    const steps = build.steps.map((s) => ['truncated', 'masked', 'dropped', 'summarized']
      .filter((f) => s[f] > 0).map((f) => s[f] + ' ' + f).join(', ')
      .replace(/^(.+)$/, s.name + ': $1')).filter((t) => t !== '').join('; ');
    fact('steps', steps || 'none changed anything');
    const d = build.diff;
    fact('since previous build', d.previousTurn === null ? 'first build' :
      'build ' + d.previousTurn + ': ' + d.added.length + ' new, ' + d.noLongerSent.length + ' no longer sent (' +
      (d.noLongerSent.join(', ') || 'none') + '), ' + d.changed.length + ' changed' +
      (d.changed.length ? ' (' + d.changed.map((x) => x.id + ' ' + x.before + ' → ' + x.after).join(', ') + ')' : '') +
      ', sent tokens ' + (d.sentTokensDelta >= 0 ? '+' : '') + figure(d.sentTokensDelta));
    const p = build.cachedPrefix;
    fact('cached prefix', p === null ? 'no cost prediction recorded' : figure(p.cachedTokens) + ' tokens, ' +
      (p.lastOutputIndex === null ? 'ending before the first message' : 'ending after message #' + p.lastOutputIndex +
        (p.lastMessageId === null ? '' : ' (id ' + p.lastMessageId + ')')));
    const cost = build.cost;
    fact('billed cost', cost === null ? 'not predicted' : figure(cost.inputTokens) + ' input tokens (' +
      figure(cost.cachedInputTokens) + ' cached, ' + figure(cost.cacheWriteTokens['5m'] + cost.cacheWriteTokens['1h']) +
      ' written to the cache, ' + figure(cost.uncachedInputTokens) + ' uncached): ' + dollars(cost.inputUsd) +
      (cost.warnings.length ? ' — ' + cost.warnings.join(' ') : ''));
    buildSection.append(facts);
    const head = el('tr', {}, ...['#', 'id', 'role', 'fate', 'tokens', 'reason', 'message'].map((h) => el('th', {}, h)));
    const body = el('tbody');
    for (const m of build.messages) {
      const tokens = m.fate === 'kept' ? figure(m.tokensAfter) : m.fate === 'inserted' ? '+' + figure(m.tokensAfter)
        : (m.tokensBefore === null ? '?' : figure(m.tokensBefore)) + ' → ' + figure(m.tokensAfter);
      body.append(el('tr', { class: 'message fate-' + m.fate + (m.inCachedPrefix ? ' cached' : ''), 'data-id': m.id ?? '' },
        el('td', { class: 'num' }, m.outputIndex === null ? '–' : m.outputIndex),
        el('td', {}, m.id ?? ''), el('td', {}, m.role ?? ''),
        el('td', {}, el('span', { class: 'label' }, m.fate)),
        el('td', { class: 'num' }, tokens), el('td', { class: 'reason' }, m.reason),
        el('td', { class: 'preview' }, m.preview ?? '')));
      if (p !== null && p.lastOutputIndex !== null && m.outputIndex === p.lastOutputIndex) {
        body.append(el('tr', { class: 'cache-boundary' }, el('td', { colspan: '7' }, 'cached prefix ends here')));
      }
    }
    buildSection.append(el('table', { id: 'messages' }, el('thead', {}, head), body));
  }

  async function showConversation(id) {
    status.textContent = 'Loading ' + id + '…';
    current = await loadReport(id);
    buildSection.hidden = true;
    drawChart(current);
    status.textContent = '';
  }

  (async () => {
    const data = await loadConversations();
    document.getElementById('target').textContent = data.target;
    if (data.conversations.length === 0) { status.textContent = 'No conversations in this database.'; return; }
    const sorted = [...data.conversations].sort((a, b) => b.builds - a.builds);
    for (const conversation of data.conversations) {
      select.append(el('option', { value: conversation.id }, conversation.id + ' (' + conversation.builds + ' builds)'));
    }
    select.value = sorted[0].id;
    select.addEventListener('change', () => showConversation(select.value).catch(fail));
    await showConversation(select.value);
    document.body.setAttribute('data-ready', 'true');
  })().catch(fail);
  function fail(error) { status.textContent = 'Error: ' + error.message; }
})();
`;

/** A CSP source of an inline script or style: its SHA-256, in base64. */
function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** What the page needs: its inline script and style, and (served) requests to its server. */
const OWN_CODE = `script-src ${hashSource(SCRIPT)}; style-src ${hashSource(STYLE)}`;

/** The page's policies as a meta tag carries them (a meta tag cannot say `frame-ancestors`). */
const PAGE_POLICY = {
  inServedPage: `default-src 'none'; ${OWN_CODE}; connect-src 'self'; base-uri 'none'; form-action 'none'`,
  inFile: `default-src 'none'; ${OWN_CODE}; base-uri 'none'; form-action 'none'`,
};

/**
 * The Content-Security-Policy of the viewer page: `served` for the header of the page served by
 * `startViewer` (framing forbidden too), beside the meta tag that every rendered page carries.
 */
export const VIEWER_PAGE_POLICY = {
  served: `${PAGE_POLICY.inServedPage}; frame-ancestors 'none'`,
} as const;
