import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'

/**
 * The first 16 hex digits of SHA-256 of a file's bytes, read as a stream (a data file may be far
 * larger than memory); "" when the file cannot be read, since a source's hash only describes it.
 */
export async function contentHash(file: string): Promise<string> {
  const digest = createHash('sha256')
  try {
    for await (const chunk of createReadStream(file)) digest.update(chunk as Buffer)
  } catch {
    return ''
  }
  return digest.digest('hex').slice(0, 16)
}
