import { html, type Html } from '../html.ts'

/**
 * What a page refused for its token offers beside its 401: a form that asks for the token and opens the same page
 * again, its query kept, with `token=` added. A token the request carried is never written back into the page. Only
 * for a path of this server (`/…`, never `//host`), as the router takes it.
 */
export function tokenForm(page: string, query: URLSearchParams): Html | '' {
  if (!/^\/(?![/\\])/.test(page)) return ''
  const kept = [...query].filter(([name]) => name !== 'token')
  return html`<form method="get" action="${page}" class="token-form">
${kept.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}\
<label>Token <input type="password" name="token" required autocomplete="current-password" \
placeholder="the server's token"></label>
<button type="submit" class="primary">Open</button>
</form>
<p class="muted">The token is the server's <code>JUDGE_SERVER_TOKEN</code>; whoever runs the server can give it. \
The page's links carry it on once it is entered.</p>`
}
