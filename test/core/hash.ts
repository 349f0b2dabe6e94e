import t from 'tap'
import { sha256, shortHash } from '../../src/core/hash.ts'

t.test('sha256 is the SHA-256 of the text as lowercase hex', async (t) => {
  t.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  t.equal(sha256(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  t.equal(sha256('ünïcode'), sha256('ünïcode'.normalize('NFC')), 'the text is hashed as UTF-8')
})

t.test('a short hash is the first 16 hex digits of SHA-256', async (t) => {
  t.equal(shortHash('abc'), 'ba7816bf8f01cfea')
  t.match(shortHash('{"message":"hi"}'), /^[0-9a-f]{16}$/)
  t.not(shortHash('a'), shortHash('b'))
})
