import { PayloadTooLargeError, UsageError } from '../errors.ts'

/** The largest request body read: 1 MiB (docs/http-api.md, Errors). */
export const BODY_LIMIT = 1024 * 1024

/** The most of a form body read before its token is checked: 16 KiB. */
export const PRE_AUTH_FORM_LIMIT = 16 * 1024

/** The deepest nesting of arrays and objects a JSON body may have. */
export const MAX_DEPTH = 64

/** A request's body as a stream of bytes: node:http's request, or anything that emits the same events. */
export interface BodyStream {
  on(event: 'data', listener: (chunk: Buffer) => void): unknown
  on(event: 'end' | 'close', listener: () => void): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
  off(event: 'data', listener: (chunk: Buffer) => void): unknown
  pause(): unknown
  /** Whether the whole body came in (node:http's `complete`): a stream closed before is cut off. */
  readonly complete: boolean
}

/**
 * Reads a body as UTF-8 text, up to `limit` bytes, and calls `done` once: with the text, or with a
 * PayloadTooLargeError (413) or a UsageError for a body cut off before its end. `declared` is its
 * Content-Length (NaN without one). The one body reader of the server, without a promise.
 */
export function collectBody(
  stream: BodyStream,
  declared: number,
  limit: number,
  done: (error: Error | null, text: string) => void,
): void {
  let settled = false
  const settle = (error: Error | null, text = '') => {
    if (settled) return
    settled = true
    done(error, text)
  }
  // Refused before a byte is read.
  if (declared > limit) return settle(tooLarge(limit))
  const chunks: Buffer[] = []
  let size = 0
  const whole = () =>
    settle(null, chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8'))
  // A body of a declared length is whole at its last byte (node:http never passes on more): the
  // stream's end, a turn later, is not waited for.
  const onData = (chunk: Buffer) => {
    size += chunk.length
    if (size <= limit) {
      chunks.push(chunk)
      if (size === declared) whole()
      return
    }
    // Stop reading: the reply says Connection: close, so the rest is never taken in.
    stream.off('data', onData)
    stream.pause()
    settle(tooLarge(limit))
  }
  const cutOff = () => settle(new UsageError('the request body was cut off before its end'))
  // Each listener is `on`, not `once`: settle runs once anyway, and `once` wraps each listener anew.
  stream.on('data', onData)
  // A body sent in chunks, or of length 0, is whole at the stream's end.
  if (!(declared > 0)) stream.on('end', whole)
  // A client that hangs up mid-body is its own problem, not the server's: no 500, no stack.
  stream.on('error', cutOff)
  stream.on('close', () => (stream.complete ? undefined : cutOff()))
}

function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`the request body is over the limit of ${limit} bytes`)
}

/** Parses a JSON body: empty, malformed and too deeply nested bodies are UsageErrors (400). */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new UsageError('the body is empty; send a JSON object')
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`the body is not JSON: ${(error as Error).message}`)
  }
  if (depthOf(value) > MAX_DEPTH) throw new UsageError(`the body is nested more than ${MAX_DEPTH} levels deep`)
  return value
}

/** How deeply arrays and objects nest in a parsed JSON value; walked without recursion. */
export function depthOf(value: unknown): number {
  let deepest = 0
  const pending: [unknown, number][] = [[value, 0]]
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!
    if (typeof item !== 'object' || item === null) continue
    deepest = Math.max(deepest, depth + 1)
    if (deepest > MAX_DEPTH) return deepest
    for (const child of Object.values(item)) pending.push([child, depth + 1])
  }
  return deepest
}

/** A JSON object body as a record; anything else (an array, a string, null) is a 400. */
export function objectBody(value: unknown, allowed: readonly string[]): Readonly<Record<string, unknown>> {
  if (!isPlainObject(value)) throw new UsageError('the body must be a JSON object')
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key))
  if (unknown.length > 0) {
    throw new UsageError(
      `unknown field${unknown.length === 1 ? '' : 's'} ${unknown.map((k) => JSON.stringify(k)).join(', ')}; ` +
        `the fields are ${allowed.join(', ')}`,
    )
  }
  return value
}

/** An optional string field; null counts as absent. */
export function optionalString(body: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = body[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string') throw new UsageError(`${name} must be a string`)
  return value
}

/** An optional boolean field; null counts as absent. */
export function optionalBoolean(body: Readonly<Record<string, unknown>>, name: string): boolean | undefined {
  const value = body[name]
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'boolean') throw new UsageError(`${name} must be true or false`)
  return value
}

/** A required JSON object field (not an array, not null). */
export function requiredObject(
  body: Readonly<Record<string, unknown>>,
  name: string,
): Readonly<Record<string, unknown>> {
  const value = body[name]
  if (value === undefined) throw new UsageError(`${name} is required`)
  if (!isPlainObject(value)) throw new UsageError(`${name} must be a JSON object of column to value`)
  return value
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
