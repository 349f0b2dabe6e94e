import t from 'tap'
import { seededRandom } from '../../../src/core/review/seeded-random.ts'
import { seededRandom as fromStats } from '../../../src/core/stats/seeded-random.ts'

t.test('the generator the drift tests import here is the one of core/stats', async (t) => {
  t.equal(seededRandom, fromStats)
})
