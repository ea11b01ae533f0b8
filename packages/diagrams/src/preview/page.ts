import { esc } from "../core/svg/xml.js";

/** The preview page: the drawing or the problems, replaced on every server-sent render event. */
export function previewPage(file: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(file)} · preview</title>
<style>
body{margin:0;font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a}
header{display:flex;gap:1rem;align-items:center;padding:.6rem 1rem;background:#0f172a;color:#e2e8f0;font-size:.9rem}
header code{font-size:.85rem}
#status{margin-left:auto;padding:.15rem .5rem;border-radius:999px;background:#334155}
body[data-state=ok] #status{background:#166534}
body[data-state=error] #status{background:#b91c1c}
#stage{padding:1rem;overflow:auto}
#stage svg{max-width:100%;height:auto;display:block;margin:0 auto;box-shadow:0 1px 3px rgba(15,23,42,.15)}
#problems{margin:1rem;padding:1rem;background:#fff;border:1px solid #fecaca;border-left:4px solid #dc2626;border-radius:6px;white-space:pre-wrap;font:13px/1.5 ui-monospace,monospace;color:#7f1d1d}
#warnings{margin:1rem;padding:.75rem 1rem;background:#fff;border:1px solid #fde68a;border-left:4px solid #d97706;border-radius:6px;white-space:pre-wrap;font:12px/1.5 ui-monospace,monospace;color:#78350f}
main{display:flex;align-items:flex-start}
main #stage{flex:1}
main #warnings{flex:0 0 28rem;max-height:85vh;overflow:auto}
[hidden]{display:none!important}
</style>
</head>
<body data-state="loading">
<header><strong>orderline-diagrams preview</strong><code>${esc(file)}</code><span id="status" role="status">connecting…</span></header>
<pre id="problems" role="alert" hidden></pre>
<main><div id="stage" aria-live="polite"></div><pre id="warnings" aria-label="not carried over from Mermaid" hidden></pre></main>
<script>
(function(){
  var stage = document.getElementById('stage');
  var problems = document.getElementById('problems');
  var status = document.getElementById('status');
  var warnings = document.getElementById('warnings');
  function apply(s){
    document.body.dataset.version = String(s.version);
    if (s.ok) {
      stage.innerHTML = s.svg;
      stage.hidden = false;
      problems.hidden = true;
      problems.textContent = '';
      // What a Mermaid import did not carry over, beside the picture.
      warnings.textContent = s.warnings ? 'Not carried over from Mermaid:\\n' + s.warnings : '';
      warnings.hidden = !s.warnings;
      status.textContent = 'rendered';
      document.title = s.title + ' · preview';
    } else {
      // Never leave the previous drawing up: it no longer matches the file.
      stage.replaceChildren();
      stage.hidden = true;
      warnings.hidden = true;
      problems.textContent = s.problems;
      problems.hidden = false;
      status.textContent = s.count + (s.count === 1 ? ' problem' : ' problems');
    }
    document.body.dataset.state = s.ok ? 'ok' : 'error';
  }
  var events = new EventSource('/events');
  events.addEventListener('render', function(e){ apply(JSON.parse(e.data)); });
  events.onerror = function(){ status.textContent = 'reconnecting…'; };
})();
</script>
</body>
</html>
`;
}
