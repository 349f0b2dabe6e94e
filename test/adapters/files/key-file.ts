import t, { type Test } from 'tap'
import { join, resolve } from 'node:path'
import { loadProject } from '../../../src/adapters/files/spec-files.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { readKey } from '../../../src/adapters/files/key-file.ts'
import { spec, SPAM_YAML } from '../../helpers/specs.ts'

const judgment = spec()

async function keyFrom(t: Test, csv: string, yaml = SPAM_YAML) {
  const dir = t.testdir({ 'key.csv': csv })
  const file = join(dir, 'key.csv')
  return { file, read: () => readKey(spec(yaml, join(dir, 'spam.judge.yaml')), file) }
}

t.test('a key maps each state to its labels; empty cells and other columns give nothing', async (t) => {
  const { file, read } = await keyFrom(
    t,
    '\uFEFFid,message,is_spam,topic\n1,Win a prize,yes,promotion\n2,"See you, at 5",no,\n3,Your parcel,,service\n',
  )
  const key = await read()
  t.same(
    [...key.values()],
    [
      {
        stateHash: stateHash({ message: 'Win a prize' }),
        state: { message: 'Win a prize' },
        labels: { is_spam: 'yes', topic: 'promotion' },
        where: `${file}:2`,
      },
      {
        stateHash: stateHash({ message: 'See you, at 5' }),
        state: { message: 'See you, at 5' },
        labels: { is_spam: 'no' },
        where: `${file}:3`,
      },
      {
        stateHash: stateHash({ message: 'Your parcel' }),
        state: { message: 'Your parcel' },
        labels: { topic: 'service' },
        where: `${file}:4`,
      },
    ],
  )
})

t.test('stray spaces around a label are ignored, never around a state value', async (t) => {
  const { read } = await keyFrom(t, 'message,is_spam\n hi , yes \n')
  t.same(
    [...(await read()).values()].map((r) => [r.state, r.labels]),
    [[{ message: ' hi ' }, { is_spam: 'yes' }]],
  )
})

t.test('rows of the same state merge, and contradicting labels are an error naming both lines', async (t) => {
  const { read } = await keyFrom(t, 'message,is_spam,topic\nhi,no,\nhi,,personal\n')
  const key = await read()
  t.equal(key.size, 1)
  t.same(key.get(stateHash({ message: 'hi' }))!.labels, { is_spam: 'no', topic: 'personal' })
  const clash = await keyFrom(t, 'message,is_spam\nhi,no\nother,yes\nhi,yes\n')
  await t.rejects(clash.read(), {
    name: 'InputError',
    message: `${clash.file}:4: column "is_spam": "yes" contradicts "no" given for the same state at ${clash.file}:2`,
  })
})

t.test('a row lacking a state column is an error naming file, line and column', async (t) => {
  const { file, read } = await keyFrom(t, 'text,is_spam\nhello,no\n')
  await t.rejects(read(), {
    name: 'InputError',
    exitCode: 2,
    message: `${file}:2: the row lacks the state column "message"`,
  })
})

t.test('a label the question does not have is an error naming file, line, column and the labels', async (t) => {
  const { file, read } = await keyFrom(t, 'message,is_spam,topic\nhi,no,personal\nbuy,yes,sales\n')
  await t.rejects(read(), {
    name: 'InputError',
    message: `${file}:3: column "topic": "sales" is not a label of question topic (personal, promotion, service)`,
  })
})

t.test('a key without a column for any question is an error; an empty key has no rows', async (t) => {
  const { file, read } = await keyFrom(t, 'message,is-spam\nhi,no\n')
  await t.rejects(read(), {
    message: `${file}: the answer key has no column for any question of spam (is_spam, topic, urgency)`,
  })
  t.equal((await (await keyFrom(t, 'message,is_spam\n')).read()).size, 0)
})

t.test('a missing key, a folder, or invalid CSV is an InputError naming the file', async (t) => {
  const dir = t.testdir({ folder: {}, 'bad.csv': 'message,is_spam\n"unterminated,no\n' })
  await t.rejects(readKey(judgment, join(dir, 'nope.csv')), {
    name: 'InputError',
    message: `${join(dir, 'nope.csv')}: the answer key named by ${judgment.file} does not exist`,
  })
  await t.rejects(readKey(judgment, join(dir, 'folder')), {
    name: 'InputError',
    message: /folder: the answer key named by .* is a folder/,
  })
  await t.rejects(readKey(judgment, join(dir, 'bad.csv')), {
    name: 'InputError',
    message: /bad\.csv(:\d+)?: not valid CSV/,
  })
})

t.test('a chained state column is read from the key like any other', async (t) => {
  const yaml =
    'name: urgent\nstate: [message, spam.is_spam]\nquestions:\n  urgent: {ask: Is it urgent?, type: yes_no}\n'
  const { read } = await keyFrom(t, 'message,spam.is_spam,urgent\nCall now,yes,no\n', yaml)
  const [row] = (await read()).values()
  t.same(row.state, { message: 'Call now', 'spam.is_spam': 'yes' })
  t.same(row.labels, { urgent: 'no' })
})

t.test('the example key reads: 300 rows labelled for is_spam, one message twice', async (t) => {
  const project = loadProject(resolve(import.meta.dirname, '../../../examples/sms/spam.judge.yaml'))
  const example = project.selected[0]
  const key = await readKey(example, example.key!)
  t.equal(key.size, 299)
  t.equal(Math.max(...[...key.values()].map((r) => Number(r.where.split(':').at(-1)))), 301)
  t.ok([...key.values()].every((r) => Object.keys(r.labels).join() === 'is_spam'))
})

t.test('a .tsv key is read with tabs, quotes kept as text', async (t) => {
  const dir = t.testdir({ 'spam.key.tsv': 'message\tis_spam\n"Free" entry, win\tyes\n' })
  const file = join(dir, 'spam.key.tsv')
  const key = await readKey(spec(SPAM_YAML, join(dir, 'spam.judge.yaml')), file)
  t.same(
    [...key.values()].map((r) => [r.state, r.labels]),
    [[{ message: '"Free" entry, win' }, { is_spam: 'yes' }]],
  )
  const bad = join(t.testdir({ 'k.tsv': 'message\tis_spam\nx\tyes\textra\n' }), 'k.tsv')
  await t.rejects(readKey(judgment, bad), { name: 'InputError', message: new RegExp(`^${bad}:2: not valid TSV`) })
})

t.test('a key read again unchanged is parsed once; an edit, or another spec, is read afresh', async (t) => {
  const dir = t.testdir({ 'key.csv': 'message,is_spam\nhi,yes\n' })
  const file = join(dir, 'key.csv')
  const judgmentHere = spec(SPAM_YAML, join(dir, 'spam.judge.yaml'))
  const first = await readKey(judgmentHere, file)
  t.equal(await readKey(judgmentHere, file), first, 'the same key, not parsed again')
  const other = spec(SPAM_YAML.replace('name: spam', 'name: spam\nmodel: m2'), join(dir, 'spam.judge.yaml'))
  t.not(await readKey(other, file), first, 'a spec of another hash parses its own')
  const { writeFileSync } = await import('node:fs')
  writeFileSync(file, 'message,is_spam\nhi,no\n')
  const edited = await readKey(judgmentHere, file)
  t.same(
    [...edited.values()].map((r) => r.labels),
    [{ is_spam: 'no' }],
    'the edit is read',
  )
  t.equal(await readKey(judgmentHere, file), edited)
  for (let i = 0; i < 20; i++)
    await readKey(
      spec(SPAM_YAML.replace('name: spam', `name: spam\nmodel: m${i + 10}`), join(dir, 'spam.judge.yaml')),
      file,
    )
  t.not(await readKey(judgmentHere, file), edited, 'the oldest keys make room for newer ones')
})
