import type { FileHandle } from 'node:fs/promises'
import { StoreError } from '../../store-error.ts'

/**
 * The StoreError for a file judge appends to (a reviews file) that could not be written: a full
 * disk or quota, a read-only file system or file. Any other error is returned as it is. Nothing of
 * the line was kept (appendLine takes back a line written in part), so sending it again is safe.
 */
export function fileWriteError(file: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new StoreError(
      file,
      'full',
      `${file}: the disk is full, nothing was saved in it: free space and send it again`,
      { cause: error },
    )
  }
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return new StoreError(
      file,
      'read-only',
      `${file} cannot be written (${code}), nothing was saved in it: make it and its folder writable`,
      { cause: error },
    )
  }
  return error
}

/**
 * Writes `bytes` at the end of the file open for appending on `handle`, whose size was `size`
 * before, then syncs. A write that fails midway (a disk filling up) is taken back, when nothing was
 * appended after it, so that no line is left torn; the failure is what the caller gets.
 */
export async function writeWhole(handle: FileHandle, bytes: Buffer, size: number): Promise<void> {
  let offset = 0
  try {
    while (offset < bytes.length) offset += (await handle.write(bytes, offset, bytes.length - offset)).bytesWritten
    await handle.sync()
  } catch (error) {
    if (offset > 0)
      await handle
        .stat()
        .then((now) => (now.size === size + offset ? handle.truncate(size) : undefined))
        .catch(() => {})
    throw error
  }
}
