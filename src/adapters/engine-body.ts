/** A body read whole, or why it was not: it was, or was declared, over the cap. */
export type BodyRead = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly message: string }

/**
 * Reads a response's body as UTF-8 text, chunk by chunk, up to `maxBytes`. A body declared longer
 * (Content-Length) is not read at all; one that grows past the cap is read no further. Either way
 * `stop` is called, to abort the request and drop its connection, so that no more than the cap is
 * ever held.
 */
export async function readCapped(response: Response, maxBytes: number, stop: () => void): Promise<BodyRead> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > maxBytes) return overCap(maxBytes, stop)
  if (response.body === null) return { ok: true, text: '' }
  const reader = response.body.getReader()
  const chunks: Uint8Array[] = []
  let bytes = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    if (bytes > maxBytes) {
      const over = overCap(maxBytes, stop)
      void reader.cancel().catch(() => {})
      return over
    }
    chunks.push(value)
  }
  return { ok: true, text: new TextDecoder().decode(Buffer.concat(chunks)) }
}

/**
 * Reads a response's body as UTF-8 lines, giving each (without its line break; blank ones too) to
 * `onLine` as it arrives, so that a file of any length is read holding one line at a time. A line
 * longer than `maxBytes` is read no further, as readCapped's answer over the cap.
 */
export async function readLines(
  response: Response,
  maxBytes: number,
  stop: () => void,
  onLine: (line: string) => void,
): Promise<BodyRead> {
  if (response.body === null) return { ok: true, text: '' }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
  let rest = ''
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    const lines = (rest + value).split('\n')
    rest = lines.pop()!
    if (lines.some((line) => Buffer.byteLength(line) > maxBytes) || Buffer.byteLength(rest) > maxBytes) {
      const over = overCap(maxBytes, stop)
      void reader.cancel().catch(() => {})
      return over
    }
    for (const line of lines) onLine(line)
  }
  if (rest !== '') onLine(rest)
  return { ok: true, text: '' }
}

/** The words for an answer over the cap, e.g. `the engine's answer was over 4 MiB`. */
export function overCapMessage(maxBytes: number): string {
  return `the engine's answer was over ${sizeText(maxBytes)} (ENGINE_MAX_RESPONSE_BYTES), so it was not read`
}

/** A number of bytes in the largest whole unit: `4 MiB`, `64 KiB`, `1500 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes % 2 ** 20 === 0) return `${bytes / 2 ** 20} MiB`
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`
  return `${bytes} bytes`
}

function overCap(maxBytes: number, stop: () => void): BodyRead {
  stop()
  return { ok: false, message: overCapMessage(maxBytes) }
}
