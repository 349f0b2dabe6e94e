import t from 'tap'
import { refuseJuryBatch } from '../../../src/core/batch/jury.ts'
import { jurySpec } from '../../helpers/jury-project.ts'
import { spec } from '../../helpers/specs.ts'

t.test('one model passes; a jury among the judgments is refused, saying what to run instead', async (t) => {
  t.doesNotThrow(() => refuseJuryBatch([spec()], 'run'))
  t.doesNotThrow(() => refuseJuryBatch([{ ...spec(), jurors: [] }], 'run'), 'an empty models: is no jury')
  t.throws(() => refuseJuryBatch([spec(), jurySpec], 'run'), {
    name: 'UsageError',
    message: /judgment spam names a jury \(models:\).*use `judge run` without --batch/,
  })
  t.throws(() => refuseJuryBatch([jurySpec], 'plan'), { message: /use `judge plan` without --batch/ })
})
