/** One route: a method, an exact path, and the value a match hands back (the endpoint). */
export interface Route<T> {
  readonly method: string
  readonly path: string
  readonly value: T
}

/** What a request line matches: a route, a known path asked with another method, or nothing. */
export type Match<T> =
  | { readonly kind: 'found'; readonly route: Route<T> }
  | { readonly kind: 'method'; readonly allow: readonly string[] }
  | { readonly kind: 'none' }

/** A router over a fixed table. It never sees a request: it maps a method and a path to data. */
export interface Router<T> {
  match(method: string, pathname: string): Match<T>
}

/**
 * Creates a router over `routes`. Paths match exactly (no patterns, no trailing-slash folding);
 * HEAD follows GET unless the table lists HEAD itself. A repeated method and path is a mistake
 * in the table and throws at once.
 */
export function createRouter<T>(routes: readonly Route<T>[]): Router<T> {
  const byPath = new Map<string, Map<string, Route<T>>>()
  for (const route of routes) {
    const methods = byPath.get(route.path) ?? new Map<string, Route<T>>()
    if (methods.has(route.method)) throw new Error(`route ${route.method} ${route.path} is listed twice`)
    methods.set(route.method, route)
    byPath.set(route.path, methods)
  }
  return {
    match(method, pathname) {
      const methods = byPath.get(pathname)
      if (!methods) return { kind: 'none' }
      const route = methods.get(method) ?? (method === 'HEAD' ? methods.get('GET') : undefined)
      if (route) return { kind: 'found', route }
      return { kind: 'method', allow: allowed(methods) }
    },
  }
}

function allowed(methods: ReadonlyMap<string, unknown>): string[] {
  const allow = [...methods.keys()]
  if (methods.has('GET') && !methods.has('HEAD')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD')
  return allow
}
