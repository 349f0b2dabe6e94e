import { href, html, raw, type Html } from '../html.ts'

// Inline, because the pages load nothing from anywhere (the CSP forbids it) and work offline.
const STYLE = raw(`
:root { color-scheme: light dark; --fg: #1d232b; --muted: #5b6570; --line: #d6dbe1; --bg: #fff; --soft: #f3f5f7; --accent: #1f5fbf; --alert: #b3261e;
  --k1: #fde4e1; --k1-fg: #8c1d13; --k2: #e1ecfb; --k2-fg: #173f7a; --k3: #fdf0d2; --k3-fg: #6a4700; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e8ec; --muted: #9aa5b1; --line: #3a424b; --bg: #15191e; --soft: #1e242b; --accent: #7fb0ff; --alert: #ff8a80;
  --k1: #4a1f1b; --k1-fg: #ffc9c2; --k2: #1c3150; --k2-fg: #c6dcff; --k3: #46360f; --k3-fg: #ffe3a3; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); background: var(--soft); }
header a { font-weight: 600; color: var(--fg); text-decoration: none; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; }
h3 { font-size: 1rem; margin: 1.25rem 0 .5rem; }
a { color: var(--accent); }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: .85rem; }
td.num, th.num { text-align: right; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, monospace; }
.muted { color: var(--muted); }
.alert { color: var(--alert); font-weight: 600; }
.error { border-left: 4px solid var(--alert); padding: .5rem 1rem; background: var(--soft); white-space: pre-wrap; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .75rem 1rem; margin: .75rem 0; }
.chart { max-width: 100%; height: auto; }
.split { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; } .split table { flex: 1 1 24rem; width: auto; }
.card > h2:first-child { margin-top: .25rem; } .figure { font-size: 1.15rem; } tr.chosen td { font-weight: 700; } pre.card { overflow-x: auto; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; list-style: none; font-size: .85rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: -1px; border-radius: 2px; }
button, input { font: inherit; color: var(--fg); }
button { font-size: 1rem; min-height: 2.75rem; padding: .5rem 1rem; border: 1px solid var(--line); border-radius: 6px; background: var(--soft); cursor: pointer; }
button:hover { border-color: var(--accent); }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--bg); font-weight: 600; }
button.quiet { background: transparent; color: var(--muted); }
input { padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg); }
button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.counts { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; margin: .5rem 0; }
.counts li { border: 1px solid var(--line); border-radius: 999px; padding: .2rem .9rem; background: var(--soft); }
.settings { display: flex; flex-wrap: wrap; align-items: end; gap: .5rem 1.25rem; margin: 1rem 0 .25rem; }
.settings label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); gap: .2rem; }
.settings input[type=number] { width: 7rem; }
.review-card { padding: 1rem 1.25rem 1.25rem; font-size: 1.05rem; }
.review-card h2 { margin: 0 0 .5rem; font-size: 1.05rem; font-weight: 600; }
.kind { display: inline-block; padding: .1rem .6rem; border-radius: 999px; font-size: .85rem; margin-right: .35rem; }
.kind-disagreement { background: var(--k1); color: var(--k1-fg); }
.kind-spot_check { background: var(--k2); color: var(--k2-fg); }
.kind-unsure { background: var(--k3); color: var(--k3-fg); }
.hash { font-size: .8rem; font-weight: normal; }
.ask { font-size: 1.15rem; font-weight: 600; margin: .25rem 0 .75rem; }
.state { margin: 0 0 .75rem; }
.state th, .state td { vertical-align: baseline; }
.state th { width: 9rem; font-size: .9rem; }
.state td { font-size: 1.2rem; line-height: 1.45; white-space: pre-wrap; overflow-wrap: anywhere; }
.answers { display: flex; flex-wrap: wrap; gap: .5rem 3rem; margin: 0 0 1rem; }
.top { display: inline-flex; flex-wrap: wrap; gap: 0 1rem; margin: 0 0 0 .5rem; padding: 0; list-style: none; }
.top li { color: var(--muted); }
.top li.first { color: var(--fg); }
.label { font-weight: 700; font-size: 1.1rem; color: var(--fg); }
.verdicts { display: flex; flex-wrap: wrap; gap: .5rem; }
.verdicts form { margin: 0; }
@media (max-width: 40rem) { .state th, .state td { display: block; width: auto; } .state th { padding-bottom: 0; border-bottom: 0; } }
`)

/** The frame of every page: head, inline style, a link home (carrying the token), the content. */
export function layout(title: string, token: string | null, content: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · judge</title>
<style>${STYLE}</style>
</head>
<body>
<header><a href="${href('/', {}, token)}">judge</a></header>
<main>
${content}
</main>
</body>
</html>
`
}
