import type { IncomingHttpHeaders } from 'node:http'

/** The fetch modes of a page load or of the server's own origin: what a reviewer at the page sends. */
const PAGE_MODES: ReadonlySet<string> = new Set(['navigate', 'same-origin', 'cors'])

/** What a page load or a script's fetch asks for; an image, a script, a frame or a style is no reviewer's page. */
const PAGE_DESTS: ReadonlySet<string> = new Set(['document', 'empty'])

/**
 * Whether a request came from a reviewer at the page (docs/security.md, Holds and the name): only
 * then does the review page hold cards or remember a name. A browser says where a request comes
 * from in its `Sec-Fetch-*` headers, and each one sent must allow it: `Sec-Fetch-Site` of
 * `same-origin` or `none` (typed, bookmarked), not `same-site` or `cross-site`; `Sec-Fetch-Mode`
 * of `navigate`, `same-origin` or `cors`, not `no-cors` (an `<img>`, a `<script>`);
 * `Sec-Fetch-Dest` of `document` or `empty`. A client that sends none (curl, a script, an old
 * browser) is taken at its word, as before.
 */
export function fromPage(headers: IncomingHttpHeaders): boolean {
  const site = headers['sec-fetch-site']
  const mode = headers['sec-fetch-mode']
  const dest = headers['sec-fetch-dest']
  return (
    (site === undefined || site === 'same-origin' || site === 'none') &&
    (mode === undefined || PAGE_MODES.has(mode)) &&
    (dest === undefined || PAGE_DESTS.has(dest))
  )
}
