import t from 'tap'
import type { FileHandle } from 'node:fs/promises'
import { fileWriteError, writeWhole } from '../../../src/adapters/files/write-trouble.ts'
import { StoreError } from '../../../src/store-error.ts'

const errno = (code: string) => Object.assign(new Error(`${code}: it failed`), { code })

t.test('a full disk or quota is a full file, naming it and what to do', async (t) => {
  for (const code of ['ENOSPC', 'EDQUOT']) {
    const error = fileWriteError('/srv/spam.reviews.csv', errno(code)) as StoreError
    t.ok(error instanceof StoreError)
    t.match(error, {
      trouble: 'full',
      file: '/srv/spam.reviews.csv',
      status: 503,
      message: '/srv/spam.reviews.csv: the disk is full, nothing was saved in it: free space and send it again',
    })
  }
})

t.test('a read-only file system or file says it cannot be written, and why', async (t) => {
  for (const code of ['EROFS', 'EACCES', 'EPERM']) {
    t.match(fileWriteError('/srv/spam.reviews.csv', errno(code)), {
      trouble: 'read-only',
      message: `/srv/spam.reviews.csv cannot be written (${code}), nothing was saved in it`,
    })
  }
})

t.test('any other error is passed on as it is', async (t) => {
  const other = errno('EIO')
  t.equal(fileWriteError('/srv/spam.reviews.csv', other), other)
  t.equal(fileWriteError('/srv/spam.reviews.csv', null), null)
})

/** A file handle over bytes in memory whose disk takes `room` more bytes, then refuses (ENOSPC). */
function fakeHandle(
  held: number,
  room: number,
  after = 0,
): { handle: FileHandle; bytes: () => number; truncated: number[] } {
  let size = held
  const truncated: number[] = []
  const handle = {
    async write(_bytes: Buffer, _offset: number, length: number) {
      if (room === 0) throw Object.assign(new Error('no space'), { code: 'ENOSPC' })
      const n = Math.min(length, room)
      room -= n
      size += n
      return { bytesWritten: n }
    },
    async sync() {},
    async stat() {
      return { size: size + after }
    },
    async truncate(to: number) {
      truncated.push(to)
      size = to
    },
  } as unknown as FileHandle
  return { handle, bytes: () => size, truncated }
}

t.test('a line written whole is synced; one the disk takes only in part is taken back', async (t) => {
  const whole = fakeHandle(100, 1000)
  await writeWhole(whole.handle, Buffer.alloc(50), 100)
  t.equal(whole.bytes(), 150)
  const part = fakeHandle(100, 20)
  await t.rejects(writeWhole(part.handle, Buffer.alloc(50), 100), { code: 'ENOSPC' })
  t.same(part.truncated, [100])
  t.equal(part.bytes(), 100)
})

t.test("a line not begun, or followed by another process's, is left alone", async (t) => {
  const none = fakeHandle(100, 0)
  await t.rejects(writeWhole(none.handle, Buffer.alloc(50), 100), { code: 'ENOSPC' })
  t.same(none.truncated, [], 'nothing written, nothing to take back')
  const followed = fakeHandle(100, 20, 7)
  await t.rejects(writeWhole(followed.handle, Buffer.alloc(50), 100), { code: 'ENOSPC' })
  t.same(followed.truncated, [], 'taking back would cut the other line')
})
