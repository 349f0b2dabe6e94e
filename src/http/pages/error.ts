import { STATUS_CODES } from 'node:http'
import { html, type Html } from '../html.ts'
import { layout } from './layout.ts'

/**
 * The page an error answers with: its status, its reason phrase and the message, then what to do (`more`), if anything.
 */
export function errorPage(status: number, message: string, token: string | null, more: Html | '' = ''): Html {
  const reason = STATUS_CODES[status] ?? 'Error'
  return layout(
    `${status} ${reason}`,
    token,
    html`<h1>${status} ${reason}</h1>
<p class="error">${message}</p>
${more}`,
  )
}
