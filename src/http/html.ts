/** HTML that is already safe to send: the output of `html` or a value passed through `raw`. */
export class Html {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
  toString(): string {
    return this.text
  }
}

/** What may be interpolated into `html`: nothing (null, undefined, false) renders as empty. */
export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[]

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Escapes text for an HTML element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c])
}

/** Marks trusted markup so that `html` inserts it as it is. Never pass request data here. */
export function raw(text: string): Html {
  return new Html(text)
}

/**
 * The tagged template every page is written with: each interpolated value is escaped unless it
 * is Html (nested templates, `raw`); arrays are joined; null, undefined and false render nothing.
 *
 * @example
 * html`<p>${'<script>'}</p>`.text // '<p>&lt;script&gt;</p>'
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let out = strings[0]
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]
  return new Html(out)
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text
  if (Array.isArray(value)) return value.map(render).join('')
  if (value === null || value === undefined || value === false) return ''
  return escapeHtml(String(value))
}

/**
 * A link target: `path` with the given query parameters (undefined ones left out) and the token,
 * when the request carried one in its query or form, carried on.
 */
export function href(
  path: string,
  params: Readonly<Record<string, string | number | undefined>>,
  token: string | null,
): string {
  const query = new URLSearchParams()
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, String(value))
  return withToken(query.size === 0 ? path : `${path}?${query}`, token)
}

/** Appends the token to a URL, so that a page opened with `?token=` keeps working when followed. */
export function withToken(url: string, token: string | null): string {
  if (token === null) return url
  return `${url}${url.includes('?') ? '&' : '?'}token=${encodeURIComponent(token)}`
}

/** The hidden form field that carries the token on with a form's submission; nothing without one. */
export function tokenField(token: string | null): Html {
  return token === null ? raw('') : html`<input type="hidden" name="token" value="${token}">`
}
