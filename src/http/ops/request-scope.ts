import { AsyncLocalStorage } from 'node:async_hooks'

/** What the work of one HTTP request gathers as it goes: the engine's ids of the requests it made. */
export interface RequestScope {
  /** The engine's own request ids (System One's `x-typesafe-request-id`), in the order the answers came. */
  readonly engineIds: string[]
}

const scope = new AsyncLocalStorage<RequestScope>()

/** Runs a request's work (and everything it starts) within its scope. */
export function withinRequest<T>(request: RequestScope, work: () => T): T {
  return scope.run(request, work)
}

/** The scope of the request whose work is running, if any (none for a command's or a library's call). */
export function currentRequest(): RequestScope | undefined {
  return scope.getStore()
}
