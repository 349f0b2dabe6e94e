import t from 'tap'
import { editDistance, nearestName } from '../../../src/core/spec/nearest-name.ts'

t.test('a swap of two letters, a dropped letter, a plural and a case slip each find the name meant', async (t) => {
  t.equal(nearestName('tpye', ['ask', 'type', 'labels']), 'type')
  t.equal(nearestName('lable', ['ask', 'type', 'labels']), 'labels')
  t.equal(nearestName('label', ['labels']), 'labels')
  t.equal(nearestName('Message', ['id', 'message']), 'message')
  t.equal(nearestName('mesage', ['id', 'message']), 'message')
})

t.test('a word far from every name, or a short name two edits off, finds nothing', async (t) => {
  t.equal(nearestName('colour', ['ask', 'type', 'labels']), null)
  t.equal(nearestName('no', ['yes']), null)
  t.equal(nearestName('ab', ['xy']), null)
  t.equal(nearestName('anything', []), null)
})

t.test('the nearest of two near names wins', async (t) => {
  t.equal(nearestName('texts', ['text', 'textss']), 'text')
  t.equal(editDistance('tpye', 'type'), 1)
  t.equal(editDistance('', 'abc'), 3)
  t.equal(editDistance('kitten', 'sitting'), 3)
})
