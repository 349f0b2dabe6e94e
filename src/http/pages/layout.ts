import { href, html, type Html } from '../html.ts'
import { STYLE } from './style.ts'

/** The frame of every page: head, inline style, a link home (carrying the token), the content. */
export function layout(title: string, token: string | null, content: Html): Html {
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
<header class="site"><a class="brand" href="${href('/', {}, token)}">judge</a></header>
<main>
${content}
</main>
</body>
</html>
`
}
