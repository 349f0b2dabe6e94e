import type { IncomingHttpHeaders } from 'node:http'
import { validReviewer } from '../../adapters/files/reviews-file.ts'
import { fromPage } from './page-request.ts'

/** The cookie the review page remembers its reviewer's name in (docs/review.md, Leases). */
export const REVIEWER_COOKIE = 'judge_reviewer'

/** A year: the name is asked once, not once a session. */
const MAX_AGE_S = 365 * 24 * 3600

/** The reviewer name a request's cookie remembers, or null: a cookie that is not a valid name is ignored. */
export function cookieReviewer(headers: IncomingHttpHeaders): string | null {
  const header = headers.cookie ?? ''
  for (const part of header.split(';')) {
    const at = part.indexOf('=')
    if (at < 0 || part.slice(0, at).trim() !== REVIEWER_COOKIE) continue
    let value: string
    try {
      value = decodeURIComponent(part.slice(at + 1).trim())
    } catch {
      return null
    }
    return validReviewer(value) ? value : null
  }
  return null
}

/**
 * The headers of a review page: the reviewer's name remembered, when it has one and the request came from the page
 * (page-request.ts): a page opened from another site or embedded in one names nobody for the next page.
 */
export function reviewerCookieHeaders(
  data: { readonly reviewer: string | null },
  request: { readonly headers: IncomingHttpHeaders },
): Record<string, string> {
  if (data.reviewer === null || !validReviewer(data.reviewer) || !fromPage(request.headers)) return {}
  return {
    'set-cookie':
      `${REVIEWER_COOKIE}=${encodeURIComponent(data.reviewer)}; Path=/; Max-Age=${MAX_AGE_S}; SameSite=Lax; ` +
      'HttpOnly',
  }
}
