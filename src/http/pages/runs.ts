import type { LikeDriftEntry } from '../../core/reports/like-runs.ts'
import type { DriftEntry } from '../../core/types.ts'
import { href, html, type Html } from '../html.ts'
import type { RunsData, RunsJudgment, ShadowRow } from '../page-data/runs.ts'
import { percent } from '../../format.ts'
import { shareChart } from './chart.ts'
import { runCost, simulatedNote, status } from './home.ts'
import { layout } from './layout.ts'
import { likeRunsSection } from './like-runs.ts'
import { runChange, unlikeRuns } from './run-change.ts'
import { runningTable } from './running-runs.ts'

/**
 * GET /runs: per judgment and question the latest label mix, led by its drift on the same data and
 * on other data flagged above 0.10 (a change from another command's rows named as such), the label shares across
 * runs and the like-run tables; then the runs whose batches are pending at the provider, as running, and the run
 * table (newest first, each run opening its own page).
 * The same data object as GET /v1/runs-page.
 */
export function runsPage(data: RunsData, token: string | null): Html {
  const title = data.node === null ? data.path : `${data.path} · ${data.node}`
  const links = data.judgments.map(
    (j) =>
      html` · <a href="${href('/review', { path: data.path, node: j.name }, token)}">review ${j.name}</a> · \
<a href="${href('/accuracy', { path: data.path, node: j.name }, token)}">accuracy and calibration of ${j.name}</a>`,
  )
  return layout(
    `Runs of ${title}`,
    token,
    html`<h1>Runs of <code>${title}</code></h1>
<p class="meta"><a href="${href('/', {}, token)}">All projects</a>${links}</p>
<h2>Drift and label mix</h2>
<p class="muted">Each question's latest run against the previous complete run of the same command and source (same \
data: the model moved), and against the previous complete run of its command on another source (other data: the \
data moved); a change from another command's rows (the answer key after a data file) is named as such, not as \
drift.</p>
${data.judgments.map((j) => judgmentSection(j, data.path, token))}
<h2>Runs</h2>
${runningTable(data.running)}${runTable(data, token)}`,
  )
}

/**
 * The run table, narrow enough for 1280 px without a sideways scroll: the status comes second, so
 * a failed run shows at once; the start sits under the run id, the source beside its command, the
 * reported model under the model asked, and the git commit under the spec hash.
 */
function runTable(data: RunsData, token: string | null): Html {
  const { runs } = data
  if (runs.length === 0)
    return html`<section class="card empty"><p>No runs yet. <code>judge run ${data.path}</code> judges the rows of the \
spec's data file and records one run per judgment; <code>judge test</code> and \
<code>judge replay</code> record runs too.</p></section>`
  const rows = runs.map(
    (r) => html`<tr><td><a href="${href(`/runs/${encodeURIComponent(r.run_id)}`, { path: data.path }, token)}">\
<code>${r.run_id}</code></a><br><span class="muted nowrap" \
data-label="started">${r.started_at.slice(0, 19).replace('T', ' ')}</span></td>
<td data-label="status">${status(r.status)}</td><td data-label="judgment">${r.judgment}</td>\
<td data-label="ran on">${ranOn(r)}</td>
<td class="num" data-label="rows">${r.rows}</td><td class="num" data-label="answers asked">${r.asked}</td>\
<td class="num cost" data-label="cost">${runCost(r)}</td>
<td data-label="model"><code>${r.model}</code>${
      r.reported_model && r.reported_model !== r.model
        ? html`<br><span class="muted">reported <code>${r.reported_model}</code></span>`
        : ''
    }</td>
<td data-label="spec hash, git commit"><code>${r.spec_hash}</code>\
<br>${r.git_sha === '' ? html`<span class="muted">no commit</span>` : html`<code>${r.git_sha}</code>`}</td></tr>`,
  )
  return html`<div class="table-wrap"><table class="runs stack"><thead><tr><th>run, started (UTC)</th><th>status</th>\
<th>judgment</th><th>ran on</th><th class="num">rows</th><th class="num">answers asked</th>
<th class="num">cost</th><th>model</th><th>spec hash, git commit</th></tr></thead><tbody>${rows}</tbody></table></div>
${
  simulatedNote(runs) === ''
    ? ''
    : html`<p class="alert">Runs of a \
<code>simulated-…</code> model hold simulated answers (<code>ENGINE=simulated</code>), not a real model's; \
nothing was spent on them: their costs are what System One would have charged.</p>`
}`
}

/** The command and source of a run: `run` of `messages.csv`; a dash for runs recorded before they were kept. */
function ranOn(r: RunsData['runs'][number]): Html {
  if (r.command === '') return html`<span class="muted">–</span>`
  return html`<code>${r.command}</code> \
of ${r.source === '' ? html`<span class="muted">–</span>` : html`<code>${r.source}</code>`}`
}

function judgmentSection(judgment: RunsJudgment, path: string, token: string | null): Html {
  const cards = Object.entries(judgment.drift).map(([question, entries]) =>
    questionCard(question, entries, judgment.like[question] ?? [], judgment.labels[question] ?? [], judgment.started),
  )
  return html`<h3>${judgment.name}</h3>${cards}${likeRunsSection(judgment.like)}\
${shadowTable(judgment.shadows, { path, judgment: judgment.name }, token)}`
}

/** Each shadow candidate's agreement with the live answers, when shadow requests were made. */
function shadowTable(
  shadows: readonly ShadowRow[],
  live: { readonly path: string; readonly judgment: string },
  token: string | null,
): Html {
  if (shadows.length === 0) return html``
  const compare = (s: ShadowRow) =>
    href(
      '/compare',
      { path: live.path, node: live.judgment, shadow: s.candidate, shadow_hash: s.candidate_hash },
      token,
    )
  const rows = shadows.map(
    (s) => html`<tr><td><code>${s.candidate}</code></td><td><code>${s.candidate_hash}</code></td><td>\
<code>${s.question}</code></td>
<td class="num">${s.rows}</td><td class="num">${percent(s.agreement)}</td><td>${s.last}</td><td>\
<a href="${compare(s)}">compare</a></td></tr>`,
  )
  return html`<section class="card"><h4>Shadow candidates</h4>
<p class="muted">How often each candidate spec gave the live label on the rows it shadowed. Agreement is not accuracy: \
<em>compare</em> says whether the candidate is more accurate (\
<code>judge compare</code> replays it on every kept row).</p>
<div class="table-wrap"><table><thead><tr><th>candidate</th><th>spec hash</th><th>question</th>\
<th class="num">rows</th><th class="num">agreement</th><th>last shadowed (UTC)</th><th>accuracy</th></tr></thead>\
<tbody>${rows}</tbody></table></div></section>`
}

function questionCard(
  question: string,
  entries: readonly DriftEntry[],
  like: readonly LikeDriftEntry[],
  labels: readonly string[],
  started: Readonly<Record<string, string>>,
): Html {
  const latest = entries.at(-1)
  return html`<section class="card">
<h4><code>${question}</code> ${runChange(entries, like)}</h4>
${latest ? mixTable(latest, labels) : ''}
${shareChart(question, entries, labels, started, unlikeRuns(entries, like))}
</section>`
}

/** The latest mix, every label of the question in spec order (those without rows at 0%). */
function mixTable(entry: DriftEntry, labels: readonly string[]): Html {
  const all = [...new Set([...labels, ...Object.keys(entry.shares)])]
  const rows = all.map(
    (label) => html`<tr><td>${label}</td><td class="num">${percent(entry.shares[label] ?? 0)}</td></tr>`,
  )
  return html`<table class="mix"><thead><tr><th>label (latest run, ${entry.rows} rows)</th>\
<th class="num">share</th></tr></thead><tbody>${rows}</tbody></table>`
}
