import type { VerdictChoice } from '../../core/review/verdicts.ts'
import { percent } from '../../format.ts'
import { noteField } from './review-note.ts'
import type { ReviewCard, ReviewData } from '../page-data/review-data.ts'
import { html, tokenField, type Html } from '../html.ts'
import { accessKeys } from './review-keys.ts'
import { emptyQueue, KIND_TEXT, pager, reviewHeader } from './review-header.ts'
import { layout } from './layout.ts'
import { reviewBanner } from './review-banner.ts'
import { reviewScript } from './review-script.ts'

export type { ReviewData } from '../page-data/review-data.ts'
export { KIND_TEXT } from './review-header.ts'

// The verdicts that settle the row as shown stand out; the ones that set it aside stay quiet.
const EMPHASIS: Readonly<Record<string, string>> = {
  model_right: 'primary',
  key_right: 'primary',
  confirmed: 'primary',
  needs_context: 'quiet',
  ambiguous: 'quiet',
}

/**
 * GET /review: a header (judgment, progress, counts per kind, the filter and reviewer form), then the
 * rows: the banner of what was just saved with its undo, which a verdict or an undo brings the page
 * back to (`#queue`) and which stays at the top of the screen, and one page of cards, each with its
 * state, the question, the model's top labels, the key's label and a button per verdict posting to
 * /review; then the pager. The first card's buttons carry access keys, shown on them; without the
 * page's script nothing takes the focus on load. Pure: the data in, the page out.
 */
export function reviewPage(data: ReviewData, token: string | null): Html {
  const cards =
    data.cards.length === 0 ? emptyQueue(data, token) : data.cards.map((card, i) => cardOf(data, card, i, token))
  return layout(
    `Review ${data.judgment}`,
    token,
    html`${reviewHeader(data, token)}
<div id="queue" class="queue">
${reviewBanner(data, token)}
${cards}
</div>
${pager(data, token)}
${reviewScript()}`,
    { skip: { id: 'queue', text: 'the rows' } },
  )
}

function cardOf(data: ReviewData, card: ReviewCard, index: number, token: string | null): Html {
  const id = `card-${index + 1}`
  const question = data.questions.find((q) => q.name === card.question)
  const ask = question?.ask ?? card.question
  const guide = guideOf(question, card)
  // Only the first card has keys: a key must name one button of the page, and a verdict reloads the page with the next
  // row first.
  const keys = index === 0 ? accessKeys(card.verdicts) : card.verdicts.map(() => null)
  const form = (choice: VerdictChoice, i: number) =>
    verdictForm(
      data,
      card,
      choice,
      { key: keys[i], digit: i < 9 ? i + 1 : null },
      token,
      guide(choice),
      `${id}-v${i + 1}`,
    )
  return html`<section class="card review-card${index === 0 ? ' current' : ''}" aria-labelledby="${id}">
<h2 id="${id}"><span class="kind kind-${card.kind}">${KIND_TEXT[card.kind]}</span> <code>${card.question}</code> \
<span class="muted hash">row ${card.state_hash}</span></h2>
<p class="ask">${ask}</p>
${guidelines(question)}
<table class="state"><tbody>\
${Object.entries(card.state).map(([column, value]) => html`<tr><th scope="row">${column}</th><td>${value}</td></tr>`)}\
</tbody></table>
<div class="answers">
<div><span class="muted">Model</span> <ol class="top">${card.top.map(
    (t, i) =>
      html`<li${i === 0 ? html` class="first"` : ''}><span class="label">${t.label}</span> ${percent(t.p)}</li>`,
  )}</ol></div>
<div><span class="muted">Answer key</span> ${
    card.key_label === null
      ? html`<span class="muted">no label</span>`
      : html`<span class="label">${card.key_label}</span>`
  }</div>
${
  card.label_under_check === null
    ? ''
    : html`<div><span class="muted">Label under check</span> <span class="label">${card.label_under_check}</span></div>`
}
</div>
${noteField(id)}
<div class="verdicts">${card.verdicts.map(form)}</div>
</section>`
}

type QuestionData = ReviewData['questions'][number]

/** The question's guidelines: every label with its description, as the spec gives them. */
function guidelines(question: QuestionData | undefined): Html {
  const described =
    question === undefined
      ? []
      : question.labels.flatMap((label, i) =>
          question.descriptions[i] ? [[label, question.descriptions[i]!] as const] : [],
        )
  if (described.length === 0) return html``
  return html`<dl class="guidelines" aria-label="guidelines">\
${described.map(([label, text]) => html`<div><dt>${label}</dt><dd>${text}</dd></div>`)}</dl>`
}

/**
 * The description of the label a verdict button saves, shown beside it; null when it saves none or the label has none.
 */
function guideOf(question: QuestionData | undefined, card: ReviewCard): (choice: VerdictChoice) => string | null {
  const describe = (label: string | null) =>
    question === undefined || label === null ? null : (question.descriptions[question.labels.indexOf(label)] ?? null)
  return (choice) => {
    if (choice.verdict === 'labeled') return describe(choice.label)
    if (choice.verdict === 'model_right') return describe(card.model_label)
    if (choice.verdict === 'key_right') return describe(card.key_label)
    if (choice.verdict === 'confirmed') return describe(card.label_under_check)
    return null
  }
}

/** A button's keys: its access key (Alt), and its single key with the page's script (1-9). */
interface ButtonKeys {
  readonly key: string | null
  readonly digit: number | null
}

function verdictForm(
  data: ReviewData,
  card: ReviewCard,
  choice: VerdictChoice,
  keys: ButtonKeys,
  token: string | null,
  guide: string | null,
  id: string,
): Html {
  const { key } = keys
  const hidden = (name: string, value: string | number | null) =>
    value === null ? '' : html`<input type="hidden" name="${name}" value="${value}">`
  const { filter } = data
  const fields = html`${hidden('path', data.path)}${hidden('node', data.judgment)}${hidden('question', card.question)}\
${hidden('state', card.state_hash)}${hidden('kind', card.kind)}${hidden('verdict', choice.verdict)}\
${hidden('label', choice.label)}${hidden('reviewer', data.reviewer ?? '')}${hidden('audit', data.audit)}\
${hidden('filter_kind', filter.kind)}${hidden('filter_question', filter.question)}${hidden('filter_row', filter.row)}\
${data.page.number > 1 ? hidden('page', data.page.number) : ''}${tokenField(token)}`
  const shortcut = key === null ? '' : html` accesskey="${key}" aria-keyshortcuts="Alt+${key.toUpperCase()}"`
  const described = guide === null ? '' : html` aria-describedby="${id}"`
  const note = guide === null ? '' : html`<span class="guide" id="${id}">${guide}</span>`
  const digit = keys.digit === null ? '' : html`<span class="num" aria-hidden="true">${keys.digit}</span> `
  return html`<form method="post" action="/review">${fields}${note}\
<button type="submit" class="${EMPHASIS[choice.verdict] ?? 'plain'}"${described}${shortcut}>${digit}\
${choice.text}${key === null ? '' : html` <kbd aria-hidden="true">${key}</kbd>`}</button></form>`
}
