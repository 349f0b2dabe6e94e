import { href, html, type Html } from '../html.ts'
import { STYLE } from './style.ts'

/** Options of a page's frame. */
export interface LayoutOptions {
  /** A link, first in the page, that skips to this element id: `Skip to <text>`. */
  readonly skip?: { readonly id: string; readonly text: string }
}

/** The frame of every page: head, inline style, a link home (carrying the token), the content. */
export function layout(title: string, token: string | null, content: Html, options: LayoutOptions = {}): Html {
  const skip = options.skip ? html`<a class="skip" href="#${options.skip.id}">Skip to ${options.skip.text}</a>\n` : ''
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · judge</title>
<style>${STYLE}</style>
</head>
<body>
${skip}<header class="site"><a class="brand" href="${href('/', {}, token)}">judge</a></header>
<main>
${content}
</main>
</body>
</html>
`
}
