import type { QuestionAgreement } from '../../core/agreement/agreement.ts'
import type { Proportion } from '../../core/stats/domain-proportion.ts'
import { decimals, percent, withInterval } from '../../format.ts'
import { html, type Html } from '../html.ts'
import { MEANINGS, term } from './accuracy-terms.ts'
import { disagreementList } from './disagreement-list.ts'
import { modelFigureText, raterFigureText } from '../../core/agreement/figure-text.ts'

const kappa = (k: number | null, i: readonly [number, number] | null) =>
  k === null ? '–' : withInterval(k, i, decimals(2))
const rows = (n: number) => `${n} ${n === 1 ? 'row' : 'rows'}`
const share = (p: Proportion | null) => (p === null ? '–' : withInterval(p.point, p.interval, percent))

/**
 * A question's agreement (docs/review.md, Agreement): the model's Cohen's κ against people with
 * raw agreement beside it, never alone; the design-weighted confusion and per-label precision,
 * recall and F1; the people against each other, a reviewer far below the rest flagged; and how
 * often the answer key was wrong where a reviewer spoke.
 */
export function agreementSection(labels: readonly string[], a: QuestionAgreement): Html {
  if (a.kappa === null && a.rows === 0)
    return html`<h3>Agreement with people</h3><p class="muted">Not yet: \
${a.reason ?? 'no reviewed sample'}.</p>${peopleLine(a)}${keyLine(a)}${disagreementList(a)}`
  const cells = (model: string) =>
    labels.map((truth) => html`<td class="num">${Math.round(a.confusion[model]?.[truth] ?? 0)}</td>`)
  const raw =
    a.raw_agreement === null || a.raw_agreement_interval === null
      ? null
      : { point: a.raw_agreement, interval: a.raw_agreement_interval }
  return html`<h3>Agreement with people</h3>
<p>Cohen's κ <strong>${kappa(a.kappa, a.kappa_interval)}</strong>, \
raw agreement ${share(raw)}, over ${a.rows} reviewed sample ${a.rows === 1 ? 'row' : 'rows'}, \
each weighed by the answers it stands for.${a.reason ? html` <span class="muted">${a.reason}</span>` : ''}</p>
${term('κ, AC1 and α', MEANINGS.kappa)}\
<div class="split"><div class="table-wrap"><table><caption>model label × reviewed label (answers)</caption><thead><tr>\
<th>model \\ reviewed</th>${labels.map((l) => html`<th class="num">${l}</th>`)}</tr></thead>
<tbody>${labels.map((model) => html`<tr><th>${model}</th>${cells(model)}</tr>`)}</tbody></table></div>
<div class="table-wrap"><table><thead><tr><th>label</th><th>precision</th><th>recall</th><th>F1</th></tr></thead>
<tbody>${labels.map(
    (l) => html`<tr><th>${l}</th><td>${share(a.per_label[l]?.precision ?? null)}</td>\
<td>${share(a.per_label[l]?.recall ?? null)}</td><td>${share(a.per_label[l]?.f1 ?? null)}</td></tr>`,
  )}</tbody></table></div></div>
${figureLines(a)}${peopleLine(a)}${keyLine(a)}${disagreementList(a)}`
}

/**
 * AC1 and the weighted κs beside κ, and people's AC1 and α over every reviewer's verdicts, each
 * with its interval.
 */
function figureLines(a: QuestionAgreement): Html {
  const model = modelFigureText(a)
  const raters = raterFigureText(a)
  return html`${model === null ? '' : html`<p class="figures">Beside κ: ${model}.</p>`}\
${raters === null ? '' : html`<p class="figures">Every reviewer's verdicts: ${raters}.</p>`}`
}

function peopleLine(a: QuestionAgreement): Html {
  if (a.people.rows === 0)
    return html`<p class="muted">No row reviewed twice yet (<code>double_review</code>): \
people are not measured against each other.</p>`
  const reviewers = Object.entries(a.reviewers).map(
    ([name, r]) =>
      html`<li>${name}: ${rows(r.rows)}, agreement ${percent(r.agreement)} (${percent(r.interval[0])} to \
${percent(r.interval[1])})${r.flagged ? html` <strong class="alert">far below the others</strong>` : ''}</li>`,
  )
  return html`<p>Between reviewers: κ <strong>${kappa(a.people.kappa, a.people.kappa_interval)}</strong>, \
raw agreement ${a.people.raw_agreement === null ? '–' : percent(a.people.raw_agreement)}, \
over ${rows(a.people.rows)} reviewed twice.</p><ul>${reviewers}</ul>`
}

function keyLine(a: QuestionAgreement): Html {
  if (a.key_error === null) return html``
  const [low, high] = a.key_error.interval
  return html`<p>The answer key was wrong on <strong>${percent(a.key_error.point)}</strong> (${percent(low)} to \
${percent(high)}) of the ${a.key_error.rows} key rows a reviewer labelled.</p>`
}
