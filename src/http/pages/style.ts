import { raw, type Html } from '../html.ts'

// Inline, because the pages load nothing from anywhere (the CSP forbids it) and work offline.
// Colours: text on its background at 7:1 or more, muted text and links at 4.5:1 or more, light and dark.
/** The style sheet of every page. */
export const STYLE: Html = raw(`
:root { color-scheme: light dark; --fg: #1d232b; --muted: #566170; --line: #d5dbe2; --bg: #fff; --soft: #f4f6f8;
  --accent: #1d5bb8; --accent-soft: #e7effb;
  --alert: #b3261e; --ok: #1d6b36; --ok-soft: #e6f4ea;
  --k1: #fde4e1; --k1-fg: #8c1d13; --k2: #e1ecfb; --k2-fg: #173f7a; --k3: #fdf0d2; --k3-fg: #6a4700; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e8ec; --muted: #a3adb8; --line: #3a424b; --bg: #15191e;
  --soft: #1d232a; --accent: #86b5ff; --accent-soft: #1b2c45;
  --alert: #ff8a80; --ok: #8fdca6; --ok-soft: #163222;
  --k1: #4a1f1b; --k1-fg: #ffc9c2; --k2: #1c3150; --k2-fg: #c6dcff; --k3: #46360f; --k3-fg: #ffe3a3; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg);
  background: var(--bg); }
header.site { display: flex; gap: 1.25rem; align-items: baseline; padding: .65rem 1.25rem;
  border-bottom: 1px solid var(--line); background: var(--soft); }
header.site a { color: var(--fg); text-decoration: none; }
header.site .brand { font-weight: 700; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: .5rem 0 .5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; }
h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
h4 { font-size: 1rem; margin: .25rem 0 .5rem; }
h3 .links, h2 .links { font-weight: normal; font-size: .95rem; margin-left: .5rem; }
table.summary td:first-child { width: 9rem; }
a { color: var(--accent); text-underline-offset: .15em; }
p { margin: .5rem 0; }
.meta { overflow-wrap: anywhere; }
.table-wrap { overflow-x: auto; margin: .5rem 0 1rem; }
.table-wrap table { margin: 0; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .4rem .65rem; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { color: var(--muted); font-weight: 600; font-size: .85rem; border-bottom-width: 2px; }
tbody tr:hover { background: var(--soft); }
td.num, th.num { text-align: right; } td.num { white-space: nowrap; }
td.nowrap { white-space: nowrap; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
kbd { font: .75rem ui-monospace, SFMono-Regular, Menlo, monospace; border: 1px solid currentColor; border-radius: 4px;
  padding: 0 .3rem; margin-left: .4rem; opacity: .85; vertical-align: 1px; }
.muted { color: var(--muted); }
.alert { color: var(--alert); font-weight: 600; } .ok { color: var(--ok); font-weight: 600; }
.good { color: var(--ok); font-weight: 600; }
.error { border-left: 4px solid var(--alert); padding: .5rem 1rem; background: var(--soft); white-space: pre-wrap;
  overflow-wrap: anywhere; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: .75rem 1rem; margin: .75rem 0; }
.card > h2:first-child, .card > h3:first-child { margin-top: .25rem; }
.empty { background: var(--soft); }
.chart { max-width: 100%; height: auto; }
.split { display: flex; flex-wrap: wrap; gap: 1rem 2rem; align-items: flex-start; }
.split table, .split .table-wrap { flex: 1 1 24rem; width: auto; }
.figure { font-size: 1.15rem; } tr.chosen td { font-weight: 700; } pre.card { overflow-x: auto; }
.chart-bars { margin: .5rem 0 1rem; } .chart-bars figcaption { font-size: .85rem; margin-bottom: .25rem; }
.chart-bars .axis, .chart-bars .bars li { display: grid; grid-template-columns: 10.5rem 1fr 3rem; align-items: center;
  gap: .5rem; }
.chart-bars .axis { grid-template-columns: 10.5rem repeat(3, 1fr) 3rem; font-size: .75rem; color: var(--muted); }
.chart-bars .axis span:nth-child(3) { text-align: center; } .chart-bars .axis span:nth-child(4) { text-align: right; }
.chart-bars .bars { list-style: none; margin: 0; padding: 0; }
.chart-bars .bars li { font-size: .8rem; min-height: 1.1rem; }
.chart-bars .date { color: var(--muted); white-space: nowrap; font-variant-numeric: tabular-nums; }
.chart-bars .track { display: flex; height: .8rem; background: var(--soft); border-radius: 2px; overflow: hidden; }
.chart-bars .flag { color: var(--alert); font-weight: 700; font-size: .75rem; }
.chart-bars .flag.muted { color: var(--muted); }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; padding: 0; margin: .25rem 0 .75rem; list-style: none;
  font-size: .85rem; }
.swatch { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: -1px;
  border-radius: 2px; }
button, input, select { font: inherit; color: var(--fg); }
button { font-size: 1rem; min-height: 2.75rem; padding: .5rem 1rem; border: 1px solid var(--line); border-radius: 6px;
  background: var(--soft); cursor: pointer; }
button:hover { border-color: var(--accent); }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--bg); font-weight: 600; }
button.quiet { background: transparent; color: var(--muted); }
button.link { min-height: 2.25rem; padding: .2rem .75rem; background: var(--bg); color: var(--accent);
  font-weight: 600; }
input, select { padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 6px; background: var(--bg);
  min-height: 2.5rem; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible,
summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -100vw; }
.skip:focus { left: 1rem; top: .5rem; padding: .5rem 1rem; background: var(--bg); border: 2px solid var(--accent);
  border-radius: 6px; z-index: 1; }
.banner { margin: .75rem 0; padding: .5rem .9rem; border: 1px solid var(--ok); border-radius: 8px;
  background: var(--ok-soft); overflow-wrap: anywhere; }
.banner form { display: inline; margin: 0; }
.queue { scroll-margin-top: .5rem; }
.queue > .banner { position: sticky; top: 0; z-index: 1; margin: 0 0 .75rem; box-shadow: 0 2px 6px rgb(0 0 0 / .15); }
.to-come { margin: 0 0 .5rem; font-size: .9rem; }
.token-form { display: flex; flex-wrap: wrap; align-items: end; gap: .5rem 1rem; margin: 1rem 0 .5rem; }
.token-form label { display: flex; flex-direction: column; gap: .2rem; flex: 0 1 20rem; }
.progress { margin: .75rem 0 .25rem; }
.targets { margin: 0 0 .25rem; padding-left: 1.25rem; color: var(--muted); } .targets .reached { color: var(--ok); }
.counts { display: flex; flex-wrap: wrap; gap: .4rem; list-style: none; padding: 0; margin: .5rem 0; }
.counts li { border: 1px solid var(--line); border-radius: 999px; background: var(--soft); }
.counts a { display: block; padding: .3rem .9rem; color: var(--fg); text-decoration: none; }
.counts a:hover { text-decoration: underline; }
.counts li.current { background: var(--accent); border-color: var(--accent); }
.counts li.current a { color: var(--bg); font-weight: 600; }
.settings { display: flex; flex-wrap: wrap; align-items: end; gap: .5rem 1rem; margin: 1rem 0 .25rem; }
.settings label { display: flex; flex-direction: column; font-size: .85rem; color: var(--muted); gap: .2rem;
  flex: 1 1 9rem; max-width: 16rem; }
.settings button { flex: 0 0 auto; } .settings select, .settings input { width: 100%; }
.range { margin: 1rem 0 .5rem; } .range .keys { display: block; font-size: .85rem; }
.pager { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .5rem 1rem;
  margin: 1.5rem 0; padding: .5rem 0; border-top: 1px solid var(--line); }
.pager a, .pager span { padding: .4rem 0; }
.review-card { padding: 1rem 1.25rem 1.25rem; font-size: 1.05rem; }
.review-card.current { border-color: var(--accent); box-shadow: inset 4px 0 0 var(--accent); }
.review-card h2 { margin: 0 0 .5rem; font-size: 1.05rem; font-weight: 600; overflow-wrap: anywhere; }
.kind { display: inline-block; padding: .1rem .6rem; border-radius: 999px; font-size: .85rem; margin-right: .35rem; }
.kind-disagreement { background: var(--k1); color: var(--k1-fg); }
.kind-spot_check { background: var(--k2); color: var(--k2-fg); }
.kind-unsure { background: var(--k3); color: var(--k3-fg); }
.hash { font-size: .8rem; font-weight: normal; }
.ask { font-size: 1.15rem; font-weight: 600; margin: .25rem 0 .75rem; }
.state { margin: 0 0 .75rem; }
.state th, .state td { vertical-align: baseline; }
.state th { width: 9rem; font-size: .9rem; color: var(--muted); }
.state td { font-size: 1.2rem; line-height: 1.45; white-space: pre-wrap; overflow-wrap: anywhere; }
.answers { display: flex; flex-wrap: wrap; gap: .5rem 3rem; margin: 0 0 1rem; }
.top { display: inline-flex; flex-wrap: wrap; gap: 0 1rem; margin: 0 0 0 .5rem; padding: 0; list-style: none; }
.top li { color: var(--muted); }
.top li.first { color: var(--fg); }
.label { font-weight: 700; font-size: 1.1rem; color: var(--fg); }
.verdicts { display: flex; flex-wrap: wrap; gap: .5rem; }
.verdicts form { margin: 0; display: flex; flex-direction: column; max-width: 16rem; }
.verdicts form button { order: 1; }
.verdicts .num { display: inline-block; min-width: 1.2em; margin-right: .2rem; font-weight: 700; opacity: .75; }
.keys-help { display: block; font-size: .85rem; background: var(--soft); padding: .25rem .5rem; border-radius: 4px; }
.keys-help[hidden] { display: none; }
.verdicts .guide { order: 2; color: var(--muted); font-size: .85rem; margin-top: .2rem; overflow-wrap: anywhere; }
.note-field { display: flex; gap: .5rem; align-items: center; margin: .5rem 0; }
.note-field input { flex: 1; min-width: 0; }
.guidelines { display: flex; flex-wrap: wrap; gap: .25rem 1.25rem; margin: 0 0 .75rem; font-size: .9rem; }
.guidelines div { display: flex; gap: .4rem; } .guidelines dt { font-weight: 700; }
.guidelines dd { margin: 0; color: var(--muted); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .5rem 0 1rem; }
.facts dt { color: var(--muted); } .facts dd { margin: 0; overflow-wrap: anywhere; }
.estimate { white-space: nowrap; }
.run-rows .qname { display: none; } .run-rows .state-cell { min-width: 16rem; overflow-wrap: anywhere; }
.run-rows code.hash { font-size: .8rem; white-space: nowrap; }
.run-rows td { font-size: .95rem; } .run-rows .answer { white-space: nowrap; margin-right: .25rem; }
table.labels { flex: 0 1 16rem; } table.mix { width: auto; min-width: 18rem; }
table.runs { font-size: .9rem; } table.runs th, table.runs td { padding: .4rem .45rem; }
table.runs code { overflow-wrap: normal; white-space: nowrap; } table.runs td:first-child { white-space: nowrap; }
table.runs td.cost { white-space: normal; }
@media (max-width: 40rem) {
  header.site { padding: .6rem .75rem; } main { padding: .75rem .75rem 2rem; }
  .review-card { padding: .75rem; }
  .state th, .state td { display: block; width: auto; } .state th { padding-bottom: 0; border-bottom: 0; }
  .answers { gap: .5rem 1.5rem; }
  .verdicts form { flex: 1 1 auto; max-width: none; } .verdicts button { width: 100%; } .guidelines { display: block; }
  .guidelines div { margin-bottom: .2rem; }
  .settings { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); align-items: end; }
  .settings label { max-width: none; min-width: 0; } .settings button { grid-column: 2; }
  .range .keys { display: none; }
  table.stack thead { display: block; position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip-path: inset(50%); white-space: nowrap; }
  table.stack tbody, .table-wrap:has(table.stack) { display: block; }
  table.stack tr { display: block; padding: .5rem 0; border-bottom: 1px solid var(--line); }
  table.stack td { display: block; border: 0; padding: .1rem 0; width: auto; text-align: left; }
  table.stack td:first-child { width: auto; font-weight: 600; }
  table.stack td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-size: .85rem; }
  table.mix { min-width: 0; width: 100%; }
  .run-rows .qname { display: inline; } .run-rows .state-cell { min-width: 0; }
  .chart-bars .axis, .chart-bars .bars li { grid-template-columns: 8.5rem 1fr 2.2rem; gap: .35rem; }
  .chart-bars .axis { grid-template-columns: 8.5rem repeat(3, 1fr) 2.2rem; }
  .chart-bars .date { font-size: .72rem; }
}
`)
