import { isUtf8 } from 'node:buffer'
import { Transform, type TransformCallback } from 'node:stream'
import { InputError } from '../../errors.ts'

/** How a data file's bytes are text: UTF-8 (a byte-order mark dropped), or UTF-16 named by its byte-order mark. */
type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be'

/** The encoding a file's first bytes name by their byte-order mark; UTF-8 without one. */
function encodingOf(start: Uint8Array): TextEncoding {
  if (start[0] === 0xff && start[1] === 0xfe) return 'utf-16le'
  if (start[0] === 0xfe && start[1] === 0xff) return 'utf-16be'
  return 'utf-8'
}

/** The error of a data file whose bytes are not text in the encoding it was read in. */
function notText(label: string, encoding: TextEncoding): InputError {
  const what = encoding === 'utf-8' ? 'UTF-8' : `UTF-16 (${encoding === 'utf-16le' ? 'LE' : 'BE'})`
  return new InputError(
    `${label}: is not ${what} text: judge reads data files in UTF-8, or in UTF-16 with a byte-order mark; ` +
      'save it as UTF-8 (e.g. iconv -f latin1 -t utf-8)',
  )
}

/**
 * The text of a file's first bytes, decoded by its byte-order mark (dropped); bytes that are not text are an
 * InputError naming `label`. `whole` says the bytes are the whole file: otherwise a character cut off at the end is
 * left out.
 */
export function decodedHead(bytes: Uint8Array, label: string, whole: boolean): string {
  const encoding = encodingOf(bytes)
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes, { stream: !whole })
  } catch {
    throw notText(label, encoding)
  }
}

/**
 * A stream of a data file's bytes as UTF-8 without a byte-order mark: UTF-8 passed on as it is, once checked, and
 * UTF-16 (by its byte-order mark) decoded. Bytes that are not text fail the stream with an InputError naming `label`.
 */
export function utf8Text(label: string): Transform {
  let step: Converter | null = null
  let waiting = Buffer.alloc(0)
  const begin = (bytes: Buffer) => (step = converter(label, encodingOf(bytes))).convert(bytes)
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      try {
        if (step !== null) return done(null, step.convert(chunk))
        waiting = Buffer.concat([waiting, chunk])
        // Three bytes tell a UTF-8 from a UTF-16 byte-order mark.
        done(null, waiting.length < 3 ? undefined : begin(waiting))
      } catch (error) {
        done(error as Error)
      }
    },
    flush(done: TransformCallback) {
      try {
        const rest = step === null ? begin(waiting) : Buffer.alloc(0)
        done(null, Buffer.concat([rest, step!.end()]))
      } catch (error) {
        done(error as Error)
      }
    },
  })
}

/** Turns each chunk of a file into UTF-8, and gives what is left at its end. */
interface Converter {
  readonly convert: (chunk: Buffer) => Buffer
  readonly end: () => Buffer
}

/** The step that turns each chunk of a file in `encoding` into UTF-8, and what is left at its end. */
function converter(label: string, encoding: TextEncoding): Converter {
  if (encoding !== 'utf-8') {
    const decoder = new TextDecoder(encoding, { fatal: true })
    const decode = (chunk: Buffer, stream: boolean) => {
      try {
        return Buffer.from(decoder.decode(chunk, { stream }), 'utf8')
      } catch {
        throw notText(label, encoding)
      }
    }
    return { convert: (chunk) => decode(chunk, true), end: () => decode(Buffer.alloc(0), false) }
  }
  let first = true
  let carried: Buffer = Buffer.alloc(0)
  return {
    convert(chunk) {
      let bytes = carried.length === 0 ? chunk : Buffer.concat([carried, chunk])
      if (first && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3)
      first = false
      const cut = wholeCharacters(bytes)
      carried = bytes.subarray(cut)
      const text = bytes.subarray(0, cut)
      if (!isUtf8(text)) throw notText(label, 'utf-8')
      return text
    },
    end() {
      if (carried.length > 0) throw notText(label, 'utf-8')
      return carried
    },
  }
}

/** How many of the bytes end on a whole UTF-8 character: a character cut off at the end waits for the next chunk. */
export function wholeCharacters(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back += 1) {
    const byte = bytes[bytes.length - back]
    if ((byte & 0xc0) === 0x80) continue
    const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
    return size > back ? bytes.length - back : bytes.length
  }
  return bytes.length
}
