import t from 'tap'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { contentHash } from '../../../src/adapters/files/content-hash.ts'

t.test("a file's content hash is the first 16 hex digits of SHA-256 of its bytes, read in pieces", async (t) => {
  const big = 'id,message\n' + Array.from({ length: 20000 }, (_, i) => `${i},row number ${i}`).join('\n')
  const dir = t.testdir({ 'a.csv': big, 'b.csv': big + '\n', 'empty.csv': '' })
  t.equal(await contentHash(join(dir, 'a.csv')), createHash('sha256').update(big).digest('hex').slice(0, 16))
  t.not(await contentHash(join(dir, 'b.csv')), await contentHash(join(dir, 'a.csv')), 'one byte more, another hash')
  t.equal(await contentHash(join(dir, 'empty.csv')), createHash('sha256').digest('hex').slice(0, 16))
})

t.test('a file that cannot be read has no hash', async (t) => {
  const dir = t.testdir({ folder: {} })
  t.equal(await contentHash(join(dir, 'missing.csv')), '')
  t.equal(await contentHash(join(dir, 'folder')), '')
})
