import type { IncomingHttpHeaders } from 'node:http'
import { isIP } from 'node:net'
import { ForbiddenError } from '../errors.ts'
import { authorize, bearerToken, type ServerToken } from './auth.ts'

/** Methods that change nothing (RFC 9110's safe methods): the only ones another site may send. */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE'])

/**
 * What passing the guard gives a request: the token to carry on in its pages, or that its token must be read from its
 * form.
 */
export type Admission = { readonly inForm: false; readonly token: string | null } | { readonly inForm: true }

/** The checks every request passes before either path serves it (docs/security.md). */
export interface Guard {
  /**
   * Checks a request's Host (on a server without a token), its origin (for a method that changes
   * state) and its header or query token: a ForbiddenError (403) or UnauthorizedError (401) when
   * refused. A token that can only be in the form is left to the caller, which reads the body.
   */
  admit(method: string, headers: IncomingHttpHeaders, query: URLSearchParams): Admission
}

/** What the guard checks against. */
export interface GuardOptions {
  /** The configured token's check, or null for an open server. */
  readonly token: ServerToken | null
  /**
   * JUDGE_ALLOWED_HOSTS: host names the server answers for beside loopback and IP addresses; `.name` takes its
   * subdomains, `*` any name.
   */
  readonly allowedHosts: readonly string[]
  /** HOST, the address the server listens on: it answers for that name too. */
  readonly listenHost: string
}

/** Host header values remembered with their verdict, at most. */
const REMEMBERED_HOSTS = 256

/** Creates the guard of one server. */
export function createGuard(options: GuardOptions): Guard {
  const { token } = options
  const listed = listedNames(options.allowedHosts)
  const hostAllowed = hostCheck(options, listed)
  const open: Admission = { inForm: false, token: null }
  return {
    admit(method, headers, query) {
      if (token === null && !hostAllowed(headers.host)) {
        throw new ForbiddenError(
          `this server does not answer for the host ${JSON.stringify(headers.host!.slice(0, 100))}; ` +
            'list it in JUDGE_ALLOWED_HOSTS to serve it under that name',
        )
      }
      if (!SAFE_METHODS.has(method)) refuseOtherSites(headers, listed)
      if (token === null) return open
      const bearer = bearerToken(headers.authorization)
      if (bearer !== null) return { inForm: false, token: authorize(token, { token: bearer, source: 'header' }) }
      const fromQuery = query.get('token')
      if (fromQuery !== null) return { inForm: false, token: authorize(token, { token: fromQuery, source: 'query' }) }
      return { inForm: true }
    },
  }
}

/**
 * Refuses a request that changes state when a browser says another site sent it. A browser that
 * sends `Sec-Fetch-Site` is believed: `same-origin` and `none` (typed by the user) pass, whatever
 * the `Origin` (the pages' `Referrer-Policy: no-referrer` makes the browser send `Origin: null` on
 * their own forms); `cross-site` is refused; `same-site` (another port or subdomain) passes only
 * with the server's own `Origin`. Without it, the `Origin` must be the server's own (the Host it
 * was sent to, or a name of JUDGE_ALLOWED_HOSTS) or absent, as clients that are not browsers send.
 */
function refuseOtherSites(headers: IncomingHttpHeaders, listed: (name: string) => boolean): void {
  const site = headers['sec-fetch-site']
  if (site === 'same-origin' || site === 'none') return
  if (site === 'cross-site') throw crossSite('Sec-Fetch-Site: cross-site')
  const origin = headers.origin
  if (origin === undefined && site === undefined) return
  const host = origin === undefined ? null : originHost(origin)
  if (host !== null && (host === headers.host?.toLowerCase() || listed(hostName(host)))) return
  throw crossSite(origin === undefined ? `Sec-Fetch-Site: ${site}` : `Origin ${JSON.stringify(origin.slice(0, 100))}`)
}

function crossSite(why: string): ForbiddenError {
  return new ForbiddenError(
    `a request from another site (${why}) may not change anything here; ` +
      `send it from the server's own pages or without a browser`,
  )
}

/** The host (and port) of an Origin header; null for an opaque origin (`null`) or one that does not parse. */
function originHost(origin: string): string | null {
  try {
    const url = new URL(origin)
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host.toLowerCase() : null
  } catch {
    return null
  }
}

/**
 * Whether a Host header names this server: absent (not a browser), an IP address, a loopback name
 * (`localhost`, `*.localhost`), the address it listens on, or a name of JUDGE_ALLOWED_HOSTS. A page
 * that rebinds its own name to this machine sends that name, so it is refused; an IP address
 * cannot be rebound.
 */
function hostCheck(options: GuardOptions, listed: (name: string) => boolean): (header: string | undefined) => boolean {
  if (options.allowedHosts.includes('*')) return () => true
  const listen = options.listenHost.toLowerCase()
  const allowed = (name: string) =>
    isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || name === listen || listed(name)
  const seen = new Map<string, boolean>()
  return (header) => {
    if (header === undefined) return true
    let verdict = seen.get(header)
    if (verdict === undefined) {
      if (seen.size >= REMEMBERED_HOSTS) seen.clear()
      seen.set(header, (verdict = allowed(hostName(header.toLowerCase()))))
    }
    return verdict
  }
}

/** Whether a lower-case host name is one of JUDGE_ALLOWED_HOSTS (`.name` also takes its subdomains; `*` names none). */
function listedNames(allowedHosts: readonly string[]): (name: string) => boolean {
  const names = allowedHosts.map((n) => n.toLowerCase()).filter((n) => n !== '*')
  return (name) => names.some((n) => (n.startsWith('.') ? name === n.slice(1) || name.endsWith(n) : name === n))
}

/** The name of a `host[:port]`, without brackets for an IPv6 address. */
export function hostName(host: string): string {
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']') === -1 ? undefined : host.indexOf(']'))
  const colon = host.indexOf(':')
  return colon === -1 || host.indexOf(':', colon + 1) !== -1 ? host : host.slice(0, colon)
}
