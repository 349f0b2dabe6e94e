import type { LikeDriftEntry } from '../../core/reports/like-runs.ts'
import type { DriftEntry } from '../../core/types.ts'
import { html, type Html } from '../html.ts'
import { distance, pValue } from '../../format.ts'

/**
 * The changes a question card leads with: the latest run against the previous complete run of the
 * same command and source (same data: the model moved), then against the previous complete run of
 * its command on another source (other data: the data moved), each flagged above 0.10 when it is
 * more than noise; when the run just before it was another command's (the answer key's `judge
 * test` after a `judge run`), that change too, named as what it is: unlike rows, not drift.
 * Without like-run data, the change since the previous run, flagged as the interface's drift entry says.
 */
export function runChange(entries: readonly DriftEntry[], like: readonly LikeDriftEntry[]): Html {
  const latest = entries.at(-1)
  if (latest === undefined) return html``
  const mine = like.find((e) => e.run_id === latest.run_id)
  if (mine === undefined) return change(latest)
  const previous = entries.at(-2)
  const before = previous && like.find((e) => e.run_id === previous.run_id)
  const unlike =
    latest.change !== null && before !== undefined && before.command !== mine.command
      ? html` <span class="muted unlike">· change ${distance(latest.change)} from the run before \
it, ${series(before)}: unlike rows, not drift</span>`
      : ''
  return html`${likeChange(mine)}${otherDataChange(mine)}${unlike}`
}

/**
 * The runs whose change since the run before them is between unlike runs (another command: the answer key after a
 * data file), not drift; a run after another source of its command is drift over new data.
 */
export function unlikeRuns(entries: readonly DriftEntry[], like: readonly LikeDriftEntry[]): Set<string> {
  const series = new Map(like.map((e) => [e.run_id, e]))
  const out = new Set<string>()
  entries.forEach((entry, i) => {
    const [mine, before] = [series.get(entry.run_id), i > 0 ? series.get(entries[i - 1].run_id) : undefined]
    if (mine && before && mine.command !== before.command) out.add(entry.run_id)
  })
  return out
}

/** The change on other data: since the previous complete run of the same command on another source. */
function otherDataChange(e: LikeDriftEntry): Html {
  const other = e.other_data
  if (other === null) return html``
  const text = html`other data: change ${distance(other.change)} since run <code>${other.baseline}</code>, \
the previous complete ${series({ command: e.command, source: other.source })}; the data moved`
  if (other.significant)
    return html` <span class="alert other-data">· drift: ${text}, above 0.10 (${pValue(other.p_value)})</span>`
  const noise = other.alert ? html`, above 0.10 but within noise (${pValue(other.p_value)})` : ''
  return html` <span class="muted other-data">· ${text}${noise}</span>`
}

function likeChange(e: LikeDriftEntry): Html {
  if (e.baseline === null || e.change === null)
    return html`<span class="muted">same data: first complete ${series(e)}, nothing to compare with</span>`
  const text = html`same data: change ${distance(e.change)} since run <code>${e.baseline}</code>, \
the previous complete ${series(e)}`
  if (e.alert && !e.significant)
    return html`<span class="muted">${text}, above 0.10 but within noise (${pValue(e.p_value)})</span>`
  return e.alert
    ? html`<span class="alert">drift: ${text}, above 0.10 (${pValue(e.p_value)})</span>`
    : html`<span class="muted">${text}</span>`
}

function change(entry: DriftEntry): Html {
  if (entry.change === null) return html`<span class="muted">first run</span>`
  const text = `change ${distance(entry.change)} since the previous run`
  if (entry.alert && !entry.significant)
    return html`<span class="muted">${text}, above 0.10 but within noise (${pValue(entry.p_value)})</span>`
  return entry.alert
    ? html`<span class="alert">drift: ${text}, above 0.10 (${pValue(entry.p_value)})</span>`
    : html`<span class="muted">${text}</span>`
}

/** A series of like runs as a card names it: `run` of `messages.csv`. */
function series(e: Pick<LikeDriftEntry, 'command' | 'source'>): Html {
  return e.command === ''
    ? html`run recorded before commands and sources were`
    : html`<code>${e.command}</code> of <code>${e.source}</code>`
}
