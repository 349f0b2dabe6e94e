import { closeSync, openSync, readSync, fstatSync, writeSync } from 'node:fs'

/** Bytes overwritten in a file, and a way to put them back. */
export interface Damage {
  /** Pages hit. */
  readonly pages: number
  /** Writes the original bytes back. */
  restore(): void
}

/**
 * Damages every page of the SQLite file `file` past its first (which holds the file's header and
 * the schema's root): the first 64 bytes of each, its page header among them, become 0xa5, which no
 * page starts with. So any read of a table or an index meets a malformed page, as after a disk
 * error or a `cp` of a live store. Done in place, as the file stands, whoever has it open.
 */
export function damagePages(file: string): Damage {
  const fd = openSync(file, 'r+')
  try {
    const header = Buffer.alloc(2)
    readSync(fd, header, 0, 2, 16)
    const raw = header.readUInt16BE(0)
    const pageSize = raw === 1 ? 65536 : raw
    const size = fstatSync(fd).size
    const saved: [number, Buffer][] = []
    for (let at = pageSize; at + 64 <= size; at += pageSize) {
      const before = Buffer.alloc(64)
      readSync(fd, before, 0, 64, at)
      saved.push([at, before])
      writeSync(fd, Buffer.alloc(64, 0xa5), 0, 64, at)
    }
    return {
      pages: saved.length,
      restore() {
        const out = openSync(file, 'r+')
        try {
          for (const [at, bytes] of saved) writeSync(out, bytes, 0, bytes.length, at)
        } finally {
          closeSync(out)
        }
      },
    }
  } finally {
    closeSync(fd)
  }
}
