import t from 'tap'
import {
  FORGOTTEN_STATE,
  matchesState,
  parseMatch,
  pickBefore,
  pickRows,
  type ReviewedState,
} from '../../../src/core/forget/line-pick.ts'
import { UsageError } from '../../../src/errors.ts'

const line = (over: Partial<ReviewedState> = {}): ReviewedState => ({
  judgment: 'spam',
  state_hash: 'a'.repeat(16),
  state: { message: 'hi', sender: 'ann' },
  reviewed_at: '2026-03-01T10:00:00.000',
  ...over,
})

t.test('the forgotten state is an empty JSON object', async (t) => {
  t.same(JSON.parse(FORGOTTEN_STATE), {})
})

t.test('column=value splits at the first =, the value taken exactly, empty or holding = itself', async (t) => {
  t.same(parseMatch('sender=ann'), { column: 'sender', value: 'ann' })
  t.same(parseMatch('note=a=b'), { column: 'note', value: 'a=b' })
  t.same(parseMatch('sender='), { column: 'sender', value: '' })
  t.throws(() => parseMatch('=ann'), UsageError)
  t.throws(() => parseMatch('sender'), {
    message: '--match takes COLUMN=VALUE, a state column and the exact value to forget, not "sender"',
  })
})

t.test('a state matches when a matched column holds exactly the value', async (t) => {
  t.ok(matchesState({ sender: 'ann' }, [{ column: 'sender', value: 'ann' }]))
  t.notOk(matchesState({ sender: 'Ann' }, [{ column: 'sender', value: 'ann' }]))
  t.notOk(matchesState({ message: 'ann' }, [{ column: 'sender', value: 'ann' }]))
  t.notOk(matchesState({}, [{ column: 'constructor', value: '' }]), "only the state's own columns count")
  t.notOk(matchesState({ sender: 'ann' }, []))
})

t.test("a row's lines are picked by state hash or by a matched value, in any judgment", async (t) => {
  const pick = pickRows(new Set(['a'.repeat(16)]), [{ column: 'sender', value: 'bob' }])
  t.ok(pick(line()))
  t.ok(pick(line({ judgment: 'other' })))
  t.ok(pick(line({ state_hash: 'b'.repeat(16), state: { sender: 'bob' } })))
  t.notOk(pick(line({ state_hash: 'b'.repeat(16) })))
  t.ok(pickRows(new Set(['a'.repeat(16)]))(line()), 'without matches, by hash alone')
})

t.test("retention picks one judgment's lines reviewed before the cutoff", async (t) => {
  const pick = pickBefore('spam', '2026-03-01T10:00:00.000')
  t.ok(pick(line({ reviewed_at: '2026-03-01T09:59:59.999' })))
  t.notOk(pick(line()), 'at the cutoff itself the line stays')
  t.notOk(pick(line({ judgment: 'other', reviewed_at: '2020-01-01T00:00:00.000' })))
})

t.test('a line forgotten already is never picked again', async (t) => {
  t.notOk(pickRows(new Set(['a'.repeat(16)]))(line({ state: {} })))
  t.notOk(pickBefore('spam', '2030-01-01T00:00:00.000')(line({ state: {} })))
})
