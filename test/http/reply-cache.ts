import t from 'tap'
import { createReplyCache, type CachedReply } from '../../src/http/reply-cache.ts'
import type { Resolved } from '../../src/http/resolved-paths.ts'

const resolved = {} as Resolved
const reply = (body: string): CachedReply => ({ body, headers: {}, resolved })

t.test('replies are kept by request body, within a count and a size', async (t) => {
  const cache = createReplyCache({ maxEntries: 2, maxChars: 20 })
  cache.set('a', reply('1'))
  cache.set('b', reply('2'))
  t.equal(cache.get('a')?.body, '1')
  cache.set('c', reply('3'))
  t.equal(cache.get('a'), undefined, 'the oldest goes beyond the count')
  t.equal(cache.get('c')?.body, '3')
  cache.set('c', reply('4'))
  t.equal(cache.get('c')?.body, '4', 'a body kept again replaces its reply')
  cache.set('long-body', reply('0123456789'))
  t.equal(cache.get('long-body')?.body, '0123456789')
  t.equal(cache.get('b'), undefined, 'older ones go to make room in characters')
  cache.set('huge', reply('x'.repeat(30)))
  t.equal(cache.get('huge'), undefined, 'a reply larger than the whole cache is not kept')
  t.equal(cache.get('long-body')?.body, '0123456789', 'nor does it push out the rest')
})
