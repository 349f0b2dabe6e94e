import { isSimulated } from '../../core/engine-kinds.ts'
import type { AccuracySummary } from '../../app/accuracy-summary.ts'
import type { PublicRun } from '../../app/runs.ts'
import { costWords, formatUsd, percent, plural } from '../../format.ts'
import type { HomeData, HomeFolder, HomeJudgment } from '../page-data/home.ts'
import { href, html, type Html } from '../html.ts'
import type { ServerSpend } from '../../app/spend.ts'
import { layout } from './layout.ts'

/**
 * GET /: every folder of specs, its last run, and per judgment its links and each question's
 * accuracy in brief (estimate, interval, reviews waiting). The same data object as GET /v1/projects.
 */
export function homePage(data: HomeData, token: string | null): Html {
  const { folders } = data
  const content =
    folders.length === 0
      ? html`<section class="card empty"><h2>No specs here yet</h2><p>No spec file (\
<code>*.judge.yaml</code>) was found in the served folder. <code>judge init data.csv</code> writes one from the \
columns of a data file; put it in the served folder and reload this page.</p></section>`
      : folders.map((folder) => folderCard(folder, token))
  return layout(
    'Projects',
    token,
    html`<h1>Projects</h1>
<p class="muted">${plural(folders.length, 'folder')} of specs. \
Accuracy is estimated from the reviewed rows of each question over all its answers.</p>
${content}`,
  )
}

function folderCard(folder: HomeFolder, token: string | null): Html {
  if (folder.error !== null) {
    return html`<section class="card"><h2><code>${folder.name}</code></h2>\
<p class="error">${folder.error}</p></section>`
  }
  return html`<section class="card">
<h2><code>${folder.name}</code></h2>
<p>${lastRun(folder.last_run)} · <a href="${href('/runs', { path: folder.path }, token)}">runs and drift</a></p>
${spendLine(folder.spend)}
${folder.judgments.map((j) => judgmentBlock(folder.path, j, token))}
</section>`
}

function judgmentBlock(path: string, judgment: HomeJudgment, token: string | null): Html {
  const links = html`<a href="${href('/review', { path, node: judgment.name }, token)}">review queue</a> · \
<a href="${href('/runs', { path, node: judgment.name }, token)}">runs</a> · \
<a href="${href('/accuracy', { path, node: judgment.name }, token)}">accuracy</a>`
  const head = html`<h3><code>${judgment.name}</code> <span class="links">${links}</span></h3>`
  if (judgment.questions === null) return html`${head}<p class="error">${judgment.error}</p>`
  const rows = Object.entries(judgment.questions).map(([name, q]) => questionRow(name, q))
  return html`${head}<div class="table-wrap"><table class="summary stack"><thead><tr><th>question</th>\
<th>estimated accuracy (95% interval)</th><th>waiting for review</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
}

function questionRow(name: string, q: AccuracySummary): Html {
  return html`<tr><td><code>${name}</code></td><td>${estimate(q)}</td><td>${waiting(q)}</td></tr>`
}

function estimate(q: AccuracySummary): Html {
  if (q.answers === 0) return html`<span class="muted">no answers yet: <code>judge run</code> adds them</span>`
  const over = html` <span class="muted">· ${q.answers} answers</span>`
  if (q.estimate === null || q.interval === null)
    return html`<span class="muted">not estimable yet: review ${plural(q.needed, 'more row')}</span>${over}`
  return html`<strong>${percent(q.estimate)}</strong> <span class="estimate">(${percent(q.interval[0])} to \
${percent(q.interval[1])})</span>${over}`
}

function waiting(q: AccuracySummary): Html {
  const pending =
    q.pending === 0
      ? html`no disagreement with the key`
      : html`<span class="alert">${plural(q.pending, 'disagreement')}</span> with the key`
  return html`${pending} <span class="muted">· ${q.reviewed} reviewed</span>`
}

function lastRun(run: PublicRun | null): Html {
  if (run === null) return html`<span class="muted">No runs yet: <code>judge run</code> records one per judgment</span>`
  return html`Last run <code>${run.run_id}</code> of <code>${run.judgment}</code>: ${run.rows} rows, \
${runCost(run)}, model \
<code>${run.model}</code>${simulatedNote([run])}, ${status(run.status)}`
}

/** A run's cost: for a run of the simulated engine, what System One would have charged, as that (costWords). */
export function runCost(run: Pick<PublicRun, 'model' | 'cost'>): string {
  return costWords(run.cost, isSimulated(run.model))
}

/** A warning that runs of the simulated engine hold stand-in answers; nothing for other runs. */
export function simulatedNote(runs: readonly Pick<PublicRun, 'model'>[]): Html | '' {
  if (!runs.some((r) => isSimulated(r.model))) return ''
  return html` <span class="alert">(simulated answers, not a real model's)</span>`
}

/** The server's engine spend today against the daily cap, and over the last days; simulated answers apart. */
export function spendLine(spend: ServerSpend | null): Html {
  if (spend === null) return html``
  const { today, daily_cap: cap } = spend
  const reached = cap !== null && today.cost >= cap
  const against =
    cap === null
      ? html`no daily cap`
      : html`of the $${formatUsd(cap)} daily cap\
${reached ? html` <span class="alert">reached: new rows get 503</span>` : html``}`
  const week = spend.days.reduce((sum, d) => sum + d.cost, 0)
  const days = spend.days.length
  const recent = days === 0 ? html`` : html`; $${formatUsd(week)} over the last ${plural(days, 'day')} with spend`
  return html`<p class="spend">Engine spend by the server today (UTC): \
$${formatUsd(today.cost)} in ${plural(today.requests, 'request')}, ${against}${recent}${simulatedSpend(spend)}</p>`
}

/** The simulated answers the server gave today, counted apart from the spend; nothing when it gave none. */
function simulatedSpend({ simulated }: ServerSpend): string {
  if (simulated.days.length === 0) return ''
  const { cost, requests } = simulated.today
  return `; simulated answers today: ${plural(requests, 'request')}, ${costWords(cost, true)}`
}

/** A run status, flagged when the run failed. */
export function status(text: string): Html {
  return text === 'complete' ? html`${text}` : html`<span class="alert">${text}</span>`
}
