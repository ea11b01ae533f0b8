import type { Interaction, ViewInfo } from "../core/diagram-type.js";
import type { Meta } from "../core/model.js";
import { esc, ID } from "../core/svg/xml.js";
import { webFontCss } from "./web-font.js";

/** JSON safe to embed in a <script> element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:Inter,system-ui,sans-serif;background:#f8fafc;color:#0f172a}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;padding:.75rem 1rem;border-bottom:1px solid #e2e8f0;background:#fff;position:sticky;top:0;z-index:2}
header h1{font-size:1rem;margin:0 1rem 0 0}
button{font:inherit;font-size:.875rem;padding:.35rem .7rem;border:1px solid #cbd5e1;border-radius:6px;background:#fff;color:#0f172a;cursor:pointer}
button[aria-pressed=true]{background:#0f172a;color:#fff;border-color:#0f172a}
button:focus-visible{outline:2px solid #2563eb;outline-offset:2px}
#views{display:flex;flex-wrap:wrap;gap:.35rem;align-items:center}
#caption{margin:0;padding:.5rem 1rem;min-height:2.25rem;color:#334155;font-size:.9rem}
main{display:flex;gap:1rem;padding:0 1rem 1rem;align-items:flex-start}
figure{margin:0;flex:1;overflow:auto}
figure svg{max-width:100%;height:auto;display:block}
aside{width:20rem;flex:none;background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:1rem}
aside[hidden]{display:none}
aside h2{font-size:1rem;margin:0 0 .5rem}
aside p{font-size:.9rem;line-height:1.45;margin:.4rem 0}
.node{cursor:pointer}
svg .dim{opacity:.18;transition:opacity .25s}
svg .lit{opacity:1;transition:opacity .25s}
.trace-dot{pointer-events:none}
@media (prefers-reduced-motion:reduce){svg .dim,svg .lit{transition:none}}
`;

const SCRIPT = `
(function(){
  var data = JSON.parse(document.getElementById('diagram-data').textContent);
  var svg = document.querySelector('figure svg');
  var NS = 'http://www.w3.org/2000/svg';
  var main = document.querySelector('main');
  var nodes = Array.prototype.slice.call(main.querySelectorAll('g.node'));
  var edges = Array.prototype.slice.call(main.querySelectorAll('g.edge'));
  var labels = Array.prototype.slice.call(main.querySelectorAll('g.edge-label'));
  // Views of the type (zoom levels): one drawing each, one shown at a time.
  var drawings = Array.prototype.slice.call(document.querySelectorAll('figure[data-drawing]'));
  var drawingButtons = Array.prototype.slice.call(document.querySelectorAll('[data-drawing-button]'));
  function showDrawing(i){
    drawings.forEach(function(f, k){ f.hidden = k !== i; });
    drawingButtons.forEach(function(b, k){ b.setAttribute('aria-pressed', String(k === i)); });
    document.body.dataset.drawing = drawings[i] ? drawings[i].dataset.drawing : '';
  }
  drawingButtons.forEach(function(b, k){ b.addEventListener('click', function(){ showDrawing(k); }); });
  if (drawings.length) showDrawing(0);
  // Page Down / Page Up (or ] and [) step through the views; the arrows stay the guided views'.
  document.addEventListener('keydown', function(ev){
    if (drawings.length < 2) return;
    var at = drawings.findIndex(function(f){ return !f.hidden; });
    if (ev.key === 'PageDown' || ev.key === ']') { ev.preventDefault(); showDrawing((at + 1) % drawings.length); }
    else if (ev.key === 'PageUp' || ev.key === '[') { ev.preventDefault(); showDrawing((at + drawings.length - 1) % drawings.length); }
  });
  var caption = document.getElementById('caption');
  var card = document.getElementById('card');
  function clearFocus(){
    nodes.concat(edges, labels).forEach(function(el){ el.classList.remove('dim','lit'); });
  }
  function focus(nodeIds, edgeIds){
    var n = new Set(nodeIds), e = new Set(edgeIds);
    nodes.forEach(function(el){ el.classList.add(n.has(el.dataset.id) ? 'lit' : 'dim'); el.classList.remove(n.has(el.dataset.id) ? 'dim' : 'lit'); });
    edges.forEach(function(el){ var on = e.has(el.dataset.id); el.classList.toggle('lit', on); el.classList.toggle('dim', !on); });
    labels.forEach(function(el){ var on = e.has(el.dataset.edge); el.classList.toggle('lit', on); el.classList.toggle('dim', !on); });
  }
  // Guided views.
  var viewButtons = Array.prototype.slice.call(document.querySelectorAll('[data-view]'));
  var current = -1;
  function showView(i){
    stopTrace();
    current = i;
    viewButtons.forEach(function(b, k){ b.setAttribute('aria-pressed', String(k === i)); });
    if (i < 0) { clearFocus(); caption.textContent = ''; return; }
    var v = data.views[i];
    focus(v.nodes, v.edges || []);
    caption.textContent = v.title + (v.caption ? ' — ' + v.caption : '');
  }
  viewButtons.forEach(function(b, k){ b.addEventListener('click', function(){ showView(current === k ? -1 : k); }); });
  var prev = document.getElementById('prev'), next = document.getElementById('next');
  if (prev) prev.addEventListener('click', function(){ showView(current <= 0 ? data.views.length - 1 : current - 1); });
  if (next) next.addEventListener('click', function(){ showView(current >= data.views.length - 1 ? 0 : current + 1); });
  document.addEventListener('keydown', function(ev){
    if (!data.views.length) return;
    if (ev.key === 'ArrowRight') next.click();
    else if (ev.key === 'ArrowLeft') prev.click();
    else if (ev.key === 'Escape') { showView(-1); card.hidden = true; }
  });
  // Trace: plays the type's steps in order. A node step lights the node; an edge step lights
  // the edge and its ends and moves a dot along its line.
  var traceTimer = null, dot = null, raf = 0;
  function stopTrace(){
    if (traceTimer) { clearTimeout(traceTimer); traceTimer = null; }
    cancelAnimationFrame(raf);
    if (dot) { dot.remove(); dot = null; }
    var b = document.getElementById('trace'); if (b) b.setAttribute('aria-pressed', 'false');
    document.body.dataset.trace = 'stopped';
  }
  function edgeWithId(id){
    for (var i = 0; i < edges.length; i++) if (edges[i].dataset.id === id) return edges[i];
    return null;
  }
  function trace(){
    showView(-1);
    var steps = data.trace; if (!steps || !steps.length) return;
    var b = document.getElementById('trace'); if (b) b.setAttribute('aria-pressed', 'true');
    document.body.dataset.trace = 'playing';
    dot = document.createElementNS(NS, 'circle');
    dot.setAttribute('r', '6'); dot.setAttribute('class', 'trace-dot'); dot.setAttribute('fill', data.accent);
    (svg.querySelector('g') || svg).appendChild(dot);
    var step = 0, litNodes = [], litEdges = [];
    function advance(){
      if (step >= steps.length) { document.body.dataset.trace = 'done'; traceTimer = setTimeout(function(){ stopTrace(); clearFocus(); }, 1200); return; }
      var s = steps[step++];
      if (s.kind === 'node') { litNodes.push(s.id); focus(litNodes, litEdges); advance(); return; }
      var edge = edgeWithId(s.id);
      var line = edge && edge.querySelector('.edge-line');
      if (edge) { litEdges.push(s.id); litNodes.push(edge.dataset.from); }
      focus(litNodes, litEdges);
      var start = performance.now(), length = line ? line.getTotalLength() : 0, duration = Math.max(500, Math.min(1400, length * 4));
      function frame(t){
        var k = Math.min(1, (t - start) / duration);
        if (line) { var p = line.getPointAtLength(length * k); dot.setAttribute('cx', p.x); dot.setAttribute('cy', p.y); }
        if (k < 1) { raf = requestAnimationFrame(frame); return; }
        if (edge) litNodes.push(edge.dataset.to);
        focus(litNodes, litEdges);
        traceTimer = setTimeout(advance, 250);
      }
      raf = requestAnimationFrame(frame);
    }
    advance();
  }
  var traceButton = document.getElementById('trace');
  if (traceButton) traceButton.addEventListener('click', function(){ if (document.body.dataset.trace === 'playing') { stopTrace(); clearFocus(); } else trace(); });
  // Cards.
  nodes.forEach(function(el){
    var c = data.cards[el.dataset.id];
    if (!c) return;
    el.classList.add('has-card');
    el.setAttribute('tabindex', '0');
    function open(){
      card.replaceChildren();
      var h = document.createElement('h2'); h.textContent = c.title || el.getAttribute('aria-label'); card.appendChild(h);
      c.body.forEach(function(text){ var p = document.createElement('p'); p.textContent = text; card.appendChild(p); });
      (c.links || []).forEach(function(link){ var p = document.createElement('p'); var a = document.createElement('a'); a.href = link.href; a.textContent = link.label; p.appendChild(a); card.appendChild(p); });
      card.hidden = false; card.dataset.node = el.dataset.id;
    }
    el.addEventListener('click', open);
    el.addEventListener('keydown', function(ev){ if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); open(); } });
  });
  var reduced = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (data.autoplay && !reduced) trace();
})();
`;

/**
 * A self-contained page (no external files, no network): the SVG inline, the type's `trace`
 * animation (meta.animation), a step-through of meta.views, and detail cards on click. What
 * plays and which cards exist come from the type (DiagramType.interaction); a type without it
 * gets the views only.
 */
export function renderHtml(
  meta: Meta,
  svg: string,
  interaction?: Interaction,
  drawings?: (ViewInfo & { svg: string })[],
): string {
  const views = meta.views ?? [];
  const steps = interaction?.trace ?? [];
  const hasTrace = steps.length > 0;
  const accent = /data-preset="signal-flow"/.test(svg) ? "#38bdf8" : "#f59e0b";
  const data = {
    trace: steps,
    views,
    cards: interaction?.cards ?? {},
    autoplay: hasTrace && (meta.animation ?? "trace") === "trace",
    accent,
  };
  const viewButtons = views
    .map(
      (v, i) =>
        `<button type="button" data-view="${i}" aria-pressed="false">${esc(v.title)}</button>`,
    )
    .join("");
  const toolbar = [
    hasTrace
      ? `<button type="button" id="trace" aria-pressed="false">▶ ${esc(interaction?.traceLabel ?? "Trace")}</button>`
      : "",
    views.length
      ? `<nav id="views" aria-label="Guided views"><button type="button" id="prev" aria-label="Previous view">◀</button>${viewButtons}<button type="button" id="next" aria-label="Next view">▶</button></nav>`
      : "",
  ].join("");
  const steps2 = drawings && drawings.length > 1 ? drawings : undefined;
  const drawingNav = steps2
    ? `<nav id="drawings" aria-label="Views">${steps2
        .map(
          (d, i) =>
            `<button type="button" data-drawing-button="${esc(d.id)}" aria-pressed="${i === 0}"${d.caption ? ` title="${esc(d.caption)}"` : ""}>${esc(d.title)}</button>`,
        )
        .join("")}</nav>`
    : "";
  // Several drawings share the page: each one's SVG ids get their own prefix.
  const figures = steps2
    ? steps2
        .map(
          (d, i) =>
            `<figure data-drawing="${esc(d.id)}"${i === 0 ? "" : " hidden"}>${uniqueIds(d.svg, i)}</figure>`,
        )
        .join("\n")
    : `<figure>${svg}</figure>`;
  const lang = meta.locale ?? "en";
  return `<!doctype html>
<html lang="${esc(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(meta.title)}</title>
<style>${webFontCss(svg)}
${STYLE}</style>
</head>
<body>
<header><h1>${esc(meta.title)}</h1>${drawingNav}${toolbar}</header>
<p id="caption" aria-live="polite"></p>
<main>
${figures}
<aside id="card" aria-live="polite" hidden></aside>
</main>
<script type="application/json" id="diagram-data">${scriptJson(data)}</script>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** The SVG's own ids (and what refers to them) prefixed with the drawing's number. */
function uniqueIds(svg: string, index: number): string {
  const prefix = `${ID}${index}-`;
  return svg
    .replaceAll(` id="${ID}-`, ` id="${prefix}`)
    .replaceAll(`url(#${ID}-`, `url(#${prefix}`)
    .replaceAll(
      ` aria-labelledby="${ID}-title ${ID}-desc"`,
      ` aria-labelledby="${prefix}title ${prefix}desc"`,
    );
}
