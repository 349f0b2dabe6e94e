import type { ShadowAgreement } from '../../core/reports/shadow.ts'
import type { DriftEntry } from '../../core/types.ts'
import { href, html, type Html } from '../html.ts'
import type { PublicRun } from '../../app/runs.ts'
import type { RunsData, RunsJudgment } from '../endpoints/runs.ts'
import { formatUsd, percent } from '../../format.ts'
import { shareChart } from './chart.ts'
import { simulatedNote, status } from './home.ts'
import { layout } from './layout.ts'
import { likeRunsSection } from './like-runs.ts'

/**
 * GET /runs: the run table, then per judgment and question the latest label mix with its drift
 * flagged above 0.10, and a chart of the label shares across runs. The same data as the API.
 */
export function runsPage(data: RunsData, token: string | null): Html {
  const title = data.node === null ? data.path : `${data.path} · ${data.node}`
  return layout(`Runs of ${title}`, token, html`<h1>Runs of <code>${title}</code></h1>
<p><a href="${href('/', {}, token)}">All projects</a>${data.judgments.map((j) => html` · <a href="${href('/review', { path: data.path, node: j.name }, token)}">review ${j.name}</a> · <a href="${href('/accuracy', { path: data.path, node: j.name }, token)}">accuracy of ${j.name}</a>`)}</p>
<h2>Runs</h2>
${runTable(data.runs)}
<h2>Label mix</h2>
${data.judgments.map(judgmentSection)}`)
}

function runTable(runs: readonly PublicRun[]): Html {
  if (runs.length === 0) return html`<p class="muted">No runs yet: <code>judge run</code> records one per judgment.</p>`
  const rows = runs.map((r) => html`<tr><td><code>${r.run_id}</code></td><td>${r.judgment}</td><td>${r.started_at}</td>
<td>${r.command || '-'}</td><td>${r.source === '' ? '-' : html`<code>${r.source}</code>`}</td>
<td class="num">${r.rows}</td><td class="num">${r.asked}</td><td class="num">$${formatUsd(r.cost)}</td>
<td><code>${r.model}</code></td><td><code>${r.reported_model || '-'}</code></td><td><code>${r.spec_hash}</code></td><td><code>${r.git_sha}</code></td><td>${status(r.status)}</td></tr>`)
  return html`<table><thead><tr><th>run</th><th>judgment</th><th>started (UTC)</th><th>command</th><th>source</th><th class="num">rows</th><th class="num">answers asked</th>
<th class="num">cost</th><th>model</th><th>reported model</th><th>spec hash</th><th>git commit</th><th>status</th></tr></thead><tbody>${rows}</tbody></table>
${simulatedNote(runs) === '' ? '' : html`<p class="alert">Runs of a <code>simulated-…</code> model hold simulated answers (<code>ENGINE=simulated</code>), not a real model's; their costs are what System One would have charged.</p>`}`
}

function judgmentSection(judgment: RunsJudgment): Html {
  const cards = Object.entries(judgment.drift).map(([question, entries]) => questionCard(question, entries, judgment.labels[question] ?? []))
  return html`<h3>${judgment.name}</h3>${cards}${likeRunsSection(judgment.like)}${shadowTable(judgment.shadows)}`
}

/** Each shadow candidate's agreement with the live answers, when shadow requests were made. */
function shadowTable(shadows: readonly ShadowAgreement[]): Html {
  if (shadows.length === 0) return html``
  const rows = shadows.map((s) => html`<tr><td><code>${s.candidate}</code></td><td><code>${s.candidateHash}</code></td><td><code>${s.question}</code></td>
<td class="num">${s.rows}</td><td class="num">${percent(s.agreement)}</td><td>${s.last}</td></tr>`)
  return html`<section class="card"><h4>Shadow candidates</h4>
<p class="muted">How often each candidate spec gave the live label on the rows it shadowed. Replay it on kept rows with <code>judge replay</code>.</p>
<table><thead><tr><th>candidate</th><th>spec hash</th><th>question</th><th class="num">rows</th><th class="num">agreement</th><th>last shadowed (UTC)</th></tr></thead><tbody>${rows}</tbody></table></section>`
}

function questionCard(question: string, entries: readonly DriftEntry[], labels: readonly string[]): Html {
  const latest = entries.at(-1)
  return html`<section class="card">
<h4><code>${question}</code> ${latest ? change(latest) : ''}</h4>
${latest ? mixTable(latest, labels) : ''}
${shareChart(question, entries, labels)}
</section>`
}

function change(entry: DriftEntry): Html {
  if (entry.change === null) return html`<span class="muted">first run</span>`
  const text = `change ${entry.change.toFixed(3)} since the previous run`
  return entry.alert ? html`<span class="alert">drift: ${text}, above 0.10</span>` : html`<span class="muted">${text}</span>`
}

/** The latest mix, every label of the question in spec order (those without rows at 0%). */
function mixTable(entry: DriftEntry, labels: readonly string[]): Html {
  const all = [...new Set([...labels, ...Object.keys(entry.shares)])]
  const rows = all.map((label) => html`<tr><td>${label}</td><td class="num">${percent(entry.shares[label] ?? 0)}</td></tr>`)
  return html`<table><thead><tr><th>label (latest run, ${entry.rows} rows)</th><th class="num">share</th></tr></thead><tbody>${rows}</tbody></table>`
}
