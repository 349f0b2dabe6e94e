import { href, html, type Html } from '../html.ts'

/**
 * What a page asked without `path` offers beside its 400: a link to the same page for each spec
 * file served, and to the home page; or, when none is served, how to make one.
 */
export function pathChoices(choices: readonly string[], page: string, token: string | null): Html {
  const home = html`<a href="${href('/', {}, token)}">every folder</a>`
  if (choices.length === 0) {
    return html`<p>The served folder (<code>JUDGE_PROJECTS</code>) holds no spec file yet: \
<code>judge init</code> writes one. See ${home}.</p>`
  }
  const links = choices.map((path) => html`<li><a href="${href(page, { path }, token)}"><code>${path}</code></a></li>`)
  return html`<p>Choose a spec file for <code>${page}</code>, or see ${home}:</p>
<ul class="choices">${links}</ul>`
}
