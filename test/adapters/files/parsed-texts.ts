import t from 'tap'
import { parsedTexts } from '../../../src/adapters/files/parsed-texts.ts'

t.test('a text is parsed once while it stays the same, again when it changes or was dropped', async (t) => {
  const texts = parsedTexts<string[]>(2)
  let parses = 0
  const parse = (text: string) => {
    parses++
    return text.split(',')
  }
  const first = texts.get('a', 'x,y', parse)
  t.same(first, ['x', 'y'])
  t.equal(texts.get('a', 'x,y', parse), first)
  t.equal(parses, 1)
  t.same(texts.get('a', 'x,z', parse), ['x', 'z'])
  t.equal(parses, 2)
  t.ok(texts.holds('a'))
  texts.drop('a')
  t.notOk(texts.holds('a'))
  texts.get('a', 'x,z', parse)
  t.equal(parses, 3, 'dropped: parsed again')
})

t.test('past its size the oldest text goes first; one read again is the newest', async (t) => {
  const texts = parsedTexts<number>(2)
  let parses = 0
  const parse = (text: string) => ++parses + text.length
  texts.get('a', 'a', parse)
  texts.get('b', 'b', parse)
  texts.get('a', 'a', parse)
  texts.get('c', 'c', parse)
  t.equal(parses, 3)
  texts.get('a', 'a', parse)
  t.equal(parses, 3, 'a was read again before c came, so b went')
  texts.get('b', 'b', parse)
  t.equal(parses, 4)
})

t.test('a parse that throws holds nothing', async (t) => {
  const texts = parsedTexts<number>(2)
  t.throws(
    () =>
      texts.get('a', 'bad', () => {
        throw new Error('not valid')
      }),
    /not valid/,
  )
  t.equal(
    texts.get('a', 'bad', () => 7),
    7,
  )
})
