import { formatUsd } from '../../format.ts'
import { SIMULATED_PREFIX } from '../../adapters/simulated/simulated.ts'
import { href, html, type Html } from '../html.ts'
import type { PublicRun } from '../../app/runs.ts'
import type { ServerSpend } from '../../app/spend.ts'
import type { HomeFolder } from '../endpoints/home.ts'
import { layout } from './layout.ts'

/** GET /: every folder of specs, its judgments and last run, with links to its review and runs pages. */
export function homePage(folders: readonly HomeFolder[], token: string | null): Html {
  const content = folders.length === 0
    ? html`<p>No spec files (<code>*.judge.yaml</code>) were found in the served folder.</p>`
    : folders.map((folder) => folderCard(folder, token))
  return layout('Projects', token, html`<h1>Projects</h1>
<p class="muted">${folders.length} folder${folders.length === 1 ? '' : 's'} of specs.</p>
${content}`)
}

function folderCard(folder: HomeFolder, token: string | null): Html {
  if (folder.error !== null) {
    return html`<section class="card"><h2><code>${folder.path}</code></h2><p class="error">${folder.error}</p></section>`
  }
  const rows = folder.judgments.map((name) => html`<tr><td><code>${name}</code></td>
<td><a href="${href('/review', { path: folder.path, node: name }, token)}">review queue</a></td>
<td><a href="${href('/runs', { path: folder.path, node: name }, token)}">runs</a></td>
<td><a href="${href('/accuracy', { path: folder.path, node: name }, token)}">accuracy</a></td></tr>`)
  return html`<section class="card">
<h2><code>${folder.path}</code></h2>
<p>${lastRun(folder.lastRun)} · <a href="${href('/runs', { path: folder.path }, token)}">runs and drift</a></p>
${spendLine(folder.spend)}
<table><thead><tr><th>judgment</th><th>review</th><th>runs</th><th>accuracy</th></tr></thead><tbody>${rows}</tbody></table>
</section>`
}

function lastRun(run: PublicRun | null): Html {
  if (run === null) return html`<span class="muted">No runs yet</span>`
  return html`Last run <code>${run.run_id}</code> of <code>${run.judgment}</code>: ${run.rows} rows, $${formatUsd(run.cost)}, model <code>${run.model}</code>${simulatedNote([run])}, ${status(run.status)}`
}

/** A warning that runs of the simulated engine hold stand-in answers; nothing for other runs. */
export function simulatedNote(runs: readonly Pick<PublicRun, 'model'>[]): Html | '' {
  if (!runs.some((r) => r.model.startsWith(SIMULATED_PREFIX))) return ''
  return html` <span class="alert">(simulated answers, not a real model's)</span>`
}

/** The server's engine spend today against the daily cap, and over the last days. */
export function spendLine(spend: ServerSpend | null): Html {
  if (spend === null) return html``
  const { today, daily_cap: cap } = spend
  const reached = cap !== null && today.cost >= cap
  const against = cap === null ? html`no daily cap` : html`of the $${formatUsd(cap)} daily cap${reached ? html` <span class="alert">reached: new rows get 503</span>` : html``}`
  const week = spend.days.reduce((sum, d) => sum + d.cost, 0)
  const days = spend.days.length
  const recent = days === 0 ? html`` : html`; $${formatUsd(week)} over the last ${days} day${days === 1 ? '' : 's'} with spend`
  return html`<p class="spend">Engine spend by the server today (UTC): $${formatUsd(today.cost)} in ${today.requests} request${today.requests === 1 ? '' : 's'}, ${against}${recent}</p>`
}

/** A run status, flagged when the run failed. */
export function status(text: string): Html {
  return text === 'complete' ? html`${text}` : html`<span class="alert">${text}</span>`
}
