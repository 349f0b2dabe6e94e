import { StoreError } from '../../store-error.ts'

/**
 * The StoreError for a file judge appends to (a reviews file) that could not be written: a full
 * disk or quota, a read-only file system or file. Any other error is returned as it is. Nothing of
 * the line was kept (appendLine takes back a line written in part), so sending it again is safe.
 */
export function fileWriteError(file: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new StoreError(file, 'full', `${file}: the disk is full, nothing was saved in it: free space and send it again`, { cause: error })
  }
  if (code === 'EROFS' || code === 'EACCES' || code === 'EPERM') {
    return new StoreError(file, 'read-only', `${file} cannot be written (${code}), nothing was saved in it: make it and its folder writable`, { cause: error })
  }
  return error
}
