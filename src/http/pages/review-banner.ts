import type { ReviewData } from '../page-data/review-data.ts'
import { html, tokenField, type Html } from '../html.ts'
import { UNDO_KEY } from './review-keys.ts'

/**
 * The banner after a verdict or an undo: "Saved: <verdict> · Undo", the undo being its own form
 * posting to /review/undo; or what an undo did. Nothing when the request names neither.
 */
export function reviewBanner(data: ReviewData, token: string | null): Html {
  if (data.saved !== null) {
    const s = data.saved
    return html`<div class="banner" role="status">Saved: <strong>${s.text}</strong> <span class="muted">(<code>${s.question}</code>, row <code>${s.state_hash}</code>)</span> · ${undoForm(data, token)}</div>`
  }
  if (data.undone !== null) {
    const u = data.undone
    const after =
      u.standing === null
        ? 'it is back in the queue'
        : html`the verdict before it, <strong>${u.standing.text}</strong>, stands again`
    return html`<div class="banner" role="status">Undone: the verdict on <code>${u.question}</code>, row <code>${u.state_hash}</code>, is withdrawn; ${after}.</div>`
  }
  return html``
}

function undoForm(data: ReviewData, token: string | null): Html {
  const s = data.saved!
  const hidden = (name: string, value: string | number | null) =>
    value === null ? '' : html`<input type="hidden" name="${name}" value="${value}">`
  const { filter } = data
  return html`<form method="post" action="/review/undo">${hidden('path', data.path)}${hidden('node', data.judgment)}${hidden('question', s.question)}${hidden('state', s.state_hash)}${hidden('reviewed_at', s.reviewed_at)}${hidden('reviewer', data.reviewer ?? '')}${hidden('audit', data.audit)}${hidden('filter_kind', filter.kind)}${hidden('filter_question', filter.question)}${hidden('filter_row', filter.row)}${data.page.number > 1 ? hidden('page', data.page.number) : ''}${tokenField(token)}<button type="submit" class="link" accesskey="${UNDO_KEY}" aria-keyshortcuts="Alt+${UNDO_KEY.toUpperCase()}">Undo <kbd aria-hidden="true">${UNDO_KEY}</kbd></button></form>`
}
