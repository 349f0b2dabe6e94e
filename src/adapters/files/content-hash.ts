import { createHash } from 'node:crypto'
import { open } from 'node:fs/promises'

/** The bytes read at a time, into one buffer for the whole file. */
const CHUNK = 64 * 1024

/**
 * The first 16 hex digits of SHA-256 of a file's bytes, read in pieces (a data file may be far
 * larger than memory); "" when the file cannot be read, since a source's hash only describes it.
 * The pieces go through one buffer: a stream's new buffer for each piece piled up, on a 100 MB
 * file, some 15 MB of garbage that malloc then kept for the rest of a run.
 */
export async function contentHash(file: string): Promise<string> {
  const digest = createHash('sha256')
  try {
    const handle = await open(file)
    try {
      const buffer = Buffer.allocUnsafeSlow(CHUNK)
      for (;;) {
        const { bytesRead } = await handle.read(buffer, 0, CHUNK, null)
        if (bytesRead === 0) break
        digest.update(buffer.subarray(0, bytesRead))
      }
    } finally {
      await handle.close()
    }
  } catch {
    return ''
  }
  return digest.digest('hex').slice(0, 16)
}
