/**
 * One route: a method, a path, and the value a match hands back (the endpoint). A path segment
 * written `{name}` matches any one non-empty segment and hands it back as a parameter.
 */
export interface Route<T> {
  readonly method: string
  readonly path: string
  readonly value: T
}

/**
 * What a request line matches: a route with its path parameters, a known path asked with another method, or nothing.
 */
export type Match<T> =
  | { readonly kind: 'found'; readonly route: Route<T>; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: 'method'; readonly allow: readonly string[] }
  | { readonly kind: 'none' }

/** A router over a fixed table. It never sees a request: it maps a method and a path to data. */
export interface Router<T> {
  match(method: string, pathname: string): Match<T>
}

/** The routes of one path, by method, and the names of its parameters in segment order. */
interface PathRoutes<T> {
  readonly segments: readonly string[]
  readonly methods: Map<string, Route<T>>
}

const PARAM = /^\{([a-z_]+)\}$/

/**
 * Creates a router over `routes`. Paths match exactly (no trailing-slash folding), a literal path
 * before a pattern; HEAD follows GET unless the table lists HEAD itself. A parameter is
 * percent-decoded, and a segment that decodes to a slash, a NUL or nothing matches no pattern. A
 * repeated method and path is a mistake in the table and throws at once.
 */
export function createRouter<T>(routes: readonly Route<T>[]): Router<T> {
  const byPath = new Map<string, PathRoutes<T>>()
  for (const route of routes) {
    const entry = byPath.get(route.path) ?? { segments: route.path.split('/'), methods: new Map<string, Route<T>>() }
    if (entry.methods.has(route.method)) throw new Error(`route ${route.method} ${route.path} is listed twice`)
    entry.methods.set(route.method, route)
    byPath.set(route.path, entry)
  }
  const patterns = [...byPath.values()].filter((entry) => entry.segments.some((s) => PARAM.test(s)))
  return {
    match(method, pathname) {
      const literal = byPath.get(pathname)
      const found =
        literal && !patterns.includes(literal) ? { entry: literal, params: {} } : matchPattern(patterns, pathname)
      if (!found) return { kind: 'none' }
      const { methods } = found.entry
      const route = methods.get(method) ?? (method === 'HEAD' ? methods.get('GET') : undefined)
      if (route) return { kind: 'found', route, params: found.params }
      return { kind: 'method', allow: allowed(methods) }
    },
  }
}

function matchPattern<T>(
  patterns: readonly PathRoutes<T>[],
  pathname: string,
): { entry: PathRoutes<T>; params: Record<string, string> } | null {
  const parts = pathname.split('/')
  for (const entry of patterns) {
    if (entry.segments.length !== parts.length) continue
    const params: Record<string, string> = {}
    const fits = entry.segments.every((segment, i) => {
      const name = PARAM.exec(segment)?.[1]
      if (name === undefined) return segment === parts[i]
      const value = decoded(parts[i])
      if (value === null) return false
      params[name] = value
      return true
    })
    if (fits) return { entry, params }
  }
  return null
}

function decoded(segment: string): string | null {
  try {
    const value = decodeURIComponent(segment)
    return value === '' || /[/\0]/.test(value) ? null : value
  } catch {
    return null
  }
}

function allowed(methods: ReadonlyMap<string, unknown>): string[] {
  const allow = [...methods.keys()]
  if (methods.has('GET') && !methods.has('HEAD')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD')
  return allow
}
