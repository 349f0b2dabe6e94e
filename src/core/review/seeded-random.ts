/** The seeded generator of core/stats/, re-exported for the drift tests of core/reports/ (mix-test.ts, paired-mix-test.ts), which import it from here. */
export { seededRandom } from '../stats/seeded-random.ts'
