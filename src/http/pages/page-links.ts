import { html, type Html } from '../html.ts'

/**
 * The previous and next links of a paged list of rows, and where it stands: page `number` of
 * `pages`, each page's address given by `to`. The review queue and a run's page share it.
 */
export function pageLinks(number: number, pages: number, to: (page: number) => string): Html {
  const [back, forward] = ['← Previous', 'Next →']
  const previous =
    number > 1 ? html`<a rel="prev" href="${to(number - 1)}">${back}</a>` : html`<span class="muted">${back}</span>`
  const next =
    number < pages
      ? html`<a rel="next" href="${to(number + 1)}">${forward}</a>`
      : html`<span class="muted">${forward}</span>`
  return html`<nav class="pager" aria-label="pages of rows">${previous}\
<span>Page ${number} of ${pages}</span>${next}</nav>`
}
