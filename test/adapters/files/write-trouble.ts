import t from 'tap'
import { fileWriteError } from '../../../src/adapters/files/write-trouble.ts'
import { StoreError } from '../../../src/store-error.ts'

const errno = (code: string) => Object.assign(new Error(`${code}: it failed`), { code })

t.test('a full disk or quota is a full file, naming it and what to do', async (t) => {
  for (const code of ['ENOSPC', 'EDQUOT']) {
    const error = fileWriteError('/srv/spam.reviews.csv', errno(code)) as StoreError
    t.ok(error instanceof StoreError)
    t.match(error, { trouble: 'full', file: '/srv/spam.reviews.csv', status: 503, message: '/srv/spam.reviews.csv: the disk is full, nothing was saved in it: free space and send it again' })
  }
})

t.test('a read-only file system or file says it cannot be written, and why', async (t) => {
  for (const code of ['EROFS', 'EACCES', 'EPERM']) {
    t.match(fileWriteError('/srv/spam.reviews.csv', errno(code)), { trouble: 'read-only', message: `/srv/spam.reviews.csv cannot be written (${code}), nothing was saved in it` })
  }
})

t.test('any other error is passed on as it is', async (t) => {
  const other = errno('EIO')
  t.equal(fileWriteError('/srv/spam.reviews.csv', other), other)
  t.equal(fileWriteError('/srv/spam.reviews.csv', null), null)
})
