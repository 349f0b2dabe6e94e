import t from 'tap'
import { forgetRows } from '../../src/app/forget.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { UsageError } from '../../src/errors.ts'
import type { Store } from '../../src/ports/store.ts'
import { answer } from '../helpers/contracts/answer-store.ts'
import { pair } from '../helpers/contracts/kept-store.ts'
import { app, deps } from '../helpers/deps.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import { project, spec, SPAM_YAML } from '../helpers/specs.ts'
import { unsureVerdict as verdict } from '../helpers/spam-answers.ts'

const spam = spec(`${SPAM_YAML}key: spam.key.csv\n`)
const bySender = spec(
  SPAM_YAML.replace('name: spam', 'name: by_sender').replace('state: [message]', 'state: [sender]'),
  '/specs/by_sender.judge.yaml',
)
const both = { ...project(spam, bySender), selected: [spam, bySender] }
const SECRET = 'my phone number is 555-0100'
const secret = stateHash({ message: SECRET })
const other = stateHash({ message: 'See you at lunch' })

/** A store and files holding the secret row everywhere judge keeps values, and another row beside it. */
function world(store: Store = createMemoryStore()) {
  for (const message of [SECRET, 'See you at lunch']) {
    const hash = stateHash({ message })
    store.putAnswers([answer({ stateHash: hash })], hash, { message })
    store.keepRow('spam', hash, { message }, '2026-01-01T00:00:00.000')
    store.recordShadow([pair({ stateHash: hash })])
  }
  const files = createMemoryFiles({
    verdicts: {
      '/specs/spam.reviews.csv': [verdict(SECRET), verdict('See you at lunch'), verdict(SECRET, { reviewer: 'bob' })],
    },
    keys: { '/specs/spam.key.csv': [{ message: SECRET, is_spam: 'no' }] },
  })
  return { store, files, app: app(deps(null, store), files) }
}

t.test('a dry run says what would go, everywhere, and removes nothing', async (t) => {
  const w = world()
  const report = await forgetRows(w.app, {
    project: project(spam),
    rows: [{ message: SECRET, id: 3 }],
    apply: false,
    command: 'judge forget --row',
  })
  t.same(report, {
    dry_run: true,
    states: [{ state_hash: secret, values: true, kept_rows: 1, review_lines: 2 }],
    reviews_files: [{ file: 'spam.reviews.csv', lines: 2 }],
    log_cleared: null,
    removed: { values: 1, kept_rows: 1, review_lines: 2 },
    key_files: ['spam.key.csv'],
  })
  t.equal(w.store.getStates([secret]).size, 1)
  t.equal(w.store.forgottenLines().length, 0)
})

t.test(
  'forgetting removes every copy of the values and its kept rows, logs it in the forget log, and keeps answers, shadow pairs and verdicts by hash',
  async (t) => {
    const w = world()
    const report = await forgetRows(w.app, {
      project: project(spam),
      states: [secret],
      apply: true,
      command: 'judge forget --state',
    })
    t.match(report, { dry_run: false, removed: { values: 1, kept_rows: 1, review_lines: 2 }, log_cleared: true })
    t.same(w.store.getStates([secret, other]).size, 1)
    t.same(
      w.store.keptRows('spam').map((r) => r.stateHash),
      [other],
    )
    t.same(
      w.store
        .shadowPairs('spam')
        .map((p) => p.stateHash)
        .sort(),
      [secret, other].sort(),
      'shadow pairs hold labels by hash, no values: they stay',
    )
    t.equal(
      w.store.getAnswers('jev-1', secret, ['fp-spam']).size,
      1,
      'its answers stay: a cache hit when it comes back',
    )
    const reviews = await w.files.reviews(spam)
    t.same(
      reviews.get(`spam\0is_spam\0${secret}`)?.map((v) => [v.reviewer, v.state]),
      [
        ['ann', {}],
        ['bob', {}],
      ],
    )
    t.same(
      reviews.get(`spam\0is_spam\0${other}`)?.map((v) => v.state),
      [{ message: 'See you at lunch' }],
    )
    t.same(
      w.store.forgottenLines().map((l) => [l.place, l.count, l.command, l.stateHash === secret]),
      [
        ['values', 1, 'judge forget --state', true],
        ['kept rows', 1, 'judge forget --state', true],
        ['reviews file spam.reviews.csv', 2, 'judge forget --state', true],
      ],
    )
    const again = await forgetRows(w.app, {
      project: project(spam),
      states: [secret],
      apply: true,
      command: 'judge forget --state',
    })
    t.same(again.states, [], 'nothing is left of it')
  },
)

t.test('a column value finds every state holding it, in the store and in the reviews files', async (t) => {
  const w = world()
  const report = await forgetRows(w.app, {
    project: project(spam),
    matches: [{ column: 'message', value: SECRET }],
    apply: true,
    command: 'judge forget --match message',
  })
  t.same(
    report.states.map((s) => [s.state_hash, s.values, s.review_lines]),
    [[secret, true, 2]],
  )
  t.same(report.key_files, ['spam.key.csv'], 'the key holds it: judge never edits a key')
  const none = await forgetRows(w.app, {
    project: project(spam),
    matches: [{ column: 'message', value: 'nobody wrote this' }],
    apply: true,
    command: 'judge forget --match message',
  })
  t.same([none.states, none.key_files], [[], []])
})

t.test('a row in a folder makes the state of each judgment whose columns it holds', async (t) => {
  const w = world()
  w.store.putAnswers([answer({ stateHash: stateHash({ sender: 'ann' }) })], stateHash({ sender: 'ann' }), {
    sender: 'ann',
  })
  const report = await forgetRows(w.app, {
    project: both,
    rows: [{ message: SECRET, sender: 'ann' }],
    apply: true,
    command: 'judge forget --row',
  })
  t.same(
    report.states.map((s) => s.state_hash),
    [secret, stateHash({ sender: 'ann' })].sort(),
  )
  const only = await forgetRows(w.app, {
    project: both,
    judgment: 'by_sender',
    rows: [{ message: 'See you at lunch', sender: 'bob' }],
    apply: false,
    command: 'x',
  })
  t.same(only.states, [], 'with a node, only its state: the message is not looked for')
})

t.test('a file of rows forgets each of its rows', async (t) => {
  const files = createMemoryFiles({
    rows: { '/data/gone.csv': [{ message: SECRET }, { message: 'See you at lunch' }] },
  })
  const w = world()
  const report = await forgetRows(
    { ...w.app, files },
    {
      project: project(spam),
      rowsFile: { file: '/data/gone.csv', label: 'gone.csv' },
      apply: true,
      command: 'judge forget --rows',
    },
  )
  t.same(
    report.states.map((s) => s.state_hash),
    [secret, other].sort(),
  )
  await t.rejects(
    forgetRows(
      { ...w.app, files },
      { project: project(spam), rowsFile: { file: '/data/none.csv', label: 'none.csv' }, apply: true, command: 'x' },
    ),
    { name: 'NotFoundError' },
  )
})

t.test('what names no row is a usage error, before anything is removed', async (t) => {
  const w = world()
  const forget = (over: object) => forgetRows(w.app, { project: both, apply: true, command: 'x', ...over })
  await t.rejects(
    forget({}),
    new UsageError('name the rows to forget: a row, a file of rows, a state hash or a column value'),
  )
  await t.rejects(forget({ rows: [] }), UsageError)
  await t.rejects(forget({ states: ['nope'] }), UsageError)
  await t.rejects(forget({ rows: [{ text: SECRET }] }), {
    name: 'UsageError',
    message: /holds the state columns of no judgment/,
  })
  await t.rejects(
    forget({ matches: [{ column: 'text', value: SECRET }] }),
    new UsageError('"text" is not a state column of spam, by_sender; the state columns are message, sender'),
  )
  await t.rejects(
    forgetRows(w.app, { project: both, judgment: 'nope', states: [secret], apply: true, command: 'x' }),
    UsageError,
  )
  t.equal(w.store.getStates([secret]).size, 1)
})

t.test('without a store only the reviews files are searched, and the forget log then makes one', async (t) => {
  const files = createMemoryFiles({ verdicts: { '/specs/spam.reviews.csv': [verdict(SECRET)] } })
  const store = createMemoryStore()
  let opened = false
  const bare = {
    ...app(deps(null, store), files),
    existingStore: () => (opened ? store : null),
    depsFor: () => ((opened = true), deps(null, store)),
  }
  const dry = await forgetRows(bare, {
    project: project(spam),
    matches: [{ column: 'message', value: SECRET }],
    apply: false,
    command: 'x',
  })
  t.same(dry.states, [{ state_hash: secret, values: false, kept_rows: 0, review_lines: 1 }])
  t.notOk(opened, 'a dry run creates no store')
  const done = await forgetRows(bare, {
    project: project(spam),
    rows: [{ message: SECRET }],
    apply: true,
    command: 'x',
  })
  t.equal(done.log_cleared, null, 'no store was written to forget')
  t.same(
    store.forgottenLines().map((l) => l.place),
    ['reviews file spam.reviews.csv'],
  )
  const nothing = await forgetRows(
    { ...bare, existingStore: () => null },
    { project: project(spam), rows: [{ message: 'absent' }], apply: true, command: 'x' },
  )
  t.same(nothing.states, [])
})

t.test('an answer key that does not read is passed over', async (t) => {
  const w = world()
  const broken = {
    ...w.app,
    files: {
      ...w.app.files,
      key: async () => {
        throw new Error('broken')
      },
    },
  }
  t.same(
    (await forgetRows(broken, { project: project(spam), states: [secret], apply: false, command: 'x' })).key_files,
    [],
  )
})
