import { href, html, raw, type Html } from '../html.ts'

// Inline, because the pages load nothing from anywhere (the CSP forbids it) and work offline.
const STYLE = raw(`
:root { color-scheme: light dark; --fg: #1d232b; --muted: #5b6570; --line: #d6dbe1; --bg: #fff; --soft: #f3f5f7; --accent: #1f5fbf; --alert: #b3261e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e8ec; --muted: #9aa5b1; --line: #3a424b; --bg: #15191e; --soft: #1e242b; --accent: #7fb0ff; --alert: #ff8a80; } }
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
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; list-style: none; font-size: .85rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: -1px; border-radius: 2px; }
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
