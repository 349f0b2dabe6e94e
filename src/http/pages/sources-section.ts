import { answeredFromText, sourcesText, TEXT_ONLY_WARNING } from '../../core/tally/sources.ts'
import type { RunRecord, SourceCounts } from '../../core/types.ts'
import { html, type Html } from '../html.ts'

/**
 * The warning beside a question's routes and thresholds when some of its answers were read from one text answer
 * (p is 1 for each): nothing when none were.
 */
export function textOnlyWarning(question: string, counts: SourceCounts | undefined): Html | '' {
  if (!answeredFromText(counts)) return ''
  return html`<p class="alert text-only"><code>${question}</code> ${TEXT_ONLY_WARNING}.</p>`
}

const sourceItem = (question: string, counts: SourceCounts) =>
  html`<li><code>${question}</code>: ${sourcesText(counts)}</li>`

/** A run's answers per question by how their p was obtained, each question answered from text warned of. */
export function sourcesSection(sources: RunRecord['sources']): Html {
  const questions = Object.entries(sources ?? {}).filter(([, counts]) => sourcesText(counts) !== '')
  if (questions.length === 0) {
    return html`<h2>Where p comes from</h2>
<p class="muted">Not counted: the run was recorded before runs counted how their answers' p was obtained.</p>`
  }
  return html`<h2>Where p comes from</h2>
<ul class="sources">${questions.map(([question, counts]) => sourceItem(question, counts))}</ul>
${questions.map(([question, counts]) => textOnlyWarning(question, counts))}`
}
