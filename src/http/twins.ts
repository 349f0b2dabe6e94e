import type { Endpoint, HttpRequest, ServerContext } from './context.ts'
import type { Html } from './html.ts'
import { jsonReply, pageReply } from './reply.ts'
import type { Route } from './router.ts'

/**
 * The URL of a page's JSON twin: `/v1/pages` and the page's path, without a trailing slash, so
 * that `/runs` has `/v1/pages/runs`, `/runs/{run_id}` has `/v1/pages/runs/{run_id}` and `/` has
 * `/v1/pages`. The twin takes the page's query parameters and answers its data object.
 */
export function twinPath(page: string): string {
  return `/v1/pages${page}`.replace(/\/$/, '')
}

/** A page and its JSON twin: one data builder, one renderer of its data. */
export interface Twin<D> {
  /** The page's path, a pattern of the router (`/runs/{run_id}`). */
  readonly path: string
  /** The data object of a request, the one thing both answers are made from. */
  readonly data: (ctx: ServerContext, request: HttpRequest) => D | Promise<D>
  /** The page of that data, its links carrying the request's token (a promise when the page is loaded on first use). */
  readonly page: (data: D, token: string | null) => Html | Promise<Html>
  /** Earlier URLs of the twin, still answered with the same data. */
  readonly aliases?: readonly string[]
  /** Headers of the page (not of its JSON twin) from its data and request, such as a cookie it sets. */
  readonly headers?: (
    data: D,
    request: HttpRequest,
  ) => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>
}

/** The routes of a page, its JSON twin at twinPath, and the twin's aliases: all from one data builder. */
export function twin<D>(declared: Twin<D>): Route<Endpoint>[] {
  const page: Endpoint = async (ctx, request) => {
    const data = await declared.data(ctx, request)
    const reply = pageReply(await declared.page(data, request.token))
    return declared.headers ? { ...reply, headers: await declared.headers(data, request) } : reply
  }
  const json: Endpoint = async (ctx, request) => jsonReply(await declared.data(ctx, request))
  const twins = [twinPath(declared.path), ...(declared.aliases ?? [])]
  return [
    { method: 'GET', path: declared.path, value: page },
    ...twins.map((path): Route<Endpoint> => ({ method: 'GET', path, value: json })),
  ]
}
